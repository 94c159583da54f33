import type { RouteExample } from './types';

const ownClients = { sameForEveryTenant: 'the clients the calling advisor advises' };

export const examples: RouteExample[] = [
  {
    method: 'GET',
    route: '/api/clients',
    access: 'advisor',
    happy: () => Promise.resolve({ url: '/api/clients?search=a&hasPlatforms=false' }),
    badInput: () => Promise.resolve({ url: '/api/clients?platform=FAX' }),
    otherTenant: ownClients,
  },
  {
    method: 'GET',
    route: '/api/clients/users',
    access: 'advisor',
    happy: () => Promise.resolve({ url: '/api/clients/users' }),
    badInput: { none: 'takes no input' },
    otherTenant: ownClients,
  },
];
