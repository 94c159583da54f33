import type { Db } from 'mongodb';
import type { RecordedEvent } from '../../contracts/events/envelope';
import { IntegrationEvent, type CrmObjectType } from '../../contracts/events/integration';
import { defineProjection, type ReadModelWrite } from '../framework/projection';
import { currentCollection } from '../framework/read-model-versions';
import { parseEvent } from '../parse-event';

/**
 * What Ledgerwise wrote to each CRM (docs/adr/0046-crm-pushes.md): one document per applied push key,
 * with the CRM object it made or changed, for the admin view and support questions ("what did we put
 * in this customer's HubSpot?"). The push, purge and unlink activities decide from the integration's
 * stream itself, so a lagging projector can never make them push or delete twice.
 */
export type CrmPushedObjectDoc = {
  _id: string;
  position: number;
  integrationId: number;
  key: string;
  kind: string;
  objectType: CrmObjectType;
  crmId: string;
  /** Ledgerwise's own object (a purge deletes it); false for a change to the customer's object. */
  created: boolean;
  sellerId: number | null;
  customerId: string | null;
  jobId: number;
  appliedAt: Date;
  /** Set when a purge deleted the object from the CRM. */
  purgedAt: Date | null;
  purgeJobId: number | null;
};

type Collections = 'pushes';

export const CRM_PUSHES = 'crm_pushed_objects';

const handled = new Set(['IntegrationPushesApplied', 'IntegrationObjectsPurged', 'IntegrationDeleted']);

const docId = (integrationId: number, key: string) => `${integrationId}:${key}`;

const writesOf = (event: IntegrationEvent): ReadModelWrite<Collections>[] => {
  switch (event.type) {
    case 'IntegrationPushesApplied': {
      const { integrationId, jobId, appliedAt } = event.data;
      return event.data.pushes.map((push) => ({
        kind: 'set',
        collection: 'pushes',
        id: docId(integrationId, push.key),
        fields: {
          integrationId,
          key: push.key,
          kind: push.kind,
          objectType: push.objectType,
          crmId: push.crmId,
          created: push.created,
          sellerId: push.sellerId,
          customerId: push.customerId,
          jobId,
          appliedAt: new Date(appliedAt),
          purgedAt: null,
          purgeJobId: null,
        },
      }));
    }
    case 'IntegrationObjectsPurged': {
      const { integrationId, jobId, purgedAt } = event.data;
      return event.data.objects.map((object) => ({
        kind: 'update',
        collection: 'pushes',
        filter: { integrationId, objectType: object.objectType, crmId: object.crmId, created: true },
        fields: { purgedAt: new Date(purgedAt), purgeJobId: jobId },
      }));
    }
    case 'IntegrationDeleted':
      return [{ kind: 'delete', collection: 'pushes', filter: { integrationId: event.data.integrationId } }];
    case 'IntegrationConnected':
    case 'IntegrationCredentialsRenewed':
    case 'IntegrationCredentialsInvalidated':
    case 'IntegrationActivated':
    case 'IntegrationDeactivated':
    case 'IntegrationLocked':
    case 'IntegrationUnlocked':
    case 'IntegrationSettingsUpdated':
    case 'IntegrationSyncRequested':
    case 'IntegrationSyncCompleted':
    case 'IntegrationSyncFailed':
    case 'IntegrationPurgeRequested':
    case 'IntegrationUnlinkRequested':
    case 'IntegrationDisconnected':
    case 'IntegrationCompaniesMatched':
    case 'IntegrationJobFinished':
      return [];
  }
};

export const crmPushesProjection = defineProjection<Collections>({
  name: CRM_PUSHES,
  collections: { pushes: CRM_PUSHES },
  indexes: {
    pushes: [
      { key: { integrationId: 1, objectType: 1, crmId: 1 }, name: 'integration_object' },
      { key: { integrationId: 1, sellerId: 1, customerId: 1 }, name: 'integration_customer' },
    ],
  },
  filter: { eventTypes: [...handled] },
  project: (event: RecordedEvent) => {
    const parsed = parseEvent(IntegrationEvent, handled, event);
    return parsed ? writesOf(parsed) : [];
  },
});

const pushes = (db: Db) =>
  currentCollection<Collections, CrmPushedObjectDoc>(db, crmPushesProjection, 'pushes');

/** What the integration wrote about one customer, or everything, newest first. */
export const queryCrmPushedObjects = async (
  db: Db,
  query: {
    integrationId: number;
    sellerId?: number;
    customerId?: string;
    createdOnly?: boolean;
    limit?: number;
  },
): Promise<Omit<CrmPushedObjectDoc, '_id' | 'position'>[]> =>
  (await pushes(db))
    .find(
      {
        integrationId: query.integrationId,
        ...(query.sellerId === undefined ? {} : { sellerId: query.sellerId }),
        ...(query.customerId === undefined ? {} : { customerId: query.customerId }),
        ...(query.createdOnly ? { created: true, purgedAt: null } : {}),
      },
      { projection: { _id: 0, position: 0 } },
    )
    .sort({ appliedAt: -1, key: 1 })
    .limit(query.limit ?? 1000)
    .toArray();

/** Per kind, how many pushes an integration applied and how many of its own objects are still in the CRM. */
export const countCrmPushes = async (
  db: Db,
  integrationId: number,
): Promise<{ kind: string; applied: number; inCrm: number }[]> => {
  const docs = await (
    await pushes(db)
  )
    .find({ integrationId }, { projection: { _id: 0, kind: 1, created: 1, purgedAt: 1 } })
    .toArray();
  const counts = new Map<string, { kind: string; applied: number; inCrm: number }>();
  for (const doc of docs) {
    const count = counts.get(doc.kind) ?? { kind: doc.kind, applied: 0, inCrm: 0 };
    count.applied += 1;
    if (doc.created && doc.purgedAt === null) count.inCrm += 1;
    counts.set(doc.kind, count);
  }
  return [...counts.values()].sort((a, b) => (a.kind < b.kind ? -1 : 1));
};
