import type { RouteExample } from './types';

export const examples: RouteExample[] = [
  {
    method: 'GET',
    route: '/api/stats',
    access: 'platformAdmin',
    happy: () => Promise.resolve({ url: '/api/stats' }),
    badInput: { none: 'takes no parameters' },
  },
];
