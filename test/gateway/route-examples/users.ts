import { registeredUser } from '../team-fixtures';
import type { Cast, RouteExample } from './types';

let count = 0;

/** A user of tenant A that a destructive example may delete or reset. */
const disposableUser = async (cast: Cast): Promise<number> => {
  count += 1;
  const { userId } = await registeredUser(cast.world, { name: `disposable${count}` });
  return userId;
};

const ownJobTitle = (cast: Cast) =>
  Promise.resolve({ url: `/api/users/${cast.a.user.userId}`, body: { JobTitle: 'Bookkeeper' } });
const badEdit = (cast: Cast) =>
  Promise.resolve({ url: `/api/users/${cast.a.user.userId}`, body: { Role: 'OWNER', Email: 'nope' } });

export const examples: RouteExample[] = [
  {
    method: 'GET',
    route: '/api/users',
    access: 'member',
    happy: () => Promise.resolve({ url: '/api/users' }),
    badInput: () => Promise.resolve({ url: '/api/users?pending=maybe' }),
    otherTenant: { sameForEveryTenant: 'the team of the caller’s current tenant' },
  },
  {
    method: 'GET',
    route: '/api/users/:id',
    access: 'session',
    happy: (cast) => Promise.resolve({ url: `/api/users/${cast.a.admin.userId}` }),
    badInput: () => Promise.resolve({ url: '/api/users/not-a-number' }),
  },
  {
    method: 'PUT',
    route: '/api/users/:id',
    access: 'member',
    happy: ownJobTitle,
    badInput: badEdit,
  },
  {
    method: 'PATCH',
    route: '/api/users/:id',
    access: 'member',
    happy: ownJobTitle,
    badInput: badEdit,
  },
  {
    method: 'PUT',
    route: '/api/users/:id/status',
    access: 'tenantAdmin',
    // Enabling an active member changes nothing, so the shared cast keeps its access.
    happy: (cast) =>
      Promise.resolve({ url: `/api/users/${cast.a.user.userId}/status`, body: { Status: 'ACTIVE' } }),
    badInput: (cast) =>
      Promise.resolve({ url: `/api/users/${cast.a.user.userId}/status`, body: { Status: 'GONE' } }),
  },
  {
    method: 'DELETE',
    route: '/api/users/:id',
    access: 'platformAdmin',
    happy: async (cast) => ({ url: `/api/users/${await disposableUser(cast)}` }),
    badInput: () => Promise.resolve({ url: '/api/users/0' }),
  },
  {
    method: 'DELETE',
    route: '/api/users/:id/auth',
    access: 'platformAdmin',
    happy: async (cast) => ({ url: `/api/users/${await disposableUser(cast)}/auth` }),
    badInput: () => Promise.resolve({ url: '/api/users/-1/auth' }),
  },
  {
    method: 'GET',
    route: '/api/browser/:key',
    access: 'session',
    happy: () => Promise.resolve({ url: '/api/browser/dashboard-progress' }),
    badInput: () => Promise.resolve({ url: '/api/browser/%20bad%20key' }),
    otherTenant: { sameForEveryTenant: 'the caller’s own preferences in their current tenant' },
  },
  {
    method: 'PUT',
    route: '/api/browser/:key',
    access: 'session',
    happy: () =>
      Promise.resolve({
        url: '/api/browser/dashboard-progress',
        body: { value: { addPlatform: 'completed' } },
      }),
    badInput: () => Promise.resolve({ url: '/api/browser/dashboard-progress', body: { values: 1 } }),
    otherTenant: { sameForEveryTenant: 'the caller’s own preferences in their current tenant' },
  },
];
