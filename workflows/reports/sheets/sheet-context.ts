import type { Db } from 'mongodb';
import { defaultReportingSettings, type Currency } from '../../../contracts/events/tenant';
import { getSeller } from '../../../projections/sellers/query-sellers';
import { tenantsCollection } from '../../../projections/tenants/tenant-view';
import type { Exclusions } from '../../metrics/compute-metrics';

/**
 * What every sheet of a seller needs besides its figures: names for titles and files, the tenant's
 * currency, and the seller's feature flags (admin.md section 3) as the sellers read model holds them
 * now, so a flag set since the last metrics run already applies to the next sheet.
 */
export type SheetContext = {
  sellerId: number;
  tenantId: number;
  sellerName: string;
  tenantName: string;
  currency: Currency;
  /** customerSheet.showOtherCredits: the customer sheet gets an Other Credits column. */
  showOtherCredits: boolean;
  /** customerSheet.showSegmentation: the customer sheets get a Segment column. */
  showSegmentation: boolean;
  /** exclusions.CustomerIds and exclusions.ProductIds: left out of every sheet. */
  exclusions: Exclusions;
};

export const readSheetContext = async (db: Db, sellerId: number): Promise<SheetContext> => {
  const seller = await getSeller(db, { sellerId, now: new Date() });
  if (!seller) throw new Error(`seller ${sellerId} is not in the sellers read model`);
  const tenant = await (await tenantsCollection(db)).findOne({ _id: seller.TenantId });
  const flag = (name: string) => seller.FeatureFlags.find((f) => f.Flag === name)?.Value;
  const ids = (value: unknown) => (Array.isArray(value) ? value.filter((v) => typeof v === 'number') : []);
  const tenantName = tenant?.Name ?? `Tenant ${seller.TenantId}`;
  return {
    sellerId,
    tenantId: seller.TenantId,
    sellerName: seller.CompanyName ?? tenantName,
    tenantName,
    currency: tenant?.Reporting?.Currency ?? defaultReportingSettings.Currency,
    showOtherCredits: flag('customerSheet.showOtherCredits') === true,
    showSegmentation: flag('customerSheet.showSegmentation') === true,
    exclusions: {
      customerIds: ids(flag('exclusions.CustomerIds')),
      productIds: ids(flag('exclusions.ProductIds')),
    },
  };
};
