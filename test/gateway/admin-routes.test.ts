import { AuditResponse } from '../../contracts/api/audit';
import { Partner, PartnersResponse } from '../../contracts/api/partners';
import ExcelJS from 'exceljs';
import { AnalyticsStatsResponse } from '../../contracts/api/analytics';
import { StatsResponse } from '../../contracts/api/stats';
import { SELLER_ANALYTICS_TOTALS } from '../../projections/analytics/analytics-store';
import { ErrorResponse } from '../../contracts/errors';
import { systemActor } from '../../domain/actor';
import { tenantDecider } from '../../domain/tenant/tenant-decider';
import { plainUserOf } from './admin-fixtures';
import { companyFor, platformAdmin, signUp } from './fixtures';
import { useGatewayWorld } from './gateway-world';
import { tenantStream } from '../../contracts/stream-ids';

const world = useGatewayWorld(__filename);

let admin: ReturnType<typeof platformAdmin> | undefined;
const signedInAdmin = async () => (await (admin ??= platformAdmin(world))).browser;

/** A firm with its admin signed in and switched into it. */
const firm = async (name: string) => {
  const owner = await signUp(world, { name: `${name.replaceAll(' ', '-').toLowerCase()}-owner` });
  const tenantId = await companyFor(world, owner, { name, classification: 'FIRM' });
  return { owner, tenantId };
};

const errorOf = (response: { json: () => unknown }) => ErrorResponse.parse(response.json());

describe('partners', () => {
  it('creates a partner for a tenant, lists it with its clients, and searches by name', async () => {
    const browser = await signedInAdmin();
    const { tenantId } = await firm('Northwind Advisory');
    const created = await browser.post('/api/partners', {
      Name: 'Northwind Partners',
      ClientPlanIdentifier: 'free_client',
      TenantId: tenantId,
    });
    expect(created.statusCode).toBe(200);
    const partner = Partner.parse(created.json());
    expect(partner).toMatchObject({
      TenantId: tenantId,
      Tenant: { Id: tenantId, Name: 'Northwind Advisory' },
      Name: 'Northwind Partners',
      ClientPlanIdentifier: 'free_client',
      Clients: 0,
    });

    // Two client companies linked to the partner count as its Clients.
    for (const client of ['Client One', 'Client Two']) {
      const owner = await signUp(world, { name: client.replace(' ', '') });
      const clientId = await companyFor(world, owner, { name: client });
      await world.run(tenantDecider, tenantStream(clientId), {
        type: 'ChangeTenantPartner',
        data: { partnerId: partner.Id },
        now: world.clock.now(),
        actor: systemActor,
      });
    }
    await world.settle();
    const listed = PartnersResponse.parse((await browser.get('/api/partners?search=northwind')).json());
    expect(listed.rows).toEqual([expect.objectContaining({ Id: partner.Id, Clients: 2 })]);
    expect(listed.filtered).toBe(1);
    const none = PartnersResponse.parse((await browser.get('/api/partners?search=zzz-nobody')).json());
    expect(none.rows).toEqual([]);
  });

  it('answers a name another partner of the tenant has with the spec text', async () => {
    const browser = await signedInAdmin();
    const { tenantId } = await firm('Dup Advisory');
    const body = { Name: 'Dup Partners', ClientPlanIdentifier: 'free_client', TenantId: tenantId };
    expect((await browser.post('/api/partners', body)).statusCode).toBe(200);
    const again = await browser.post('/api/partners', { ...body, Name: ' dup partners ' });
    expect(again.statusCode).toBe(422);
    expect(errorOf(again)).toMatchObject({
      message: 'Name already exists within Tenant.',
      properties: { Name: 'not_unique' },
    });
  });

  it('requires Name, ClientPlanIdentifier and TenantId, and refuses unknown fields and tenants', async () => {
    const browser = await signedInAdmin();
    const empty = await browser.post('/api/partners', { Name: ' ' });
    expect(empty.statusCode).toBe(422);
    expect(errorOf(empty).properties).toEqual({
      Name: 'required',
      ClientPlanIdentifier: 'required',
      TenantId: 'required',
    });
    const unknownField = await browser.post('/api/partners', { Name: 'X', Colour: 'red' });
    expect(unknownField.statusCode).toBe(422);
    expect(errorOf(unknownField).properties).toMatchObject({ Colour: 'unknown field' });
    const unknownTenant = await browser.post('/api/partners', {
      Name: 'X',
      ClientPlanIdentifier: 'free_client',
      TenantId: 987_654_321,
    });
    expect(unknownTenant.statusCode).toBe(422);
    expect(errorOf(unknownTenant).properties).toEqual({ TenantId: 'not_found' });
  });

  it('updates the partner named by its tenant, keeping the name unique', async () => {
    const browser = await signedInAdmin();
    const { tenantId } = await firm('Patch Advisory');
    const create = (Name: string) =>
      browser.post('/api/partners', { Name, ClientPlanIdentifier: 'free_client', TenantId: tenantId });
    const first = Partner.parse((await create('Patch One')).json());
    const patched = await browser.patch(`/api/partners/${tenantId}`, {
      Name: 'Patch Renamed',
      ClientPlanIdentifier: 'growth_client',
      LogoURL: 'https://cdn.example.com/logo.png',
      WeeklyDay: 1,
      MonthlyDay: 15,
    });
    expect(patched.statusCode).toBe(200);
    expect(Partner.parse(patched.json())).toMatchObject({
      Id: first.Id,
      Name: 'Patch Renamed',
      ClientPlanIdentifier: 'growth_client',
      LogoURL: 'https://cdn.example.com/logo.png',
      WeeklyDay: 1,
      MonthlyDay: 15,
    });

    // With a second partner the tenant's partner must be named, and names stay unique.
    const second = Partner.parse((await create('Patch Two')).json());
    const ambiguous = await browser.patch(`/api/partners/${tenantId}`, { Name: 'Whichever' });
    expect(ambiguous.statusCode).toBe(422);
    expect(errorOf(ambiguous).properties).toEqual({ Id: 'required' });
    const clash = await browser.patch(`/api/partners/${tenantId}`, { Id: second.Id, Name: 'PATCH RENAMED' });
    expect(clash.statusCode).toBe(422);
    expect(errorOf(clash)).toMatchObject({ message: 'Name already exists within Tenant.' });
  });

  it('answers bad PATCH input with 422 and an unknown tenant’s partner with 404', async () => {
    const browser = await signedInAdmin();
    const bad = await browser.patch('/api/partners/abc', { WeeklyDay: 9 });
    expect(bad.statusCode).toBe(422);
    expect(errorOf(bad).properties).toHaveProperty('TenantId');
    const days = await browser.patch('/api/partners/1', { WeeklyDay: 9, MonthlyDay: 0 });
    expect(days.statusCode).toBe(422);
    expect(Object.keys(errorOf(days).properties ?? {})).toEqual(['WeeklyDay', 'MonthlyDay']);
    const missing = await browser.patch('/api/partners/987654321', { Name: 'Nobody' });
    expect(missing.statusCode).toBe(404);
    expect(errorOf(missing).message).toBe('Partner not found.');
  });

  it('is for platform admins only, even for the tenant’s own admin', async () => {
    const { owner, tenantId } = await firm('Own Advisory');
    expect((await owner.browser.get('/api/partners')).statusCode).toBe(403);
    const create = await owner.browser.post('/api/partners', {
      Name: 'Mine',
      ClientPlanIdentifier: 'free_client',
      TenantId: tenantId,
    });
    expect(create.statusCode).toBe(403);
    expect((await owner.browser.patch(`/api/partners/${tenantId}`, { Name: 'Mine' })).statusCode).toBe(403);
    expect((await world.browser().get('/api/partners')).statusCode).toBe(401);
  });
});

describe('audit history', () => {
  it('shows a tenant’s admin the user actions on their tenant, newest first, with request details', async () => {
    const owner = await signUp(world, { name: 'audited' });
    const tenantId = await companyFor(world, owner, { name: 'Audited Co' });
    // A user action through the API, so the row carries the request.
    const invited = await owner.browser.post('/api/auth/invite', {
      name: 'Ann Audit',
      email: world.email('ann-audit'),
      role: 'USER',
    });
    expect(invited.statusCode).toBe(200);

    const response = await owner.browser.get(`/api/tenants/${tenantId}/audit`);
    expect(response.statusCode).toBe(200);
    const { rows } = AuditResponse.parse(response.json());
    const invite = rows.find((row) => row.Type === 'InviteCreated');
    expect(invite).toMatchObject({
      UserId: owner.session.user.Id,
      User: { Email: owner.email },
      Action: 'CREATE',
      Asset: 'invite',
      Request: { URL: '/api/auth/invite', method: 'POST' },
    });
    expect(invite?.Request.IP).toMatch(/\S/);
    expect(invite?.Request.body).toMatchObject({ name: 'Ann Audit' });
    const created = rows.find((row) => row.Type === 'TenantCreated');
    expect(created).toMatchObject({ Asset: 'tenant', AssetId: String(tenantId) });
    expect(rows.indexOf(invite ?? rows[0]!)).toBeLessThan(rows.indexOf(created ?? rows[0]!));

    const limited = AuditResponse.parse(
      (await owner.browser.get(`/api/tenants/${tenantId}/audit?limit=1`)).json(),
    );
    expect(limited.rows).toHaveLength(1);
    expect(limited.rows[0]?.Id).toBe(rows[0]?.Id);
  });

  it('lets a platform admin read any tenant and answers an unknown tenant with 404', async () => {
    const owner = await signUp(world, { name: 'audited2' });
    const tenantId = await companyFor(world, owner, { name: 'Audited Two' });
    const browser = await signedInAdmin();
    const { rows } = AuditResponse.parse((await browser.get(`/api/tenants/${tenantId}/audit`)).json());
    expect(rows.map((row) => row.Type)).toContain('TenantCreated');
    expect((await browser.get('/api/tenants/987654321/audit')).statusCode).toBe(404);
  });

  it('refuses a limit above 1000 and a bad tenant id with 422', async () => {
    const browser = await signedInAdmin();
    const over = await browser.get('/api/tenants/1/audit?limit=1001');
    expect(over.statusCode).toBe(422);
    expect(errorOf(over).properties).toEqual({ limit: 'limit must be at most 1000' });
    const bad = await browser.get('/api/tenants/x/audit');
    expect(bad.statusCode).toBe(422);
    expect(errorOf(bad).properties).toHaveProperty('id');
  });

  it('refuses a plain user of the tenant and the admin of another tenant', async () => {
    const owner = await signUp(world, { name: 'audit-owner' });
    const tenantId = await companyFor(world, owner, { name: 'Audit Owner Co' });
    const other = await signUp(world, { name: 'audit-other' });
    await companyFor(world, other, { name: 'Audit Other Co' });
    expect((await other.browser.get(`/api/tenants/${tenantId}/audit`)).statusCode).toBe(403);

    const member = await plainUserOf(world, tenantId, 'audit-member');
    expect((await member.browser.get(`/api/tenants/${tenantId}/audit`)).statusCode).toBe(403);
  });
});

describe('stats', () => {
  it('counts partners and firms for platform admins, with the ledger figures at 0', async () => {
    const browser = await signedInAdmin();
    const before = StatsResponse.parse((await browser.get('/api/stats')).json()).stats;
    const { tenantId } = await firm('Stats Advisory');
    await browser.post('/api/partners', {
      Name: 'Stats Partners',
      ClientPlanIdentifier: 'free_client',
      TenantId: tenantId,
    });
    const after = StatsResponse.parse((await browser.get('/api/stats')).json()).stats;
    expect(after.partners).toBe(before.partners + 1);
    expect(after.firms).toBe(before.firms + 1);
    expect(after).toMatchObject({ customers: 0, invoices: 0, invoiceRevenue: 0 });
  });

  it('refuses tenant admins and guests, and takes no query', async () => {
    const owner = await signUp(world, { name: 'stats-owner' });
    await companyFor(world, owner, { name: 'Stats Owner Co' });
    expect((await owner.browser.get('/api/stats')).statusCode).toBe(403);
    expect((await world.browser().get('/api/stats')).statusCode).toBe(401);
    expect((await owner.browser.get('/api/stats/key-metrics')).statusCode).toBe(403);
    expect((await world.browser().get('/api/stats/key-metrics')).statusCode).toBe(401);
  });

  it('downloads the Key Metrics workbook: the cards’ figures and the 36 months they add up', async () => {
    const browser = await signedInAdmin();
    const now = world.clock.now();
    const monthOf = (back: number) => {
      const index = now.getUTCFullYear() * 12 + now.getUTCMonth() - back;
      return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
    };
    // Two sellers' monthly totals as the analytics consumers keep them; one month is 40 months old.
    const totals = world.services.db.collection<{ _id: number }>(SELLER_ANALYTICS_TOTALS);
    const month = (back: number, invoices: number, sales: number, customers: number) => ({
      month: monthOf(back),
      invoices,
      sales,
      lastInvoicedCustomers: customers,
    });
    await totals.insertMany([
      {
        _id: 990_001,
        epoch: 1,
        asOf: null,
        customers: 5,
        invoices: 14,
        sales: 1_000_000,
        months: [month(0, 4, 120_050, 2), month(1, 6, 300_000, 1), month(40, 4, 579_950, 2)],
        computedAt: now,
      },
      {
        _id: 990_002,
        epoch: 1,
        asOf: null,
        customers: 1,
        invoices: 3,
        sales: 45_000,
        months: [month(1, 3, 45_000, 1)],
        computedAt: now,
      },
    ] as never[]);
    try {
      const stats = AnalyticsStatsResponse.parse((await browser.get('/api/stats')).json()).stats;
      expect(stats).toMatchObject({
        invoices: 13,
        invoiceRevenue: 465_050,
        customers: 4,
        salesAllTime: 1_045_000,
      });

      const response = await browser.get('/api/stats/key-metrics');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('spreadsheetml');
      expect(response.headers['content-disposition']).toContain(
        `ledgerwise-key-metrics-${now.toISOString().slice(0, 10)}.xlsx`,
      );
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
      const valuesOf = (name: string) => {
        const rows: unknown[][] = [];
        workbook.getWorksheet(name)!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
        return rows;
      };
      expect(valuesOf('Key Metrics')).toEqual(
        expect.arrayContaining([
          ['Partners', stats.partners],
          ['Customers (T36M)', 4],
          ['Invoices (T36M)', 13],
        ]),
      );
      expect(valuesOf('Sales')).toEqual([
        ['Metric', 'Value'],
        ['Invoice Sales (T36M)', 4650.5],
        ['Sales (All Time)', 10450],
      ]);
      const months = valuesOf('Trailing 36 Months');
      expect(months[0]).toEqual([
        'Month',
        'Invoices',
        'Invoice Sales',
        'Customers Last Invoiced',
        'Sellers Invoicing',
      ]);
      expect(months).toHaveLength(37);
      expect(months[1]![0]).toBe(monthOf(35));
      expect(months[36]).toEqual([monthOf(0), 4, 1200.5, 2, 1]);
      expect(months[35]).toEqual([monthOf(1), 9, 3450, 2, 2]);
      // The months add up to the T36M cards.
      expect(months.slice(1).reduce((sum, row) => sum + Number(row[1]), 0)).toBe(stats.invoices);
    } finally {
      await totals.deleteMany({ _id: { $in: [990_001, 990_002] } });
    }
  });
});
