import type { RouteExample } from './types';

export const examples: RouteExample[] = [
  {
    method: 'GET',
    route: '/api/stats',
    access: 'platformAdmin',
    happy: () => Promise.resolve({ url: '/api/stats' }),
    badInput: { none: 'takes no parameters' },
  },
  {
    method: 'GET',
    route: '/api/stats/key-metrics',
    access: 'platformAdmin',
    happy: () => Promise.resolve({ url: '/api/stats/key-metrics' }),
    badInput: { none: 'takes no parameters' },
  },
];
