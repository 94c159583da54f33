import type { Db, Filter, Sort } from 'mongodb';
import type { z } from 'zod';
import type { TenantListResponse, TenantListRow as TenantListRowSchema } from '../../contracts/api/tenants';
import type { TenantClassification, UsageType } from '../../contracts/events/tenant';
import { BILLING_SUBSCRIPTIONS } from '../billing/billing-projection';
import { userCountsByTenant } from '../users/membership-counts';
import { USERS } from '../users/users-projection';
import { PARTNERS } from '../partners/partners-projection';
import { containsText, idInSearch } from '../search-pattern';
import { SELLERS } from '../sellers/sellers-projection';
import { waitForReadModels, type Consistency } from '../wait-for-read-models';
import { activeSellerCountsByTenant, sellerTotals } from './sellers-read-model';
import { tenantsCollection, toTenantViews } from './tenant-view';
import { TENANTS, type TenantDocument } from './tenants-projection';

/** admin.md section 9: the admin tenants page shows 20 rows a page. */
export const TENANTS_PAGE_SIZE = 20;

/**
 * While searching, filtering or sorting the spec shows every match without pages; with 100,000
 * tenants that could be every tenant, so the list stops at this many rows and `total` says how many
 * matched (the page asks the reader to narrow the search).
 */
export const TENANTS_MATCH_LIMIT = 500;

export type TenantSortField =
  | 'Id'
  | 'Name'
  | 'Referrer'
  | 'LandingPage'
  | 'createdAt'
  | 'UsageType'
  | 'Classification'
  | 'userCount'
  | 'activeSellerCount';

export type TenantListQuery = Consistency & {
  /** A tenant id, or part of a name (case-insensitive). */
  search?: string;
  usageTypes?: readonly UsageType[];
  classification?: TenantClassification;
  hasUsers?: boolean;
  hasActiveSellers?: boolean;
  sort?: { field: TenantSortField; direction: 'asc' | 'desc' };
  /** 1-based; used only while the list is neither searched, filtered nor sorted. */
  page?: number;
};

/** A row of the admin tenants list: the API's row. */
export type TenantListRow = z.infer<typeof TenantListRowSchema>;

/**
 * The API's list without its summary: `total` counts every tenant matching the search and filters;
 * `pagination` is null while searching, filtering or sorting (the spec then shows every match).
 */
export type TenantListPage = Pick<z.infer<typeof TenantListResponse>, 'rows' | 'total' | 'pagination'> & {
  stale: boolean;
};

const mongoSortFields: Partial<Record<TenantSortField, string>> = {
  Id: '_id',
  Name: 'sortName',
  Referrer: 'Referrer',
  LandingPage: 'LandingPage',
  createdAt: 'createdAt',
  UsageType: 'UsageType',
  Classification: 'Classification',
};

/** Name contains the text (case-insensitive), or the text is the id. */
export const searchFilter = (search: string): Filter<TenantDocument> => {
  const byName: Filter<TenantDocument> = { Name: containsText(search) };
  const id = idInSearch(search);
  return id === null ? byName : { $or: [byName, { _id: id }] };
};

const isFiltered = (query: TenantListQuery): boolean =>
  (query.search ?? '').trim() !== '' ||
  (query.usageTypes?.length ?? 0) > 0 ||
  query.classification !== undefined ||
  query.hasUsers !== undefined ||
  query.hasActiveSellers !== undefined ||
  query.sort !== undefined;

/** Purged tenants are gone from the admin list; disabled ones stay, to be restored or purged. */
const LISTED_STATUSES = ['active', 'disabled'] as const;
const listed: Filter<TenantDocument> = { status: { $in: [...LISTED_STATUSES] } };

/**
 * A page of listed tenants, newest first: the first `skip + limit` of each listed status, read in
 * order from the `status_id` index, merged by id. A `status $in` list with the sort would make
 * SQLite sort every listed tenant; each status alone is an equality the index returns in order, so a
 * page reads its rows and the pages before it, not the table (docs/adr/0051-admin-table-counts-and-search.md).
 */
const newestListedPage = async (
  tenants: Awaited<ReturnType<typeof tenantsCollection>>,
  skip: number,
  limit: number,
): Promise<TenantDocument[]> => {
  const heads = await Promise.all(
    LISTED_STATUSES.map((status) =>
      tenants
        .find({ status })
        .sort({ _id: -1 })
        .limit(skip + limit)
        .toArray(),
    ),
  );
  return heads
    .flat()
    .sort((a, b) => b._id - a._id)
    .slice(skip, skip + limit);
};

/**
 * The search and the filters the read store can apply itself. The has-users and has-active-sellers
 * filters are applied to the matching ids in memory: as `_id $in` lists they would name up to every
 * tenant, beyond what one SQL statement takes.
 */
const listFilter = (query: TenantListQuery): Filter<TenantDocument> => {
  const clauses: Filter<TenantDocument>[] = [listed];
  if ((query.search ?? '').trim() !== '') clauses.push(searchFilter(query.search ?? ''));
  if (query.usageTypes && query.usageTypes.length > 0)
    clauses.push({ UsageType: { $in: [...query.usageTypes] } });
  if (query.classification) clauses.push({ Classification: query.classification });
  return { $and: clauses };
};

const withCounts = async (db: Db, tenants: readonly TenantDocument[]): Promise<TenantListRow[]> => {
  const ids = tenants.map((tenant) => tenant._id);
  const [views, users, sellers] = await Promise.all([
    toTenantViews(db, tenants),
    userCountsByTenant(db, ids),
    activeSellerCountsByTenant(db, ids),
  ]);
  return views.map((view) => ({
    ...view,
    userCount: users.get(view.Id) ?? 0,
    activeSellerCount: sellers.get(view.Id) ?? 0,
  }));
};

/**
 * The admin tenants list (admin.md, Admin tenants list): newest first unless sorted; 20 a page, or
 * every match while searching, filtering or sorting. User and active-seller counts are counted now,
 * from the memberships and sellers read models.
 */
export const queryTenantList = async (db: Db, query: TenantListQuery = {}): Promise<TenantListPage> => {
  const stale = await waitForReadModels(
    db,
    [TENANTS, USERS, SELLERS, PARTNERS, BILLING_SUBSCRIPTIONS],
    query,
  );
  const tenants = await tenantsCollection(db);
  const filter = listFilter(query);
  const direction = query.sort?.direction === 'asc' ? 1 : -1;
  const sortField = query.sort?.field ?? 'Id';
  const mongoField = mongoSortFields[sortField];
  const byPresence = query.hasUsers !== undefined || query.hasActiveSellers !== undefined;

  if (!isFiltered(query)) {
    const total = await tenants.countDocuments(filter);
    const pageCount = Math.max(1, Math.ceil(total / TENANTS_PAGE_SIZE));
    const page = Math.min(pageCount, Math.max(1, Math.trunc(query.page ?? 1)));
    const docs = await newestListedPage(tenants, (page - 1) * TENANTS_PAGE_SIZE, TENANTS_PAGE_SIZE);
    return {
      rows: await withCounts(db, docs),
      total,
      pagination: { page, pageSize: TENANTS_PAGE_SIZE, pageCount },
      stale,
    };
  }
  if (mongoField && !byPresence) {
    const sort: Sort = mongoField === '_id' ? { _id: direction } : { [mongoField]: direction, _id: 1 };
    // Fewer matches than the limit are all the matches: a search counts them only beyond it.
    const docs = await tenants.find(filter).sort(sort).limit(TENANTS_MATCH_LIMIT).toArray();
    const total = docs.length < TENANTS_MATCH_LIMIT ? docs.length : await tenants.countDocuments(filter);
    return { rows: await withCounts(db, docs), total, pagination: null, stale };
  }

  // The presence filters and the count sorts need the counts, which exist only at query time: the
  // matching ids (with the sort field) are filtered and sorted here, and only the first rows are
  // read in full.
  const [users, sellers] = await Promise.all([
    query.hasUsers !== undefined || sortField === 'userCount' ? userCountsByTenant(db) : null,
    query.hasActiveSellers !== undefined || sortField === 'activeSellerCount'
      ? activeSellerCountsByTenant(db)
      : null,
  ]);
  const present = (counts: Map<number, number> | null, wanted: boolean | undefined, id: number) =>
    wanted === undefined || (counts?.has(id) ?? false) === wanted;
  const candidates = (
    await tenants
      .find(filter, { projection: { _id: 1, ...(mongoField ? { [mongoField]: 1 } : {}) } })
      .toArray()
  ).filter(
    (doc) => present(users, query.hasUsers, doc._id) && present(sellers, query.hasActiveSellers, doc._id),
  );
  const key = (doc: TenantDocument): number | string | null => {
    if (sortField === 'userCount') return users?.get(doc._id) ?? 0;
    if (sortField === 'activeSellerCount') return sellers?.get(doc._id) ?? 0;
    const value = (doc as unknown as Record<string, unknown>)[mongoField ?? '_id'];
    return value instanceof Date ? value.getTime() : ((value as number | string | null | undefined) ?? null);
  };
  candidates.sort((a, b) => compareKeys(key(a), key(b)) * direction || a._id - b._id);
  const chosen = candidates.slice(0, TENANTS_MATCH_LIMIT).map((doc) => doc._id);
  const order = new Map(chosen.map((id, index) => [id, index]));
  const docs = await tenants.find({ _id: { $in: chosen } }).toArray();
  docs.sort((a, b) => (order.get(a._id) ?? 0) - (order.get(b._id) ?? 0));
  return { rows: await withCounts(db, docs), total: candidates.length, pagination: null, stale };
};

/** Nulls first ascending, as the read store sorts them; numbers and texts by value. */
const compareKeys = (a: number | string | null, b: number | string | null): number => {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
};

export type TenantSummary = z.infer<typeof TenantListResponse>['summary'];

/** The summary cards above the admin tenants list: tenants not purged, and active sellers. */
export const queryTenantSummary = async (db: Db): Promise<TenantSummary> => {
  const tenants = await tenantsCollection(db);
  const present = listed;
  const [businesses, firms, sellers] = await Promise.all([
    tenants.countDocuments({ ...present, Classification: 'BUSINESS' }),
    tenants.countDocuments({ ...present, Classification: 'FIRM' }),
    sellerTotals(db),
  ]);
  return { businesses, firms, sellers: sellers.active };
};
