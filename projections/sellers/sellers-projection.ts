import type { RecordedEvent } from '../../contracts/events/envelope';
import {
  SellerEvent,
  sellerEventVersions,
  type SellerAuthMethod,
  type SellerAuthTokenStatus,
  type SellerFeatureFlagName,
  type SellerProvider,
  type SellerSyncMode,
} from '../../contracts/events/seller';
import { TenantEvent } from '../../contracts/events/tenant';
import { erasePersonalFields } from '../framework/erase-personal-fields';
import { defineProjection, type DocumentFields, type ReadModelWrite } from '../framework/projection';
import { parseEvent } from '../parse-event';

/**
 * One document per seller, keyed by its id. Fields are flat on purpose: a batch merges the
 * assignments of several events into one `$set`, and a parent and its child path in one `$set`
 * would conflict. Feature flags are the one map, and only its children are ever assigned.
 */
export type SellerDoc = {
  _id: number;
  position: number;
  sellerId: number;
  tenantId: number;
  provider: SellerProvider;
  companyName: string | null;
  /** Lower-case copy for sorting: FerretDB has no collation. */
  companyNameSort: string;
  url: string | null;
  authMethod: SellerAuthMethod;
  authTokenOwner: string | null;
  authTokenStatus: SellerAuthTokenStatus;
  authTokenRefreshedAt: Date | null;
  companyFilePath: string | null;
  active: boolean;
  disconnected: boolean;
  disconnectedAt: Date | null;
  deleted: boolean;
  deletedAt: Date | null;
  createdAt: Date;
  collectionDate: Date | null;
  metricsDate: Date | null;
  /** Only flags ever set, by encoded name (see flagKey); the others have their defaults. */
  featureFlags?: Record<string, unknown>;
  runningSyncId: number | null;
  runningSyncMode: SellerSyncMode | null;
  runningSyncRequestedAt: Date | null;
  runningSyncStartedAt: Date | null;
  lastSyncId: number | null;
  lastSyncOutcome: 'completed' | 'failed' | null;
  lastSyncFinishedAt: Date | null;
  lastSyncFailure: string | null;
};

/**
 * The seller's tenant as the admin table needs it: its partner (for the partner filter) and its name
 * (shown and searched). Kept here rather than read from the tenants read model so that one
 * checkpoint covers both and a seller never waits for another projector.
 */
export type SellerTenantDoc = { _id: number; position: number; name: string; partnerId: number | null };

export type SellerCollections = 'sellers' | 'tenants';

/** Mongo field names may not hold dots; flag names do (customerSheet.showOtherCredits). */
export const flagKey = (flag: SellerFeatureFlagName): string => flag.replaceAll('.', ':');

const sellerTypes = new Set(Object.keys(sellerEventVersions));
const tenantTypes = new Set(['TenantCreated', 'TenantRenamed', 'TenantPartnerChanged', 'TenantPurged']);

const date = (iso: string) => new Date(iso);

const set = (id: number, fields: DocumentFields): ReadModelWrite<SellerCollections> => ({
  kind: 'set',
  collection: 'sellers',
  id,
  fields,
});

const noRunningSync = {
  runningSyncId: null,
  runningSyncMode: null,
  runningSyncRequestedAt: null,
  runningSyncStartedAt: null,
};

const sellerWrites = (event: SellerEvent): ReadModelWrite<SellerCollections>[] => {
  switch (event.type) {
    case 'SellerConnected': {
      const { data } = event;
      return [
        set(data.sellerId, {
          sellerId: data.sellerId,
          tenantId: data.tenantId,
          provider: data.provider,
          companyName: data.companyName,
          companyNameSort: (data.companyName ?? '').toLowerCase(),
          url: data.url,
          authMethod: data.authMethod,
          authTokenOwner: data.authTokenOwner,
          authTokenStatus: 'ACTIVE',
          authTokenRefreshedAt: date(data.connectedAt),
          companyFilePath: data.companyFilePath,
          active: true,
          disconnected: false,
          disconnectedAt: null,
          deleted: false,
          deletedAt: null,
          createdAt: date(data.connectedAt),
          collectionDate: null,
          metricsDate: null,
          ...noRunningSync,
          lastSyncId: null,
          lastSyncOutcome: null,
          lastSyncFinishedAt: null,
          lastSyncFailure: null,
        }),
      ];
    }
    case 'SellerReconnected': {
      const { data } = event;
      // A reconnection without company details keeps the ones the seller had.
      const company =
        data.companyName === null
          ? {}
          : { companyName: data.companyName, companyNameSort: data.companyName.toLowerCase() };
      return [
        set(data.sellerId, {
          ...company,
          ...(data.url === null ? {} : { url: data.url }),
          authMethod: data.authMethod,
          authTokenOwner: data.authTokenOwner,
          authTokenStatus: 'ACTIVE',
          authTokenRefreshedAt: date(data.reconnectedAt),
          companyFilePath: data.companyFilePath,
          disconnected: false,
          disconnectedAt: null,
        }),
      ];
    }
    case 'SellerCompanyDetailsRecorded':
      return [
        set(event.data.sellerId, {
          companyName: event.data.companyName,
          companyNameSort: event.data.companyName.toLowerCase(),
          url: event.data.url,
        }),
      ];
    case 'SellerActivated':
      return [set(event.data.sellerId, { active: true })];
    case 'SellerDeactivated':
      return [set(event.data.sellerId, { active: false })];
    case 'SellerDeleted':
      return [
        set(event.data.sellerId, { deleted: true, deletedAt: date(event.data.deletedAt), active: false }),
      ];
    case 'SellerDisconnected':
      return [
        set(event.data.sellerId, {
          disconnected: true,
          disconnectedAt: date(event.data.disconnectedAt),
          active: false,
        }),
      ];
    case 'SellerAuthTokenRevoked':
      return [set(event.data.sellerId, { authTokenStatus: 'REVOKED' })];
    case 'SellerAuthTokenRefreshed':
      return [
        set(event.data.sellerId, {
          authTokenStatus: 'ACTIVE',
          authTokenRefreshedAt: date(event.data.refreshedAt),
        }),
      ];
    case 'SellerCollectionDateRecorded':
      return [set(event.data.sellerId, { collectionDate: date(event.data.collectionDate) })];
    case 'SellerMetricsDateRecorded':
      return [set(event.data.sellerId, { metricsDate: date(event.data.metricsDate) })];
    case 'SellerFeatureFlagSet': {
      const { setting } = event.data;
      return [set(event.data.sellerId, { [`featureFlags.${flagKey(setting.flag)}`]: setting.value })];
    }
    case 'SellerSyncRequested':
      return [
        set(event.data.sellerId, {
          runningSyncId: event.data.syncId,
          runningSyncMode: event.data.mode,
          runningSyncRequestedAt: date(event.data.requestedAt),
          runningSyncStartedAt: null,
        }),
      ];
    case 'SellerSyncStarted':
      return [set(event.data.sellerId, { runningSyncStartedAt: date(event.data.startedAt) })];
    case 'SellerSyncCompleted':
      return [
        set(event.data.sellerId, {
          ...noRunningSync,
          lastSyncId: event.data.syncId,
          lastSyncOutcome: 'completed',
          lastSyncFinishedAt: date(event.data.completedAt),
          lastSyncFailure: null,
          collectionDate: date(event.data.collectionDate),
        }),
      ];
    case 'SellerSyncFailed':
      return [
        set(event.data.sellerId, {
          ...noRunningSync,
          lastSyncId: event.data.syncId,
          lastSyncOutcome: 'failed',
          lastSyncFinishedAt: date(event.data.failedAt),
          lastSyncFailure: event.data.reason,
        }),
      ];
  }
};

const tenantWrites = (event: TenantEvent): ReadModelWrite<SellerCollections>[] => {
  const tenantSet = (id: number, fields: DocumentFields): ReadModelWrite<SellerCollections>[] => [
    { kind: 'set', collection: 'tenants', id, fields },
  ];
  if (event.type === 'TenantCreated')
    return tenantSet(event.data.TenantId, { name: event.data.Name, partnerId: event.data.PartnerId });
  if (event.type === 'TenantRenamed') return tenantSet(event.data.TenantId, { name: event.data.Name });
  if (event.type === 'TenantPartnerChanged')
    return tenantSet(event.data.TenantId, { partnerId: event.data.PartnerId });
  // A permanent purge erases the tenant's key and streams; a rebuild would find none of its sellers.
  if (event.type === 'TenantPurged' && event.data.Permanent)
    return [
      { kind: 'delete', collection: 'sellers', filter: { tenantId: event.data.TenantId } },
      { kind: 'delete', collection: 'tenants', filter: { _id: event.data.TenantId } },
    ];
  // One that keeps the records erases the key all the same: they read as a rebuild would.
  if (event.type === 'TenantPurged')
    return [
      ...erasePersonalFields<SellerCollections>('sellers', { tenantId: event.data.TenantId }, [
        'authTokenOwner',
        'companyFilePath',
      ]),
      ...erasePersonalFields<SellerCollections>('tenants', { _id: event.data.TenantId }, ['name']),
    ];
  return [];
};

export const SELLERS = 'sellers';

/** The sellers read model: the portal's platforms table and the admin sellers table. */
export const sellersProjection = defineProjection<SellerCollections>({
  name: SELLERS,
  collections: { sellers: 'sellers', tenants: 'seller_tenants' },
  indexes: {
    sellers: [
      // A tenant's sellers, and the active ones of the tenants of an admin page: three constrained
      // columns, so that SQLite prefers it to deleted_active for `tenantId $in` lists.
      { key: { tenantId: 1, deleted: 1, active: 1 }, name: 'tenant_deleted_active' },
      { key: { companyNameSort: 1 }, name: 'company_name' },
      // Every tenant's sellers by state and by platform: the admin lists, stats and bulk sync
      // (test/read-store/hot-query-plans.test.ts).
      { key: { deleted: 1, active: 1 }, name: 'deleted_active' },
      // and the admin sellers page's "Total" and "Filtered" counts, from counters
      // (docs/adr/0051-admin-table-counts-and-search.md).
      {
        key: { provider: 1, deleted: 1, active: 1 },
        name: 'provider_deleted_active_counts',
        counted: true,
      },
      // The admin sellers page filtered by platform and state, by company name, read in order.
      {
        key: { provider: 1, deleted: 1, active: 1, companyNameSort: 1, _id: 1 },
        name: 'provider_deleted_active_name',
      },
      // The admin search box: company name or URL contains the text (trigram index, embedded store).
      { key: { companyName: 1, url: 1 }, name: 'company_url_search', search: true },
    ],
    tenants: [
      { key: { partnerId: 1 }, name: 'partner' },
      // The same search box finds sellers by their tenant's name.
      { key: { name: 1 }, name: 'name_search', search: true },
    ],
  },
  filter: { eventTypes: [...sellerTypes, ...tenantTypes] },
  project: (event: RecordedEvent) => {
    const seller = parseEvent(SellerEvent, sellerTypes, event);
    if (seller) return sellerWrites(seller);
    const tenant = parseEvent(TenantEvent, tenantTypes, event);
    return tenant ? tenantWrites(tenant) : [];
  },
});
