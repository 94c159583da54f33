import type { Db } from 'mongodb';
import type { z } from 'zod';
import type { ClientUserRow as ClientUserRowSchema } from '../../contracts/api/clients';
import type { TenantRole } from '../../contracts/events/user';
import { membershipsCollection } from '../users/membership-counts';
import { usersCollection } from '../users/user-view';
import { USERS } from '../users/users-projection';
import { tenantsCollection } from '../tenants/tenant-view';
import { TENANTS } from '../tenants/tenants-projection';
import { waitForReadModels, type Consistency } from '../wait-for-read-models';

/** A row of Manage Users Across Your Clients (portal.md section 2.3): the API's row. */
export type ClientUserRow = z.infer<typeof ClientUserRowSchema>;

/** The Role column of Manage Users Across Your Clients. */
export type ClientUserRole = ClientUserRow['Role'];

const roleOf = (membership: { Classification: string; Role: TenantRole }): ClientUserRole =>
  membership.Classification === 'ADVISOR' ? 'Advisor' : membership.Role === 'ADMIN' ? 'Admin' : 'User';

/**
 * The members of every tenant the advisor advises (their ADVISOR memberships in active tenants, the
 * advisor's own firm included, as the clients list has it), by client name then user name.
 */
export const queryClientUsers = async (
  db: Db,
  query: Consistency & { userId: number },
): Promise<{ rows: ClientUserRow[]; stale: boolean }> => {
  const stale = await waitForReadModels(db, [TENANTS, USERS], query);
  const memberships = await membershipsCollection(db);
  const advised = await memberships
    .find({ userId: query.userId, Classification: 'ADVISOR', Status: 'ACTIVE', userDeleted: false })
    .toArray();
  if (advised.length === 0) return { rows: [], stale };
  const clients = await (
    await tenantsCollection(db)
  )
    .find({ _id: { $in: advised.map((m) => m.tenantId) }, status: 'active' })
    .toArray();
  const clientById = new Map(clients.map((tenant) => [tenant._id, tenant]));
  const members = await memberships
    .find({ tenantId: { $in: [...clientById.keys()] }, userDeleted: false })
    .toArray();
  const users = await (
    await usersCollection(db)
  )
    .find({ _id: { $in: [...new Set(members.map((m) => m.userId))] }, deleted: false })
    .toArray();
  const userById = new Map(users.map((user) => [user._id, user]));
  const rows = members.flatMap((membership): ClientUserRow[] => {
    const client = clientById.get(membership.tenantId);
    const user = userById.get(membership.userId);
    if (!client || !user) return [];
    return [
      {
        Client: { Id: client._id, Name: client.Name },
        User: { Id: user._id, Name: user.Name },
        Email: user.Email,
        JobTitle: membership.JobTitle,
        Role: roleOf(membership),
        TenantRole: membership.Role,
        Status: membership.Status,
      },
    ];
  });
  rows.sort(
    (a, b) =>
      a.Client.Name.localeCompare(b.Client.Name) ||
      a.Client.Id - b.Client.Id ||
      a.User.Name.localeCompare(b.User.Name) ||
      a.User.Id - b.User.Id,
  );
  return { rows, stale };
};
