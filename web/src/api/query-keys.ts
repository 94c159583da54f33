/**
 * React-query keys. Server state belongs to a tenant, so every key starts with the tenant it was
 * read in: a switch can never show one company's rows under another's name. The session itself is
 * the one exception, since it is what names the current tenant.
 */
export const sessionKey = ['session'] as const;

/**
 * The resource a tenant key reads, always its third part (`['tenant', id, resource, ...]`): live
 * notices invalidate by it (web/src/live/notice-query-keys.ts), so a new query must use one of these.
 */
export const resources = {
  sellers: 'sellers',
  integrations: 'integrations',
  /** Report recipients (GET /api/subscriptions). */
  recipients: 'recipients',
  /** The team (GET /api/users) and one user. */
  users: 'users',
  /** Pending invitations (GET /api/users?pending=1). */
  invites: 'invites',
  /** One tenant (GET /api/tenants/:id). */
  tenant: 'tenant',
  /** The caller's companies (GET /api/tenants). */
  tenants: 'tenants',
  clients: 'clients',
  clientUsers: 'client-users',
  jobs: 'jobs',
  browserState: 'browser-state',
  billing: 'billing',
  /** The plan-gated features the tenant's plan and subscription give (GET /api/tenants/:id/features). */
  features: 'features',
  plans: 'plans',
  partners: 'partners',
  reports: 'reports',
  /** A seller's metric rows (GET /api/metrics/sellers/:id); new ones come with the seller's MetricsDate. */
  metrics: 'metrics',
} as const;
export type Resource = (typeof resources)[keyof typeof resources];

export const tenantKey = (tenantId: number | null, ...parts: readonly unknown[]) =>
  ['tenant', tenantId ?? 'none', ...parts] as const;
