import type { FastifyRequest } from 'fastify';
import type { SessionResponse } from '../../../contracts/auth';
import { AppError } from '../../../contracts/errors';
import { queryUserTenants } from '../../../projections/tenants/query-user-tenants';
import { tenantsCollection } from '../../../projections/tenants/tenant-view';
import { callerFacts } from '../../../projections/users/caller-facts';
import { usersCollection, toUserView } from '../../../projections/users/user-view';
import { idleMinutes, type Session } from '../../auth/session-store';
import { isPlatformAdminBy } from '../../plugins/access';

/** GET /api/auth/self and the answer of every call that starts or changes a session. */
export const sessionView = async (
  request: FastifyRequest,
  session: Session,
  readAfter: { afterPosition?: number } = request.readAfter,
): Promise<SessionResponse> => {
  const { db } = request.server.services;
  // Waits for the caller's own last change first, so the reads below include it.
  const facts = await callerFacts(db, { userId: session.userId, tenantId: session.tenantId, ...readAfter });
  const [userDoc, switchable, tenantDoc] = await Promise.all([
    usersCollection(db).then((users) => users.findOne({ _id: session.userId, deleted: false })),
    queryUserTenants(db, { userId: session.userId, ...readAfter }),
    session.tenantId === null
      ? null
      : tenantsCollection(db).then((tenants) =>
          tenants.findOne({ _id: session.tenantId ?? 0, status: { $ne: 'purged' } }),
        ),
  ]);
  if (!userDoc) throw new AppError('unauthorized', 'Access Denied', { message: 'the user no longer exists' });
  const user = toUserView(userDoc);
  const membership = facts.membership;
  const isPlatformAdmin = isPlatformAdminBy(request.server.services.config, facts);
  return {
    user: {
      Id: user.Id,
      Email: user.Email,
      GivenName: user.GivenName,
      FamilyName: user.FamilyName,
      Name: user.Name,
      PrimaryClassification: user.PrimaryClassification,
      AuthProvider: user.AuthProvider,
      LastLoginMethod: user.LastLoginMethod,
      Logins: user.Logins,
      EmailVerified: user.EmailVerified,
      DefaultPartnerTenantId: user.DefaultPartnerTenantId,
      isPlatformAdmin,
      Role: isPlatformAdmin ? 'PLATFORM_ADMIN' : (membership?.role ?? null),
    },
    tenant: tenantDoc
      ? {
          Id: tenantDoc._id,
          Name: tenantDoc.Name,
          FriendlyName: tenantDoc.FriendlyName,
          Classification: tenantDoc.Classification,
          UsageType: tenantDoc.UsageType,
        }
      : null,
    membership: membership
      ? { Role: membership.role, Status: membership.status, Classification: membership.classification }
      : null,
    tenants: switchable.tenants.map((t) => ({
      Id: t.Id,
      Name: t.Name,
      Classification: t.Classification,
      UsageType: t.UsageType,
      Role: t.Role,
      MembershipClassification: t.MembershipClassification,
    })),
    resetPasswordRequired: session.resetPasswordRequired,
    idleExpiresAt: session.idleExpiresAt.toISOString(),
    idleTimeoutSeconds: idleMinutes * 60,
  };
};
