import type { Db } from 'mongodb';
import type { ClientRow } from '../../../contracts/api/clients';
import type { Currency, TenantClassification, UsageType } from '../../../contracts/events/tenant';
import type { SellerProvider } from '../../../contracts/events/seller';
import { DEMO_CLIENT_NAME, queryClients } from '../../../projections/clients/query-clients';
import { currentCollection } from '../../../projections/framework/read-model-versions';
import {
  sellersProjection,
  type SellerCollections,
  type SellerDoc,
} from '../../../projections/sellers/sellers-projection';
import { partnersCollection, tenantsCollection } from '../../../projections/tenants/tenant-view';
import type { TenantDocument } from '../../../projections/tenants/tenants-projection';
import { usersCollection } from '../../../projections/users/user-view';
import { defaultReportingSettings } from '../../../contracts/events/tenant';
import { agingTypes } from './gather-report-data';
import { ratioOf, readMonthRows } from './month-rows';
import type { ReportCompany, ReportPeriod } from './report-data';
import { isoDay, reportPeriodOf } from './report-period';
import { loadLogo, tenantDisplayName } from './report-subject';

/**
 * portal.md section 9: the Client Performance Summary covers the advisor's real clients (not the
 * demo, not firms) that have a connected platform; from this many on, the data moves to a sheet.
 */
export const CLIENT_PERFORMANCE_PDF_LIMIT = 30;

export class NoClientsToReportError extends Error {
  readonly code = 'NO_CLIENTS';
  constructor() {
    super('There are no clients with a connected platform to report on.');
    this.name = 'NoClientsToReportError';
  }
}

export type ClientSellerFigures = {
  sellerId: number;
  companyName: string;
  provider: SellerProvider;
  /** The month's revenue and collections, cents; null before the seller's first metrics run. */
  revenue: number | null;
  collections: number | null;
  /** Receivables at the month's end. */
  open: number | null;
  overdue: number | null;
  dso: number | null;
  dataAsOf: string | null;
};

export type ClientFigures = {
  tenantId: number;
  name: string;
  currency: Currency;
  sellers: ClientSellerFigures[];
};

export type ClientPerformanceData = {
  /** Who the summary is for: the firm, or the advisor. */
  preparedFor: string;
  firm: Pick<ReportCompany, 'name' | 'logo'> | null;
  asOf: string;
  period: ReportPeriod;
  clients: ClientFigures[];
};

type ClientTenant = Pick<TenantDocument, '_id' | 'Name' | 'Classification' | 'UsageType' | 'Reporting'>;

const isDemo = (tenant: { Name: string; UsageType: UsageType }) =>
  tenant.UsageType === 'DEMO' || tenant.Name === DEMO_CLIENT_NAME;
const isBusiness = (classification: TenantClassification) => classification !== 'FIRM';

const currencyOf = (tenant: ClientTenant): Currency =>
  tenant.Reporting?.Currency ?? defaultReportingSettings.Currency;

const sellersCollection = (db: Db) =>
  currentCollection<SellerCollections, SellerDoc>(db, sellersProjection, 'sellers');

const monthTypes = ['TOTAL_REVENUE', 'TOTAL_PAID', 'DSO', ...agingTypes.map(([, type]) => type)] as const;

/**
 * The summary's figures: per client, each connected seller's revenue, collections, receivables at
 * the month's end and DSO for the last whole month before asOf, from the stored MONTHLY rows (three
 * reads for all clients together). Clients without a connected seller are left out.
 */
const figuresOf = async (db: Db, tenants: readonly ClientTenant[], monthStart: number) => {
  const sellers = await (
    await sellersCollection(db)
  )
    .find(
      { tenantId: { $in: tenants.map((t) => t._id) }, deleted: false, disconnected: false },
      { projection: { _id: 1, tenantId: 1, companyName: 1, provider: 1, metricsDate: 1 } },
    )
    .sort({ _id: 1 })
    .toArray();
  const rows = await readMonthRows(db, {
    sellerIds: sellers.map((s) => s._id),
    types: monthTypes,
    monthStart,
  });
  return tenants
    .map((tenant): ClientFigures => ({
      tenantId: tenant._id,
      name: tenant.Name,
      currency: currencyOf(tenant),
      sellers: sellers
        .filter((seller) => seller.tenantId === tenant._id)
        .map((seller) => {
          const of = rows.get(seller._id);
          const has = of !== undefined;
          const open = agingTypes.reduce((sum, [, type]) => sum + (of?.get(type)?.value ?? 0), 0);
          return {
            sellerId: seller._id,
            companyName: seller.companyName ?? tenant.Name,
            provider: seller.provider,
            revenue: has ? (of.get('TOTAL_REVENUE')?.value ?? 0) : null,
            collections: has ? (of.get('TOTAL_PAID')?.value ?? 0) : null,
            open: has ? open : null,
            overdue: has ? open - (of.get('AGING_CURRENT')?.value ?? 0) : null,
            dso: ratioOf(of, 'DSO'),
            dataAsOf: seller.metricsDate?.toISOString() ?? null,
          };
        }),
    }))
    .filter((client) => client.sellers.length > 0)
    .sort((a, b) => a.name.localeCompare(b.name) || a.tenantId - b.tenantId);
};

/** A firm's clients: the tenants of the partners it owns, as the admin's Linked Tenants lists them. */
const firmClients = async (db: Db, tenantId: number) => {
  const tenants = await tenantsCollection(db);
  const firm = await tenants.findOne({ _id: tenantId, status: { $ne: 'purged' } });
  if (!firm) return null;
  const owned = await (await partnersCollection(db)).find({ tenantId }, { projection: { _id: 1 } }).toArray();
  const clients =
    owned.length === 0
      ? []
      : await tenants
          .find({ status: 'active', PartnerId: { $in: owned.map((p) => p._id) }, _id: { $ne: tenantId } })
          .toArray();
  return { firm, clients: clients.filter((t) => !isDemo(t) && isBusiness(t.Classification)) };
};

/** An advisor's clients: the clients page's rows (GET /api/clients) the summary covers. */
const advisorClients = async (db: Db, userId: number) => {
  const user = await (await usersCollection(db)).findOne({ _id: userId, deleted: false });
  if (!user) return null;
  const { clients } = await queryClients(db, { userId });
  const covered = clients.filter(
    (client: ClientRow) => !client.isDemo && isBusiness(client.Classification) && client.Platforms.length > 0,
  );
  const tenants =
    covered.length === 0
      ? []
      : await (await tenantsCollection(db)).find({ _id: { $in: covered.map((c) => c.Id) } }).toArray();
  const firm =
    user.DefaultPartnerTenantId === null
      ? null
      : await (await tenantsCollection(db)).findOne({ _id: user.DefaultPartnerTenantId });
  return { user, firm, clients: tenants };
};

export type ClientPerformanceScope = { advisorUserId: number } | { tenantId: number };

/**
 * The Client Performance Summary's data for a firm (its clients) or an advisor (the clients on
 * their clients page). Null when the firm or user does not exist; NoClientsToReportError when no
 * client qualifies.
 */
export const gatherClientPerformanceData = async (
  db: Db,
  query: ClientPerformanceScope & { asOf: Date },
): Promise<ClientPerformanceData | null> => {
  const found =
    'tenantId' in query
      ? await firmClients(db, query.tenantId)
      : await advisorClients(db, query.advisorUserId).then(
          (advisor) => advisor && { ...advisor, preparedFor: advisor.user.Name },
        );
  if (!found) return null;
  const month = reportPeriodOf('monthly', query.asOf);
  const clients = await figuresOf(db, found.clients, month.start);
  if (clients.length === 0) throw new NoClientsToReportError();
  const firmName = found.firm ? tenantDisplayName(found.firm) : null;
  return {
    preparedFor: 'preparedFor' in found ? found.preparedFor : (firmName ?? ''),
    firm: found.firm && { name: firmName ?? '', logo: await loadLogo(db, found.firm.LogoURL) },
    asOf: query.asOf.toISOString(),
    period: { start: isoDay(month.start), end: isoDay(month.end) },
    clients,
  };
};
