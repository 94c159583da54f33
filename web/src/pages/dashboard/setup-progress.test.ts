import type { ClientRow } from '../../../../contracts/api/clients';
import type { PaymentMethod } from '../../../../contracts/events/billing';
import { clientPerformanceOf } from './client-performance';
import {
  businessSetupComplete,
  businessSteps,
  dismissedOf,
  firmSetupComplete,
  firmSteps,
  type SetupFacts,
  type StepName,
} from './setup-progress';
import { trialDaysRemaining } from './trial-days';

const fresh = (overrides: Partial<SetupFacts> = {}): SetupFacts => ({
  sellerProgress: 'pending',
  reportReceived: false,
  recipientCount: 0,
  memberCount: 1,
  pendingInviteCount: 0,
  clientCount: 0,
  logins: 1,
  isDemo: false,
  joinedByInvitation: false,
  loggedInThroughXero: false,
  payment: { shown: false },
  dismissed: new Set(),
  ...overrides,
});

const dismissing = (...steps: StepName[]) => new Set<StepName>(steps);

describe('business setup steps', () => {
  it('follows the platform through syncing, generating and completed', () => {
    expect(businessSteps(fresh()).addPlatform).toBe('pending');
    expect(businessSteps(fresh({ sellerProgress: 'syncing' })).addPlatform).toBe('syncing');
    expect(businessSteps(fresh({ sellerProgress: 'generating' })).addPlatform).toBe('generating');
    expect(businessSteps(fresh({ sellerProgress: 'completed' })).addPlatform).toBe('completed');
  });

  it('keeps the report step disabled until the seller has synced and generated metrics', () => {
    expect(businessSteps(fresh({ sellerProgress: 'generating' })).firstReport).toBe('disabled');
    expect(businessSteps(fresh({ sellerProgress: 'completed' })).firstReport).toBe('pending');
    expect(businessSteps(fresh({ sellerProgress: 'completed', reportReceived: true })).firstReport).toBe(
      'completed',
    );
  });

  it('completes the recipient step only with more than one recipient', () => {
    expect(businessSteps(fresh({ recipientCount: 1 })).recipient).toBe('pending');
    expect(businessSteps(fresh({ recipientCount: 2 })).recipient).toBe('completed');
    expect(businessSteps(fresh({ dismissed: dismissing('recipient') })).recipient).toBe('dismissed');
  });

  it('completes the invite step with another member or a pending invite', () => {
    expect(businessSteps(fresh()).inviteUser).toBe('pending');
    expect(businessSteps(fresh({ memberCount: 2 })).inviteUser).toBe('completed');
    expect(businessSteps(fresh({ pendingInviteCount: 1 })).inviteUser).toBe('completed');
  });

  it('shows the payment step only when asked, disabled without a subscription, done with a provided method', () => {
    expect(businessSteps(fresh()).subscriptionPayment).toBeUndefined();
    const payment = (subscribed: boolean, method: PaymentMethod | null) =>
      businessSteps(fresh({ payment: { shown: true, subscribed, method } })).subscriptionPayment;
    expect(payment(false, null)).toBe('disabled');
    expect(payment(true, null)).toBe('pending');
    expect(payment(true, 'charge_automatically')).toBe('pending');
    expect(payment(true, 'manual')).toBe('completed');
    expect(payment(true, 'send_invoice')).toBe('completed');
    expect(payment(true, 'card')).toBe('completed');
  });
});

describe('business setup completion', () => {
  const allDone = fresh({
    sellerProgress: 'completed',
    reportReceived: true,
    recipientCount: 1,
    memberCount: 2,
  });

  it('is complete at once for a demo tenant, an invited user, or three logins', () => {
    expect(businessSetupComplete(fresh())).toBe(false);
    expect(businessSetupComplete(fresh({ isDemo: true }))).toBe(true);
    expect(businessSetupComplete(fresh({ joinedByInvitation: true }))).toBe(true);
    expect(businessSetupComplete(fresh({ logins: 2 }))).toBe(false);
    expect(businessSetupComplete(fresh({ logins: 3 }))).toBe(true);
  });

  it('otherwise needs a platform, the first report, a recipient and a teammate, each or its dismissal', () => {
    expect(businessSetupComplete(allDone)).toBe(true);
    expect(businessSetupComplete({ ...allDone, sellerProgress: 'pending', reportReceived: false })).toBe(
      false,
    );
    expect(businessSetupComplete({ ...allDone, reportReceived: false })).toBe(false);
    expect(
      businessSetupComplete({ ...allDone, reportReceived: false, dismissed: dismissing('firstReport') }),
    ).toBe(true);
    expect(businessSetupComplete({ ...allDone, recipientCount: 0 })).toBe(false);
    expect(businessSetupComplete({ ...allDone, recipientCount: 0, dismissed: dismissing('recipient') })).toBe(
      true,
    );
    expect(businessSetupComplete({ ...allDone, memberCount: 1 })).toBe(false);
    expect(businessSetupComplete({ ...allDone, memberCount: 1, pendingInviteCount: 1 })).toBe(true);
    expect(businessSetupComplete({ ...allDone, memberCount: 1, dismissed: dismissing('inviteUser') })).toBe(
      true,
    );
  });

  it('does not ask a Xero sign-in for a teammate', () => {
    expect(businessSetupComplete({ ...allDone, memberCount: 1, loggedInThroughXero: true })).toBe(true);
  });
});

describe('advisor firm onboarding', () => {
  it('has add a client, invite an advisor and connect a platform, the last two dismissible', () => {
    expect(firmSteps(fresh())).toEqual({
      addClient: 'pending',
      inviteUser: 'pending',
      addPlatform: 'pending',
    });
    expect(firmSteps(fresh({ dismissed: dismissing('inviteUser', 'addPlatform') }))).toEqual({
      addClient: 'pending',
      inviteUser: 'dismissed',
      addPlatform: 'dismissed',
    });
  });

  it('is complete when every step is done or dismissed, or for an invited user or three logins', () => {
    expect(firmSetupComplete(fresh({ clientCount: 1 }))).toBe(false);
    expect(
      firmSetupComplete(fresh({ clientCount: 1, dismissed: dismissing('inviteUser', 'addPlatform') })),
    ).toBe(true);
    expect(firmSetupComplete(fresh({ clientCount: 1, memberCount: 2, sellerProgress: 'syncing' }))).toBe(
      true,
    );
    expect(firmSetupComplete(fresh({ dismissed: dismissing('inviteUser', 'addPlatform') }))).toBe(false);
    expect(firmSetupComplete(fresh({ logins: 3 }))).toBe(true);
    expect(firmSetupComplete(fresh({ joinedByInvitation: true }))).toBe(true);
  });

  it('keeps only dismissals from the saved progress', () => {
    expect(dismissedOf({ addClient: 'completed', inviteUser: 'dismissed', addPlatform: 'syncing' })).toEqual(
      new Set(['inviteUser']),
    );
    expect(dismissedOf(null)).toEqual(new Set());
  });
});

describe('trial days remaining', () => {
  const now = new Date('2030-01-01T12:00:00.000Z');
  it('counts whole days until the start while trialing, else 0', () => {
    expect(
      trialDaysRemaining({ PaymentStatus: 'trialing', StartedAt: '2030-01-15T12:00:00.000Z' }, now),
    ).toBe(14);
    expect(
      trialDaysRemaining({ PaymentStatus: 'trialing', StartedAt: '2030-01-02T06:00:00.000Z' }, now),
    ).toBe(0);
    expect(trialDaysRemaining({ PaymentStatus: 'active', StartedAt: '2030-01-15T12:00:00.000Z' }, now)).toBe(
      0,
    );
    expect(
      trialDaysRemaining({ PaymentStatus: 'trialing', StartedAt: '2029-12-01T12:00:00.000Z' }, now),
    ).toBe(0);
    expect(trialDaysRemaining(null, now)).toBe(0);
  });
});

describe('Client Performance Summary criteria', () => {
  const client = (overrides: Partial<ClientRow> = {}): ClientRow => ({
    Id: 1,
    Name: 'Client',
    Role: 'Advisor',
    Access: true,
    Platforms: ['QBO'],
    Recipients: 1,
    Subscription: { PlanIdentifier: null, PlanName: null, BillingTenantId: null, PaymentStatus: null },
    HasClientMatch: false,
    Classification: 'BUSINESS',
    UsageType: 'NORMAL',
    isDemo: false,
    ...overrides,
  });
  const many = (count: number) => Array.from({ length: count }, (_, i) => client({ Id: i + 1 }));

  it('counts real businesses with a platform: 1 to 29 meet the criteria, 30 exceed them', () => {
    expect(clientPerformanceOf([])).toBe('none');
    expect(clientPerformanceOf([client({ isDemo: true, Name: 'Demo Client' })])).toBe('none');
    expect(clientPerformanceOf([client({ Platforms: [] })])).toBe('none');
    expect(clientPerformanceOf([client({ Classification: 'FIRM' })])).toBe('none');
    expect(clientPerformanceOf(many(1))).toBe('meets');
    expect(clientPerformanceOf(many(29))).toBe('meets');
    expect(clientPerformanceOf(many(30))).toBe('exceeds');
  });
});
