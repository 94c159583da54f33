import type { Db } from 'mongodb';
import { normaliseEmail } from '../../domain/user/email';
import { waitForReadModels, type Consistency } from '../wait-for-read-models';
import { membershipsCollection } from './membership-counts';
import { usersCollection } from './user-view';
import { USERS } from './users-projection';

/**
 * Cross-stream facts the command layer puts into user commands (docs/adr/0010-aggregate-design.md).
 * Each answers `stale: true` when the read model had not reached the caller's position in time.
 */

/** `emailInUse` for RegisterUser and ChangeUserEmail: a user who is not deleted has this address. */
export const emailInUse = async (
  db: Db,
  query: Consistency & { email: string; exceptUserId?: number },
): Promise<{ inUse: boolean; stale: boolean }> => {
  const stale = await waitForReadModels(db, [USERS], query);
  const users = await usersCollection(db);
  const found = await users.findOne(
    {
      Email: normaliseEmail(query.email),
      deleted: false,
      ...(query.exceptUserId === undefined ? {} : { _id: { $ne: query.exceptUserId } }),
    },
    { projection: { _id: 1 } },
  );
  return { inUse: found !== null, stale };
};

/** The user (not deleted) with this address, for sign-in and invitations; null when none. */
export const userIdByEmail = async (
  db: Db,
  query: Consistency & { email: string },
): Promise<{ userId: number | null; stale: boolean }> => {
  const stale = await waitForReadModels(db, [USERS], query);
  const users = await usersCollection(db);
  const found = await users.findOne(
    { Email: normaliseEmail(query.email), deleted: false },
    { projection: { _id: 1 } },
  );
  return { userId: found?._id ?? null, stale };
};

/**
 * `otherActiveAdvisorsOrAdmins` for LeaveTenant: members of the tenant other than `userId` whose
 * membership is active and who are admins or advisors (membership classified ADVISOR, or
 * PrimaryClassification ADVISOR, as the user decider counts an advisor).
 */
export const otherActiveAdvisorsOrAdmins = async (
  db: Db,
  query: Consistency & { tenantId: number; userId: number },
): Promise<{ count: number; stale: boolean }> => {
  const stale = await waitForReadModels(db, [USERS], query);
  const others = await (
    await membershipsCollection(db)
  )
    .find({ tenantId: query.tenantId, userId: { $ne: query.userId }, Status: 'ACTIVE', userDeleted: false })
    .toArray();
  const qualified = others.filter((m) => m.Role === 'ADMIN' || m.Classification === 'ADVISOR');
  const rest = others.filter((m) => !qualified.includes(m)).map((m) => m.userId);
  const primaryAdvisors =
    rest.length === 0
      ? 0
      : await (
          await usersCollection(db)
        ).countDocuments({
          _id: { $in: rest },
          PrimaryClassification: 'ADVISOR',
          deleted: false,
        });
  return { count: qualified.length + primaryAdvisors, stale };
};
