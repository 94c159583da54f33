import type { Db } from 'mongodb';
import type {
  MembershipClassification,
  MembershipStatus,
  PrimaryClassification,
  TenantRole,
} from '../../contracts/events/user';
import { waitForReadModels, type Consistency } from '../wait-for-read-models';
import { membershipsCollection } from './membership-counts';
import { usersCollection } from './user-view';
import { USERS } from './users-projection';
import { tenantsCollection } from '../tenants/tenant-view';

/** What the gateway's access checks need to know about the signed-in user and one tenant. */
export type CallerFacts = {
  exists: boolean;
  /** The user's address (lower case) and whether they proved they hold it: platform-admin rights need both. */
  email: string | null;
  emailVerified: boolean;
  /** The tenant is active (not disabled, not purged); false when there is no tenant. */
  tenantActive: boolean;
  primaryClassification: PrimaryClassification;
  membership: { role: TenantRole; status: MembershipStatus; classification: MembershipClassification } | null;
};

export const callerFacts = async (
  db: Db,
  query: Consistency & { userId: number; tenantId: number | null },
): Promise<CallerFacts> => {
  await waitForReadModels(db, [USERS], query);
  const { tenantId } = query;
  const [user, membership, tenant] = await Promise.all([
    usersCollection(db).then((users) =>
      users.findOne(
        { _id: query.userId, deleted: false },
        { projection: { PrimaryClassification: 1, Email: 1, EmailVerified: 1 } },
      ),
    ),
    tenantId === null
      ? null
      : membershipsCollection(db).then((memberships) =>
          memberships.findOne({ userId: query.userId, tenantId, userDeleted: false }),
        ),
    tenantId === null
      ? null
      : tenantsCollection(db).then((tenants) =>
          tenants.findOne({ _id: tenantId }, { projection: { status: 1 } }),
        ),
  ]);
  return {
    exists: user !== null,
    email: user?.Email ?? null,
    emailVerified: user?.EmailVerified ?? false,
    tenantActive: tenant?.status === 'active',
    primaryClassification: user?.PrimaryClassification ?? 'MEMBER',
    membership: membership
      ? { role: membership.Role, status: membership.Status, classification: membership.Classification }
      : null,
  };
};
