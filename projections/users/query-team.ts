import type { Db } from 'mongodb';
import type { Membership, TeamMember } from '../../contracts/api/users';
import type { MembershipClassification, MembershipStatus, TenantRole } from '../../contracts/events/user';
import { waitForReadModels, type Consistency } from '../wait-for-read-models';
import { membershipsCollection } from './membership-counts';
import { toUserView, usersCollection } from './user-view';
import { USERS } from './users-projection';

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

/** The team page (/users): the tenant's members, active and disabled, by name. */
export const queryTeam = async (
  db: Db,
  query: Consistency & { tenantId: number },
): Promise<{ members: TeamMember[]; stale: boolean }> => {
  const stale = await waitForReadModels(db, [USERS], query);
  const memberships = await (
    await membershipsCollection(db)
  )
    .find({ tenantId: query.tenantId, userDeleted: false })
    .toArray();
  if (memberships.length === 0) return { members: [], stale };
  const byUser = new Map(memberships.map((m) => [m.userId, m]));
  const users = await (
    await usersCollection(db)
  )
    .find({ _id: { $in: [...byUser.keys()] }, deleted: false })
    .sort({ sortName: 1, _id: 1 })
    .toArray();
  const members = users.flatMap((user): TeamMember[] => {
    const membership = byUser.get(user._id);
    return membership ? [{ ...toUserView(user), Membership: toMembershipView(membership) }] : [];
  });
  return { members, stale };
};
