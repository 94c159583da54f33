/**
 * Who issues a command, as far as a decider's rules depend on it (for example: a non-admin may change
 * only their own report subscription). The gateway fills it from the session; background work acts as
 * `system`.
 */
export type Actor = {
  /** The acting user, or null for the system (workflows, reactors). */
  userId: number | null;
  isPlatformAdmin: boolean;
  /** The actor's role in the tenant the command concerns, if a member. */
  tenantRole: 'ADMIN' | 'USER' | null;
  /** PrimaryClassification ADVISOR or a membership classified advisor. */
  isAdvisor: boolean;
};

export const systemActor: Actor = { userId: null, isPlatformAdmin: true, tenantRole: null, isAdvisor: false };

/**
 * Who may set or change the company's connector credentials and other company-wide settings: an
 * ADMIN of the tenant, or a platform admin (portal.md section 6; a standard USER may not).
 */
export const actsAsCompanyAdmin = (actor: Actor): boolean =>
  actor.isPlatformAdmin || actor.tenantRole === 'ADMIN';
