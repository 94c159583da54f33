import { sellerOfA } from './sellers';
import type { RouteExample } from './types';

export const examples: RouteExample[] = [
  {
    method: 'GET',
    route: '/api/metrics/sellers/:sellerId',
    access: 'member',
    happy: async (cast) => ({
      url: `/api/metrics/sellers/${await sellerOfA(cast)}?type=TOTAL_REVENUE&frequency=MONTHLY`,
    }),
    badInput: async (cast) => ({
      url: `/api/metrics/sellers/${await sellerOfA(cast)}?type=REVENUE&frequency=DAILY`,
    }),
  },
  {
    method: 'GET',
    route: '/api/tenants/:id/customers',
    access: 'member',
    happy: (cast) => Promise.resolve({ url: `/api/tenants/${cast.a.tenantId}/customers` }),
    badInput: () => Promise.resolve({ url: '/api/tenants/first/customers' }),
  },
  {
    method: 'GET',
    route: '/api/tenants/:id/features',
    access: 'member',
    happy: (cast) => Promise.resolve({ url: `/api/tenants/${cast.a.tenantId}/features` }),
    badInput: () => Promise.resolve({ url: '/api/tenants/0/features' }),
  },
];
