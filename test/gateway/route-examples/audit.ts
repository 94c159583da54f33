import type { RouteExample } from './types';

export const examples: RouteExample[] = [
  {
    method: 'GET',
    route: '/api/tenants/:id/audit',
    access: 'tenantAdmin',
    happy: (cast) => Promise.resolve({ url: `/api/tenants/${cast.a.tenantId}/audit?limit=50` }),
    badInput: (cast) => Promise.resolve({ url: `/api/tenants/${cast.a.tenantId}/audit?limit=5000` }),
  },
];
