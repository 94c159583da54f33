import type { Db } from 'mongodb';
import type { ClientRow } from '../../contracts/api/clients';
import type { SellerProvider } from '../../contracts/events/seller';
import type { MembershipDocument } from '../users/users-projection';
import { membershipsCollection } from '../users/membership-counts';
import { USERS } from '../users/users-projection';
import { BILLING_SUBSCRIPTIONS } from '../billing/billing-projection';
import { countRecipientsByTenant } from '../recipients/query-recipients';
import { RECIPIENTS } from '../recipients/recipients-projection';
import { SELLERS } from '../sellers/sellers-projection';
import { providersByTenant } from '../tenants/sellers-read-model';
import { loadTenantJoins, tenantsCollection } from '../tenants/tenant-view';
import { TENANTS, type TenantDocument } from '../tenants/tenants-projection';
import { waitForReadModels, type Consistency } from '../wait-for-read-models';

/** portal.md: the demo tenant's client name, always listed last. */
export const DEMO_CLIENT_NAME = 'Demo Client';

// A row of the clients page (portal.md section 3, Client row) is the API's ClientRow. Access: the
// advisor's membership is active, so the name is a switch link (platform admins always get one);
// Platforms: the providers of the client's connected sellers; Recipients: the report subscriptions
// that receive reports (ACTIVE and ADMIN); Subscription.BillingTenantId: Change Plan shows only where
// it is the advisor's current tenant; HasClientMatch: matched to a customer in the firm's ledger,
// which the ledger read models will answer (until then no client is matched).

/** The My Role column. */
export type ClientRole = ClientRow['Role'];

export type ClientListQuery = Consistency & {
  /** The advisor. */
  userId: number;
  /** Part of the client's name (case-insensitive) or its id. */
  search?: string;
  /** true: only clients with a connected platform; false: only clients without. */
  hasPlatforms?: boolean;
  /** Only clients connected to this provider. */
  platform?: SellerProvider;
  /** Only clients on one of these plans (plan identifiers). */
  plans?: readonly string[];
};

/** An empty list with no filters is "No Clients Connected"; with filters, "No Clients Matched". */
export type ClientList = { clients: ClientRow[]; stale: boolean };

/** portal.md section 6: the role text is Advisor when the job title is Advisor. */
const roleOf = (membership: MembershipDocument): ClientRole =>
  membership.JobTitle?.trim().toLowerCase() === 'advisor'
    ? 'Advisor'
    : membership.Role === 'ADMIN'
      ? 'Administrator'
      : 'Standard User';

const isDemo = (tenant: TenantDocument): boolean =>
  tenant.UsageType === 'DEMO' || tenant.Name === DEMO_CLIENT_NAME;

/** By name, Demo Client always last. */
const clientOrder = (a: ClientRow, b: ClientRow): number =>
  Number(a.isDemo) - Number(b.isDemo) || a.Name.localeCompare(b.Name) || a.Id - b.Id;

const matches = (row: ClientRow, query: ClientListQuery): boolean => {
  const search = (query.search ?? '').trim().toLowerCase();
  if (search !== '' && !row.Name.toLowerCase().includes(search) && String(row.Id) !== search) return false;
  if (query.hasPlatforms !== undefined && row.Platforms.length > 0 !== query.hasPlatforms) return false;
  if (query.platform && !row.Platforms.includes(query.platform)) return false;
  if (query.plans && query.plans.length > 0) {
    const plan = row.Subscription.PlanIdentifier;
    if (plan === null || !query.plans.includes(plan)) return false;
  }
  return true;
};

/**
 * The clients page (GET /api/clients): the tenants where the user's membership is classified ADVISOR
 * (portal.md section 6: "The advisor list includes only tenants where the member role is ADVISOR"),
 * neither disabled nor purged. Platforms, recipients and subscriptions come from the sellers,
 * recipients and billing read models at query time.
 */
export const queryClients = async (db: Db, query: ClientListQuery): Promise<ClientList> => {
  const stale = await waitForReadModels(
    db,
    [TENANTS, USERS, SELLERS, RECIPIENTS, BILLING_SUBSCRIPTIONS],
    query,
  );
  const memberships = await (
    await membershipsCollection(db)
  )
    .find({ userId: query.userId, Classification: 'ADVISOR', userDeleted: false })
    .toArray();
  if (memberships.length === 0) return { clients: [], stale };
  const byTenant = new Map(memberships.map((m) => [m.tenantId, m]));
  const tenants = await (
    await tenantsCollection(db)
  )
    .find({ _id: { $in: [...byTenant.keys()] }, status: 'active' })
    .toArray();
  const ids = tenants.map((tenant) => tenant._id);
  const [joins, platforms, recipients] = await Promise.all([
    loadTenantJoins(db, tenants),
    providersByTenant(db, ids),
    countRecipientsByTenant(db, ids),
  ]);
  const rows = tenants.flatMap((tenant): ClientRow[] => {
    const membership = byTenant.get(tenant._id);
    if (!membership) return [];
    const subscription = joins.subscriptionsByTenant.get(tenant._id);
    return [
      {
        Id: tenant._id,
        Name: tenant.Name,
        Role: roleOf(membership),
        Access: membership.Status === 'ACTIVE',
        Platforms: platforms.get(tenant._id) ?? [],
        Recipients: recipients.get(tenant._id) ?? 0,
        Subscription: {
          // The billing subscription's plan, else the plan the tenant signed up with.
          PlanIdentifier: subscription?.planIdentifier ?? tenant.PlanIdentifier,
          PlanName: subscription?.planName ?? null,
          BillingTenantId: subscription?.billingTenantId ?? null,
          PaymentStatus: subscription?.paymentStatus ?? null,
        },
        HasClientMatch: false,
        Classification: tenant.Classification,
        UsageType: tenant.UsageType,
        isDemo: isDemo(tenant),
      },
    ];
  });
  return { clients: rows.filter((row) => matches(row, query)).sort(clientOrder), stale };
};
