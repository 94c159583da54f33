import type { ClientRow } from '../../../../contracts/api/clients';

/** The clients page's filters (portal.md section 2.3): platform presence, client match and plan. */
export type ClientFilters = {
  platforms: 'any' | 'with' | 'without';
  match: 'any' | 'matched' | 'unmatched';
  /** A plan identifier, or '' for any plan. */
  plan: string;
};

export const noClientFilters: ClientFilters = { platforms: 'any', match: 'any', plan: '' };

export const isFiltering = (filters: ClientFilters) =>
  filters.platforms !== 'any' || filters.match !== 'any' || filters.plan !== '';

export const filterClients = (rows: readonly ClientRow[], filters: ClientFilters): ClientRow[] =>
  rows.filter(
    (row) =>
      (filters.platforms === 'any' || (filters.platforms === 'with') === row.Platforms.length > 0) &&
      (filters.match === 'any' || (filters.match === 'matched') === row.HasClientMatch) &&
      (filters.plan === '' || row.Subscription.PlanIdentifier === filters.plan),
  );

/** The plans present among the clients, for the plan filter. */
export const plansOf = (rows: readonly ClientRow[]) => {
  const plans = new Map<string, string>();
  for (const row of rows) {
    const id = row.Subscription.PlanIdentifier;
    if (id) plans.set(id, row.Subscription.PlanName ?? id);
  }
  return [...plans]
    .map(([value, label]) => ({ value, label }))
    .sort((a, b) => a.label.localeCompare(b.label));
};

/** The Demo Client stays last whatever the sort (portal.md section 2.3). */
export const isDemoClient = (row: ClientRow) => row.isDemo;

/** portal.md section 3: plan identifiers an advisor can give a client (classification CLIENT, free_business). */
export const clientPlanOptions = [
  { value: 'free_client', label: 'Quickstart' },
  { value: 'basic_client', label: 'Lite' },
  { value: 'growth_client', label: 'Plus' },
  { value: 'expansion_client', label: 'Max' },
  { value: 'free_business', label: 'Free' },
];

/**
 * The Change Plan button: a platform admin, or a tenant admin where the client's billing tenant is the
 * current tenant.
 */
export const canChangePlan = (
  row: ClientRow,
  viewer: { isPlatformAdmin: boolean; isTenantAdmin: boolean; tenantId: number | null },
) =>
  viewer.isPlatformAdmin ||
  (viewer.isTenantAdmin && viewer.tenantId !== null && row.Subscription.BillingTenantId === viewer.tenantId);

/** A client name is a switch link only when the row grants Access or the user is a platform admin. */
export const canSwitchTo = (row: ClientRow, isPlatformAdmin: boolean) => row.Access || isPlatformAdmin;
