import type { Db, Filter } from 'mongodb';
import type { ArchivedReport, ManagedReport } from '../../contracts/api/reports';
import { currentCollection } from '../framework/read-model-versions';
import { waitUntilRead, type ReadAfter } from '../read-after';
import { sellersProjection, type SellerCollections, type SellerDoc } from '../sellers/sellers-projection';
import {
  managedReportId,
  REPORTS,
  reportsProjection,
  type ArchivedReportDoc,
  type ManagedReportDoc,
  type ReportCollections,
} from './reports-projection';

export const archivedReportsCollection = (db: Db) =>
  currentCollection<ReportCollections, ArchivedReportDoc>(db, reportsProjection, 'archived');

export const managedReportsCollection = (db: Db) =>
  currentCollection<ReportCollections, ManagedReportDoc>(db, reportsProjection, 'managed');

/** A page holds at most this many rows. */
export const maxReportsPage = 500;

const requireId = (name: string, value: number) => {
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`${name} must be a positive integer, got ${value}`);
};

/** The company names of the sellers a page names (deleted sellers keep theirs in old reports). */
const companyNames = async (db: Db, sellerIds: readonly (number | null)[]): Promise<Map<number, string>> => {
  const ids = [...new Set(sellerIds.filter((id): id is number => id !== null))];
  if (ids.length === 0) return new Map();
  const sellers = await currentCollection<SellerCollections, SellerDoc>(db, sellersProjection, 'sellers');
  const docs = await sellers
    .find({ _id: { $in: ids } }, { projection: { _id: 1, companyName: 1 } })
    .toArray();
  return new Map(docs.map((doc) => [doc._id, doc.companyName ?? '']));
};

export const toArchivedReport = (doc: ArchivedReportDoc, names: Map<number, string>): ArchivedReport => ({
  Id: doc._id,
  Type: doc.type,
  Extension: doc.extension,
  DisplayName: doc.displayName,
  Size: doc.size,
  createdAt: doc.createdAt.toISOString(),
  SellerId: doc.sellerId,
  TenantId: doc.tenantId,
  Seller: doc.sellerId === null ? null : { CompanyName: names.get(doc.sellerId) ?? '' },
});

export type ArchivedReportsQuery = {
  /** Omit for every tenant (a platform admin looking at one seller, or at all). */
  tenantId?: number;
  sellerId?: number;
  limit: number;
  offset?: number;
  readAfter?: ReadAfter;
};

/** Archived reports newest first, a bounded page at a time. */
export const listArchivedReports = async (
  db: Db,
  query: ArchivedReportsQuery,
): Promise<{ rows: ArchivedReport[]; stale: boolean }> => {
  if (query.tenantId !== undefined) requireId('tenantId', query.tenantId);
  if (query.sellerId !== undefined) requireId('sellerId', query.sellerId);
  const stale = await waitUntilRead(db, REPORTS, query.readAfter);
  const filter: Filter<ArchivedReportDoc> = {};
  if (query.tenantId !== undefined) filter.tenantId = query.tenantId;
  if (query.sellerId !== undefined) filter.sellerId = query.sellerId;
  const docs = await (
    await archivedReportsCollection(db)
  )
    .find(filter)
    .sort({ createdAt: -1, _id: -1 })
    .skip(Math.max(0, query.offset ?? 0))
    .limit(Math.max(1, Math.min(maxReportsPage, query.limit)))
    .toArray();
  const names = await companyNames(
    db,
    docs.map((doc) => doc.sellerId),
  );
  return { rows: docs.map((doc) => toArchivedReport(doc, names)), stale };
};

/** One archived report by id; tenancy checks happen in the gateway. */
export const getArchivedReport = async (
  db: Db,
  query: { archivedReportId: number; readAfter?: ReadAfter },
): Promise<ArchivedReportDoc | null> => {
  requireId('archivedReportId', query.archivedReportId);
  await waitUntilRead(db, REPORTS, query.readAfter);
  return (await archivedReportsCollection(db)).findOne({ _id: query.archivedReportId });
};

/** One live report's row (its file id), or null before its first write; the refresh rewrites that file. */
export const findManagedReport = async (
  db: Db,
  query: { integrationId: number; type: string; sellerId: number },
): Promise<ManagedReportDoc | null> =>
  (await managedReportsCollection(db)).findOne({
    _id: managedReportId(query.integrationId, query.type, query.sellerId),
  });

/** The tenant's live reports, most recently updated first. */
export const listManagedReports = async (
  db: Db,
  query: { tenantId: number; limit: number; readAfter?: ReadAfter },
): Promise<{ rows: ManagedReport[]; stale: boolean }> => {
  requireId('tenantId', query.tenantId);
  const stale = await waitUntilRead(db, REPORTS, query.readAfter);
  const docs = await (
    await managedReportsCollection(db)
  )
    .find({ tenantId: query.tenantId })
    .sort({ updatedAt: -1, _id: -1 })
    .limit(Math.max(1, Math.min(maxReportsPage, query.limit)))
    .toArray();
  const names = await companyNames(
    db,
    docs.map((doc) => doc.sellerId),
  );
  return {
    rows: docs.map((doc) => ({
      Type: doc.type,
      Provider: doc.provider,
      StorageUrl: doc.storageUrl,
      DisplayName: doc.displayName,
      updatedAt: doc.updatedAt.toISOString(),
      Seller: doc.sellerId === null ? null : { CompanyName: names.get(doc.sellerId) ?? '' },
    })),
    stale,
  };
};
