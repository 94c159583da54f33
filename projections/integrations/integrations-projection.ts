import type { RecordedEvent } from '../../contracts/events/envelope';
import {
  IntegrationEvent,
  integrationEventVersions,
  type CredentialsStatus,
  type CrmSettings,
  type IntegrationAuthMethod,
  type IntegrationProduct,
  type IntegrationProvider,
} from '../../contracts/events/integration';
import { TenantEvent } from '../../contracts/events/tenant';
import { erasePersonalFields } from '../framework/erase-personal-fields';
import { defineProjection, type DocumentFields, type ReadModelWrite } from '../framework/projection';
import { parseEvent } from '../parse-event';

/**
 * One document per integration account. Fields are flat (see the sellers read model): assignments of
 * several events merge into one `$set`. `settings` is only ever assigned whole.
 */
export type IntegrationDoc = {
  _id: number;
  position: number;
  integrationId: number;
  tenantId: number;
  provider: IntegrationProvider;
  productIdentifier: IntegrationProduct | null;
  authMethod: IntegrationAuthMethod;
  active: boolean;
  credentialsStatus: CredentialsStatus;
  /** Why the credentials stopped being valid, as the provider or the worker reported it. */
  credentialsProblem: string | null;
  credentialsOwner: string | null;
  /** ActiveCampaign's account URL. */
  accountUrl: string | null;
  /** Settings.Locked; kept apart because cloud accounts have no other settings. */
  locked: boolean;
  settings: CrmSettings | null;
  syncDate: Date | null;
  createdAt: Date;
  runningSyncJobId: number | null;
  lastSyncJobId: number | null;
  lastSyncOutcome: 'completed' | 'failed' | null;
  lastSyncFailure: string | null;
  lastPurgeJobId: number | null;
  lastPurgeUnlink: boolean | null;
  lastPurgeRequestedAt: Date | null;
  lastUnlinkJobId: number | null;
  lastUnlinkRequestedAt: Date | null;
  disconnectedAt: Date | null;
  deleted: boolean;
  deletedAt: Date | null;
};

type Collections = 'integrations';

const integrationTypes = new Set(Object.keys(integrationEventVersions));
const tenantTypes = new Set(['TenantPurged']);

const set = (id: number, fields: DocumentFields): ReadModelWrite<Collections>[] => [
  { kind: 'set', collection: 'integrations', id, fields },
];

const date = (iso: string) => new Date(iso);

const integrationWrites = (event: IntegrationEvent): ReadModelWrite<Collections>[] => {
  switch (event.type) {
    // The CRM links, pushes and purges feed their own read models (projections/integrations/crm-*).
    case 'IntegrationCompaniesMatched':
    case 'IntegrationPushesApplied':
    case 'IntegrationObjectsPurged':
    case 'IntegrationJobFinished':
      return [];
    case 'IntegrationConnected': {
      const { data } = event;
      return set(data.integrationId, {
        integrationId: data.integrationId,
        tenantId: data.tenantId,
        provider: data.provider,
        productIdentifier: data.productIdentifier,
        authMethod: data.authMethod,
        active: true,
        credentialsStatus: 'VALID',
        credentialsProblem: null,
        credentialsOwner: data.credentialsOwner,
        accountUrl: data.accountUrl,
        locked: false,
        settings: data.settings,
        syncDate: null,
        createdAt: date(data.connectedAt),
        runningSyncJobId: null,
        lastSyncJobId: null,
        lastSyncOutcome: null,
        lastSyncFailure: null,
        lastPurgeJobId: null,
        lastPurgeUnlink: null,
        lastPurgeRequestedAt: null,
        lastUnlinkJobId: null,
        lastUnlinkRequestedAt: null,
        disconnectedAt: null,
        deleted: false,
        deletedAt: null,
      });
    }
    case 'IntegrationCredentialsRenewed':
      return set(event.data.integrationId, {
        credentialsStatus: 'VALID',
        credentialsProblem: null,
        credentialsOwner: event.data.credentialsOwner,
        accountUrl: event.data.accountUrl,
        disconnectedAt: null,
      });
    case 'IntegrationCredentialsInvalidated':
      return set(event.data.integrationId, {
        credentialsStatus: event.data.credentialsStatus,
        credentialsProblem: event.data.reason,
      });
    case 'IntegrationActivated':
      return set(event.data.integrationId, { active: true });
    case 'IntegrationDeactivated':
      return set(event.data.integrationId, { active: false });
    case 'IntegrationLocked':
      return set(event.data.integrationId, { locked: true });
    case 'IntegrationUnlocked':
      return set(event.data.integrationId, { locked: false });
    case 'IntegrationSettingsUpdated':
      return set(event.data.integrationId, { settings: event.data.settings });
    case 'IntegrationSyncRequested':
      return set(event.data.integrationId, { runningSyncJobId: event.data.jobId });
    case 'IntegrationSyncCompleted':
      return set(event.data.integrationId, {
        runningSyncJobId: null,
        lastSyncJobId: event.data.jobId,
        lastSyncOutcome: 'completed',
        lastSyncFailure: null,
        syncDate: date(event.data.syncDate),
      });
    case 'IntegrationSyncFailed':
      return set(event.data.integrationId, {
        runningSyncJobId: null,
        lastSyncJobId: event.data.jobId,
        lastSyncOutcome: 'failed',
        lastSyncFailure: event.data.reason,
      });
    case 'IntegrationPurgeRequested':
      return set(event.data.integrationId, {
        lastPurgeJobId: event.data.jobId,
        lastPurgeUnlink: event.data.unlink,
        lastPurgeRequestedAt: date(event.data.requestedAt),
      });
    case 'IntegrationUnlinkRequested':
      return set(event.data.integrationId, {
        lastUnlinkJobId: event.data.jobId,
        lastUnlinkRequestedAt: date(event.data.requestedAt),
      });
    case 'IntegrationDisconnected':
      return set(event.data.integrationId, {
        active: false,
        credentialsStatus: 'REVOKED',
        credentialsProblem: null,
        disconnectedAt: date(event.data.disconnectedAt),
      });
    case 'IntegrationDeleted':
      return set(event.data.integrationId, { deleted: true, deletedAt: date(event.data.deletedAt) });
  }
};

export const INTEGRATIONS = 'integrations';

/** Integration accounts (CRM and cloud): the portal's platforms table and the admin integrations table. */
export const integrationsProjection = defineProjection<Collections>({
  name: INTEGRATIONS,
  collections: { integrations: 'integrations' },
  indexes: { integrations: [{ key: { tenantId: 1 }, name: 'tenant' }] },
  filter: { eventTypes: [...integrationTypes, ...tenantTypes] },
  project: (event: RecordedEvent) => {
    const integration = parseEvent(IntegrationEvent, integrationTypes, event);
    if (integration) return integrationWrites(integration);
    const tenant = parseEvent(TenantEvent, tenantTypes, event);
    // A permanent purge erases the tenant's key and streams; a rebuild would find none of its accounts.
    if (tenant?.type === 'TenantPurged' && tenant.data.Permanent)
      return [{ kind: 'delete', collection: 'integrations', filter: { tenantId: tenant.data.TenantId } }];
    // One that keeps the records erases the key all the same: they read as a rebuild would.
    if (tenant?.type === 'TenantPurged')
      return erasePersonalFields<Collections>('integrations', { tenantId: tenant.data.TenantId }, [
        'credentialsOwner',
      ]);
    return [];
  },
});
