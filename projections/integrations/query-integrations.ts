import type { Db, Filter } from 'mongodb';
import type { IntegrationResponse } from '../../contracts/api/integrations';
import {
  crmProviders,
  type CrmSettings,
  type IntegrationProduct,
  type IntegrationProvider,
} from '../../contracts/events/integration';
import { currentCollection } from '../framework/read-model-versions';
import { waitUntilRead, type ReadAfter } from '../read-after';
import { containsText, hasSearch, idInSearch } from '../search-pattern';
import { tenantIdsWhere, tenantSummaries } from '../tenant-lookup';
import { crmCompanyLinksProjection, type CrmCompanyLinkDoc } from './crm-company-links-projection';
import { integrationActions, type IntegrationAction } from './integration-actions';
import { INTEGRATIONS, integrationsProjection, type IntegrationDoc } from './integrations-projection';

/**
 * An integration account as the portal and admin tables show it (admin.md and portal.md section 3):
 * the API's IntegrationResponse, its enums as the read model holds them. URL is ActiveCampaign's
 * account URL (Credentials.URL), never the API key; Settings are the CRM settings with Locked, or
 * Locked alone for cloud accounts. Unlink is the read model's own: the API does not answer it yet.
 */
export type IntegrationView = Omit<
  IntegrationResponse,
  'AuthMethod' | 'CredentialsStatus' | 'Settings' | 'Tenant' | 'Actions'
> & {
  AuthMethod: IntegrationDoc['authMethod'];
  CredentialsStatus: IntegrationDoc['credentialsStatus'];
  Settings: (CrmSettings & { Locked: boolean }) | { Locked: boolean };
  Unlink: { jobId: number; requestedAt: string } | null;
};

export type AdminIntegrationView = IntegrationView & {
  Tenant: NonNullable<IntegrationResponse['Tenant']>;
  Actions: IntegrationAction[];
};

const iso = (value: Date | null) => value?.toISOString() ?? null;

export const toIntegrationView = (doc: IntegrationDoc): IntegrationView => ({
  Id: doc._id,
  TenantId: doc.tenantId,
  Provider: doc.provider,
  ProductIdentifier: doc.productIdentifier,
  AuthMethod: doc.authMethod,
  Active: doc.active,
  CredentialsStatus: doc.credentialsStatus,
  CredentialsProblem: doc.credentialsProblem,
  CredentialsOwner: doc.credentialsOwner,
  URL: doc.accountUrl,
  SyncDate: iso(doc.syncDate),
  Settings: { ...(doc.settings ?? {}), Locked: doc.locked },
  Sync: {
    runningJobId: doc.runningSyncJobId,
    last:
      doc.lastSyncJobId === null || doc.lastSyncOutcome === null
        ? null
        : { jobId: doc.lastSyncJobId, outcome: doc.lastSyncOutcome, failure: doc.lastSyncFailure },
  },
  Purge:
    doc.lastPurgeJobId === null
      ? null
      : {
          jobId: doc.lastPurgeJobId,
          unlink: doc.lastPurgeUnlink === true,
          requestedAt: iso(doc.lastPurgeRequestedAt) ?? '',
        },
  Unlink:
    doc.lastUnlinkJobId === null
      ? null
      : { jobId: doc.lastUnlinkJobId, requestedAt: iso(doc.lastUnlinkRequestedAt) ?? '' },
  createdAt: doc.createdAt.toISOString(),
  disconnectedAt: iso(doc.disconnectedAt),
});

const integrations = (db: Db) =>
  currentCollection<'integrations', IntegrationDoc>(db, integrationsProjection, 'integrations');

/** Deleted accounts stay in the read model for their history, but no table lists them. */
const notDeleted: Filter<IntegrationDoc> = { deleted: false };

const requireId = (name: string, value: number) => {
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`${name} must be a positive integer, got ${value}`);
};

/** A tenant's integration accounts (portal: connected platforms), oldest first. */
export const listTenantIntegrations = async (
  db: Db,
  query: { tenantId: number; readAfter?: ReadAfter },
): Promise<{ integrations: IntegrationView[]; stale: boolean }> => {
  requireId('tenantId', query.tenantId);
  const stale = await waitUntilRead(db, INTEGRATIONS, query.readAfter);
  const docs = await (
    await integrations(db)
  )
    .find({ ...notDeleted, tenantId: query.tenantId })
    .sort({ createdAt: 1, _id: 1 })
    .toArray();
  return { integrations: docs.map(toIntegrationView), stale };
};

/** One account; with `tenantId` (the portal) an account of another tenant is not found. */
export const getIntegration = async (
  db: Db,
  query: { integrationId: number; tenantId?: number },
): Promise<IntegrationView | null> => {
  requireId('integrationId', query.integrationId);
  const filter: Filter<IntegrationDoc> = { ...notDeleted, _id: query.integrationId };
  if (query.tenantId !== undefined) filter.tenantId = query.tenantId;
  const doc = await (await integrations(db)).findOne(filter);
  return doc ? toIntegrationView(doc) : null;
};

export type AdminIntegrationsQuery = {
  providers?: readonly IntegrationProvider[];
  /** The product filter: RevOps Pro, or accounts without a product ("empty"). */
  product?: IntegrationProduct | 'none';
  /** Tenant name, credentials owner or account URL contains it; a number also matches ids. */
  search?: string;
  readAfter?: ReadAfter;
};

export type AdminIntegrationsPage = {
  rows: AdminIntegrationView[];
  total: number;
  filtered: number;
  stale: boolean;
};

const adminFilter = async (db: Db, query: AdminIntegrationsQuery): Promise<Filter<IntegrationDoc>> => {
  const and: Filter<IntegrationDoc>[] = [notDeleted];
  if (query.providers && query.providers.length > 0) and.push({ provider: { $in: [...query.providers] } });
  if (query.product !== undefined)
    and.push({ productIdentifier: query.product === 'none' ? null : query.product });
  if (hasSearch(query.search)) {
    const pattern = containsText(query.search);
    const named = await tenantIdsWhere(db, { nameContains: query.search });
    const or: Filter<IntegrationDoc>[] = [
      { credentialsOwner: pattern },
      { accountUrl: pattern },
      { tenantId: { $in: named } },
    ];
    const id = idInSearch(query.search);
    if (id !== null) or.push({ _id: id }, { tenantId: id });
    and.push({ $or: or });
  }
  return { $and: and };
};

/**
 * The Customers column: how many accounting customers each CRM account's syncs linked, one indexed
 * count per CRM account (crm_company_links is keyed by integration first). Cloud accounts link none.
 */
const linkedCustomerCounts = async (
  db: Db,
  docs: readonly IntegrationDoc[],
): Promise<Map<number, number>> => {
  const links = await currentCollection<'links', CrmCompanyLinkDoc>(db, crmCompanyLinksProjection, 'links');
  const crm = docs.filter((doc) => (crmProviders as readonly string[]).includes(doc.provider));
  const counts = await Promise.all(crm.map((doc) => links.countDocuments({ integrationId: doc._id })));
  return new Map(crm.map((doc, i) => [doc._id, counts[i] ?? 0]));
};

/** The admin integrations table (all accounts), newest first, with each row's actions. */
export const listAdminIntegrations = async (
  db: Db,
  query: AdminIntegrationsQuery = {},
): Promise<AdminIntegrationsPage> => {
  const stale = await waitUntilRead(db, INTEGRATIONS, query.readAfter);
  const collection = await integrations(db);
  const filter = await adminFilter(db, query);
  const [docs, total, filtered] = await Promise.all([
    collection.find(filter).sort({ _id: -1 }).toArray(),
    collection.countDocuments(notDeleted),
    collection.countDocuments(filter),
  ]);
  const tenants = await tenantSummaries(
    db,
    docs.map((doc) => doc.tenantId),
  );
  const customerCounts = await linkedCustomerCounts(db, docs);
  const rows = docs.map((doc): AdminIntegrationView => ({
    ...toIntegrationView(doc),
    Tenant: { Id: doc.tenantId, Name: tenants.get(doc.tenantId)?.Name ?? null },
    Actions: integrationActions(doc),
    CustomerCount: customerCounts.get(doc._id) ?? null,
  }));
  return { rows, total, filtered, stale };
};
