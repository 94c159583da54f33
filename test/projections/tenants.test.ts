import type { EventStore } from '../../commands/event-store/event-store';
import { billingSubscriptionsProjection } from '../../projections/billing/billing-projection';
import { ProjectionProcessor } from '../../projections/framework/projection-processor';
import { queryLinkedTenants, queryTenant } from '../../projections/tenants/query-tenant';
import {
  queryTenantList,
  queryTenantSummary,
  type TenantListQuery,
} from '../../projections/tenants/query-tenants';
import { queryUserTenants } from '../../projections/tenants/query-user-tenants';
import { partnersProjection } from '../../projections/partners/partners-projection';
import { sellersProjection } from '../../projections/sellers/sellers-projection';
import { tenantsProjection } from '../../projections/tenants/tenants-projection';
import { usersProjection } from '../../projections/users/users-projection';
import { platformAdmin, portalCommands, tenantAdmin, type PortalCommands } from './portal-commands';
import { useProjectionTestSetup } from './projection-test-setup';
import { replayTwice } from './replay-twice';

const { context, openStore } = useProjectionTestSetup(__filename);

let store: EventStore;
let commands: PortalCommands;

const catchUp = () =>
  Promise.all(
    [
      tenantsProjection,
      usersProjection,
      sellersProjection,
      partnersProjection,
      billingSubscriptionsProjection,
    ].map((projection) =>
      new ProjectionProcessor({ db: context.db, store, decode: context.decode, projection }).catchUp(),
    ),
  );

const bulkIds = Array.from({ length: 18 }, (_, n) => 101 + n);
const list = async (query: TenantListQuery = {}) => queryTenantList(context.db, query);
const ids = async (query: TenantListQuery) => (await list(query)).rows.map((row) => row.Id);

beforeAll(async () => {
  store = openStore();
  commands = portalCommands(store, context.keys);
  const c = commands;
  await c.registerUser(10, { email: 'ann@acme.example', givenName: 'Ann', familyName: 'Archer' });
  await c.registerUser(20, { email: 'ben@baker.example', givenName: 'Ben', familyName: 'Baker' });
  await c.registerUser(30, { email: 'cat@acme.example', givenName: 'Cat', familyName: 'Cole' });
  await c.registerUser(40, { email: 'dan@acme.example', givenName: 'Dan', familyName: 'Drew' });

  await c.createTenant(
    1,
    {
      name: 'Acme Ltd',
      classification: 'BUSINESS',
      planIdentifier: 'growth_business',
      referrer: 'newsletter',
      landingPage: '/pricing',
    },
    10,
  );
  await c.createTenant(2, { name: 'Baker Advisors', classification: 'FIRM' }, 20);
  await c.createPartner(61, 2, 'Baker Partners');
  await c.createTenant(3, { name: 'Cobalt Labs', classification: 'BUSINESS', usageType: 'TEST' }, null);
  await c.createTenant(
    4,
    { name: 'Delta Internal', classification: 'BUSINESS', usageType: 'INTERNAL', partnerId: 61 },
    null,
  );
  for (const id of [5, 6, 7]) {
    const name = { 5: 'Echo Goods', 6: 'Foxtrot Foods', 7: 'Golf Gear' }[id] ?? '';
    await c.createTenant(id, { name, classification: 'BUSINESS' }, null);
  }
  for (const id of bulkIds) {
    await c.createTenant(
      id,
      { name: `Bulk tenant ${String.fromCharCode(96 + id - 100)}`, classification: 'BUSINESS' },
      null,
    );
  }

  await c.addMember(30, 1, { role: 'USER' });
  await c.addMember(40, 1, { role: 'USER' });
  await c.addMember(40, 5, { role: 'USER' });
  await c.addMember(30, 4, { role: 'USER' });
  await c.user(30, {
    type: 'ChangeMembershipStatus',
    actor: platformAdmin,
    data: { tenantId: 4, status: 'INACTIVE', toggleReports: true },
  });

  const ann = tenantAdmin(10);
  await c.tenant(1, { type: 'RenameTenant', actor: ann, data: { name: 'Acme Analytics' } });
  await c.tenant(1, { type: 'ChangeReportingSettings', actor: ann, data: { weeklyDay: 4, currency: 'GBP' } });
  await c.tenant(1, {
    type: 'SubmitTenantLogo',
    actor: ann,
    data: { logoUrl: 'logos/1/first.png', contentType: 'image/png' },
  });
  await c.tenant(1, {
    type: 'ReviewTenantLogo',
    actor: platformAdmin,
    data: { logoUrl: 'logos/1/first.png', decision: 'APPROVED' },
  });
  await c.tenant(1, {
    type: 'SubmitTenantLogo',
    actor: ann,
    data: { logoUrl: 'logos/1/second.svg', contentType: 'image/svg+xml' },
  });
  await c.startSubscription(501, { tenantId: 1, billingTenantId: 1, plan: 'growth_business' });

  await c.tenant(5, { type: 'DisableTenant', actor: platformAdmin, data: { reason: 'STOPPED_PAYING' } });
  await c.tenant(6, { type: 'DisableTenant', actor: platformAdmin, data: { reason: 'DUPLICATE' } });
  await c.tenant(6, { type: 'PurgeTenant', actor: platformAdmin, data: { permanent: false } });
  await c.tenant(7, { type: 'DisableTenant', actor: platformAdmin, data: { reason: 'TESTING' } });
  await c.tenant(7, { type: 'PurgeTenant', actor: platformAdmin, data: { permanent: true } });

  await c.connectSeller(901, 1, 'QBO');
  await c.connectSeller(902, 1, 'XERO');
  await c.connectSeller(903, 1, 'SAGE');
  await c.deactivateSeller(903);
  await c.connectSeller(904, 4, 'QBO');
  await c.connectSeller(905, 3, 'STRIPE');
  await c.deleteSeller(905);
  await catchUp();
});

describe('the tenants read model', () => {
  it('holds every field of the Tenant entity the events carry, with its partners and subscription', async () => {
    const { tenant, stale } = await queryTenant(context.db, { tenantId: 1 });

    expect(stale).toBe(false);
    expect(tenant).toMatchObject({
      Id: 1,
      Name: 'Acme Analytics',
      FriendlyName: null,
      Classification: 'BUSINESS',
      UsageType: 'NORMAL',
      BusinessModel: null,
      Industry: null,
      PartnerId: null,
      Referrer: 'newsletter',
      ReferrerIdentifier: null,
      LandingPage: '/pricing',
      PlanIdentifier: 'growth_business',
      AdvisoryPartner: null,
      ClientsPartner: null,
      Settings: {
        Reporting: {
          RetentionPeriod: 'AUTO',
          WeeklyDay: 4,
          MonthlyDay: 7,
          Currency: 'GBP',
          WeeklyEmailsDisabled: false,
          MonthlyEmailsDisabled: false,
        },
        Partner: { Logo: 'logos/1/first.png' },
        PlanIdentifier: 'growth_business',
      },
      Logo: {
        URL: 'logos/1/first.png',
        PendingURL: 'logos/1/second.svg',
        PendingContentType: 'image/svg+xml',
        LastDecision: 'APPROVED',
      },
      Subscription: {
        Id: 501,
        BillingTenantId: 1,
        Plan: { identifier: 'growth_business' },
        PaymentStatus: 'active',
      },
      CreatedBy: 10,
      status: 'active',
      deletedAt: null,
      DisableReason: null,
      purged: false,
    });
    expect(tenant?.createdAt).toMatch(/^2026-01-05T/);
  });

  it("joins a firm's own partner (ClientsPartner) and a client's advisory partner", async () => {
    const firm = (await queryTenant(context.db, { tenantId: 2 })).tenant;
    const client = (await queryTenant(context.db, { tenantId: 4 })).tenant;

    expect(firm).toMatchObject({
      Classification: 'FIRM',
      FriendlyName: 'Baker Advisors',
      ClientsPartner: { Id: 61, Name: 'Baker Partners', ClientPlanIdentifier: 'growth_client' },
      AdvisoryPartner: null,
    });
    expect(client).toMatchObject({ PartnerId: 61, AdvisoryPartner: { Id: 61, Name: 'Baker Partners' } });
  });

  it("lists a firm's linked clients and a client's advisory firm (expandable row)", async () => {
    const linked = async (tenantId: number) =>
      (await queryLinkedTenants(context.db, { tenantId })).tenants.map((t) => [t.Id, t.Name, t.link]);

    expect(await linked(2)).toEqual([[4, 'Delta Internal', 'client']]);
    expect(await linked(4)).toEqual([[2, 'Baker Advisors', 'advisor']]);
    expect(await linked(1)).toEqual([]);
  });

  it('shows a disabled tenant with its date and reason; a purged one only to whoever asks for it; a permanent purge not at all', async () => {
    expect((await queryTenant(context.db, { tenantId: 5 })).tenant).toMatchObject({
      status: 'disabled',
      DisableReason: 'STOPPED_PAYING',
      deletedAt: expect.stringMatching(/^2026-01-05T/) as string,
    });
    expect((await queryTenant(context.db, { tenantId: 6 })).tenant).toBeNull();
    expect((await queryTenant(context.db, { tenantId: 6, includePurged: true })).tenant).toMatchObject({
      status: 'purged',
      purged: true,
      DisableReason: 'DUPLICATE',
    });
    expect((await queryTenant(context.db, { tenantId: 7, includePurged: true })).tenant).toBeNull();
  });

  it('lists 20 tenants a page, newest first, with user and active-seller counts', async () => {
    const first = await list();
    const second = await list({ page: 2 });

    expect(first.total).toBe(23);
    expect(first.pagination).toEqual({ page: 1, pageSize: 20, pageCount: 2 });
    expect(first.rows).toHaveLength(20);
    expect(first.rows.map((row) => row.Id).slice(0, 3)).toEqual([118, 117, 116]);
    expect(second.rows.map((row) => row.Id)).toEqual([3, 2, 1]);
    const counts = Object.fromEntries(
      [...first.rows, ...second.rows].map((row) => [row.Id, [row.userCount, row.activeSellerCount]]),
    );
    expect(counts).toMatchObject({ 1: [3, 2], 2: [1, 0], 3: [0, 0], 4: [1, 1], 5: [1, 0], 101: [0, 0] });
  });

  it('filters by usage type, classification, users and active sellers, showing every match unpaged', async () => {
    expect(await ids({ usageTypes: ['TEST', 'INTERNAL'] })).toEqual([4, 3]);
    expect(await ids({ classification: 'FIRM' })).toEqual([2]);
    expect(await ids({ hasUsers: true })).toEqual([5, 4, 2, 1]);
    expect(await ids({ hasUsers: false })).toEqual([...[...bulkIds].reverse(), 3]);
    expect(await ids({ hasActiveSellers: true })).toEqual([4, 1]);
    expect(await ids({ hasUsers: true, hasActiveSellers: false })).toEqual([5, 2]);
    const filtered = await list({ hasUsers: false });
    expect(filtered.pagination).toBeNull();
    expect(filtered.total).toBe(19);
    expect(filtered.rows).toHaveLength(19);
  });

  it('searches by part of the name, in any case, or by id', async () => {
    expect(await ids({ search: 'acme AN' })).toEqual([1]);
    expect(await ids({ search: '  delta ' })).toEqual([4]);
    expect(await ids({ search: '3' })).toEqual([3]);
    expect(await ids({ search: 'no such company' })).toEqual([]);
    expect((await list({ search: 'bulk' })).total).toBe(18);
  });

  it('sorts by a column in either direction, counts included', async () => {
    const named = await ids({ sort: { field: 'Name', direction: 'asc' } });
    expect(named.slice(0, 3)).toEqual([1, 2, 101]);
    expect(named.slice(-3)).toEqual([3, 4, 5]);
    expect((await ids({ sort: { field: 'userCount', direction: 'desc' } })).slice(0, 4)).toEqual([
      1, 2, 4, 5,
    ]);
    expect((await ids({ sort: { field: 'activeSellerCount', direction: 'desc' } })).slice(0, 2)).toEqual([
      1, 4,
    ]);
    expect((await ids({ sort: { field: 'createdAt', direction: 'asc' } })).slice(0, 3)).toEqual([1, 2, 3]);
    expect((await list({ sort: { field: 'Id', direction: 'asc' } })).pagination).toBeNull();
    // With a users or sellers filter the sort happens beside the counts, in memory.
    expect(await ids({ hasUsers: true, sort: { field: 'Name', direction: 'desc' } })).toEqual([5, 4, 2, 1]);
    expect(await ids({ hasUsers: true, sort: { field: 'createdAt', direction: 'asc' } })).toEqual([
      1, 2, 4, 5,
    ]);
    expect(
      (await ids({ hasActiveSellers: false, sort: { field: 'userCount', direction: 'desc' } })).slice(0, 2),
    ).toEqual([2, 5]);
  });

  it('counts businesses, firms and active sellers for the summary cards', async () => {
    // 1, 3, 4, 5 and the bulk tenants; the purged ones are gone. Seller 905 is deleted, 903 inactive.
    expect(await queryTenantSummary(context.db)).toEqual({ businesses: 22, firms: 1, sellers: 3 });
  });

  it("lists a user's tenants for the switcher: active memberships of tenants in use, by name", async () => {
    const names = async (userId: number) =>
      (await queryUserTenants(context.db, { userId })).tenants.map((t) => [
        t.Id,
        t.Role,
        t.MembershipClassification,
      ]);

    expect(await names(10)).toEqual([[1, 'ADMIN', 'MEMBER']]);
    expect(await names(20)).toEqual([[2, 'ADMIN', 'ADVISOR']]);
    // 30's access to Delta Internal is disabled; 40's Echo Goods is disabled.
    expect(await names(30)).toEqual([[1, 'USER', 'MEMBER']]);
    expect(await names(40)).toEqual([[1, 'USER', 'MEMBER']]);
    expect(await names(99)).toEqual([]);
  });

  it('shows a restore and a rename after the next catch-up, and waits for them when asked', async () => {
    await commands.tenant(5, { type: 'RestoreTenant', actor: platformAdmin, data: {} });
    const renamed = await commands.tenant(2, {
      type: 'RenameTenant',
      actor: tenantAdmin(20),
      data: { name: 'Baker & Sons Advisors' },
    });

    const before = await queryTenant(context.db, {
      tenantId: 2,
      afterPosition: renamed.position,
      waitTimeoutMs: 20,
    });
    expect(before.stale).toBe(true);
    await catchUp();
    const after = await queryTenant(context.db, { tenantId: 2, afterPosition: renamed.position });
    expect(after).toMatchObject({ stale: false, tenant: { Name: 'Baker & Sons Advisors' } });
    expect((await queryTenant(context.db, { tenantId: 5 })).tenant).toMatchObject({
      status: 'active',
      deletedAt: null,
      DisableReason: null,
    });
    expect(await ids({ search: '& sons' })).toEqual([2]);
  });

  it("reads a tenant's subscription from the billing read model, and waits for it when asked", async () => {
    const started = await commands.startSubscription(502, {
      tenantId: 2,
      billingTenantId: 2,
      plan: 'advisor',
    });
    // Every read model but billing catches up: the tenants one has nothing to do with billing events.
    await Promise.all(
      [tenantsProjection, usersProjection, sellersProjection, partnersProjection].map((projection) =>
        new ProjectionProcessor({ db: context.db, store, decode: context.decode, projection }).catchUp(),
      ),
    );
    const before = await queryTenant(context.db, {
      tenantId: 2,
      afterPosition: started,
      waitTimeoutMs: 20,
    });
    expect(before).toMatchObject({ stale: true, tenant: { Subscription: null } });
    await catchUp();
    expect(await queryTenant(context.db, { tenantId: 2, afterPosition: started })).toMatchObject({
      stale: false,
      tenant: { Subscription: { Id: 502, BillingTenantId: 2, Plan: { identifier: 'advisor' } } },
    });
  });

  it('writes the same documents when every event is delivered twice and the history replayed', async () => {
    const { live, twice, replayed } = await replayTwice({ ...context, store }, tenantsProjection);

    expect(live.tenants?.count).toBe(24);
    expect(twice).toEqual(live);
    expect(replayed).toEqual(live);
  });
});
