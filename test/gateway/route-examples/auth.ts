import { strongPassword } from '../fixtures';
import type { RouteExample } from './types';

let count = 0;
const unique = (cast: { world: { email: (n: string) => string } }, name: string) =>
  cast.world.email(`${name}${(count += 1)}`);

export const examples: RouteExample[] = [
  {
    method: 'POST',
    route: '/api/auth/invite',
    happy: (cast) => Promise.resolve({ url: '/api/auth/invite', body: { name: 'Ann', email: unique(cast, 'inv'), role: 'USER' } }),
    badInput: () => Promise.resolve({ url: '/api/auth/invite', body: { name: '', email: 'not-an-email', role: 'OWNER' } }),
    otherTenant: { sameForEveryTenant: 'invites into the caller’s current tenant' },
  },
  {
    method: 'POST',
    route: '/api/auth/register',
    happy: (cast) =>
      Promise.resolve({
        url: '/api/auth/register',
        body: { givenName: 'Reg', familyName: 'Ister', email: unique(cast, 'reg'), password: strongPassword },
      }),
    badInput: () => Promise.resolve({ url: '/api/auth/register', body: { givenName: 'X', email: 'x', password: 'weak' } }),
    otherTenant: { notTenantData: 'creates an account' },
  },
];
