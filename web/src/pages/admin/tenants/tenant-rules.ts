import type { DisableReason, UsageType } from '../../../../../contracts/events/tenant';
import type { AdminTenantsView, TenantListRow } from '../../../api/queries/admin-tenants';

/** admin.md section 9: the admin tenants page shows 20 rows a page. */
export const tenantsPageSize = 20;

/** admin.md section 5: the words typed to confirm a tenant's disable and purge. */
export const confirmWords = { disable: 'disable', purge: 'purge', permanent: 'permanent' } as const;

/** A typed confirmation counts when the word is typed exactly, spaces around it aside. */
export const isConfirmed = (typed: string, word: string): boolean => typed.trim() === word;

export const usageTypeLabels: Record<UsageType, string> = {
  NORMAL: 'Normal',
  TEST: 'Test',
  INTERNAL: 'Internal',
  DEMO: 'Demo',
};

export const classificationLabels = { BUSINESS: 'Business', FIRM: 'Advisory Firm' } as const;

export const disableReasonLabels: Record<DisableReason, string> = {
  STOPPED_PAYING: 'Stopped paying',
  DUPLICATE: 'Duplicate',
  TESTING: 'Testing',
};

/** The row actions a tenant offers (admin.md section 2): INTERNAL tenants cannot be disabled. */
export const tenantRowActions = (row: Pick<TenantListRow, 'status' | 'UsageType'>) => ({
  disable: row.status === 'active' && row.UsageType !== 'INTERNAL',
  restore: row.status === 'disabled',
  purge: row.status === 'disabled',
  switchTo: row.status === 'active',
});

/** A new search or filter starts again at the first page; paging keeps everything else. */
export const narrowView = (view: AdminTenantsView, change: Partial<AdminTenantsView>): AdminTenantsView => ({
  ...view,
  ...change,
  pageIndex: 0,
});

/**
 * The table's paging: 20 a page from the server while nothing narrows the list; while searching,
 * filtering or sorting every returned row on one page, so the pagination hides.
 */
export const tablePaging = (input: {
  rows: number;
  total: number;
  paged: boolean;
}): { rowCount: number; pageSize: number } =>
  input.paged
    ? { rowCount: input.total, pageSize: tenantsPageSize }
    : { rowCount: input.rows, pageSize: Math.max(1, input.rows) };

/** What the page says above the table about the rows it shows. */
export const rowsNotice = (input: { shown: number; total: number; paged: boolean }): string | null => {
  if (input.paged || input.shown >= input.total) return null;
  return `Showing the first ${input.shown} of ${input.total} matching tenants. Narrow the search or filters to see the rest.`;
};

/** A company URL without an http prefix is shown with http:// added (admin.md section 5). */
export const withHttp = (url: string): string => (/^https?:\/\//i.test(url) ? url : `http://${url}`);

/** The marketing-automation tool's contacts, searched by a tenant's name or opened by a user's id. */
export const marketingContactsUrl = 'https://app.activecampaign.com/app/contacts';
export const marketingSearchLink = (name: string): string =>
  `${marketingContactsUrl}?search=${encodeURIComponent(name)}`;
/** The company's own account when an ActiveCampaign sync (or an admin) recorded it, else a search. */
export const tenantMarketingLink = (tenant: { Name: string; ActiveCampaignId?: string | null }): string =>
  tenant.ActiveCampaignId
    ? `https://app.activecampaign.com/app/accounts/${encodeURIComponent(tenant.ActiveCampaignId)}`
    : marketingSearchLink(tenant.Name);

/** Red that meets WCAG AA on white (Tremor's red buttons use red-500, 3.8:1). */
export const dangerButtonClasses =
  'rounded-tremor-default border border-red-700 px-2 py-1 text-xs font-medium text-red-700 hover:bg-red-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-700';
export const dangerSubmitClasses =
  'rounded-tremor-default bg-red-700 px-4 py-2 text-sm font-medium text-white hover:bg-red-800 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-700 disabled:cursor-not-allowed disabled:opacity-50';
