import { Binary } from 'mongodb';
import { z } from 'zod';
import {
  MyTenantsResponse,
  Tenant,
  TenantDetailsResponse,
  TenantListResponse,
} from '../../contracts/api/tenants';
import { UserWithTenants } from '../../contracts/api/users';
import { ErrorResponse } from '../../contracts/errors';
import { Industry } from '../../contracts/industries';
import { systemActor } from '../../domain/actor';
import { partnerDecider } from '../../domain/partner/partner-decider';
import { credentialVaultOf } from '../../gateway/use-cases/platforms/credential-vault-of';
import { logosCollection } from '../../gateway/use-cases/tenants/logo-store';
import type { Browser } from './gateway-world';
import { useGatewayWorld } from './gateway-world';
import { companyFor, platformAdmin } from './fixtures';
import { multipartForm, pngBytes as png } from './multipart-form';
import { joinAs, person, type Person } from './team-fixtures';
import { partnerStream } from '../../contracts/stream-ids';

const world = useGatewayWorld(__filename);

let adminPromise: ReturnType<typeof platformAdmin> | undefined;
const theAdmin = () => (adminPromise ??= platformAdmin(world));

let count = 0;
const idOf = (p: Person) => p.session.user.Id;

/** A business with its ADMIN owner and a plain USER, and someone of another business. */
const business = async () => {
  count += 1;
  const owner = await person(world, { name: `owner${count}` });
  const tenantId = await companyFor(world, owner, { name: `Business ${count}` });
  const member = await person(world, { name: `member${count}` });
  await joinAs(world, member, { tenantId, role: 'USER' });
  const stranger = await person(world, { name: `stranger${count}` });
  const otherTenantId = await companyFor(world, stranger, { name: `Elsewhere ${count}` });
  return { tenantId, owner, member, stranger, otherTenantId };
};

const welcome = { Name: 'Fresh Co', Industry: { FreeForm: 'Bakery' }, BusinessModel: 'B2C' };

const propertiesOf = (response: { json: () => unknown }) =>
  ErrorResponse.parse(response.json()).properties ?? {};

const upload = (browser: Browser, tenantId: number, files: Parameters<typeof multipartForm>[0]) => {
  const form = multipartForm(files);
  return browser.request({ method: 'POST', url: `/api/tenants/${tenantId}/logo`, ...form });
};

describe('POST /api/tenants', () => {
  it('creates the first company from the welcome modal, with the creator as its ADMIN', async () => {
    count += 1;
    const newcomer = await person(world, { name: `newcomer${count}` });
    const created = await newcomer.browser.post('/api/tenants', welcome);
    expect(created.statusCode).toBe(201);
    const tenant = Tenant.parse(created.json());
    expect(tenant).toMatchObject({ Name: 'Fresh Co', Classification: 'BUSINESS', BusinessModel: 'B2C' });
    const mine = MyTenantsResponse.parse((await newcomer.browser.get('/api/tenants')).json());
    expect(mine.tenants).toEqual([expect.objectContaining({ Id: tenant.Id, Role: 'ADMIN' })]);
  });

  it('takes any industry the suggestions offer, however long its NAICS description', async () => {
    count += 1;
    const newcomer = await person(world, { name: `newcomer${count}` });
    const industries = z
      .array(Industry)
      .parse((await newcomer.browser.get('/api/industries?source=NAICS2017')).json());
    const longest = industries.reduce((a, b) => (b.Description.length > a.Description.length ? b : a));
    expect(longest.Description.length).toBeGreaterThan(300);
    const created = await newcomer.browser.post('/api/tenants', {
      ...welcome,
      Industry: { FreeForm: longest.Title, NAICS2017: longest.Code, Description: longest.Description },
    });
    expect(created.statusCode).toBe(201);
    expect(Tenant.parse(created.json()).Industry).toMatchObject({
      NAICS2017: longest.Code,
      Description: longest.Description,
    });
  });

  it('makes the creator of a firm its advisor; a plan identifier decides the classification', async () => {
    count += 1;
    const founder = await person(world, { name: `founder${count}` });
    const firm = Tenant.parse(
      (
        await founder.browser.post('/api/tenants', {
          ...welcome,
          Name: 'Advisory LLP',
          planIdentifier: 'growth_client',
        })
      ).json(),
    );
    expect(firm.Classification).toBe('FIRM');
    expect(firm.FriendlyName).toBe('Advisory LLP');
    const self = UserWithTenants.parse((await founder.browser.get(`/api/users/${idOf(founder)}`)).json());
    expect(self.PrimaryClassification).toBe('ADVISOR');
    expect(self.DefaultPartnerTenantId).toBe(firm.Id);
  });

  it('links an advisor’s new client to the firm’s partner and its client plan', async () => {
    count += 1;
    const advisor = await person(world, { name: `advisor${count}` });
    const firmId = await companyFor(world, advisor, { name: `Firm ${count}`, classification: 'FIRM' });
    const partnerId = 800_000 + count;
    await world.run(partnerDecider, partnerStream(partnerId), {
      type: 'CreatePartner',
      data: {
        partnerId,
        tenantId: firmId,
        name: `Firm ${count} Partners`,
        clientPlanIdentifier: 'basic_client',
        nameTakenInTenant: false,
      },
      now: world.clock.now(),
      actor: systemActor,
    });
    await world.settle();
    const created = await advisor.browser.post('/api/tenants', { ...welcome, Name: 'Client Bakery' });
    expect(created.statusCode).toBe(201);
    expect(Tenant.parse(created.json())).toMatchObject({
      PartnerId: partnerId,
      AdvisoryPartner: { Id: partnerId },
      PlanIdentifier: 'basic_client',
    });
  });

  it('answers missing name, industry and classification with the spec’s texts', async () => {
    const { owner } = await business();
    const response = await owner.browser.post('/api/tenants', { Name: '' });
    expect(response.statusCode).toBe(422);
    expect(propertiesOf(response)).toMatchObject({ Name: 'Please enter company name' });
    const second = await owner.browser.post('/api/tenants', { Name: 'No Details' });
    expect(propertiesOf(second)).toMatchObject({
      Classification: 'Please select a classification',
      'Industry.FreeForm': 'Please enter an industry',
    });
  });

  it('refuses a plain user, and admin-only fields to anyone but a platform admin', async () => {
    const { owner, member } = await business();
    expect((await member.browser.post('/api/tenants', welcome)).statusCode).toBe(403);
    expect((await owner.browser.post('/api/tenants', { ...welcome, skipUserTenant: true })).statusCode).toBe(
      403,
    );
    expect((await owner.browser.post('/api/tenants', { ...welcome, UsageType: 'TEST' })).statusCode).toBe(
      403,
    );

    const admin = await theAdmin();
    const created = await admin.browser.post('/api/tenants', {
      Name: 'Admin Test Co',
      Classification: 'BUSINESS',
      UsageType: 'TEST',
      skipUserTenant: true,
    });
    expect(created.statusCode).toBe(201);
    const tenant = Tenant.parse(created.json());
    expect(tenant.UsageType).toBe('TEST');
    const mine = MyTenantsResponse.parse((await admin.browser.get('/api/tenants')).json());
    expect(mine.tenants.map((t) => t.Id)).not.toContain(tenant.Id);
  });
});

describe('GET /api/tenants and /api/tenants/:id', () => {
  it('shows a company to its members with its revision, and to nobody else', async () => {
    const { tenantId, member, stranger } = await business();
    const response = await member.browser.get(`/api/tenants/${tenantId}`);
    expect(response.statusCode).toBe(200);
    expect(Tenant.parse(response.json())).toMatchObject({
      Id: tenantId,
      Settings: { Reporting: { WeeklyDay: 2, MonthlyDay: 7, Currency: 'USD', RetentionPeriod: 'AUTO' } },
    });
    expect(response.headers.etag).toBe('"0"');
    expect((await stranger.browser.get(`/api/tenants/${tenantId}`)).statusCode).toBe(403);
    expect((await member.browser.get('/api/tenants/x')).statusCode).toBe(422);
  });

  it('gives platform admins the filtered admin list with summary cards; nobody else', async () => {
    const { owner } = await business();
    const admin = await theAdmin();
    const response = await admin.browser.get(
      `/api/tenants?scope=all&search=Business%20${count}&classification=BUSINESS`,
    );
    expect(response.statusCode).toBe(200);
    const list = TenantListResponse.parse(response.json());
    expect(list.rows.map((row) => [row.Name, row.userCount])).toEqual([[`Business ${count}`, 2]]);
    expect(list.pagination).toBeNull();
    expect(list.summary.businesses).toBeGreaterThan(0);
    const unfiltered = TenantListResponse.parse((await admin.browser.get('/api/tenants?scope=all')).json());
    expect(unfiltered.pagination).toMatchObject({ page: 1, pageSize: 20 });

    expect((await owner.browser.get('/api/tenants?scope=all')).statusCode).toBe(403);
    const bad = await admin.browser.get('/api/tenants?scope=all&classification=CLIENT&usageType=ODD');
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(propertiesOf(bad))).toEqual(expect.arrayContaining(['classification']));
  });
});

describe('PUT and PATCH /api/tenants/:id', () => {
  it('saves the Company and Reporting tabs for the company’s admin', async () => {
    const { tenantId, owner } = await business();
    const saved = await owner.browser.put(`/api/tenants/${tenantId}`, {
      Name: 'Renamed Business',
      BusinessModel: 'HYBRID',
      Industry: { FreeForm: 'Software', NAICS2017: '511210', Description: 'Software Publishers' },
      Settings: { Reporting: { WeeklyDay: 5, Currency: 'EUR' } },
    });
    expect(saved.statusCode).toBe(200);
    expect(Tenant.parse(saved.json())).toMatchObject({
      Name: 'Renamed Business',
      BusinessModel: 'HYBRID',
      Industry: { NAICS2017: '511210' },
      Settings: { Reporting: { WeeklyDay: 5, MonthlyDay: 7, Currency: 'EUR' } },
    });
    const patched = await owner.browser.patch(`/api/tenants/${tenantId}`, {
      Settings: { Reporting: { MonthlyEmailsDisabled: true, TimeZone: 'America/New_York' } },
    });
    expect(Tenant.parse(patched.json()).Settings.Reporting).toMatchObject({
      WeeklyDay: 5,
      MonthlyEmailsDisabled: true,
      TimeZone: 'America/New_York',
    });
  });

  it('refuses a plain user, another company, bad values, and admin fields as a whole save', async () => {
    const { tenantId, owner, member, stranger } = await business();
    expect((await member.browser.put(`/api/tenants/${tenantId}`, { Name: 'Mine now' })).statusCode).toBe(403);
    expect((await stranger.browser.put(`/api/tenants/${tenantId}`, { Name: 'Mine now' })).statusCode).toBe(
      403,
    );
    const bad = await owner.browser.put(`/api/tenants/${tenantId}`, {
      Settings: { Reporting: { WeeklyDay: 7, MonthlyDay: 29, TimeZone: 'Mars/Olympus' } },
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(propertiesOf(bad))).toEqual(
      expect.arrayContaining([
        'Settings.Reporting.WeeklyDay',
        'Settings.Reporting.MonthlyDay',
        'Settings.Reporting.TimeZone',
      ]),
    );
    const mixed = await owner.browser.put(`/api/tenants/${tenantId}`, { Name: 'Test Co', UsageType: 'TEST' });
    expect(mixed.statusCode).toBe(403);
    expect(Tenant.parse((await owner.browser.get(`/api/tenants/${tenantId}`)).json()).Name).toBe(
      `Business ${count}`,
    );

    const admin = await theAdmin();
    const byAdmin = await admin.browser.put(`/api/tenants/${tenantId}`, {
      UsageType: 'TEST',
      Referrer: 'partner-site',
      ActiveCampaignId: '4711',
    });
    expect(Tenant.parse(byAdmin.json())).toMatchObject({
      UsageType: 'TEST',
      Referrer: 'partner-site',
      ActiveCampaignId: '4711',
    });
    const ownersTry = await owner.browser.put(`/api/tenants/${tenantId}`, { ActiveCampaignId: '1' });
    expect(ownersTry.statusCode).toBe(403);
  });

  it('refuses a save from a stale page with 412, and a firm without a client display name', async () => {
    const { tenantId, owner } = await business();
    const etag = String((await owner.browser.get(`/api/tenants/${tenantId}`)).headers.etag);
    await owner.browser.put(`/api/tenants/${tenantId}`, { Name: 'First Edit' });
    const stale = await owner.browser.request({
      method: 'PUT',
      url: `/api/tenants/${tenantId}`,
      body: { Name: 'Second Edit' },
      headers: { 'if-match': etag },
    });
    expect(stale.statusCode).toBe(412);

    const firm = await owner.browser.put(`/api/tenants/${tenantId}`, {
      Classification: 'FIRM',
      FriendlyName: null,
    });
    expect(firm.statusCode).toBe(422);
    expect(propertiesOf(firm)).toHaveProperty('FriendlyName');
  });
});

describe('PUT /api/tenants/batch', () => {
  it('updates the advisor’s selected clients and adds a firm member as their advisor', async () => {
    count += 1;
    const advisor = await person(world, { name: `batch-advisor${count}` });
    const firmId = await companyFor(world, advisor, { name: `Batch Firm ${count}`, classification: 'FIRM' });
    const colleague = await person(world, { name: `colleague${count}` });
    await joinAs(world, colleague, { tenantId: firmId, role: 'USER', advisor: true });
    const clients: number[] = [];
    for (const name of ['North', 'South']) {
      const created = await advisor.browser.post('/api/tenants', { ...welcome, Name: `${name} ${count}` });
      clients.push(Tenant.parse(created.json()).Id);
    }
    const response = await advisor.browser.put('/api/tenants/batch', {
      Id: clients,
      WeeklyDay: 4,
      MonthlyEmailsDisabled: true,
      TeamMemberId: idOf(colleague),
    });
    expect(response.statusCode).toBe(200);
    const { tenants } = response.json<{ tenants: Tenant[] }>();
    expect(tenants.map((t) => t.Settings.Reporting)).toEqual([
      expect.objectContaining({ WeeklyDay: 4, MonthlyEmailsDisabled: true }),
      expect.objectContaining({ WeeklyDay: 4, MonthlyEmailsDisabled: true }),
    ]);
    const mine = MyTenantsResponse.parse((await colleague.browser.get('/api/tenants')).json());
    expect(mine.tenants.map((t) => t.Id)).toEqual(expect.arrayContaining(clients));
  });

  it('needs a setting, and changes nothing when one client is not the caller’s', async () => {
    const { tenantId, owner, otherTenantId } = await business();
    const empty = await owner.browser.put('/api/tenants/batch', { Id: [tenantId] });
    expect(empty.statusCode).toBe(422);
    expect(propertiesOf(empty)).toHaveProperty('settings');
    const refused = await owner.browser.put('/api/tenants/batch', {
      Id: [tenantId, otherTenantId],
      WeeklyDay: 0,
    });
    expect(refused.statusCode).toBe(403);
    const tenant = Tenant.parse((await owner.browser.get(`/api/tenants/${tenantId}`)).json());
    expect(tenant.Settings.Reporting.WeeklyDay).toBe(2);
  });
});

describe('DELETE /api/tenants/:id (platform admin)', () => {
  it('disables with a reason, then purges; refuses tenant admins and a permanent disable', async () => {
    const { tenantId, owner } = await business();
    expect((await owner.browser.delete(`/api/tenants/${tenantId}?reason=DUPLICATE`)).statusCode).toBe(403);
    const admin = await theAdmin();
    expect((await admin.browser.delete(`/api/tenants/${tenantId}?permanent=true`)).statusCode).toBe(422);
    expect((await admin.browser.delete(`/api/tenants/${tenantId}?reason=DUPLICATE`)).statusCode).toBe(200);
    expect(Tenant.parse((await admin.browser.get(`/api/tenants/${tenantId}`)).json())).toMatchObject({
      status: 'disabled',
      DisableReason: 'DUPLICATE',
    });
    // What the purge must remove: the company's connector secrets and its logo.
    const secretRef = await credentialVaultOf(world.services).store({
      tenantId,
      kind: 'sage',
      secret: { companyId: 'PURGED', userId: 'u', password: 'Purged-secret-1' },
    });
    await logosCollection(world.services.db).insertOne({
      _id: `purge-logo-${tenantId}`,
      tenantId,
      contentType: 'image/png',
      bytes: new Binary(png),
      size: png.length,
      uploadedAt: new Date(),
      uploadedBy: owner.session.user.Id,
    });
    // ...and its synced ledger, leaving other companies' rows alone.
    const customers = world.services.db.collection<{ _id: string; tenantId: number }>('ledger_customers');
    await customers.insertMany([
      { _id: `purge-customer-${tenantId}`, tenantId },
      { _id: `kept-customer-${tenantId}`, tenantId: tenantId + 100_000 },
    ]);
    expect((await admin.browser.delete(`/api/tenants/${tenantId}?purge=true`)).statusCode).toBe(200);
    expect(await customers.countDocuments({ tenantId })).toBe(0);
    expect(await customers.countDocuments({ tenantId: tenantId + 100_000 })).toBe(1);
    expect(await credentialVaultOf(world.services).read(secretRef)).toBeNull();
    expect(await logosCollection(world.services.db).countDocuments({ tenantId })).toBe(0);
    const list = TenantListResponse.parse(
      (await admin.browser.get(`/api/tenants?scope=all&search=${tenantId}`)).json(),
    );
    expect(list.rows.map((row) => row.Id)).not.toContain(tenantId);
  });
});

describe('POST /api/tenants/:id/restore (platform admin)', () => {
  it('restores a disabled tenant; refuses an active one and anyone but a platform admin', async () => {
    const { tenantId, owner } = await business();
    const admin = await theAdmin();
    expect((await admin.browser.post(`/api/tenants/${tenantId}/restore`, {})).statusCode).toBe(409);
    expect((await admin.browser.delete(`/api/tenants/${tenantId}?reason=TESTING`)).statusCode).toBe(200);
    expect((await owner.browser.post(`/api/tenants/${tenantId}/restore`, {})).statusCode).toBe(403);
    expect((await admin.browser.post(`/api/tenants/${tenantId}/restore`, {})).statusCode).toBe(200);
    expect(Tenant.parse((await admin.browser.get(`/api/tenants/${tenantId}`)).json())).toMatchObject({
      status: 'active',
    });
    expect((await admin.browser.post('/api/tenants/999999999/restore', {})).statusCode).toBe(404);
  });
});

describe('GET /api/tenants/:id/details (platform admin)', () => {
  it('lists a tenant’s users with roles and the firm a client is linked to', async () => {
    const { tenantId, owner, member } = await business();
    const admin = await theAdmin();
    const firmOwner = await person(world, { name: `firmowner${count}` });
    const firmId = await companyFor(world, firmOwner, {
      name: `Linked Firm ${count}`,
      classification: 'FIRM',
    });
    const partnerId = 810_000 + count;
    await world.run(partnerDecider, partnerStream(partnerId), {
      type: 'CreatePartner',
      data: {
        partnerId,
        tenantId: firmId,
        name: `Linked ${count}`,
        clientPlanIdentifier: 'basic_client',
        nameTakenInTenant: false,
      },
      now: world.clock.now(),
      actor: systemActor,
    });
    await world.settle();
    expect((await admin.browser.put(`/api/tenants/${tenantId}`, { PartnerId: partnerId })).statusCode).toBe(
      200,
    );

    const response = await admin.browser.get(`/api/tenants/${tenantId}/details`);
    expect(response.statusCode).toBe(200);
    const details = TenantDetailsResponse.parse(response.json());
    expect(details.users.map((user) => [user.Id, user.Role]).sort()).toEqual(
      [
        [idOf(owner), 'ADMIN'],
        [idOf(member), 'USER'],
      ].sort(),
    );
    expect(details.sellers).toEqual([]);
    expect(details.linkedTenants).toEqual([
      { Id: firmId, Name: `Linked Firm ${count}`, Classification: 'FIRM', link: 'advisor' },
    ]);
    const firmDetails = TenantDetailsResponse.parse(
      (await admin.browser.get(`/api/tenants/${firmId}/details`)).json(),
    );
    expect(firmDetails.linkedTenants).toEqual([expect.objectContaining({ Id: tenantId, link: 'client' })]);

    expect((await owner.browser.get(`/api/tenants/${tenantId}/details`)).statusCode).toBe(403);
    expect((await admin.browser.get('/api/tenants/999999999/details')).statusCode).toBe(404);
  });
});

describe('POST /api/tenants/:tenantId/logo', () => {
  it('takes one image for review and serves it to the company', async () => {
    const { tenantId, owner, member, stranger } = await business();
    const response = await upload(owner.browser, tenantId, [
      { name: 'logo.png', type: 'image/png', bytes: png },
    ]);
    expect(response.statusCode).toBe(200);
    const logo = Tenant.parse(response.json()).Logo;
    expect(logo).toMatchObject({ PendingContentType: 'image/png', URL: null });
    const served = await member.browser.get(logo.PendingURL ?? '');
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(png)).toBe(true);
    expect((await stranger.browser.get(logo.PendingURL ?? '')).statusCode).toBe(403);
    // No logo is approved yet.
    expect((await member.browser.get(`/api/tenants/${tenantId}/logo`)).statusCode).toBe(404);
  });

  it('refuses other file types whatever they claim, two files, too large a file, and non-admins', async () => {
    const { tenantId, owner, member } = await business();
    const text = await upload(owner.browser, tenantId, [
      { name: 'logo.png', type: 'image/png', bytes: Buffer.from('<html>not an image</html>') },
    ]);
    expect(text.statusCode).toBe(422);
    expect(propertiesOf(text)).toHaveProperty('file');
    const two = await upload(owner.browser, tenantId, [
      { name: 'a.png', type: 'image/png', bytes: png },
      { name: 'b.png', type: 'image/png', bytes: png },
    ]);
    expect(two.statusCode).toBe(422);
    const huge = await upload(owner.browser, tenantId, [
      { name: 'big.png', type: 'image/png', bytes: Buffer.concat([png, Buffer.alloc(2 * 1024 * 1024)]) },
    ]);
    expect(huge.statusCode).toBe(422);
    expect(propertiesOf(huge)).toHaveProperty('file');
    // A multipart request without its boundary (found by schemathesis) is the sender's mistake: 422.
    const noBoundary = await owner.browser.request({
      method: 'POST',
      url: `/api/tenants/${tenantId}/logo`,
      headers: { 'content-type': 'multipart/form-data' },
      body: '',
    });
    expect(noBoundary.statusCode).toBe(422);
    expect(propertiesOf(noBoundary)).toHaveProperty('file');
    const svg = Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"></svg>');
    expect(
      (await upload(member.browser, tenantId, [{ name: 'a.svg', type: 'image/svg+xml', bytes: svg }]))
        .statusCode,
    ).toBe(403);
    expect(
      (await upload(owner.browser, tenantId, [{ name: 'a.svg', type: 'image/svg+xml', bytes: svg }]))
        .statusCode,
    ).toBe(200);
  });
});
