import type { SessionResponse } from '../../../contracts/auth';

/** What the route guards and the sidebar decide on (portal.md sections 2.2, 2.3 and 6). */
export type SessionFacts = {
  isPlatformAdmin: boolean;
  /** ADMIN of the current tenant (platform admins pass every check separately). */
  isTenantAdmin: boolean;
  /** Primary classification ADVISOR, or classified advisor in the current tenant. */
  isAdvisor: boolean;
  /** The current tenant is an advisory firm. */
  isFirm: boolean;
  isDemo: boolean;
  tenantCount: number;
  hasTenant: boolean;
  resetPasswordRequired: boolean;
};

export const factsOf = (session: SessionResponse): SessionFacts => {
  const activeMembership = session.membership?.Status === 'ACTIVE' ? session.membership : null;
  return {
    isPlatformAdmin: session.user.isPlatformAdmin,
    isTenantAdmin: activeMembership?.Role === 'ADMIN',
    isAdvisor:
      session.user.PrimaryClassification === 'ADVISOR' || activeMembership?.Classification === 'ADVISOR',
    isFirm: session.tenant?.Classification === 'FIRM',
    isDemo: session.tenant?.UsageType === 'DEMO',
    tenantCount: session.tenants.length,
    hasTenant: session.tenant !== null,
    resetPasswordRequired: session.resetPasswordRequired,
  };
};

/**
 * portal.md section 6: advisors and admins may switch with any companies, plain users only with more
 * than one; a platform admin may switch into any tenant.
 */
export const canSwitchCompanies = (facts: SessionFacts): boolean =>
  facts.isPlatformAdmin ||
  ((facts.isAdvisor || facts.isTenantAdmin) && facts.tenantCount > 0) ||
  facts.tenantCount > 1;
