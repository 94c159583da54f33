import type { Db, Filter, Sort } from 'mongodb';
import type { SellerResponse } from '../../contracts/api/sellers';
import type { SellerFeatureFlagName, SellerProvider } from '../../contracts/events/seller';
import { defaultSellerFeatureFlags } from '../../domain/seller/seller';
import { currentCollection } from '../framework/read-model-versions';
import { waitUntilRead, type ReadAfter } from '../read-after';
import { containsText, hasSearch, idInSearch } from '../search-pattern';
import {
  qbdSyncWarning,
  recencyOf,
  recentSince,
  sellerStatus,
  sellerSyncActions,
  tenantSellerProgress,
  type Recency,
  type SellerProgress,
} from './seller-status';
import {
  SELLERS,
  flagKey,
  sellersProjection,
  type SellerCollections,
  type SellerDoc,
  type SellerTenantDoc,
} from './sellers-projection';

/**
 * A seller as the portal and admin tables show it (portal.md and admin.md section 3 names): the API's
 * SellerResponse before the gateway adds its progress badge and, when asked, its subscriptions. Its
 * feature flags are always here, by their typed names, and `deleted` is for the gateway alone. Status,
 * the recencies, QbdSyncWarning and Deletable (inactive sellers only) are computed at query time;
 * Forecasting is the forecasts.Receivables.Enabled flag.
 */
export type SellerView = Omit<
  SellerResponse,
  'FeatureFlags' | 'ProgressBadge' | 'Subscriptions' | 'Tenant'
> & {
  FeatureFlags: (NonNullable<SellerResponse['FeatureFlags']>[number] & { Flag: SellerFeatureFlagName })[];
  deleted: boolean;
};

export type AdminSellerView = SellerView & { Tenant: NonNullable<SellerResponse['Tenant']> };

const iso = (value: Date | null | undefined) => value?.toISOString() ?? null;

const flagNames = Object.keys(defaultSellerFeatureFlags) as SellerFeatureFlagName[];

const featureFlagsOf = (doc: SellerDoc): SellerView['FeatureFlags'] =>
  flagNames.map((flag) => ({
    Id: `${doc._id}:${flag}`,
    Flag: flag,
    Value: doc.featureFlags?.[flagKey(flag)] ?? defaultSellerFeatureFlags[flag],
  }));

const syncOf = (doc: SellerDoc): SellerView['Sync'] => ({
  running:
    doc.runningSyncId === null
      ? null
      : {
          syncId: doc.runningSyncId,
          mode: doc.runningSyncMode ?? 'sync',
          requestedAt: iso(doc.runningSyncRequestedAt) ?? '',
          startedAt: iso(doc.runningSyncStartedAt),
        },
  last:
    doc.lastSyncId === null || doc.lastSyncOutcome === null
      ? null
      : {
          syncId: doc.lastSyncId,
          outcome: doc.lastSyncOutcome,
          finishedAt: iso(doc.lastSyncFinishedAt) ?? '',
          failure: doc.lastSyncFailure,
        },
});

/** The view of one document at `now`: the time-dependent parts are never stored. */
export const toSellerView = (doc: SellerDoc, now: Date): SellerView => {
  const flags = featureFlagsOf(doc);
  return {
    Id: doc._id,
    TenantId: doc.tenantId,
    CompanyName: doc.companyName,
    URL: doc.url,
    Provider: doc.provider,
    Active: doc.active,
    AuthMethod: doc.authMethod,
    AuthToken: {
      Owner: doc.authTokenOwner,
      RefreshedAt: iso(doc.authTokenRefreshedAt),
      Status: doc.authTokenStatus,
    },
    CompanyFilePath: doc.companyFilePath,
    CollectionDate: iso(doc.collectionDate),
    MetricsDate: iso(doc.metricsDate),
    FeatureFlags: flags,
    Forecasting: flags.find((f) => f.Flag === 'forecasts.Receivables.Enabled')?.Value === true,
    Sync: syncOf(doc),
    createdAt: doc.createdAt.toISOString(),
    deleted: doc.deleted,
    disconnected: doc.disconnected,
    Status: sellerStatus(doc),
    QbdSyncWarning: qbdSyncWarning(doc, now),
    Progress: doc.collectionDate === null ? 'syncing' : doc.metricsDate === null ? 'generating' : 'completed',
    CollectionRecency: recencyOf(doc.collectionDate, now),
    MetricsRecency: recencyOf(doc.metricsDate, now),
    SyncActions: sellerSyncActions(doc),
    Deletable: !doc.active && !doc.deleted,
  };
};

const sellers = (db: Db) => currentCollection<SellerCollections, SellerDoc>(db, sellersProjection, 'sellers');
const tenants = (db: Db) =>
  currentCollection<SellerCollections, SellerTenantDoc>(db, sellersProjection, 'tenants');

/** Deleted sellers stay in the read model (their history matters) but no table lists them. */
const notDeleted: Filter<SellerDoc> = { deleted: false };

const requireId = (name: string, value: number) => {
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`${name} must be a positive integer, got ${value}`);
};

export type TenantSellersQuery = {
  tenantId: number;
  /** GET /api/sellers?Active=true. */
  active?: boolean;
  now: Date;
  readAfter?: ReadAfter;
};

/** A tenant's sellers (the portal's connected platforms), oldest first, with the tenant's progress. */
export const listTenantSellers = async (
  db: Db,
  query: TenantSellersQuery,
): Promise<{ sellers: SellerView[]; progress: SellerProgress; stale: boolean }> => {
  requireId('tenantId', query.tenantId);
  const stale = await waitUntilRead(db, SELLERS, query.readAfter);
  const filter: Filter<SellerDoc> = { ...notDeleted, tenantId: query.tenantId };
  if (query.active !== undefined) filter.active = query.active;
  const docs = await (await sellers(db)).find(filter).sort({ createdAt: 1, _id: 1 }).toArray();
  return {
    sellers: docs.map((doc) => toSellerView(doc, query.now)),
    progress: tenantSellerProgress(docs),
    stale,
  };
};

/** Every seller the tenant ever had, deleted ones included (a tenant purge removes their synced data). */
export const tenantSellerIds = async (db: Db, tenantId: number): Promise<number[]> => {
  requireId('tenantId', tenantId);
  const docs = await (await sellers(db)).find({ tenantId }, { projection: { _id: 1 } }).toArray();
  return docs.map((doc) => doc._id);
};

/** One seller; with `tenantId` (the portal) a seller of another tenant is not found. */
export const getSeller = async (
  db: Db,
  query: { sellerId: number; tenantId?: number; now: Date },
): Promise<SellerView | null> => {
  requireId('sellerId', query.sellerId);
  const filter: Filter<SellerDoc> = { ...notDeleted, _id: query.sellerId };
  if (query.tenantId !== undefined) filter.tenantId = query.tenantId;
  const doc = await (await sellers(db)).findOne(filter);
  return doc ? toSellerView(doc, query.now) : null;
};

export const sellerSortFields = {
  Id: '_id',
  TenantId: 'tenantId',
  CompanyName: 'companyNameSort',
  Provider: 'provider',
  Active: 'active',
  createdAt: 'createdAt',
  CollectionDate: 'collectionDate',
  MetricsDate: 'metricsDate',
} as const;
export type SellerSortField = keyof typeof sellerSortFields;

export type AdminSellersQuery = {
  now: Date;
  providers?: readonly SellerProvider[];
  active?: boolean;
  collection?: Recency;
  metrics?: Recency;
  partnerIds?: readonly number[];
  /** Company name, URL or tenant name contains it; a number also matches seller and tenant ids. */
  search?: string;
  sort?: { field: SellerSortField; direction: 'asc' | 'desc' };
  offset?: number;
  limit?: number;
  readAfter?: ReadAfter;
};

export type AdminSellersPage = {
  rows: AdminSellerView[];
  /** "Total: n, Filtered: m": every seller the table could show, and those matching. */
  total: number;
  filtered: number;
  stale: boolean;
};

const recencyFilter = (field: 'collectionDate' | 'metricsDate', recency: Recency, now: Date) =>
  recency === 'recent'
    ? { [field]: { $gte: recentSince(now) } }
    : { $or: [{ [field]: null }, { [field]: { $lt: recentSince(now) } }] };

const adminFilter = async (db: Db, query: AdminSellersQuery): Promise<Filter<SellerDoc>> => {
  const and: Filter<SellerDoc>[] = [notDeleted];
  if (query.providers && query.providers.length > 0) and.push({ provider: { $in: [...query.providers] } });
  if (query.active !== undefined) and.push({ active: query.active });
  if (query.collection) and.push(recencyFilter('collectionDate', query.collection, query.now));
  if (query.metrics) and.push(recencyFilter('metricsDate', query.metrics, query.now));
  if (query.partnerIds && query.partnerIds.length > 0) {
    const linked = await (
      await tenants(db)
    )
      .find({ partnerId: { $in: [...query.partnerIds] } }, { projection: { _id: 1 } })
      .toArray();
    and.push({ tenantId: { $in: linked.map((tenant) => tenant._id) } });
  }
  if (hasSearch(query.search)) {
    const pattern = containsText(query.search);
    const named = await (await tenants(db)).find({ name: pattern }, { projection: { _id: 1 } }).toArray();
    const id = idInSearch(query.search);
    const or: Filter<SellerDoc>[] = [
      { companyName: pattern },
      { url: pattern },
      { tenantId: { $in: named.map((tenant) => tenant._id) } },
    ];
    if (id !== null) or.push({ _id: id }, { tenantId: id });
    and.push({ $or: or });
  }
  return { $and: and };
};

/** The admin sellers table: filters, search, sort, paging and the summary counts. */
export const listAdminSellers = async (db: Db, query: AdminSellersQuery): Promise<AdminSellersPage> => {
  const stale = await waitUntilRead(db, SELLERS, query.readAfter);
  const collection = await sellers(db);
  const filter = await adminFilter(db, query);
  const direction = query.sort?.direction === 'desc' ? -1 : 1;
  const sort: Sort = query.sort
    ? { [sellerSortFields[query.sort.field]]: direction, _id: direction }
    : { _id: 1 };
  let cursor = collection
    .find(filter)
    .sort(sort)
    .skip(Math.max(0, query.offset ?? 0));
  if (query.limit !== undefined) cursor = cursor.limit(Math.max(1, query.limit));
  const offset = Math.max(0, query.offset ?? 0);
  const [docs, total] = await Promise.all([cursor.toArray(), collection.countDocuments(notDeleted)]);
  // A short page that is not past the end is the last one: the matches are counted without a count
  // (a search's count reads every match again, docs/adr/0051-admin-table-counts-and-search.md).
  const short = query.limit === undefined || docs.length < Math.max(1, query.limit);
  const filtered =
    short && (docs.length > 0 || offset === 0)
      ? offset + docs.length
      : await collection.countDocuments(filter);
  const tenantIds = [...new Set(docs.map((doc) => doc.tenantId))];
  const tenantDocs = await (await tenants(db)).find({ _id: { $in: tenantIds } }).toArray();
  const byId = new Map(tenantDocs.map((tenant) => [tenant._id, tenant]));
  const rows = docs.map((doc): AdminSellerView => {
    const tenant = byId.get(doc.tenantId);
    return {
      ...toSellerView(doc, query.now),
      Tenant: { Id: doc.tenantId, Name: tenant?.name ?? null, PartnerId: tenant?.partnerId ?? null },
    };
  });
  return { rows, total, filtered, stale };
};

/**
 * Active sellers per tenant (admin tenants list, stats). Tenants without any are absent from the map;
 * omit `tenantIds` for every tenant.
 */
export const countActiveSellersByTenant = async (
  db: Db,
  tenantIds?: readonly number[],
): Promise<Map<number, number>> => {
  const match: Filter<SellerDoc> = { active: true, deleted: false };
  if (tenantIds) match.tenantId = { $in: [...tenantIds] };
  const groups = await (
    await sellers(db)
  )
    .aggregate<{ _id: number; count: number }>([
      { $match: match },
      { $group: { _id: '$tenantId', count: { $sum: 1 } } },
    ])
    .toArray();
  return new Map(groups.map((group) => [group._id, group.count]));
};
