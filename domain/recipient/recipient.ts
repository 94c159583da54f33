import { match } from 'ts-pattern';
import type { RecipientEvent, RecipientState, TrackedReport } from '../../contracts/events/recipient';

export type KnownRecipient = {
  recipientId: number;
  tenantId: number;
  sellerId: number;
  /** Null for a contact subscriber, who is no user and so can be managed only by admins. */
  subscriberUserId: number | null;
  state: RecipientState;
  sendWeekly: boolean;
  sendMonthly: boolean;
  tracked: Record<TrackedReport, string | null>;
};

export type RecipientSubscriptionState =
  { status: 'none' } | ({ status: 'known' } & KnownRecipient) | { status: 'deleted'; recipientId: number };

export const initialRecipientState = (): RecipientSubscriptionState => ({ status: 'none' });

export const isActiveState = (state: RecipientState) => state === 'ACTIVE' || state === 'ADMIN';

const onKnown = (
  state: RecipientSubscriptionState,
  change: (recipient: KnownRecipient) => Partial<KnownRecipient>,
): RecipientSubscriptionState => (state.status === 'known' ? { ...state, ...change(state) } : state);

export const evolveRecipient = (
  state: RecipientSubscriptionState,
  event: RecipientEvent,
): RecipientSubscriptionState =>
  match(event)
    .with({ type: 'RecipientSubscribed' }, ({ data }): RecipientSubscriptionState => ({
      status: 'known',
      recipientId: data.recipientId,
      tenantId: data.tenantId,
      sellerId: data.sellerId,
      subscriberUserId: data.subscriberUserId,
      state: data.state,
      sendWeekly: data.sendWeekly,
      sendMonthly: data.sendMonthly,
      tracked: { welcome: null, weekly: null, monthly: null },
    }))
    .with({ type: 'RecipientDeactivated' }, ({ data }) => onKnown(state, () => ({ state: data.state })))
    .with({ type: 'RecipientActivated' }, () => onKnown(state, () => ({ state: 'ACTIVE' })))
    .with({ type: 'RecipientSendFlagSet' }, ({ data }) =>
      onKnown(state, () =>
        data.field === 'SendWeekly' ? { sendWeekly: data.value } : { sendMonthly: data.value },
      ),
    )
    .with({ type: 'RecipientReportTracked' }, ({ data }) =>
      onKnown(state, (recipient) => ({ tracked: { ...recipient.tracked, [data.report]: data.trackedAt } })),
    )
    .with({ type: 'RecipientDeleted' }, ({ data }): RecipientSubscriptionState => ({
      status: 'deleted',
      recipientId: data.recipientId,
    }))
    .exhaustive();
