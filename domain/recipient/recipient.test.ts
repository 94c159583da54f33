import { RecipientEvent } from '../../contracts/events/recipient';
import type { Actor } from '../actor';
import { deciderSpec } from '../decider-spec';
import type { RecipientCommand, SubscribeRecipient } from './decide';
import { recipientDecider } from './recipient-decider';

const spec = deciderSpec(recipientDecider);
const now = new Date('2025-03-10T12:00:00.000Z');
const at = now.toISOString();
const earlier = '2025-03-01T09:00:00.000Z';

const platformAdmin: Actor = { userId: 1, isPlatformAdmin: true, tenantRole: null, isAdvisor: false };
const tenantAdmin: Actor = { userId: 7, isPlatformAdmin: false, tenantRole: 'ADMIN', isAdvisor: false };
const subscriberUser: Actor = { userId: 8, isPlatformAdmin: false, tenantRole: 'USER', isAdvisor: false };
const otherUser: Actor = { userId: 9, isPlatformAdmin: false, tenantRole: 'USER', isAdvisor: false };

const subscribeData: SubscribeRecipient['data'] = {
  recipientId: 31,
  tenantId: 3,
  sellerId: 11,
  subscriber: { email: 'cfo@acme.example', givenName: 'Ann', familyName: 'Lee', jobTitle: 'CFO' },
  actor: tenantAdmin,
  subscriberAlreadySubscribed: false,
};
const subscribe = (overrides: Partial<SubscribeRecipient['data']> = {}): RecipientCommand => ({
  type: 'SubscribeRecipient',
  now,
  data: { ...subscribeData, ...overrides },
});
const command = <C extends RecipientCommand>(type: C['type'], data: C['data']) =>
  ({ type, data, now }) as RecipientCommand;

type SubscribedData = Extract<RecipientEvent, { type: 'RecipientSubscribed' }>['data'];
const subscribedData: SubscribedData = {
  recipientId: 31,
  tenantId: 3,
  sellerId: 11,
  subscriberUserId: 8,
  subscriberEmail: null,
  subscriberGivenName: null,
  subscriberFamilyName: null,
  subscriberJobTitle: null,
  state: 'ACTIVE',
  sendWeekly: true,
  sendMonthly: false,
  subscribedAt: earlier,
};
const subscribed = (overrides: Partial<SubscribedData> = {}): RecipientEvent => ({
  type: 'RecipientSubscribed',
  data: { ...subscribedData, ...overrides },
});
const deactivated = (state: 'INACTIVE' | 'DEACTIVATED' = 'INACTIVE'): RecipientEvent => ({
  type: 'RecipientDeactivated',
  data: { recipientId: 31, state, deactivatedAt: earlier },
});
const deleted: RecipientEvent = { type: 'RecipientDeleted', data: { recipientId: 31, deletedAt: earlier } };

describe('subscribing a recipient', () => {
  it('subscribes a contact, weekly by default', () => {
    spec
      .given([])
      .when(subscribe())
      .then([
        subscribed({
          subscriberUserId: null,
          subscriberEmail: 'cfo@acme.example',
          subscriberGivenName: 'Ann',
          subscriberFamilyName: 'Lee',
          subscriberJobTitle: 'CFO',
          subscribedAt: at,
        }),
      ]);
  });

  it('subscribes a user to monthly reports only when asked', () => {
    spec
      .given([])
      .when(subscribe({ subscriber: { userId: 8 }, actor: subscriberUser, sendMonthly: true }))
      .then([subscribed({ sendWeekly: false, sendMonthly: true, subscribedAt: at })]);
  });

  it('validates the contact email and its uniqueness for the seller', () => {
    const contact = { givenName: null, familyName: null, jobTitle: null };
    spec
      .given([])
      .when(subscribe({ subscriber: { email: ' ', ...contact } }))
      .thenFails('validation', 'Email is required.');
    spec
      .given([])
      .when(subscribe({ subscriber: { email: 'ann@', ...contact } }))
      .thenFails('validation', 'The email is not valid.');
    const error = spec
      .given([])
      .when(subscribe({ subscriberAlreadySubscribed: true }))
      .thenFails('validation', 'The email is already in use.');
    expect(error.properties).toEqual({ email: 'not_unique' });
  });

  it('lets a non-admin subscribe only themselves', () => {
    spec
      .given([])
      .when(subscribe({ actor: subscriberUser }))
      .thenFails('forbidden', 'You may change only your own subscriptions.');
    spec
      .given([])
      .when(subscribe({ subscriber: { userId: 8 }, actor: otherUser }))
      .thenFails('forbidden', 'You may change only your own subscriptions.');
  });

  it('gives the ADMIN state only to platform admins', () => {
    spec
      .given([])
      .when(subscribe({ asAdmin: true }))
      .thenFails('forbidden', 'Only a platform administrator can hold an ADMIN subscription.');
    spec
      .given([])
      .when(subscribe({ subscriber: { userId: 1 }, asAdmin: true, actor: platformAdmin }))
      .then([subscribed({ subscriberUserId: 1, state: 'ADMIN', subscribedAt: at })]);
  });

  it('refuses to subscribe twice on one stream', () => {
    spec.given([subscribed()]).when(subscribe()).thenFails('conflict', 'The subscription already exists.');
  });
});

describe('SendWeekly and SendMonthly', () => {
  const toggle = (field: 'SendWeekly' | 'SendMonthly', value: boolean, actor: Actor = subscriberUser) =>
    command('SetRecipientSendFlag', { field, value, actor, ifMissing: null });

  it('lets subscribers toggle their own flags', () => {
    spec
      .given([subscribed()])
      .when(toggle('SendMonthly', true))
      .then([
        {
          type: 'RecipientSendFlagSet',
          data: { recipientId: 31, field: 'SendMonthly', value: true, setAt: at },
        },
      ]);
    spec.given([subscribed()]).when(toggle('SendWeekly', true)).then([]);
  });

  it('lets a tenant admin toggle anyone, but a non-admin only their own', () => {
    spec
      .given([subscribed()])
      .when(toggle('SendWeekly', false, tenantAdmin))
      .then([
        {
          type: 'RecipientSendFlagSet',
          data: { recipientId: 31, field: 'SendWeekly', value: false, setAt: at },
        },
      ]);
    spec
      .given([subscribed()])
      .when(toggle('SendWeekly', false, otherUser))
      .thenFails(
        'forbidden',
        'Error Toggling SendWeekly to false: you may change only your own subscriptions.',
      );
  });

  it('creates the subscription when toggling a flag of a user who has none', () => {
    spec
      .given([])
      .when(
        command('SetRecipientSendFlag', {
          field: 'SendMonthly',
          value: true,
          actor: subscriberUser,
          ifMissing: { recipientId: 31, tenantId: 3, sellerId: 11, subscriberUserId: 8 },
        }),
      )
      .then([subscribed({ sendWeekly: false, sendMonthly: true, subscribedAt: at })]);
    spec
      .given([])
      .when(
        command('SetRecipientSendFlag', {
          field: 'SendMonthly',
          value: true,
          actor: otherUser,
          ifMissing: { recipientId: 31, tenantId: 3, sellerId: 11, subscriberUserId: 8 },
        }),
      )
      .thenFails('forbidden', 'Error Toggling SendMonthly to true');
  });

  it('answers not found when there is no subscription and nothing to create', () => {
    spec.given([]).when(toggle('SendWeekly', true)).thenFails('not_found', 'Subscription not found.');
  });
});

describe('deactivating and activating', () => {
  it.each(['ACTIVE', 'ADMIN'] as const)(
    'lets a platform admin deactivate a %s subscription to INACTIVE',
    (state) => {
      spec
        .given([subscribed({ state })])
        .when(command('DeactivateRecipient', { actor: platformAdmin, cause: 'requested' }))
        .then([
          { type: 'RecipientDeactivated', data: { recipientId: 31, state: 'INACTIVE', deactivatedAt: at } },
        ]);
    },
  );

  it('marks it DEACTIVATED when a tenant admin disabled the member', () => {
    spec
      .given([subscribed()])
      .when(command('DeactivateRecipient', { actor: tenantAdmin, cause: 'member_access_disabled' }))
      .then([
        { type: 'RecipientDeactivated', data: { recipientId: 31, state: 'DEACTIVATED', deactivatedAt: at } },
      ]);
  });

  it('changes nothing when deactivating an inactive subscription', () => {
    spec
      .given([subscribed(), deactivated()])
      .when(command('DeactivateRecipient', { actor: platformAdmin, cause: 'requested' }))
      .then([]);
  });

  it('refuses a deactivation asked by anyone but a platform admin (portal.md section 6)', () => {
    for (const actor of [subscriberUser, tenantAdmin, otherUser])
      spec
        .given([subscribed()])
        .when(command('DeactivateRecipient', { actor, cause: 'requested' }))
        .thenFails(
          'forbidden',
          'Error Deactivating Subscription: only a platform administrator can deactivate a subscription.',
        );
  });

  it.each(['INACTIVE', 'DEACTIVATED'] as const)(
    'lets a platform admin activate a %s subscription',
    (state) => {
      spec
        .given([subscribed(), deactivated(state)])
        .when(command('ActivateRecipient', { actor: platformAdmin }))
        .then([{ type: 'RecipientActivated', data: { recipientId: 31, activatedAt: at } }]);
      const activated: RecipientEvent = {
        type: 'RecipientActivated',
        data: { recipientId: 31, activatedAt: at },
      };
      expect(spec.stateAfter([subscribed(), deactivated(state), activated])).toMatchObject({
        state: 'ACTIVE',
      });
    },
  );

  it('lets only a platform admin activate, even the subscriber or a tenant admin may not', () => {
    for (const actor of [subscriberUser, tenantAdmin])
      spec
        .given([subscribed(), deactivated()])
        .when(command('ActivateRecipient', { actor }))
        .thenFails(
          'forbidden',
          'Error Activating Subscription: only a platform administrator can activate a subscription.',
        );
  });

  it('lets a tenant admin who re-enables a member restore only the DEACTIVATED subscriptions', () => {
    spec
      .given([subscribed(), deactivated('DEACTIVATED')])
      .when(command('ActivateRecipient', { actor: tenantAdmin, cause: 'member_access_enabled' }))
      .then([{ type: 'RecipientActivated', data: { recipientId: 31, activatedAt: at } }]);
    spec
      .given([subscribed(), deactivated('INACTIVE')])
      .when(command('ActivateRecipient', { actor: tenantAdmin, cause: 'member_access_enabled' }))
      .then([]);
  });

  it('changes nothing when activating an active subscription', () => {
    spec
      .given([subscribed()])
      .when(command('ActivateRecipient', { actor: platformAdmin }))
      .then([]);
  });
});

describe('deleting', () => {
  it('deletes a subscription, after which it is not found', () => {
    spec
      .given([subscribed()])
      .when(command('DeleteRecipient', { actor: platformAdmin }))
      .then([{ type: 'RecipientDeleted', data: { recipientId: 31, deletedAt: at } }]);
    spec
      .given([subscribed(), deleted])
      .when(command('DeleteRecipient', { actor: platformAdmin }))
      .thenFails('not_found', 'Subscription not found.');
  });

  it('lets only a platform admin delete, not the subscriber nor a tenant admin (portal.md section 6)', () => {
    for (const actor of [subscriberUser, tenantAdmin])
      spec
        .given([subscribed()])
        .when(command('DeleteRecipient', { actor }))
        .thenFails('forbidden', 'Only a platform administrator can delete a subscription.');
  });
});

describe('tracking sent reports', () => {
  it.each(['welcome', 'weekly', 'monthly'] as const)('records the %s report date', (report) => {
    spec
      .given([subscribed()])
      .when(command('TrackRecipientReport', { report, sentAt: now }))
      .then([{ type: 'RecipientReportTracked', data: { recipientId: 31, report, trackedAt: at } }]);
  });

  it('never moves a tracking date back, so a retried send changes nothing', () => {
    const tracked: RecipientEvent = {
      type: 'RecipientReportTracked',
      data: { recipientId: 31, report: 'weekly', trackedAt: at },
    };
    expect(spec.stateAfter([subscribed(), tracked])).toMatchObject({
      tracked: { weekly: at, monthly: null },
    });
    spec
      .given([subscribed(), tracked])
      .when(command('TrackRecipientReport', { report: 'weekly', sentAt: now }))
      .then([]);
    spec
      .given([subscribed(), tracked])
      .when(command('TrackRecipientReport', { report: 'weekly', sentAt: new Date(earlier) }))
      .then([]);
  });
});

describe('event contracts', () => {
  it('accepts every event the decider emits over a subscription lifetime', () => {
    const commands: RecipientCommand[] = [
      subscribe(),
      command('SetRecipientSendFlag', {
        field: 'SendMonthly',
        value: true,
        actor: tenantAdmin,
        ifMissing: null,
      }),
      command('TrackRecipientReport', { report: 'welcome', sentAt: now }),
      command('DeactivateRecipient', { actor: tenantAdmin, cause: 'member_access_disabled' }),
      command('ActivateRecipient', { actor: platformAdmin }),
      command('DeleteRecipient', { actor: platformAdmin }),
    ];
    let history: RecipientEvent[] = [];
    for (const next of commands)
      history = [...history, ...recipientDecider.decide(next, spec.stateAfter(history))];
    expect(history).toHaveLength(commands.length);
    for (const event of history) expect(RecipientEvent.parse(event)).toEqual(event);
  });
});
