import type { Db, Filter } from 'mongodb';
import type { TenantClassification, UsageType } from '../contracts/events/tenant';
import { currentCollection } from './framework/read-model-versions';
import { containsText } from './search-pattern';
import { tenantsProjection, type TenantDocument } from './tenants/tenants-projection';

/**
 * The few tenant fields the admin tables of integrations, partners and billing show beside their rows
 * (name, classification, usage type), read from the tenants read model at query time: no $lookup on
 * FerretDB, so one extra query per page.
 */
export type TenantSummary = {
  Id: number;
  Name: string;
  Classification: TenantClassification;
  UsageType: UsageType;
};

const tenants = (db: Db) =>
  currentCollection<keyof typeof tenantsProjection.collections, TenantDocument>(
    db,
    tenantsProjection,
    'tenants',
  );

export const tenantSummaries = async (
  db: Db,
  tenantIds: readonly number[],
): Promise<Map<number, TenantSummary>> => {
  const ids = [...new Set(tenantIds)];
  if (ids.length === 0) return new Map();
  const docs = await (
    await tenants(db)
  )
    .find({ _id: { $in: ids } }, { projection: { Name: 1, Classification: 1, UsageType: 1 } })
    .toArray();
  return new Map(
    docs.map((doc) => [
      doc._id,
      { Id: doc._id, Name: doc.Name, Classification: doc.Classification, UsageType: doc.UsageType },
    ]),
  );
};

/** Ids of the tenants whose name contains `search` and/or that have `classification`. */
export const tenantIdsWhere = async (
  db: Db,
  where: { nameContains?: string; classification?: TenantClassification },
): Promise<number[]> => {
  const filter: Filter<TenantDocument> = {};
  if (where.nameContains !== undefined) filter.Name = containsText(where.nameContains);
  if (where.classification !== undefined) filter.Classification = where.classification;
  const docs = await (await tenants(db)).find(filter, { projection: { _id: 1 } }).toArray();
  return docs.map((doc) => doc._id);
};
