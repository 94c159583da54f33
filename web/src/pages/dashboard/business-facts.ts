import type { RecipientResponse } from '../../../../contracts/api/recipients';
import type { SellersResponse } from '../../../../contracts/api/sellers';
import type { Tenant } from '../../../../contracts/api/tenants';
import type { PendingInvite, TeamMember } from '../../../../contracts/api/users';
import type { SessionResponse } from '../../../../contracts/auth';
import type { SessionFacts } from '../../session/session-facts';
import type { SetupFacts, StepName } from './setup-progress';

export type DashboardData = {
  session: SessionResponse;
  facts: SessionFacts;
  tenant: Tenant;
  sellers: SellersResponse;
  recipients: readonly RecipientResponse[];
  members: readonly TeamMember[];
  invites: readonly PendingInvite[];
  clientCount?: number;
  dismissed: ReadonlySet<StepName>;
};

const reportSent = (recipient: RecipientResponse) =>
  recipient.TrackWelcomeDate !== null ||
  recipient.TrackWeeklyDate !== null ||
  recipient.TrackMonthlyDate !== null;

/**
 * The facts the setup rules read, from what the dashboard loaded. Payment is asked of business
 * admins whose subscription is billed to the tenant itself (not through an advisor firm).
 */
export const setupFactsOf = (data: DashboardData): SetupFacts => {
  const { tenant, facts, session } = data;
  const subscription = tenant.Subscription;
  const direct = subscription === null || subscription.BillingTenantId === tenant.Id;
  return {
    sellerProgress: data.sellers.progress ?? (data.sellers.rows.length === 0 ? 'pending' : 'syncing'),
    reportReceived: data.recipients.some(reportSent),
    recipientCount: data.recipients.length,
    memberCount: data.members.length,
    pendingInviteCount: data.invites.length,
    clientCount: data.clientCount ?? 0,
    logins: session.user.Logins,
    isDemo: facts.isDemo,
    joinedByInvitation: tenant.CreatedBy !== null && tenant.CreatedBy !== session.user.Id,
    // Sign-in methods are password, Google and Microsoft; Xero sign-in is not offered (yet).
    loggedInThroughXero: false,
    payment:
      facts.isTenantAdmin && !facts.isFirm && !facts.isDemo && direct
        ? { shown: true, subscribed: subscription !== null, method: subscription?.PaymentMethod ?? null }
        : { shown: false },
    dismissed: data.dismissed,
  };
};

/** The tenant's advisors: members classified advisor here, or advisors by their account. */
export const advisorNamesOf = (members: readonly TeamMember[]): string[] =>
  members
    .filter(
      (member) =>
        member.Membership.Status === 'ACTIVE' &&
        (member.Membership.Classification === 'ADVISOR' || member.PrimaryClassification === 'ADVISOR'),
    )
    .map((member) => member.Name);

/** portal.md section 9: the free plans; their tenants see an upgrade prompt. */
export const isFreePlan = (planIdentifier: string | null | undefined): boolean =>
  planIdentifier === 'free_business' || planIdentifier === 'free_client';
