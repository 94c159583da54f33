import type { Binary, Db } from 'mongodb';
import { defaultReportingSettings } from '../../../contracts/events/tenant';
import { getSeller, type SellerView } from '../../../projections/sellers/query-sellers';
import { tenantsCollection } from '../../../projections/tenants/tenant-view';
import type { TenantDocument } from '../../../projections/tenants/tenants-projection';
import type { Exclusions } from '../../metrics/compute-metrics';
import type { ReportCompany } from './report-data';
import { drawableLogo } from './report-logo';

/** A report's subject is unknown: no such seller, or a deleted one, or its tenant is gone. */
export class ReportSubjectNotFound extends Error {
  constructor(sellerId: number) {
    super(`Seller ${sellerId} was not found`);
    this.name = 'ReportSubjectNotFound';
  }
}

/**
 * The uploaded logos (gateway/use-cases/tenants/logo-store.ts writes them; workflows may not import
 * the gateway, so the two fields read here are declared again). The approved logo's URL names its
 * upload in `v`.
 */
const TENANT_LOGOS = 'tenant_logos';
type StoredLogo = { _id: string; contentType: string; bytes: Binary };

const logoIdOf = (url: string | null) => (url ? new URL(url, 'http://x').searchParams.get('v') : null);

/**
 * The approved logo as the PDF draws it: react-pdf draws PNG and JPEG only, so a GIF or SVG logo is
 * converted to PNG here, when the report's data is gathered (report-logo.ts).
 */
export const loadLogo = async (db: Db, logoUrl: string | null): Promise<ReportCompany['logo']> => {
  const id = logoIdOf(logoUrl);
  if (id === null) return null;
  const logo = await db.collection<StoredLogo>(TENANT_LOGOS).findOne({ _id: id });
  if (!logo) return null;
  return drawableLogo(logo.contentType, Buffer.from(logo.bytes.buffer));
};

export type ReportSubject = {
  seller: SellerView;
  tenant: TenantDocument;
  company: ReportCompany;
  exclusions: Exclusions;
};

const flagValue = <T>(seller: SellerView, flag: string, fallback: T): T =>
  (seller.FeatureFlags.find((f) => f.Flag === flag)?.Value as T | undefined) ?? fallback;

export const exclusionsOf = (seller: SellerView): Exclusions => ({
  customerIds: flagValue<number[]>(seller, 'exclusions.CustomerIds', []),
  productIds: flagValue<number[]>(seller, 'exclusions.ProductIds', []),
});

export const tenantDisplayName = (tenant: TenantDocument) => tenant.FriendlyName ?? tenant.Name;

/** The seller, its tenant, and how the report presents them (name, currency, logo). */
export const loadReportSubject = async (db: Db, sellerId: number): Promise<ReportSubject> => {
  const seller = await getSeller(db, { sellerId, now: new Date() });
  if (!seller) throw new ReportSubjectNotFound(sellerId);
  const tenant = await (await tenantsCollection(db)).findOne({ _id: seller.TenantId });
  if (!tenant || tenant.status === 'purged') throw new ReportSubjectNotFound(sellerId);
  // Missing or null fields take the spec's defaults, as the tenant view does.
  const saved = Object.entries(tenant.Reporting ?? {}).filter(([, value]) => value !== null);
  const reporting = { ...defaultReportingSettings, ...Object.fromEntries(saved) };
  return {
    seller,
    tenant,
    exclusions: exclusionsOf(seller),
    company: {
      sellerId,
      tenantId: tenant._id,
      name: seller.CompanyName ?? tenantDisplayName(tenant),
      currency: reporting.Currency,
      logo: await loadLogo(db, tenant.LogoURL),
      naics: tenant.Industry?.NAICS2017 ?? null,
      weeklyDay: reporting.WeeklyDay,
      monthlyDay: reporting.MonthlyDay,
    },
  };
};
