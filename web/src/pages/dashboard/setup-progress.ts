import type { PaymentMethod } from '../../../../contracts/events/billing';

/** portal.md section 4: the setup steps and the states each can be in. */
export type StepName =
  'firstReport' | 'recipient' | 'inviteUser' | 'addClient' | 'addPlatform' | 'subscriptionPayment';
export type StepState = 'pending' | 'syncing' | 'generating' | 'completed' | 'dismissed' | 'disabled';
export type SellerProgress = 'pending' | 'syncing' | 'generating' | 'completed';

export type SetupSteps = Partial<Record<StepName, StepState>>;

/** What the rules read: the tenant's data, the user's logins, and the steps the user dismissed. */
export type SetupFacts = {
  sellerProgress: SellerProgress;
  /** A report went out to one of the tenant's recipients. */
  reportReceived: boolean;
  recipientCount: number;
  memberCount: number;
  pendingInviteCount: number;
  /** Clients of an advisor firm, not counting the demo client. */
  clientCount: number;
  logins: number;
  isDemo: boolean;
  /** The user joined the tenant by invitation (someone else created it): setup is not theirs to do. */
  joinedByInvitation: boolean;
  loggedInThroughXero: boolean;
  /** Shown only to business admins on a direct subscription. */
  payment: { shown: false } | { shown: true; subscribed: boolean; method: PaymentMethod | null };
  dismissed: ReadonlySet<StepName>;
};

/** portal.md section 9: these count as a payment method provided. */
const providedMethods: ReadonlySet<PaymentMethod> = new Set(['manual', 'send_invoice', 'card']);
/** portal.md section 9: a login count of 3 or more completes setup. */
const seasonedLogins = 3;

const doneOr = (done: boolean, step: StepName, facts: SetupFacts): StepState =>
  done ? 'completed' : facts.dismissed.has(step) ? 'dismissed' : 'pending';

const platformState = (facts: SetupFacts, dismissible: boolean): StepState =>
  facts.sellerProgress === 'pending' && dismissible && facts.dismissed.has('addPlatform')
    ? 'dismissed'
    : facts.sellerProgress;

const inviteDone = (facts: SetupFacts) => facts.memberCount > 1 || facts.pendingInviteCount > 0;

/** The business dashboard's steps (the account step is always done and not kept). */
export const businessSteps = (facts: SetupFacts): SetupSteps => {
  const steps: SetupSteps = {
    addPlatform: platformState(facts, false),
    // The report step waits until the seller has synced and its metrics exist.
    firstReport:
      facts.sellerProgress !== 'completed' && !facts.reportReceived
        ? 'disabled'
        : doneOr(facts.reportReceived, 'firstReport', facts),
    recipient: doneOr(facts.recipientCount > 1, 'recipient', facts),
    inviteUser: doneOr(inviteDone(facts), 'inviteUser', facts),
  };
  if (facts.payment.shown)
    steps.subscriptionPayment = !facts.payment.subscribed
      ? 'disabled'
      : facts.payment.method !== null && providedMethods.has(facts.payment.method)
        ? 'completed'
        : 'pending';
  return steps;
};

const settled = (state: StepState | undefined) => state === 'completed' || state === 'dismissed';

/**
 * portal.md section 4: business setup is complete for a demo, an invited user or 3 logins, or when
 * a platform exists, the first report is completed or dismissed, a recipient exists or was
 * dismissed, and someone else is on the team, invited, or that step dismissed (not asked of users
 * who signed in through Xero).
 */
export const businessSetupComplete = (facts: SetupFacts): boolean => {
  if (facts.isDemo || facts.joinedByInvitation || facts.logins >= seasonedLogins) return true;
  const steps = businessSteps(facts);
  return (
    facts.sellerProgress !== 'pending' &&
    settled(steps.firstReport) &&
    (facts.recipientCount > 0 || facts.dismissed.has('recipient')) &&
    (facts.loggedInThroughXero || settled(steps.inviteUser))
  );
};

/** The advisor firm's onboarding: add a client, invite another advisor, connect the firm's platform. */
export const firmSteps = (facts: SetupFacts): SetupSteps => ({
  addClient: doneOr(facts.clientCount > 0, 'addClient', facts),
  inviteUser: doneOr(inviteDone(facts), 'inviteUser', facts),
  addPlatform: platformState(facts, true),
});

/** The last two firm steps take a No thanks. */
export const dismissibleFirmSteps: ReadonlySet<StepName> = new Set(['inviteUser', 'addPlatform']);

export const firmSetupComplete = (facts: SetupFacts): boolean => {
  if (facts.joinedByInvitation || facts.logins >= seasonedLogins) return true;
  const steps = firmSteps(facts);
  return settled(steps.addClient) && steps.addPlatform !== 'pending' && settled(steps.inviteUser);
};

/** The dismissals kept in browser state (a step saved as dismissed stays so). */
export const dismissedOf = (saved: SetupSteps | null): Set<StepName> =>
  new Set(
    Object.entries(saved ?? {})
      .filter(([, state]) => state === 'dismissed')
      .map(([step]) => step as StepName),
  );
