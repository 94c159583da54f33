import type { Db } from 'mongodb';
import type { Membership, TeamMember } from '../../contracts/api/users';
import type { MembershipClassification, MembershipStatus, TenantRole } from '../../contracts/events/user';
import { waitForReadModels, type Consistency } from '../wait-for-read-models';
import { membershipsCollection } from './membership-counts';
import { toUserView, usersCollection } from './user-view';
import { USERS, type UserDocument } from './users-projection';
import { findWithKeyLookup } from '../read-store/lookup-by-key';

/** The link of a user to one tenant (UserTenants), as the API's Membership. */
export type MembershipView = Membership;

export const toMembershipView = (membership: {
  tenantId: number;
  Status: MembershipStatus;
  Role: TenantRole;
  Classification: MembershipClassification;
  JobTitle: string | null;
  SendWeekly: boolean;
  SendMonthly: boolean;
  joinedAt: Date;
}): MembershipView => ({
  TenantId: membership.tenantId,
  Status: membership.Status,
  Role: membership.Role,
  Classification: membership.Classification,
  JobTitle: membership.JobTitle,
  SendWeekly: membership.SendWeekly,
  SendMonthly: membership.SendMonthly,
  joinedAt: membership.joinedAt.toISOString(),
});

/** Orders team members as MongoDB's sort `{ sortName: 1, _id: 1 }` would (binary string order). */
const byName = (a: UserDocument, b: UserDocument): number =>
  a.sortName < b.sortName ? -1 : a.sortName > b.sortName ? 1 : a._id - b._id;

/**
 * The team page (/users): the tenant's members, active and disabled, by name. One read: the
 * tenant's memberships, each with its user by key (lookup-by-key.ts; one statement on the embedded
 * store, where the request path counts every query: bench/README.md, gateway).
 */
export const queryTeam = async (
  db: Db,
  query: Consistency & { tenantId: number },
): Promise<{ members: TeamMember[]; stale: boolean }> => {
  const stale = await waitForReadModels(db, [USERS], query);
  const [memberships, users] = await Promise.all([membershipsCollection(db), usersCollection(db)]);
  const rows = await findWithKeyLookup(
    memberships,
    { tenantId: query.tenantId, userDeleted: false },
    { from: users, localField: 'userId', as: 'user' },
  );
  const members = rows
    .flatMap(({ user, ...membership }) => (user && !user.deleted ? [{ user, membership }] : []))
    .sort((a, b) => byName(a.user, b.user))
    .map(({ user, membership }): TeamMember => ({
      ...toUserView(user),
      Membership: toMembershipView(membership),
    }));
  return { members, stale };
};
