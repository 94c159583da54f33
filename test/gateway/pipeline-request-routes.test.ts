import { Job, JobsResponse, SellerReportStatus } from '../../contracts/api/jobs';
import { ErrorResponse } from '../../contracts/errors';
import { systemActor } from '../../domain/actor';
import { jobDecider } from '../../domain/job/job-decider';
import { tenantDecider } from '../../domain/tenant/tenant-decider';
import { plainUserOf, recipientOf, sellerOf } from './admin-fixtures';
import { companyFor, platformAdmin, signUp } from './fixtures';
import { defaultDatasetRange } from '../../gateway/use-cases/jobs/request-datasets';
import { useGatewayWorld } from './gateway-world';
import { jobStream, tenantStream } from '../../contracts/stream-ids';

const world = useGatewayWorld(__filename);

let admin: ReturnType<typeof platformAdmin> | undefined;
const signedInAdmin = async () => (await (admin ??= platformAdmin(world))).browser;

let company: Promise<number> | undefined;
/** The platform admin's own company, where requests that concern no one tenant are recorded. */
const adminCompany = async () =>
  (company ??= (async () =>
    companyFor(world, await (admin ??= platformAdmin(world)), { name: 'Platform Ops' }))());

const errorOf = (response: { json: () => unknown }) => ErrorResponse.parse(response.json());
const jobsOf = (response: { statusCode: number; body: string; json: () => unknown }) => {
  if (response.statusCode !== 200) throw new Error(`${response.statusCode} ${response.body}`);
  return JobsResponse.parse(response.json()).jobs;
};

type CompanyKey = 'alpha' | 'beta' | 'gamma' | 'delta';
const companies = new Map<
  CompanyKey,
  Promise<{ owner: Awaited<ReturnType<typeof signUp>>; tenantId: number }>
>();

/**
 * A new seller in one of a few companies (sign-ups are rate limited, so companies are shared by the
 * tests; sellers are not). The company's admin is signed in and switched into it.
 */
const companyWithSeller = async (key: CompanyKey, sellerName: string) => {
  let company = companies.get(key);
  if (!company) {
    company = (async () => {
      const owner = await signUp(world, { name: `owner-${key}` });
      return { owner, tenantId: await companyFor(world, owner, { name: `Company ${key}` }) };
    })();
    companies.set(key, company);
  }
  const { owner, tenantId } = await company;
  const sellerId = await sellerOf(world, tenantId, { companyName: sellerName });
  return { owner, tenantId, sellerId };
};

const finish = async (jobId: number) => {
  await world.run(jobDecider, jobStream(jobId), {
    type: 'CompleteJob',
    data: { result: null },
    now: world.clock.now(),
  });
  await world.settle();
};

// First, before any test gives the platform admin a company of their own.
describe('requests that concern no one tenant', () => {
  it('need the platform admin to be in a company, where they are recorded', async () => {
    const browser = await signedInAdmin();
    const report = await browser.post('/api/reports', { type: 'CLIENT_PERFORMANCE', dryRun: true });
    expect(report.statusCode).toBe(409);
    expect(errorOf(report).message).toBe(
      'Switch to a company first: the request is recorded in its history.',
    );
  });
});

describe('POST /api/metrics/sellers', () => {
  it('records a forecast or metrics job for a seller of any tenant', async () => {
    const browser = await signedInAdmin();
    const { tenantId, sellerId } = await companyWithSeller('alpha', 'Metrics Co');
    const [forecast] = jobsOf(
      await browser.post('/api/metrics/sellers?jobType=forecastByCustomer', {
        id: sellerId,
        onlyMissing: true,
      }),
    );
    expect(forecast).toMatchObject({
      Kind: 'forecast',
      Type: 'forecastByCustomer',
      Status: 'created',
      TenantId: tenantId,
      SellerId: sellerId,
      Parameters: { sellerId, onlyMissing: true },
    });
    const [metrics] = jobsOf(await browser.post('/api/metrics/sellers', { id: sellerId }));
    expect(metrics).toMatchObject({ Kind: 'metrics', Type: 'sellers', Parameters: { onlyMissing: false } });
    const [historical] = jobsOf(
      await browser.post('/api/metrics/sellers?jobType=historical', { id: sellerId }),
    );
    expect(historical?.Type).toBe('historical');
    expect(new Set([forecast?.Id, metrics?.Id, historical?.Id]).size).toBe(3);
  });

  it('answers a bad job type, a missing seller id and an unknown seller with 422', async () => {
    const browser = await signedInAdmin();
    const badType = await browser.post('/api/metrics/sellers?jobType=everything', { id: 1 });
    expect(badType.statusCode).toBe(422);
    expect(errorOf(badType).properties).toHaveProperty('jobType');
    const noId = await browser.post('/api/metrics/sellers', { onlyMissing: 'yes' });
    expect(noId.statusCode).toBe(422);
    expect(Object.keys(errorOf(noId).properties ?? {}).sort()).toEqual(['id', 'onlyMissing']);
    const unknown = await browser.post('/api/metrics/sellers', { id: 987_654 });
    expect(unknown.statusCode).toBe(422);
    expect(errorOf(unknown).properties).toEqual({ id: 'Unknown seller' });
  });

  it('is for platform admins only', async () => {
    const { owner, sellerId } = await companyWithSeller('alpha', 'Metrics Own Co');
    expect((await owner.browser.post('/api/metrics/sellers', { id: sellerId })).statusCode).toBe(403);
  });
});

describe('POST /api/reports', () => {
  it('records one report job per selected seller, each in its seller’s tenant', async () => {
    const browser = await signedInAdmin();
    const one = await companyWithSeller('alpha', 'Reports One');
    const two = await companyWithSeller('beta', 'Reports Two');
    const jobs = jobsOf(
      await browser.post('/api/reports', {
        type: 'REPORTS',
        frequency: 'monthly',
        sellerIds: [one.sellerId, two.sellerId],
        includeForecast: true,
        subscriberIds: [one.owner.session.user.Id],
      }),
    );
    expect(jobs.map((job) => [job.TenantId, job.SellerId, job.Kind, job.Type])).toEqual([
      [one.tenantId, one.sellerId, 'report', 'monthly'],
      [two.tenantId, two.sellerId, 'report', 'monthly'],
    ]);
    // The run's id carries the deployment's prefix: job ids of another event store never collide with it.
    expect(jobs[0]?.WorkflowId).toBe(
      `${world.config.TEMPORAL_TASK_QUEUE_PREFIX}-report-seller-${one.sellerId}-job-${jobs[0]?.Id}`,
    );
    expect(jobs[0]?.Parameters).toMatchObject({
      admin: false,
      archive: false,
      includeForecast: true,
      includeCustomerSheet: false,
      subscriberIds: [one.owner.session.user.Id],
    });

    // While they are processing, the same report for either seller is refused; another frequency is not.
    const again = await browser.post('/api/reports', {
      type: 'REPORTS',
      frequency: 'monthly',
      sellerIds: [two.sellerId],
    });
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).message).toBe('A previous request to send the report is still processing.');
    expect(
      jobsOf(await browser.post('/api/reports', { type: 'REPORTS', sellerIds: [two.sellerId] })),
    ).toHaveLength(1);
    for (const job of jobs) await finish(job.Id);
    expect(
      jobsOf(
        await browser.post('/api/reports', {
          type: 'REPORTS',
          frequency: 'monthly',
          sellerIds: [two.sellerId],
        }),
      ),
    ).toHaveLength(1);
  });

  it('runs the report workflow with the spec’s defaults', async () => {
    const browser = await signedInAdmin();
    const { sellerId } = await companyWithSeller('alpha', 'Workflow Co');
    const [job] = jobsOf(await browser.post('/api/reports', { type: 'WORKFLOW', sellerIds: [sellerId] }));
    expect(job).toMatchObject({
      Type: 'workflow',
      Parameters: {
        frequency: 'weekly',
        noOverride: true,
        noRecent: true,
        onlyArchive: false,
        skipRecentDataChecks: false,
      },
    });
  });

  it('needs at least one known seller and a request type', async () => {
    const browser = await signedInAdmin();
    const none = await browser.post('/api/reports', { type: 'REPORTS', sellerIds: [] });
    expect(none.statusCode).toBe(422);
    expect(errorOf(none).properties).toEqual({ sellerIds: 'Select at least one seller.' });
    const unknown = await browser.post('/api/reports', { type: 'WORKFLOW', sellerIds: [987_654] });
    expect(unknown.statusCode).toBe(422);
    expect(errorOf(unknown).properties).toEqual({ sellerIds: 'Unknown seller: 987654' });
    const untyped = await browser.post('/api/reports', { sellerIds: [1] });
    expect(untyped.statusCode).toBe(422);
    expect(errorOf(untyped).properties).toHaveProperty('type');
    const wrongField = await browser.post('/api/reports', {
      type: 'WORKFLOW',
      sellerIds: [1],
      includeForecast: true,
    });
    expect(wrongField.statusCode).toBe(422);
    expect(errorOf(wrongField).properties).toEqual({ includeForecast: 'unknown field' });
  });

  it('records the Client Performance report in the admin’s current company', async () => {
    const browser = await signedInAdmin();
    const adminTenant = await adminCompany();
    const [job] = jobsOf(await browser.post('/api/reports', { type: 'CLIENT_PERFORMANCE', dryRun: true }));
    expect(job).toMatchObject({
      TenantId: adminTenant,
      SellerId: null,
      Type: 'CLIENT_PERFORMANCE',
      Parameters: { dryRun: true, excludeAdmins: false, userId: null },
    });
    const unknownUser = await browser.post('/api/reports', { type: 'CLIENT_PERFORMANCE', userId: 987_654 });
    expect(unknownUser.statusCode).toBe(422);
    expect(errorOf(unknownUser).properties).toEqual({ userId: 'Unknown user' });
  });

  it('is for platform admins only', async () => {
    const { owner, sellerId } = await companyWithSeller('alpha', 'Reports Own Co');
    expect(
      (await owner.browser.post('/api/reports', { type: 'REPORTS', sellerIds: [sellerId] })).statusCode,
    ).toBe(403);
  });
});

describe('GET and POST /api/sellers/:id/reports/:type', () => {
  it('sends a report to the seller’s recipients once at a time, and shows its state', async () => {
    const { owner, tenantId, sellerId } = await companyWithSeller('alpha', 'On Demand Co');
    const recipientId = await recipientOf(world, { tenantId, sellerId, userId: owner.session.user.Id });
    const idle = SellerReportStatus.parse(
      (await owner.browser.get(`/api/sellers/${sellerId}/reports/weekly`)).json(),
    );
    expect(idle).toEqual({ processing: false, job: null });

    // Any member of the tenant may ask, for recipients that include themselves (portal.md section 5).
    const member = await plainUserOf(world, tenantId, 'ondemand-member');
    const memberRecipient = await recipientOf(world, { tenantId, sellerId, userId: member.session.user.Id });
    const withoutSelf = await member.browser.post(`/api/sellers/${sellerId}/reports/weekly`, {
      recipientIds: [recipientId],
    });
    expect(withoutSelf.statusCode).toBe(422);
    expect(errorOf(withoutSelf)).toMatchObject({
      message: 'At least one recipient, including the current user.',
      properties: { recipientIds: 'At least one recipient, including the current user.' },
    });
    const [job] = jobsOf(
      await member.browser.post(`/api/sellers/${sellerId}/reports/weekly`, {
        recipientIds: [recipientId, memberRecipient],
      }),
    );
    expect(job).toMatchObject({
      Kind: 'report',
      Type: 'weekly',
      TenantId: tenantId,
      SellerId: sellerId,
      Parameters: { recipientIds: [recipientId, memberRecipient] },
    });
    const busy = SellerReportStatus.parse(
      (await owner.browser.get(`/api/sellers/${sellerId}/reports/weekly`)).json(),
    );
    expect(busy).toMatchObject({ processing: true, job: { Id: job?.Id, Status: 'created' } });

    const second = await owner.browser.post(`/api/sellers/${sellerId}/reports/weekly`, {
      recipientIds: [recipientId],
    });
    expect(second.statusCode).toBe(409);
    expect(errorOf(second).message).toBe('A previous request to send the report is still processing.');
    // Another report of the same seller is not held up.
    expect(
      jobsOf(
        await owner.browser.post(`/api/sellers/${sellerId}/reports/scorecard`, {
          recipientIds: [recipientId],
        }),
      ),
    ).toHaveLength(1);

    await finish(job?.Id ?? 0);
    const done = SellerReportStatus.parse(
      (await owner.browser.get(`/api/sellers/${sellerId}/reports/weekly`)).json(),
    );
    expect(done).toMatchObject({ processing: false, job: { Status: 'completed' } });
    expect(
      jobsOf(
        await owner.browser.post(`/api/sellers/${sellerId}/reports/weekly`, { recipientIds: [recipientId] }),
      ),
    ).toHaveLength(1);
  });

  it('records one job when the same report is asked twice at once', async () => {
    const { owner, tenantId, sellerId } = await companyWithSeller('alpha', 'Double Click Co');
    const recipientId = await recipientOf(world, { tenantId, sellerId, userId: owner.session.user.Id });
    const url = `/api/sellers/${sellerId}/reports/monthly`;
    const answers = await Promise.all([
      owner.browser.post(url, { recipientIds: [recipientId] }),
      owner.browser.post(url, { recipientIds: [recipientId] }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
  });

  it('answers a bad type, no recipients and another seller’s recipient with 422', async () => {
    const { owner, tenantId, sellerId } = await companyWithSeller('alpha', 'Bad Report Co');
    const otherSeller = await sellerOf(world, tenantId, { companyName: 'Second Books' });
    const elsewhere = await recipientOf(world, {
      tenantId,
      sellerId: otherSeller,
      userId: owner.session.user.Id,
    });
    const badType = await owner.browser.post(`/api/sellers/${sellerId}/reports/daily`, { recipientIds: [1] });
    expect(badType.statusCode).toBe(422);
    expect(errorOf(badType).properties).toHaveProperty('type');
    const none = await owner.browser.post(`/api/sellers/${sellerId}/reports/weekly`, { recipientIds: [] });
    expect(errorOf(none).properties).toEqual({ recipientIds: 'Select at least one recipient.' });
    const wrong = await owner.browser.post(`/api/sellers/${sellerId}/reports/weekly`, {
      recipientIds: [elsewhere],
    });
    expect(wrong.statusCode).toBe(422);
    expect(errorOf(wrong).properties).toEqual({
      recipientIds: `Not an active recipient of this platform: ${elsewhere}`,
    });
  });

  it('does not find another tenant’s seller, and needs a current company', async () => {
    const { sellerId } = await companyWithSeller('alpha', 'Private Report Co');
    const other = await companyWithSeller('beta', 'Nosy Co');
    expect((await other.owner.browser.get(`/api/sellers/${sellerId}/reports/weekly`)).statusCode).toBe(404);
    expect(
      (await other.owner.browser.post(`/api/sellers/${sellerId}/reports/weekly`, { recipientIds: [1] }))
        .statusCode,
    ).toBe(404);
    const loner = await signUp(world, { name: 'report-loner' });
    expect((await loner.browser.get(`/api/sellers/${sellerId}/reports/weekly`)).statusCode).toBe(403);
  });
});

describe('POST /api/datasets', () => {
  it('records a data-set job per selected seller with the given or default range', async () => {
    const browser = await signedInAdmin();
    const one = await companyWithSeller('alpha', 'Dataset One');
    const two = await companyWithSeller('beta', 'Dataset Two');
    const jobs = jobsOf(
      await browser.post('/api/datasets', {
        dataset: 'ar_forecast_aiml',
        contentType: 'awsForecast',
        startDate: '2023-01-01',
        endDate: '2025-12-01',
        sellerIds: [one.sellerId, two.sellerId],
      }),
    );
    expect(jobs.map((job) => [job.Kind, job.Type, job.SellerId, job.TenantId])).toEqual([
      ['dataset', 'ar_forecast_aiml', one.sellerId, one.tenantId],
      ['dataset', 'ar_forecast_aiml', two.sellerId, two.tenantId],
    ]);
    expect(jobs[0]?.Parameters).toMatchObject({
      contentType: 'awsForecast',
      startDate: '2023-01-01',
      endDate: '2025-12-01',
    });

    const [defaulted] = jobsOf(
      await browser.post('/api/datasets', { dataset: 'seller_analytics_weekly', sellerIds: [one.sellerId] }),
    );
    // The range's arithmetic has its unit test; here, that a request without dates gets it.
    expect(defaulted?.Parameters).toMatchObject({
      contentType: 'json',
      ...defaultDatasetRange(world.clock.now()),
    });
  });

  it('says No Seller Selected, and refuses a bad range or layout', async () => {
    const browser = await signedInAdmin();
    const none = await browser.post('/api/datasets', { dataset: 'ar_forecast_dso', sellerIds: [] });
    expect(none.statusCode).toBe(422);
    expect(errorOf(none).properties).toEqual({ sellerIds: 'No Seller Selected' });
    const { sellerId } = await companyWithSeller('alpha', 'Dataset Bad');
    const bad = await browser.post('/api/datasets', {
      dataset: 'ar_forecast_dso',
      contentType: 'awsForecast',
      startDate: '2025-02-01',
      endDate: '2025-01-01',
      sellerIds: [sellerId],
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(errorOf(bad).properties ?? {}).sort()).toEqual(['contentType', 'endDate']);
    const unknown = await browser.post('/api/datasets', {
      dataset: 'everything',
      startDate: '2025-13-01',
      sellerIds: [sellerId],
    });
    expect(Object.keys(errorOf(unknown).properties ?? {}).sort()).toEqual(['dataset', 'startDate']);
  });

  it('is for platform admins only', async () => {
    const { owner, sellerId } = await companyWithSeller('alpha', 'Dataset Own');
    expect(
      (await owner.browser.post('/api/datasets', { dataset: 'ar_forecast_dso', sellerIds: [sellerId] }))
        .statusCode,
    ).toBe(403);
  });
});

describe('POST /api/tasks', () => {
  it('updates the demo seller, and says so when there is none', async () => {
    const browser = await signedInAdmin();
    const missing = await browser.post('/api/tasks', { name: 'update_demo_seller', force: true });
    expect(missing.statusCode).toBe(409);
    expect(errorOf(missing).message).toBe('There is no demo seller to update.');

    const demoTenant = 970_001;
    await world.run(tenantDecider, tenantStream(demoTenant), {
      type: 'CreateTenant',
      data: { tenantId: demoTenant, name: 'Demo Client', classification: 'BUSINESS', usageType: 'DEMO' },
      now: world.clock.now(),
      actor: systemActor,
    });
    const demoSeller = await sellerOf(world, demoTenant, { companyName: 'Demo Books', provider: 'DEMO' });
    // A DEMO seller outside the demo tenant is someone's trial, not the demo.
    const { tenantId } = await companyWithSeller('gamma', 'Trial Co');
    await sellerOf(world, tenantId, { companyName: 'Trial Demo', provider: 'DEMO' });
    const jobs = jobsOf(await browser.post('/api/tasks', { name: 'update_demo_seller', force: true }));
    // A real sync of the demo seller (populate, as it was never synced), without the trial one.
    expect(jobs).toEqual([
      expect.objectContaining({
        Kind: 'sync',
        Type: 'update_demo_seller',
        TenantId: demoTenant,
        SellerId: demoSeller,
        Parameters: expect.objectContaining({ mode: 'populate', onlyFetch: false }) as unknown,
      }),
    ]);
  });

  it('refuses to move a company that is not an indirect customer, recording nothing', async () => {
    const browser = await signedInAdmin();
    const { tenantId } = await companyWithSeller('gamma', 'Direct Co');
    // No plan catalogue in this world: the company has no subscription, so no payer to move.
    const refused = await browser.post('/api/tasks', { name: 'moveIndirectCustomer', customerId: tenantId });
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).message).toBe(
      `Company ${tenantId} has no subscription: there is no payer to move.`,
    );
    const unknown = await browser.post('/api/tasks', { name: 'moveIndirectCustomer', customerId: 987654 });
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown).message).toBe('Company 987654 was not found.');
    await world.settle();
    const cron = await browser.get('/api/cron/moveIndirectCustomer');
    expect(JSON.stringify(cron.json())).not.toContain(`"customerId":${tenantId}`);
  });

  it('answers an unknown task or a missing customer id with 422, and refuses tenant admins', async () => {
    const browser = await signedInAdmin();
    const unknown = await browser.post('/api/tasks', { name: 'drop_tables' });
    expect(unknown.statusCode).toBe(422);
    expect(errorOf(unknown).properties).toHaveProperty('name');
    const noCustomer = await browser.post('/api/tasks', { name: 'moveIndirectCustomer' });
    expect(errorOf(noCustomer).properties).toHaveProperty('customerId');
    const { owner } = await companyWithSeller('alpha', 'Task Own');
    expect((await owner.browser.post('/api/tasks', { name: 'update_demo_seller' })).statusCode).toBe(403);
  });
});

describe('GET /api/jobs', () => {
  it('shows a job and its progress to its tenant, and not to others', async () => {
    const browser = await signedInAdmin();
    const { owner, sellerId } = await companyWithSeller('gamma', 'Jobs Co');
    const [created] = jobsOf(await browser.post('/api/metrics/sellers?jobType=customers', { id: sellerId }));
    const jobId = created?.Id ?? 0;
    await world.run(jobDecider, jobStream(jobId), {
      type: 'RecordJobProgress',
      data: { stage: 'customers', done: 3, total: 10 },
      now: world.clock.now(),
    });
    await world.settle();
    const seen = Job.parse((await owner.browser.get(`/api/jobs/${jobId}`)).json());
    expect(seen).toMatchObject({
      Id: jobId,
      Status: 'running',
      Progress: { stage: 'customers', done: 3, total: 10 },
    });

    const listed = jobsOf(await owner.browser.get(`/api/jobs?sellerId=${sellerId}`));
    expect(listed.map((job) => job.Id)).toEqual([jobId]);
    expect(jobsOf(await owner.browser.get('/api/jobs')).map((job) => job.Id)).toContain(jobId);

    const other = await companyWithSeller('delta', 'Other Jobs Co');
    expect((await other.owner.browser.get(`/api/jobs/${jobId}`)).statusCode).toBe(404);
    expect((await other.owner.browser.get(`/api/jobs?sellerId=${sellerId}`)).statusCode).toBe(404);
    expect(jobsOf(await other.owner.browser.get('/api/jobs')).map((job) => job.Id)).not.toContain(jobId);
    expect((await other.owner.browser.get('/api/jobs?scope=all')).statusCode).toBe(403);
    expect(jobsOf(await browser.get('/api/jobs?scope=all')).map((job) => job.Id)).toContain(jobId);
  });

  it('answers bad ids and limits with 422 and an unknown job with 404', async () => {
    const { owner } = await companyWithSeller('alpha', 'Jobs Bad Co');
    const bad = await owner.browser.get('/api/jobs/abc');
    expect(bad.statusCode).toBe(422);
    expect(errorOf(bad).properties).toHaveProperty('id');
    const limit = await owner.browser.get('/api/jobs?limit=0');
    expect(limit.statusCode).toBe(422);
    expect(errorOf(limit).properties).toHaveProperty('limit');
    expect((await owner.browser.get('/api/jobs/987654')).statusCode).toBe(404);
    expect((await world.browser().get('/api/jobs')).statusCode).toBe(401);
  });
});
