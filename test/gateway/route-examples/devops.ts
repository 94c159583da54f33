import type { RouteExample } from './types';

export const examples: RouteExample[] = [
  {
    method: 'GET',
    route: '/api/devops/queues',
    access: 'platformAdmin',
    happy: () => Promise.resolve({ url: '/api/devops/queues' }),
    badInput: { none: 'takes no parameters' },
  },
  {
    method: 'DELETE',
    route: '/api/devops/queues/:name',
    access: 'platformAdmin',
    happy: () => Promise.resolve({ url: '/api/devops/queues/dataset?status=failed' }),
    badInput: () => Promise.resolve({ url: '/api/devops/queues/dataset?status=everything' }),
    otherTenant: { notTenantData: 'names a job kind, the same queue for the whole platform' },
  },
  {
    method: 'GET',
    route: '/api/devops/database',
    access: 'platformAdmin',
    happy: () => Promise.resolve({ url: '/api/devops/database' }),
    badInput: { none: 'takes no parameters' },
  },
  {
    method: 'GET',
    route: '/api/cron/:name',
    access: 'platformAdmin',
    happy: () => Promise.resolve({ url: '/api/cron/update_demo_seller' }),
    badInput: () => Promise.resolve({ url: '/api/cron/drop_everything' }),
    otherTenant: {
      notTenantData: 'names a task of the platform; its runs are listed for platform admins only',
    },
  },
];
