import { match } from 'ts-pattern';
import { AppError } from '../../contracts/errors';
import type { RecipientEvent, RecipientSendFlag, TrackedReport } from '../../contracts/events/recipient';
import type { Actor } from '../actor';
import type { DomainCommand } from '../decider';
import { isActiveState, type KnownRecipient, type RecipientSubscriptionState } from './recipient';

export type Subscriber =
  | { userId: number }
  | { email: string; givenName: string | null; familyName: string | null; jobTitle: string | null };

/** Where a subscription is created: the stream's id and the seller whose reports it receives. */
type NewSubscription = { recipientId: number; tenantId: number; sellerId: number };

export type SubscribeRecipient = DomainCommand<
  'SubscribeRecipient',
  NewSubscription & {
    subscriber: Subscriber;
    /** Omitted flags default to weekly only (portal.md section 9). */
    sendWeekly?: boolean;
    sendMonthly?: boolean;
    /** ADMIN state: the subscription of a platform admin watching the tenant's reports. */
    asAdmin?: boolean;
    actor: Actor;
    /** From the read side: the seller already has a subscription for this subscriber. */
    subscriberAlreadySubscribed: boolean;
  }
>;
/** Toggles SendWeekly or SendMonthly; `ifMissing` creates the subscription of a user who has none. */
export type SetRecipientSendFlag = DomainCommand<
  'SetRecipientSendFlag',
  {
    field: RecipientSendFlag;
    value: boolean;
    actor: Actor;
    ifMissing: (NewSubscription & { subscriberUserId: number }) | null;
  }
>;
export type DeactivateRecipient = DomainCommand<
  'DeactivateRecipient',
  { actor: Actor; cause: 'requested' | 'member_access_disabled' }
>;
/** `member_access_enabled`: a tenant admin re-enabled the member whose access had deactivated it. */
export type ActivateRecipient = DomainCommand<
  'ActivateRecipient',
  { actor: Actor; cause?: 'requested' | 'member_access_enabled' }
>;
export type DeleteRecipient = DomainCommand<'DeleteRecipient', { actor: Actor }>;
export type TrackRecipientReport = DomainCommand<
  'TrackRecipientReport',
  { report: TrackedReport; sentAt: Date }
>;

export type RecipientCommand =
  | SubscribeRecipient
  | SetRecipientSendFlag
  | DeactivateRecipient
  | ActivateRecipient
  | DeleteRecipient
  | TrackRecipientReport;

const ownOnly = 'you may change only your own subscriptions.';

/** Tenant and platform admins manage every subscription; anyone else only their own (portal.md section 4). */
const mayManage = (actor: Actor, subscriberUserId: number | null) =>
  actor.isPlatformAdmin ||
  actor.tenantRole === 'ADMIN' ||
  (actor.userId !== null && actor.userId === subscriberUserId);

const requireRecipient = (state: RecipientSubscriptionState): KnownRecipient => {
  if (state.status !== 'known') throw new AppError('not_found', 'Subscription not found.');
  return state;
};

const isEmail = (text: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text);
const blankToNull = (text: string | null) => (text?.trim() ? text.trim() : null);

const subscribe = (command: SubscribeRecipient, state: RecipientSubscriptionState): RecipientEvent[] => {
  const { data } = command;
  if (state.status !== 'none') throw new AppError('conflict', 'The subscription already exists.');
  const subscriber = data.subscriber;
  const subscriberUserId = 'userId' in subscriber ? subscriber.userId : null;
  if (!mayManage(data.actor, subscriberUserId))
    throw new AppError('forbidden', 'You may change only your own subscriptions.');
  if (data.asAdmin && !data.actor.isPlatformAdmin)
    throw new AppError('forbidden', 'Only a platform administrator can hold an ADMIN subscription.');
  const contact = 'email' in subscriber ? subscriber : null;
  const email = contact?.email.trim() ?? null;
  if (contact && !email)
    throw new AppError('validation', 'Email is required.', { properties: { email: 'required' } });
  if (email !== null && !isEmail(email))
    throw new AppError('validation', 'The email is not valid.', { properties: { email: 'invalid' } });
  if (data.subscriberAlreadySubscribed)
    throw new AppError('validation', 'The email is already in use.', { properties: { email: 'not_unique' } });
  const noFlags = data.sendWeekly === undefined && data.sendMonthly === undefined;
  return [
    {
      type: 'RecipientSubscribed',
      data: {
        recipientId: data.recipientId,
        tenantId: data.tenantId,
        sellerId: data.sellerId,
        subscriberUserId,
        subscriberEmail: email,
        subscriberGivenName: blankToNull(contact?.givenName ?? null),
        subscriberFamilyName: blankToNull(contact?.familyName ?? null),
        subscriberJobTitle: blankToNull(contact?.jobTitle ?? null),
        state: data.asAdmin ? 'ADMIN' : 'ACTIVE',
        sendWeekly: noFlags ? true : (data.sendWeekly ?? false),
        sendMonthly: data.sendMonthly ?? false,
        subscribedAt: command.now.toISOString(),
      },
    },
  ];
};

const setSendFlag = (command: SetRecipientSendFlag, state: RecipientSubscriptionState): RecipientEvent[] => {
  const { field, value, actor, ifMissing } = command.data;
  const title = `Error Toggling ${field} to ${String(value)}`;
  const at = command.now.toISOString();
  if (state.status === 'none' && ifMissing) {
    if (!mayManage(actor, ifMissing.subscriberUserId))
      throw new AppError('forbidden', `${title}: ${ownOnly}`);
    return [
      {
        type: 'RecipientSubscribed',
        data: {
          ...ifMissing,
          subscriberEmail: null,
          subscriberGivenName: null,
          subscriberFamilyName: null,
          subscriberJobTitle: null,
          state: 'ACTIVE',
          sendWeekly: field === 'SendWeekly' && value,
          sendMonthly: field === 'SendMonthly' && value,
          subscribedAt: at,
        },
      },
    ];
  }
  const recipient = requireRecipient(state);
  if (!mayManage(actor, recipient.subscriberUserId)) throw new AppError('forbidden', `${title}: ${ownOnly}`);
  const current = field === 'SendWeekly' ? recipient.sendWeekly : recipient.sendMonthly;
  if (current === value) return [];
  return [
    { type: 'RecipientSendFlagSet', data: { recipientId: recipient.recipientId, field, value, setAt: at } },
  ];
};

/** portal.md section 6: activating, deactivating and deleting a report recipient are platform-admin only. */
const deactivate = (command: DeactivateRecipient, recipient: KnownRecipient): RecipientEvent[] => {
  // A tenant admin who disables a member also deactivates their subscriptions (ToggleReports).
  const allowed =
    command.data.actor.isPlatformAdmin ||
    (command.data.cause === 'member_access_disabled' && command.data.actor.tenantRole === 'ADMIN');
  if (!allowed)
    throw new AppError(
      'forbidden',
      'Error Deactivating Subscription: only a platform administrator can deactivate a subscription.',
    );
  if (!isActiveState(recipient.state)) return [];
  return [
    {
      type: 'RecipientDeactivated',
      data: {
        recipientId: recipient.recipientId,
        state: command.data.cause === 'member_access_disabled' ? 'DEACTIVATED' : 'INACTIVE',
        deactivatedAt: command.now.toISOString(),
      },
    },
  ];
};

const activate = (command: ActivateRecipient, recipient: KnownRecipient): RecipientEvent[] => {
  // Re-enabling a member restores only what disabling them took away (DEACTIVATED), never an INACTIVE one.
  if (command.data.cause === 'member_access_enabled' && command.data.actor.tenantRole === 'ADMIN') {
    return recipient.state === 'DEACTIVATED'
      ? [
          {
            type: 'RecipientActivated',
            data: { recipientId: recipient.recipientId, activatedAt: command.now.toISOString() },
          },
        ]
      : [];
  }
  if (!command.data.actor.isPlatformAdmin)
    throw new AppError(
      'forbidden',
      'Error Activating Subscription: only a platform administrator can activate a subscription.',
    );
  if (isActiveState(recipient.state)) return [];
  return [
    {
      type: 'RecipientActivated',
      data: { recipientId: recipient.recipientId, activatedAt: command.now.toISOString() },
    },
  ];
};

export const decideRecipient = (
  command: RecipientCommand,
  state: RecipientSubscriptionState,
): RecipientEvent[] =>
  match(command)
    .with({ type: 'SubscribeRecipient' }, (c) => subscribe(c, state))
    .with({ type: 'SetRecipientSendFlag' }, (c) => setSendFlag(c, state))
    .with({ type: 'DeactivateRecipient' }, (c) => deactivate(c, requireRecipient(state)))
    .with({ type: 'ActivateRecipient' }, (c) => activate(c, requireRecipient(state)))
    .with({ type: 'DeleteRecipient' }, (c): RecipientEvent[] => {
      const recipient = requireRecipient(state);
      if (!c.data.actor.isPlatformAdmin)
        throw new AppError('forbidden', 'Only a platform administrator can delete a subscription.');
      return [
        {
          type: 'RecipientDeleted',
          data: { recipientId: recipient.recipientId, deletedAt: c.now.toISOString() },
        },
      ];
    })
    .with({ type: 'TrackRecipientReport' }, (c): RecipientEvent[] => {
      const recipient = requireRecipient(state);
      const previous = recipient.tracked[c.data.report];
      // Sends are retried at least once: an older or repeated send must not move the date back.
      if (previous !== null && Date.parse(previous) >= c.data.sentAt.getTime()) return [];
      return [
        {
          type: 'RecipientReportTracked',
          data: {
            recipientId: recipient.recipientId,
            report: c.data.report,
            trackedAt: c.data.sentAt.toISOString(),
          },
        },
      ];
    })
    .exhaustive();
