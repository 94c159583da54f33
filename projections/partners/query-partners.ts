import type { Db, Filter } from 'mongodb';
import type { Partner } from '../../contracts/api/partners';
import { currentCollection } from '../framework/read-model-versions';
import { waitUntilRead, type ReadAfter } from '../read-after';
import { containsText, hasSearch, idInSearch } from '../search-pattern';
import { tenantIdsWhere, tenantSummaries } from '../tenant-lookup';
import { countClientsByPartner } from './count-partner-clients';
import { PARTNERS, partnerNameKey, partnersProjection, type PartnerDoc } from './partners-projection';

/** A partner as the admin partners table shows it (admin.md sections 2 and 3): the API's row. */
export type PartnerView = Partner;

const partners = (db: Db) => currentCollection<'partners', PartnerDoc>(db, partnersProjection, 'partners');

/** Partner rows with their tenant's name and their client count: two more queries per page. */
const toViews = async (db: Db, docs: readonly PartnerDoc[]): Promise<PartnerView[]> => {
  const [tenants, clients] = await Promise.all([
    tenantSummaries(
      db,
      docs.map((doc) => doc.tenantId),
    ),
    countClientsByPartner(
      db,
      docs.map((doc) => doc._id),
    ),
  ]);
  return docs.map((doc) => ({
    Id: doc._id,
    TenantId: doc.tenantId,
    Tenant: { Id: doc.tenantId, Name: tenants.get(doc.tenantId)?.Name ?? null },
    Name: doc.name,
    ClientPlanIdentifier: doc.clientPlanIdentifier,
    LogoURL: doc.logoUrl,
    WeeklyDay: doc.clientWeeklyDay,
    MonthlyDay: doc.clientMonthlyDay,
    Clients: clients.get(doc._id) ?? 0,
    createdAt: doc.createdAt.toISOString(),
  }));
};

const requireId = (name: string, value: number) => {
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`${name} must be a positive integer, got ${value}`);
};

/** The admin partners table: every partner by id, optionally searched by name, tenant name, plan or id. */
export const listPartners = async (
  db: Db,
  query: { search?: string; readAfter?: ReadAfter } = {},
): Promise<{ rows: PartnerView[]; total: number; filtered: number; stale: boolean }> => {
  const stale = await waitUntilRead(db, PARTNERS, query.readAfter);
  let filter: Filter<PartnerDoc> = {};
  if (hasSearch(query.search)) {
    const pattern = containsText(query.search);
    const or: Filter<PartnerDoc>[] = [
      { name: pattern },
      { clientPlanIdentifier: pattern },
      { tenantId: { $in: await tenantIdsWhere(db, { nameContains: query.search }) } },
    ];
    const id = idInSearch(query.search);
    if (id !== null) or.push({ _id: id }, { tenantId: id });
    filter = { $or: or };
  }
  const collection = await partners(db);
  const [docs, total, filtered] = await Promise.all([
    collection.find(filter).sort({ _id: 1 }).toArray(),
    collection.countDocuments({}),
    collection.countDocuments(filter),
  ]);
  return { rows: await toViews(db, docs), total, filtered, stale };
};

/** The partners a tenant owns (a firm's ClientsPartner; PATCH /api/partners/{TenantId}). */
export const listTenantPartners = async (
  db: Db,
  query: { tenantId: number; readAfter?: ReadAfter },
): Promise<{ partners: PartnerView[]; stale: boolean }> => {
  requireId('tenantId', query.tenantId);
  const stale = await waitUntilRead(db, PARTNERS, query.readAfter);
  const docs = await (await partners(db)).find({ tenantId: query.tenantId }).sort({ _id: 1 }).toArray();
  return { partners: await toViews(db, docs), stale };
};

export const getPartner = async (db: Db, query: { partnerId: number }): Promise<PartnerView | null> => {
  requireId('partnerId', query.partnerId);
  const doc = await (await partners(db)).findOne({ _id: query.partnerId });
  return doc ? ((await toViews(db, [doc]))[0] ?? null) : null;
};

/**
 * The `nameTakenInTenant` fact of the partner commands: another partner of the tenant has this name,
 * trimmed and in any case. `exceptPartnerId` leaves out the partner being renamed.
 */
export const isPartnerNameTaken = async (
  db: Db,
  query: { tenantId: number; name: string; exceptPartnerId?: number },
): Promise<boolean> => {
  const filter: Filter<PartnerDoc> = { tenantId: query.tenantId, nameKey: partnerNameKey(query.name) };
  if (query.exceptPartnerId !== undefined) filter._id = { $ne: query.exceptPartnerId };
  return (await (await partners(db)).countDocuments(filter, { limit: 1 })) > 0;
};
