import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../contracts/config';
import { AppError } from '../../contracts/errors';
import type { Actor } from '../../domain/actor';
import type { CallerFacts } from '../../projections/users/caller-facts';
import type { Session } from '../auth/session-store';

/**
 * Who may call a route (portal.md and admin.md section 6), declared on the route as `config.access`
 * and enforced by one hook, so no route can forget its check and the route-table tests can read it.
 * - public: anyone, signed in or not;
 * - session: any signed-in user, even one without a current tenant;
 * - member: an active member of the current tenant (any role), or a platform admin;
 * - tenantAdmin: an ADMIN of the current tenant, or a platform admin;
 * - advisor: an advisor in the current tenant (PrimaryClassification ADVISOR or an advisor membership), or a platform admin;
 * - platformAdmin: platform administrators only.
 */
export const accessLevels = [
  'public',
  'session',
  'member',
  'tenantAdmin',
  'advisor',
  'platformAdmin',
] as const;
export type Access = (typeof accessLevels)[number];

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** Reachable while the user must still set a new password (self, resetPassword, logout). */
    duringPasswordReset?: boolean;
  }
  interface FastifyRequest {
    /** The signed-in caller with their standing in the current tenant; null on public routes for guests. */
    caller: Caller | null;
  }
}

export type Caller = {
  session: Session;
  userId: number;
  /** The tenant the session works in; null before the user has one. */
  tenantId: number | null;
  isPlatformAdmin: boolean;
  facts: CallerFacts;
  /** The actor for commands about the current tenant. */
  actor: Actor;
};

const denied = (why: string) => new AppError('forbidden', 'Access Denied', { message: why });

export const isAdvisorIn = (facts: CallerFacts): boolean =>
  facts.primaryClassification === 'ADVISOR' || facts.membership?.classification === 'ADVISOR';

/**
 * Platform administrators are the operator's PLATFORM_ADMIN_EMAILS addresses, and only once their
 * holder has verified the address: registering with a listed address that one does not own gives
 * nothing. Derived from the read model on every request, so a verification, an email change or an
 * edit of the list takes effect at the next request, not at the next sign-in.
 */
export const isPlatformAdminBy = (
  config: Pick<Config, 'PLATFORM_ADMIN_EMAILS'>,
  facts: Pick<CallerFacts, 'exists' | 'email' | 'emailVerified'>,
): boolean =>
  facts.exists &&
  facts.emailVerified &&
  facts.email !== null &&
  config.PLATFORM_ADMIN_EMAILS.includes(facts.email.trim().toLowerCase());

export const actorFrom = (session: Session, facts: CallerFacts, isPlatformAdmin: boolean): Actor => ({
  userId: session.userId,
  isPlatformAdmin,
  tenantRole: facts.membership?.status === 'ACTIVE' && facts.tenantActive ? facts.membership.role : null,
  isAdvisor: isAdvisorIn(facts),
});

/** A membership counts only while it is active and its tenant is neither disabled nor purged. */
const activeMembership = (facts: CallerFacts) =>
  facts.membership?.status === 'ACTIVE' && facts.tenantActive ? facts.membership : null;

/** Throws 403 unless the caller meets the level; platform admins meet every level. */
const check = (access: Access, caller: Caller): void => {
  if (caller.isPlatformAdmin || access === 'session' || access === 'public') return;
  if (access === 'platformAdmin') throw denied('platform admin only');
  if (caller.tenantId === null) throw denied('no current tenant');
  const membership = activeMembership(caller.facts);
  if (!membership) throw denied(`not an active member of tenant ${caller.tenantId}`);
  if (access === 'tenantAdmin' && membership.role !== 'ADMIN') throw denied('tenant admin only');
  if (access === 'advisor' && !isAdvisorIn(caller.facts)) throw denied('advisors only');
};

/** The facts about the caller and any tenant: for routes that name a tenant in their path. */
export const callerIn = async (request: FastifyRequest, tenantId: number): Promise<Caller> => {
  const caller = requireCaller(request);
  if (caller.tenantId === tenantId) return caller;
  const facts = await request.server.services.callerFacts({
    userId: caller.userId,
    tenantId,
    ...request.readAfter,
  });
  return { ...caller, tenantId, facts, actor: actorFrom(caller.session, facts, caller.isPlatformAdmin) };
};

/**
 * For a route that names a tenant (`/api/tenants/:id`): the caller's standing there, refused with 403
 * unless they are an active member meeting the level, or a platform admin.
 */
export const requireTenantAccess = async (
  request: FastifyRequest,
  tenantId: number,
  access: Extract<Access, 'member' | 'tenantAdmin' | 'advisor'> = 'member',
): Promise<Caller> => {
  const caller = await callerIn(request, tenantId);
  check(access, caller);
  return caller;
};

/** The signed-in caller of a route whose access level already guaranteed one. */
export const requireCaller = (request: FastifyRequest): Caller => {
  if (!request.caller) throw new AppError('unauthorized', 'Access Denied', { message: 'no live session' });
  return request.caller;
};

/** The current tenant of a member-level route. */
export const currentTenantOf = (request: FastifyRequest): number => {
  const { tenantId } = requireCaller(request);
  if (tenantId === null) throw denied('no current tenant');
  return tenantId;
};

/**
 * Entities found by id answer 404 to callers of other tenants, so ids cannot be probed across tenants.
 * Platform admins see every tenant's entities.
 */
export const requireSameTenant = (request: FastifyRequest, ownerTenantId: number | null): void => {
  const caller = requireCaller(request);
  if (caller.isPlatformAdmin) return;
  if (ownerTenantId === null || ownerTenantId !== caller.tenantId)
    throw new AppError('not_found', 'Not Found', { message: `belongs to tenant ${ownerTenantId}` });
};

/**
 * Registers the access hook in the scope of the API routes: it runs for every route of that scope,
 * decided on the matched route's declared level and never on the URL's spelling (issue 12: a check
 * of `request.url` was walked around by `/%61pi/...`). A route without a declared level is refused
 * for everyone.
 */
export const registerAccess = (app: FastifyInstance): void => {
  app.decorateRequest('caller', null);
  app.addHook('preHandler', async (request) => {
    const access = request.routeOptions.config.access;
    // A route without a declared level is a mistake; refusing it keeps the mistake harmless.
    if (!access) throw denied(`route ${request.routeOptions.url ?? '(unmatched)'} declares no access level`);
    const session = request.session;
    if (!session) {
      if (access === 'public') return;
      throw new AppError('unauthorized', 'Access Denied', { message: 'no live session' });
    }
    const facts = await app.services.callerFacts({
      userId: session.userId,
      tenantId: session.tenantId,
      ...request.readAfter,
    });
    if (!facts.exists && access !== 'public') {
      throw new AppError('unauthorized', 'Access Denied', { message: 'the user no longer exists' });
    }
    const isPlatformAdmin = isPlatformAdminBy(app.services.config, facts);
    request.caller = {
      session,
      userId: session.userId,
      tenantId: session.tenantId,
      isPlatformAdmin,
      facts,
      actor: actorFrom(session, facts, isPlatformAdmin),
    };
    if (access === 'public') return;
    if (session.resetPasswordRequired && !request.routeOptions.config.duringPasswordReset) {
      throw new AppError('forbidden', 'You must set a new password before you continue.', {
        message: 'password reset required',
      });
    }
    check(access, request.caller);
  });
};
