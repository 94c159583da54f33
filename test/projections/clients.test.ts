import type { EventStore } from '../../commands/event-store/event-store';
import { billingSubscriptionsProjection } from '../../projections/billing/billing-projection';
import { queryClients, type ClientListQuery } from '../../projections/clients/query-clients';
import { ProjectionProcessor } from '../../projections/framework/projection-processor';
import { recipientsProjection } from '../../projections/recipients/recipients-projection';
import { sellersProjection } from '../../projections/sellers/sellers-projection';
import { tenantsProjection } from '../../projections/tenants/tenants-projection';
import { usersProjection } from '../../projections/users/users-projection';
import { platformAdmin, portalCommands } from './portal-commands';
import { useProjectionTestSetup } from './projection-test-setup';

const { context, openStore } = useProjectionTestSetup(__filename);

let store: EventStore;

const catchUp = () =>
  Promise.all(
    [
      tenantsProjection,
      usersProjection,
      sellersProjection,
      recipientsProjection,
      billingSubscriptionsProjection,
    ].map((projection) =>
      new ProjectionProcessor({ db: context.db, store, decode: context.decode, projection }).catchUp(),
    ),
  );

const ava = 12;
const bo = 13;
const ids = async (query: Omit<ClientListQuery, 'userId'> & { userId?: number }) =>
  (await queryClients(context.db, { userId: ava, ...query })).clients.map((row) => row.Id);

beforeAll(async () => {
  store = openStore();
  const c = portalCommands(store, context.keys);
  await c.registerUser(ava, { email: 'ava@vale.example', givenName: 'Ava', familyName: 'Vale' });
  await c.registerUser(bo, { email: 'bo@birch.example', givenName: 'Bo', familyName: 'Birch' });

  // Creating a firm makes Ava an advisor; the clients she then adds are advisor-classified memberships.
  await c.createTenant(2, { name: 'Vale Advisory', classification: 'FIRM' }, ava);
  await c.createTenant(
    11,
    { name: 'Zeta Bakery', classification: 'BUSINESS', planIdentifier: 'growth_client' },
    ava,
  );
  await c.createTenant(
    12,
    { name: 'alpha Plumbing', classification: 'BUSINESS', planIdentifier: 'growth_client' },
    ava,
  );
  await c.createTenant(13, { name: 'Demo Client', classification: 'BUSINESS', usageType: 'DEMO' }, ava);
  await c.createTenant(14, { name: 'Midway Farms', classification: 'BUSINESS' }, null);
  await c.addMember(ava, 14, { role: 'USER', classification: 'ADVISOR', jobTitle: 'Advisor' });
  await c.user(ava, {
    type: 'ChangeMembershipStatus',
    actor: platformAdmin,
    data: { tenantId: 14, status: 'INACTIVE', toggleReports: false },
  });
  await c.createTenant(15, { name: 'Orchard Co', classification: 'BUSINESS' }, null);
  await c.addMember(ava, 15, { role: 'USER', classification: 'MEMBER' });
  await c.createTenant(16, { name: 'Quarry Ltd', classification: 'BUSINESS' }, ava);
  await c.tenant(16, { type: 'DisableTenant', actor: platformAdmin, data: { reason: 'STOPPED_PAYING' } });
  await c.startSubscription(511, { tenantId: 11, billingTenantId: 2, plan: 'basic_client' });

  await c.createTenant(3, { name: 'Birch Advisory', classification: 'FIRM' }, bo);
  await c.createTenant(21, { name: 'Beta Shop', classification: 'BUSINESS' }, bo);

  await c.connectSeller(901, 11, 'QBO');
  await c.connectSeller(902, 11, 'XERO');
  await c.deactivateSeller(902);
  await c.connectSeller(903, 11, 'STRIPE');
  await c.deleteSeller(903);
  await c.connectSeller(904, 13, 'DEMO');
  await c.connectSeller(905, 21, 'SAGE');
  await c.connectSeller(906, 12, 'QBD');
  await c.disconnectSeller(906);
  for (const id of [801, 802, 803, 804, 805]) await c.subscribeRecipient(id, { sellerId: 901, tenantId: 11 });
  await c.deactivateRecipient(804);
  await c.deleteRecipient(805);
  await c.subscribeRecipient(806, { sellerId: 905, tenantId: 21 });
  await catchUp();
});

describe("an advisor's clients", () => {
  it('lists the tenants where the membership is classified advisor, by name, Demo Client last', async () => {
    const { clients } = await queryClients(context.db, { userId: ava });

    // Orchard Co (a plain membership) and Quarry Ltd (disabled) are not listed.
    expect(clients.map((row) => [row.Id, row.Name])).toEqual([
      [12, 'alpha Plumbing'],
      [14, 'Midway Farms'],
      [2, 'Vale Advisory'],
      [11, 'Zeta Bakery'],
      [13, 'Demo Client'],
    ]);
  });

  it('shows my role, access, platforms, recipients and subscription on each row', async () => {
    const rows = (await queryClients(context.db, { userId: ava })).clients;
    const row = (id: number) => rows.find((r) => r.Id === id);

    expect(row(11)).toEqual({
      Id: 11,
      Name: 'Zeta Bakery',
      Role: 'Administrator',
      Access: true,
      Platforms: ['QBO', 'XERO'],
      // Two ACTIVE and one ADMIN; the deactivated and the deleted subscriptions receive nothing.
      Recipients: 3,
      Subscription: {
        PlanIdentifier: 'basic_client',
        PlanName: 'basic client',
        BillingTenantId: 2,
        PaymentStatus: 'active',
      },
      HasClientMatch: false,
      Classification: 'BUSINESS',
      UsageType: 'NORMAL',
      isDemo: false,
    });
    // The job title Advisor reads as Advisor; a disabled membership grants no access.
    expect(row(14)).toMatchObject({ Role: 'Advisor', Access: false, Platforms: [], Recipients: 0 });
    expect(row(12)?.Subscription).toEqual({
      PlanIdentifier: 'growth_client',
      PlanName: null,
      BillingTenantId: null,
      PaymentStatus: null,
    });
    expect(row(13)).toMatchObject({ isDemo: true, Platforms: ['DEMO'], UsageType: 'DEMO' });
  });

  it('searches by name or id and filters by platform presence, provider and plan', async () => {
    expect(await ids({ search: 'ZETA' })).toEqual([11]);
    expect(await ids({ search: '14' })).toEqual([14]);
    expect(await ids({ search: 'nothing like it' })).toEqual([]);
    expect(await ids({ hasPlatforms: true })).toEqual([11, 13]);
    expect(await ids({ hasPlatforms: false })).toEqual([12, 14, 2]);
    expect(await ids({ platform: 'XERO' })).toEqual([11]);
    expect(await ids({ plans: ['basic_client'] })).toEqual([11]);
    expect(await ids({ plans: ['growth_client', 'basic_client'], hasPlatforms: false })).toEqual([12]);
  });

  it("never shows another advisor's clients", async () => {
    expect(await ids({ userId: bo })).toEqual([21, 3]);
    expect((await queryClients(context.db, { userId: bo })).clients[0]).toMatchObject({
      Platforms: ['SAGE'],
      Recipients: 1,
    });
    expect(await ids({ userId: 404 })).toEqual([]);
  });
});
