import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import ExcelJS from 'exceljs';
import pino from 'pino';
import { Job } from '../../contracts/api/jobs';
import { FileContent } from '../../contracts/api/reports';
import type { JobProgressNotice } from '../../contracts/live';
import { RecipientResponse, RecipientsResponse } from '../../contracts/api/recipients';
import { SellerResponse, SellersResponse } from '../../contracts/api/sellers';
import { JobEvent } from '../../contracts/events/job';
import { jobStream, sellerStream } from '../../contracts/stream-ids';
import { jobDecider } from '../../domain/job/job-decider';
import { sellerDecider } from '../../domain/seller/seller-decider';
import { createMailer } from '../../workflows/email/smtp-mailer';
import { createMetricsWorker } from '../../workflows/metrics/worker';
import { skipReasons } from '../../workflows/reports/recipient-choice';
import { createReportObjectStore } from '../../workflows/reports/archive/report-archive';
import { recordReportJob } from '../../workflows/reports/record-report-job';
import { reportSkips } from '../../workflows/reports/activities';
import { advisorSkips } from '../../workflows/reports/client-performance/client-performance-plan';
import { startReportJobReactor, unrunnableReport } from '../../workflows/reports/report-job-reactor';
import type { ReportJobResult } from '../../workflows/reports/report-job-input';
import { createReportParts } from '../../workflows/reports/report-parts';
import { startWelcomeReportReactor } from '../../workflows/reports/welcome-report-reactor';
import { createReportsWorker } from '../../workflows/reports/worker';
import { stopPdfProcess } from '../../workflows/reports/pdf/pdf-renderer';
import { connectorsFor } from '../../workflows/sync/connectors';
import { startSyncRequestReactor } from '../../workflows/sync/sync-request-reactor';
import { createSyncWorker } from '../../workflows/sync/worker';
import { companyFor, signUp } from '../gateway/fixtures';
import { useGatewayWorld, type Browser } from '../gateway/gateway-world';
import { connectLive } from '../gateway/live-client';
import { mailTo, waitForMail, type ReportMail } from './report-mail';

/**
 * Report jobs on the real servers, end to end: a DEMO seller synced by the sync and metrics workers,
 * its report subscriptions made through the API, and the report jobs recorded as the gateway and the
 * scheduled sends record them. The reports worker renders the real PDF and XLSX files, archives them
 * in the local S3 server and mails them through MailDev; the job reactor and the welcome reactor
 * start the runs.
 */
jest.setTimeout(300_000);

const world = useGatewayWorld(__filename, {}, { live: { heartbeatMs: 2000 } });
let nativeConnection: NativeConnection;
let connection: Connection;
let client: Client;
let workers: Worker[] = [];
let running: Promise<unknown>;
const reactors: { stop: () => Promise<void> }[] = [];
const objects = createReportObjectStore(world.config);
const mailer = createMailer(world.config);
/** The reports worker's clock: a test moves it to make the seller's data look old. */
let reportsNow = () => new Date();

const reactorDeps = () => ({
  writeSide: world.services.writeSide,
  db: world.services.db,
  client,
  config: world.config,
  logger: pino({ level: 'silent' }),
});

type Company = {
  owner: Browser;
  ownerEmail: string;
  tenantId: number;
  sellerId: number;
  /** Report subscriptions: the owner, a contact, a demo address, a contact taking monthly reports only. */
  recipients: { owner: number; ann: number; demo: number; monthlyOnly: number };
  annEmail: string;
  monthlyEmail: string;
};
let company: Company;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const subscribe = async (owner: Browser, body: Record<string, unknown>) => {
  const response = await owner.post('/api/subscriptions', body);
  if (response.statusCode !== 200) throw new Error(`subscribe: ${response.statusCode} ${response.body}`);
  return RecipientResponse.parse(response.json()).Id;
};

/** A company whose DEMO seller is connected, subscribed to and synced (sync, then metrics). */
const syncedCompany = async (): Promise<Company> => {
  const signedUp = await signUp(world, { name: 'reportsowner' });
  const owner = signedUp.browser;
  const tenantId = await companyFor(world, signedUp, { name: 'Reports Co' });
  const connected = await owner.post('/api/sellers', { provider: 'DEMO' });
  expect(connected.statusCode).toBe(200);
  const sellerId = SellerResponse.parse(connected.json()).Id;
  const annEmail = world.email('ann');
  const monthlyEmail = world.email('monthly');
  const recipients = {
    owner: await subscribe(owner, { userId: signedUp.session.user.Id, sellerId }),
    ann: await subscribe(owner, { email: annEmail, name: 'Ann Reader', sellerId }),
    demo: await subscribe(owner, { email: 'billing@acme-demo.example', name: 'Demo Customer', sellerId }),
    monthlyOnly: await subscribe(owner, {
      email: monthlyEmail,
      name: 'Mo Monthly',
      sellerId,
      SendWeekly: false,
      SendMonthly: true,
    }),
  };
  for (let attempt = 0; attempt < 1200; attempt += 1) {
    const rows = SellersResponse.parse((await owner.get('/api/sellers')).json()).rows;
    if (rows.find((s) => s.Id === sellerId)?.Progress === 'completed')
      return { owner, ownerEmail: signedUp.email, tenantId, sellerId, recipients, annEmail, monthlyEmail };
    await sleep(250);
  }
  throw new Error(`seller ${sellerId} did not complete its populate`);
};

beforeAll(async () => {
  await world.app.listen({ host: '127.0.0.1', port: 0 });
  const { config, services } = world;
  nativeConnection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
  connection = await Connection.connect({ address: config.TEMPORAL_ADDRESS });
  client = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE });
  const deps = { db: services.db, writeSide: services.writeSide, now: () => new Date() };
  const now = () => reportsNow();
  workers = [
    await createSyncWorker({
      connection: nativeConnection,
      config,
      deps: { ...deps, connectorFor: connectorsFor(services.db) },
    }),
    await createMetricsWorker({ connection: nativeConnection, config, deps }),
    await createReportsWorker({
      connection: nativeConnection,
      config,
      client,
      deps: {
        ...deps,
        now,
        config,
        parts: createReportParts({ ...deps, now, objects, mailer }),
      },
    }),
  ];
  running = Promise.all(workers.map((worker) => worker.run()));
  reactors.push(startSyncRequestReactor(reactorDeps()), startWelcomeReportReactor(reactorDeps()));
  company = await syncedCompany();
  // Started once the subscriptions exist, so the welcome job (recorded when the metrics completed)
  // runs now, whatever the order the subscriptions and the sync took.
  reactors.push(startReportJobReactor(reactorDeps()));
}, 300_000);

afterAll(async () => {
  for (const reactor of reactors) await reactor.stop();
  for (const worker of workers) worker.shutdown();
  await running;
  await stopPdfProcess();
  mailer.close();
  objects.close();
  await connection?.close();
  await nativeConnection?.close();
});

const jobEvents = async (jobId: number): Promise<JobEvent[]> =>
  (await world.services.writeSide.store.readStream(jobStream(jobId))).map((event) =>
    JobEvent.parse({ type: event.type, data: event.data }),
  );

/** The job's ending, once it has one. */
const finishedJob = async (
  jobId: number,
): Promise<{ events: JobEvent[]; result: ReportJobResult | null; failure: string | null }> => {
  for (let attempt = 0; attempt < 1200; attempt += 1) {
    const events = await jobEvents(jobId);
    const ending = events.find((e) => e.type === 'JobCompleted' || e.type === 'JobFailed');
    if (ending?.type === 'JobCompleted')
      return { events, result: ending.data.result as ReportJobResult, failure: null };
    if (ending?.type === 'JobFailed') return { events, result: null, failure: ending.data.reason };
    await sleep(250);
  }
  throw new Error(`report job ${jobId} never finished`);
};

let requests = 0;
/** A report job as the gateway or a scheduled send records it; the job reactor starts its run. */
const requestReport = async (parameters: Record<string, unknown> & { type: string }) => {
  requests += 1;
  const { jobId } = await recordReportJob(
    { writeSide: world.services.writeSide, config: world.config },
    {
      requestId: `report-test-${world.runId}-${requests}`,
      process: 'report-test',
      tenantId: company.tenantId,
      sellerId: company.sellerId,
      parameters: parameters as never,
      now: reportsNow(),
    },
  );
  return jobId;
};

const recipientsNow = async () => {
  await world.settle();
  const response = await company.owner.get(`/api/subscriptions?sellerId=${company.sellerId}`);
  return new Map(RecipientsResponse.parse(response.json()).rows.map((row) => [row.Id, row]));
};

/** The archived file's bytes as the Reports page downloads them. */
const downloaded = async (archivedId: number) => {
  await world.settle();
  const response = await company.owner.get(`/api/reports/archived/${archivedId}/content`);
  expect(response.statusCode).toBe(200);
  return Buffer.from(FileContent.parse(response.json()).data, 'base64');
};

const pdfText = (bytes: Buffer) => {
  const file = join(mkdtempSync(join(tmpdir(), 'lw-report-pdf-')), 'report.pdf');
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
};

const attachmentNames = (mail: ReportMail) => mail.attachments.map((a) => a.fileName);

describe('report jobs', () => {
  it("send the welcome report once, when the seller's first sync and metrics complete", async () => {
    const welcomeMail = await waitForMail(world.config, company.ownerEmail);
    expect(welcomeMail).toHaveLength(1);
    const [welcomeJob] = /^<(\d+)\./.exec(welcomeMail[0]!.messageId)!.slice(1).map(Number);
    expect(welcomeMail[0]!.subject).toMatch(/welcome report/i);
    expect(attachmentNames(welcomeMail[0]!)).toEqual([
      expect.stringMatching(/Welcome Report - \d{4}-\d{2}-\d{2}\.pdf$/),
    ]);
    expect(pdfText(welcomeMail[0]!.attachments[0]!.bytes)).toMatch(/Welcome/);
    await waitForMail(world.config, company.annEmail);
    // Every active subscription gets it, monthly-only included; the demo address never does.
    await waitForMail(world.config, company.monthlyEmail);
    const recipients = await recipientsNow();
    expect(recipients.get(company.recipients.owner)?.TrackWelcomeDate).not.toBeNull();
    expect(recipients.get(company.recipients.demo)?.TrackWelcomeDate).toBeNull();

    // A later metrics run sends no second welcome.
    await world.run(sellerDecider, sellerStream(company.sellerId), {
      type: 'RecordSellerMetricsDate',
      now: new Date(),
      data: { metricsDate: new Date() },
    });
    await sleep(2000);
    expect(await mailTo(world.config, company.ownerEmail)).toHaveLength(1);
    const { result } = await finishedJob(welcomeJob!);
    expect(result!.skippedRecipients).toEqual([
      { recipientId: company.recipients.demo, reason: skipReasons.demo },
    ]);
  });

  it('send a requested weekly report to the chosen recipients, archived once, with live progress', async () => {
    const { owner, ann, demo } = company.recipients;
    const live = await connectLive(world, company.owner);
    const jobId = await requestReport({ type: 'weekly', recipientIds: [owner, ann, demo] });

    const { events, result } = await finishedJob(jobId);
    expect(result).toMatchObject({
      skipped: null,
      sent: [owner, ann],
      skippedRecipients: [{ recipientId: demo, reason: skipReasons.demo }],
    });
    expect(result!.archived.map((file) => file.type)).toEqual(['WEEKLY_REPORT']);
    const mails = await waitForMail(world.config, company.annEmail, { jobId });
    expect(mails).toHaveLength(1);
    expect(await mailTo(world.config, company.ownerEmail, jobId)).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.subject).toMatch(/weekly report/i);
    expect(mail.messageId).toBe(`<${jobId}.${ann}@ledgerwise>`);
    // The attachment is the archived file, byte for byte, as the Reports page downloads it.
    const [pdf] = mail.attachments;
    expect(pdf!.contentType).toBe('application/pdf');
    expect(pdf!.bytes.equals(await downloaded(result!.archived[0]!.archivedId))).toBe(true);
    expect(pdfText(pdf!.bytes)).toMatch(/Weekly Report/);
    // The stop link of a weekly email, signed for this recipient.
    expect(mail.html).toMatch(/\/unsubscribe\?token=\d+\.w\./);

    // Archived once, emailed once per recipient, progress per stage ending full.
    expect(events.filter((e) => e.type === 'JobReportArchived')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'JobReportEmailed').map((e) => e.data)).toEqual([
      expect.objectContaining({ recipientId: owner, reportTypes: ['WEEKLY_REPORT'] }),
      expect.objectContaining({ recipientId: ann, reportTypes: ['WEEKLY_REPORT'] }),
    ]);
    const progress = events.flatMap((e) =>
      e.type === 'JobProgressRecorded' ? [`${e.data.stage} ${e.data.done}/${e.data.total}`] : [],
    );
    expect(progress[0]).toBe('rendering 0/1');
    expect(progress).toContain('rendering 1/1');
    expect(progress.at(-1)).toBe('sending 2/2');
    const recipients = await recipientsNow();
    expect(recipients.get(owner)?.TrackWeeklyDate).not.toBeNull();
    expect(recipients.get(ann)?.TrackWeeklyDate).not.toBeNull();

    // The browser follows it live, as it follows a sync, and the jobs table shows how it ended.
    await live.next('job-progress', {
      where: (m) => m.jobId === jobId && m.status === 'completed',
      timeoutMs: 30_000,
    });
    const notices = live.messages.filter(
      (m): m is JobProgressNotice => m.type === 'job-progress' && m.jobId === jobId,
    );
    live.close();
    expect(notices.every((n) => n.tenantId === company.tenantId && n.sellerId === company.sellerId)).toBe(
      true,
    );
    expect(notices.map((n) => n.stage)).toEqual(expect.arrayContaining(['rendering', 'sending']));
    const job = Job.parse((await company.owner.get(`/api/jobs/${jobId}`)).json());
    expect(job).toMatchObject({
      Kind: 'report',
      Type: 'weekly',
      Status: 'completed',
      Progress: { stage: 'sending', done: 2, total: 2 },
      Result: { sent: [owner, ann] },
    });
  });

  it('send a one-file report to one recipient with no progress steps, the attachment as archived', async () => {
    const { ann } = company.recipients;
    const jobId = await requestReport({ type: 'weekly', recipientIds: [ann] });

    const { events, result } = await finishedJob(jobId);
    expect(result).toMatchObject({ skipped: null, sent: [ann] });
    // Over as fast as a progress event would reach the browser: started and completed tell it all.
    expect(events.map((e) => e.type)).toEqual([
      'JobCreated',
      'JobStarted',
      'JobReportArchived',
      'JobReportEmailed',
      'JobCompleted',
    ]);
    // Attached from the bytes the render just stored, equal to what the archive downloads.
    const [mail] = await waitForMail(world.config, company.annEmail, { jobId });
    expect(mail!.attachments[0]!.bytes.equals(await downloaded(result!.archived[0]!.archivedId))).toBe(true);
  });

  it('attach the sheets the report options ask for, to the chosen subscribers only', async () => {
    const ownerUserId = (await recipientsNow()).get(company.recipients.owner)!.SubscriberId!;
    const jobId = await requestReport({
      type: 'monthly',
      frequency: 'monthly',
      admin: false,
      archive: false,
      subscriberIds: [ownerUserId],
      includeCustomerSheet: true,
      includeCustomerReviewSheet: true,
      includePrioritizedInvoices: true,
      includeForecast: false,
    });

    const { result } = await finishedJob(jobId);
    expect(result!.sent).toEqual([company.recipients.owner]);
    expect(result!.archived.map((file) => file.type)).toEqual([
      'MONTHLY_REPORT',
      'CUSTOMER_SHEET',
      'PRIORITIZED_INVOICES_SHEET',
    ]);
    const [mail] = await waitForMail(world.config, company.ownerEmail, { jobId });
    if (!mail) throw new Error('no email');
    expect(attachmentNames(mail)).toEqual(result!.archived.map((file) => file.fileName));
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(mail.attachments[1]!.bytes as unknown as ArrayBuffer);
    // The review is a worksheet of the customer sheet's workbook.
    expect(workbook.worksheets.length).toBe(2);
    expect(mail.html).toMatch(/\/unsubscribe\?token=\d+\.m\./);
  });

  it("skip with noOverride whoever got this week's report, and archive it all the same", async () => {
    const jobId = await requestReport({ type: 'workflow', frequency: 'weekly' });

    const { result } = await finishedJob(jobId);
    expect(result!.sent).toEqual([]);
    expect(result!.skippedRecipients).toEqual(
      expect.arrayContaining([
        { recipientId: company.recipients.owner, reason: skipReasons.alreadyThisPeriod },
        { recipientId: company.recipients.ann, reason: skipReasons.alreadyThisPeriod },
        { recipientId: company.recipients.demo, reason: skipReasons.demo },
      ]),
    );
    // A workflow run always archives; the monthly-only contact is not a weekly recipient at all.
    expect(result!.archived.map((file) => file.type)).toEqual(['WEEKLY_REPORT']);
    expect(result!.skippedRecipients.map((s) => s.recipientId)).not.toContain(company.recipients.monthlyOnly);
    await sleep(1000);
    expect(await mailTo(world.config, company.annEmail, jobId)).toEqual([]);
    expect(await mailTo(world.config, company.ownerEmail, jobId)).toEqual([]);
  });

  it('with onlyArchive, archive and send nothing; with noRecent, skip a seller whose data is old', async () => {
    const archiveOnlyJob = await requestReport({
      type: 'workflow',
      frequency: 'monthly',
      onlyArchive: true,
      noOverride: false,
    });
    const archiveOnly = await finishedJob(archiveOnlyJob);
    expect(archiveOnly.result).toMatchObject({ skipped: null, sent: [], skippedRecipients: [] });
    expect(archiveOnly.result!.archived.map((file) => file.type)).toEqual(['MONTHLY_REPORT']);
    expect(await mailTo(world.config, company.monthlyEmail, archiveOnlyJob)).toEqual([]);

    // Two days on, without a sync since.
    reportsNow = () => new Date(Date.now() + 2 * 24 * 60 * 60 * 1000);
    try {
      const stale = await finishedJob(await requestReport({ type: 'workflow', frequency: 'monthly' }));
      expect(stale.result).toEqual({
        skipped: reportSkips.noRecentData,
        archived: [],
        sent: [],
        skippedRecipients: [],
      });
      const checkedJob = await requestReport({
        type: 'workflow',
        frequency: 'monthly',
        skipRecentDataChecks: true,
        noOverride: false,
      });
      const checked = await finishedJob(checkedJob);
      // The owner takes weekly reports only (the default); the monthly contact takes this one.
      expect(checked.result!.sent).toEqual([company.recipients.monthlyOnly]);
      expect(await waitForMail(world.config, company.monthlyEmail, { jobId: checkedJob })).toHaveLength(1);
    } finally {
      reportsNow = () => new Date();
    }
  });

  it('fail a report request the service cannot run, so it does not stay processing', async () => {
    const { failure } = await finishedJob(await requestReport({ type: 'benchmarks' }));
    expect(failure).toBe(unrunnableReport);
  });

  it("run the advisors' emailed Client Performance request, naming whom it skipped", async () => {
    // As POST /api/reports records it: no seller, in the admin's current company; an unknown user.
    const jobId = 900_000 + requests;
    await world.run(jobDecider, jobStream(jobId), {
      type: 'CreateJob',
      data: {
        jobId,
        kind: 'report',
        tenantId: company.tenantId,
        sellerId: null,
        parameters: { type: 'CLIENT_PERFORMANCE', dryRun: true, admin: false, userId: 987_654 },
        workflowId: `client-performance-${world.runId}`,
      },
      now: new Date(),
    });
    const { result, failure } = await finishedJob(jobId);
    expect(failure).toBeNull();
    const skipped = [{ userId: 987_654, reason: advisorSkips.userGone }];
    expect(result as unknown).toEqual({
      dryRun: true,
      advisors: [{ ...skipped[0], status: 'skipped', jobId: null }],
      sent: [],
      skipped,
    });
  });
});
