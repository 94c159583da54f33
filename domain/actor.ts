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
