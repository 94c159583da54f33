import type { RecordedEvent } from '../../contracts/events/envelope';
import {
  RecipientEvent,
  recipientEventVersions,
  type RecipientState,
} from '../../contracts/events/recipient';
import { TenantEvent } from '../../contracts/events/tenant';
import { defineProjection, type DocumentFields, type ReadModelWrite } from '../framework/projection';
import { parseEvent } from '../parse-event';

/**
 * One document per report subscription. A user subscriber is kept by id (name and email live with the
 * user); a contact subscriber carries its own, decrypted as the projector reads it.
 */
export type RecipientDoc = {
  _id: number;
  position: number;
  recipientId: number;
  tenantId: number;
  sellerId: number;
  subscriberUserId: number | null;
  subscriberEmail: string | null;
  subscriberGivenName: string | null;
  subscriberFamilyName: string | null;
  subscriberJobTitle: string | null;
  state: RecipientState;
  sendWeekly: boolean;
  sendMonthly: boolean;
  trackWelcomeDate: Date | null;
  trackWeeklyDate: Date | null;
  trackMonthlyDate: Date | null;
  createdAt: Date;
  deleted: boolean;
  deletedAt: Date | null;
};

type Collections = 'recipients';

const recipientTypes = new Set(Object.keys(recipientEventVersions));
const tenantTypes = new Set(['TenantPurged']);

const trackedField = {
  welcome: 'trackWelcomeDate',
  weekly: 'trackWeeklyDate',
  monthly: 'trackMonthlyDate',
} as const;
const sendField = { SendWeekly: 'sendWeekly', SendMonthly: 'sendMonthly' } as const;

const set = (id: number, fields: DocumentFields): ReadModelWrite<Collections>[] => [
  { kind: 'set', collection: 'recipients', id, fields },
];

const recipientWrites = (event: RecipientEvent): ReadModelWrite<Collections>[] => {
  switch (event.type) {
    case 'RecipientSubscribed': {
      const { data } = event;
      return set(data.recipientId, {
        recipientId: data.recipientId,
        tenantId: data.tenantId,
        sellerId: data.sellerId,
        subscriberUserId: data.subscriberUserId,
        subscriberEmail: data.subscriberEmail,
        subscriberGivenName: data.subscriberGivenName,
        subscriberFamilyName: data.subscriberFamilyName,
        subscriberJobTitle: data.subscriberJobTitle,
        state: data.state,
        sendWeekly: data.sendWeekly,
        sendMonthly: data.sendMonthly,
        trackWelcomeDate: null,
        trackWeeklyDate: null,
        trackMonthlyDate: null,
        createdAt: new Date(data.subscribedAt),
        deleted: false,
        deletedAt: null,
      });
    }
    case 'RecipientDeactivated':
      return set(event.data.recipientId, { state: event.data.state });
    case 'RecipientActivated':
      return set(event.data.recipientId, { state: 'ACTIVE' });
    case 'RecipientSendFlagSet':
      return set(event.data.recipientId, { [sendField[event.data.field]]: event.data.value });
    case 'RecipientReportTracked':
      return set(event.data.recipientId, {
        [trackedField[event.data.report]]: new Date(event.data.trackedAt),
      });
    case 'RecipientDeleted':
      return set(event.data.recipientId, { deleted: true, deletedAt: new Date(event.data.deletedAt) });
  }
};

export const RECIPIENTS = 'recipients';

/** Report subscriptions: the portal's and admin's recipients tables, and the counts per tenant. */
export const recipientsProjection = defineProjection<Collections>({
  name: RECIPIENTS,
  collections: { recipients: 'recipients' },
  indexes: {
    recipients: [
      { key: { tenantId: 1, state: 1 }, name: 'tenant_state' },
      { key: { sellerId: 1 }, name: 'seller' },
    ],
  },
  filter: { eventTypes: [...recipientTypes, ...tenantTypes] },
  project: (event: RecordedEvent) => {
    const recipient = parseEvent(RecipientEvent, recipientTypes, event);
    if (recipient) return recipientWrites(recipient);
    const tenant = parseEvent(TenantEvent, tenantTypes, event);
    // Every purge, permanent or not, erases the contacts' personal data with the tenant's key: their rows go too.
    if (tenant?.type === 'TenantPurged')
      return [{ kind: 'delete', collection: 'recipients', filter: { tenantId: tenant.data.TenantId } }];
    return [];
  },
});
