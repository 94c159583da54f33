import { Client, Connection } from '@temporalio/client';
import { MockActivityEnvironment } from '@temporalio/testing';
import { NativeConnection, type Worker } from '@temporalio/worker';
import type { Db } from 'mongodb';
import pino from 'pino';
import type { LedgerPage } from '../../contracts/ledger';
import { JobCreated } from '../../contracts/events/job';
import { createMailer } from '../../workflows/email/smtp-mailer';
import { createReportObjectStore } from '../../workflows/reports/archive/report-archive';
import {
  createClientPerformanceActivities,
  type RenderedAdvisorReport,
} from '../../workflows/reports/client-performance/client-performance-activities';
import type {
  AdvisorOutcome,
  AdvisorStep,
  ClientPerformanceResult,
} from '../../workflows/reports/client-performance/client-performance-input';
import { clientPerformanceWorkflowId } from '../../workflows/reports/client-performance/client-performance-job';
import { advisorSkips } from '../../workflows/reports/client-performance/client-performance-plan';
import { stopPdfProcess } from '../../workflows/reports/pdf/pdf-renderer';
import { startReportJobReactor } from '../../workflows/reports/report-job-reactor';
import { createReportParts } from '../../workflows/reports/report-parts';
import { createReportsWorker } from '../../workflows/reports/worker';
import { expectedPeriods, ledgerFacts } from '../reports/expected-report-figures';
import { flat, readPdf } from '../reports/pdf-text';
import {
  completedJob,
  jobEventsOf,
  recordClientPerformanceJob,
  seedClient,
  seedFirm,
} from './client-performance-fixtures';
import { useLedgerWorld } from './ledger-world';
import { mailTo, waitForMail } from './report-mail';

/**
 * The advisors' emailed Client Performance Summary (POST /api/reports, CLIENT_PERFORMANCE) on the real
 * servers: the job recorded as the gateway records it, started by the report job reactor, run by the
 * reports worker on the Temporal dev server, archived in the local S3 server and mailed through
 * MailDev. The firm, its advisors and their clients are read models written as the projections leave
 * them; the clients' ledgers and metrics are made by the real metrics code.
 */
jest.setTimeout(240_000);

const world = useLedgerWorld(__filename);
let db: Db;
let nativeConnection: NativeConnection;
let connection: Connection;
let worker: Worker;
let running: Promise<void>;
let reactor: { stop: () => Promise<void> };
const objects = createReportObjectStore(world.config);
const mailer = createMailer(world.config);

const firm = { tenantId: 41, name: 'Ledger Advisors LLP' };
const clients = [
  { tenantId: 42, sellerId: 420, name: 'Bramble Bakery', currency: 'GBP', locale: 'en-GB' },
  { tenantId: 43, sellerId: 430, name: 'Alder Joinery', currency: 'EUR', locale: 'en-IE' },
] as const;
const email = (name: string) => `${name}.${world.names.runId}@example.test`;
/** Ada advises both clients; Ben is in the firm with no client; Opal is a platform admin in the firm. */
const ada = { userId: 4001, email: email('ada'), given: 'Ada', family: 'Advisor' };
const ben = { userId: 4002, email: email('ben'), given: 'Ben', family: 'Bystander' };
const opal = { userId: 4003, email: email('opal'), given: 'Opal', family: 'Operator' };
const reportsConfig = () => ({ ...world.config, PLATFORM_ADMIN_EMAILS: [opal.email] });
const ledgers = new Map<string, LedgerPage>();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  db = world.db();
  const seededAt = new Date();
  for (const client of clients) ledgers.set(client.name, await seedClient(db, client, seededAt));
  await seedFirm(db, firm, [
    { person: ada, clientTenantIds: clients.map((client) => client.tenantId) },
    { person: ben, clientTenantIds: [] },
    { person: opal, clientTenantIds: [] },
  ]);

  const { config } = world;
  nativeConnection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
  connection = await Connection.connect({ address: config.TEMPORAL_ADDRESS });
  const client = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE });
  const deps = { db, writeSide: world.events().writeSide, now: () => new Date() };
  worker = await createReportsWorker({
    connection: nativeConnection,
    config,
    client,
    deps: { ...deps, config: reportsConfig(), parts: createReportParts({ ...deps, objects, mailer }) },
  });
  running = worker.run();
  reactor = startReportJobReactor({ ...deps, client, config, logger: pino({ level: 'silent' }) });
}, 180_000);

afterAll(async () => {
  await reactor?.stop();
  worker?.shutdown();
  await running;
  await stopPdfProcess();
  mailer.close();
  objects.close();
  await connection?.close();
  await nativeConnection?.close();
});

const jobEvents = (jobId: number) => jobEventsOf(world.events(), jobId);
const completed = (jobId: number) => completedJob(world.events(), jobId);

let requests = 0;
/** A Client Performance job as POST /api/reports records it, in the admin's current company. */
const requestClientPerformance = async (options: Record<string, boolean | number>): Promise<number> => {
  requests += 1;
  const jobId = 9000 + requests;
  await recordClientPerformanceJob(
    { writeSide: world.events().writeSide, config: world.config },
    { jobId, tenantId: firm.tenantId, requestedBy: opal.userId, options },
  );
  return jobId;
};

const sentOutcome = (result: ClientPerformanceResult, userId: number) => {
  const outcome = result.advisors.find((a) => a.userId === userId);
  if (outcome?.status !== 'sent') throw new Error(`advisor ${userId}: ${JSON.stringify(outcome)}`);
  return outcome;
};

describe("the advisors' Client Performance Summary by email", () => {
  let firstRun: { jobId: number; result: ClientPerformanceResult; asOf: Date };

  it("sends an advisor with 2 clients one email with the PDF of their clients' figures", async () => {
    const jobId = await requestClientPerformance({});
    const { result, events } = await completed(jobId);
    const asOf = new Date(JobCreated.parse(events[0]).data.createdAt);
    firstRun = { jobId, result, asOf };

    // Every advisor of the firm is listed: Ada sent; Ben and Opal have no client to report on.
    expect(result.sent).toEqual([ada.userId]);
    expect(result.skipped).toEqual([
      { userId: ben.userId, reason: advisorSkips.noClients },
      { userId: opal.userId, reason: advisorSkips.noClients },
    ]);
    const outcome = sentOutcome(result, ada.userId);
    expect(outcome).toMatchObject({
      recipientUserId: ada.userId,
      archived: { type: 'CLIENT_PERFORMANCE_REPORT' },
    });
    // Progress as the jobs tables show it: one advisor of one sent.
    expect(events.filter((e) => e.type === 'JobProgressRecorded').at(-1)?.data).toMatchObject({
      stage: 'sending',
      done: 1,
      total: 1,
    });

    const [mail, ...more] = await waitForMail(world.config, ada.email, { jobId: outcome.jobId });
    expect(more).toEqual([]);
    expect(mail!.subject).toMatch(/^Your Client Performance Summary for \w+ \d{4}$/);
    expect(mail!.text).toContain('Here is the Client Performance Summary of your 2 clients');
    expect(mail!.attachments).toHaveLength(1);
    const [pdf] = mail!.attachments;
    expect(pdf).toMatchObject({ contentType: 'application/pdf', fileName: outcome.archived.fileName });

    // The PDF prints each client's figures of the last whole month, recomputed here from its ledger.
    const { text, pages } = await readPdf(pdf!.bytes);
    expect(pages).toBe(1);
    const body = flat(text);
    expect(body).toContain('2 clients');
    const month = expectedPeriods('monthly', asOf).current;
    for (const client of clients) {
      const facts = ledgerFacts(ledgers.get(client.name)!, { customerIds: [], productIds: [] });
      const aging = facts.agingAt(month.endMs);
      const money = (cents: number) =>
        new Intl.NumberFormat(client.locale, { style: 'currency', currency: client.currency }).format(
          cents / 100,
        );
      expect(body).toContain(client.name);
      expect(body).toContain(`${client.name} Trading`);
      for (const figure of [facts.revenueIn(month), facts.collectionsIn(month), aging.open, aging.overdue])
        expect(body).toContain(money(figure));
    }

    // Archived once, in the advisor's firm, under the advisor's own job; that job ended sent.
    const advisorEvents = await jobEvents(outcome.jobId);
    const created = advisorEvents.find((e) => e.type === 'JobCreated');
    expect(created?.data).toMatchObject({
      tenantId: firm.tenantId,
      sellerId: null,
      parameters: { type: 'CLIENT_PERFORMANCE', parentJobId: jobId, advisorUserId: ada.userId },
    });
    const archived = advisorEvents.filter((e) => e.type === 'JobReportArchived');
    expect(archived).toHaveLength(1);
    expect(archived[0]?.data).toMatchObject({
      archivedReportId: outcome.archived.archivedId,
      size: pdf!.bytes.length,
    });
    const stored = archived[0]!.type === 'JobReportArchived' ? archived[0]!.data.objectKey : '';
    expect((await objects.get(stored)).contentLength).toBe(pdf!.bytes.length);
    expect(advisorEvents.map((e) => e.type)).toContain('JobCompleted');
  });

  it('sends and archives nothing twice when its steps run again (a retried or killed run)', async () => {
    const { jobId, result, asOf } = firstRun;
    const outcome = sentOutcome(result, ada.userId);
    const deps = { db, writeSide: world.events().writeSide, now: () => new Date() };
    const activities = createClientPerformanceActivities({
      ...deps,
      config: reportsConfig(),
      parts: createReportParts({ ...deps, objects, mailer }),
    });
    const step: AdvisorStep = {
      jobId,
      tenantId: firm.tenantId,
      asOf: asOf.toISOString(),
      options: {
        excludeAdmins: false,
        hasSellers: false,
        dryRun: false,
        admin: false,
        userId: null,
        requestedBy: opal.userId,
      },
      workflowId: clientPerformanceWorkflowId(world.config, jobId),
      advisor: {
        userId: ada.userId,
        recipientUserId: ada.userId,
        archiveTenantId: firm.tenantId,
        clients: 2,
        format: 'pdf',
      },
      index: 0,
      total: 1,
    };
    // Run as Temporal would run a retried attempt (an activity context for the heartbeats).
    const env = new MockActivityEnvironment();
    const rendered: RenderedAdvisorReport = await env.run(activities.renderAdvisorReport, step);
    expect(rendered).toMatchObject({ status: 'archived', jobId: outcome.jobId, archived: outcome.archived });
    if (rendered.status !== 'archived') throw new Error('not archived');
    const again: AdvisorOutcome = await env.run(activities.sendAdvisorReport, {
      ...step,
      advisorJobId: rendered.jobId,
      archived: rendered.archived,
      periodLabel: rendered.periodLabel,
    });
    expect(again).toMatchObject({ status: 'already-sent', jobId: outcome.jobId });
    await sleep(1000);
    expect(await mailTo(world.config, ada.email, outcome.jobId)).toHaveLength(1);
    const advisorEvents = await jobEvents(outcome.jobId);
    expect(advisorEvents.filter((e) => e.type === 'JobReportArchived')).toHaveLength(1);
    expect(advisorEvents.filter((e) => e.type === 'JobReportEmailed')).toHaveLength(1);
  });

  it('plans and records who would get what on a dry run, sending nothing', async () => {
    const before = (await mailTo(world.config, ada.email)).length;
    const jobId = await requestClientPerformance({ dryRun: true });
    const { result } = await completed(jobId);
    expect(result).toEqual({
      dryRun: true,
      advisors: [
        { userId: ben.userId, status: 'skipped', reason: advisorSkips.noClients, jobId: null },
        { userId: opal.userId, status: 'skipped', reason: advisorSkips.noClients, jobId: null },
        { userId: ada.userId, status: 'planned', recipientUserId: ada.userId, clients: 2, format: 'pdf' },
      ],
      sent: [],
      skipped: [
        { userId: ben.userId, reason: advisorSkips.noClients },
        { userId: opal.userId, reason: advisorSkips.noClients },
      ],
    });
    // hasSellers leaves out the advisors without a client; excludeAdmins the platform admins.
    const narrowed = await completed(
      await requestClientPerformance({ dryRun: true, hasSellers: true, excludeAdmins: true }),
    );
    expect(narrowed.result.advisors.map((a) => [a.userId, a.status])).toEqual([[ada.userId, 'planned']]);
    expect(narrowed.result.skipped).toEqual([]);
    await sleep(1000);
    expect(await mailTo(world.config, ada.email)).toHaveLength(before);
  });

  it('reports on one advisor when userId names them, and to the asking admin with admin', async () => {
    const one = await completed(await requestClientPerformance({ userId: ada.userId }));
    expect(one.result.sent).toEqual([ada.userId]);
    expect(one.result.advisors.map((a) => a.userId)).toEqual([ada.userId]);
    await waitForMail(world.config, ada.email, { jobId: sentOutcome(one.result, ada.userId).jobId });

    const toAdmin = await completed(await requestClientPerformance({ userId: ada.userId, admin: true }));
    const outcome = sentOutcome(toAdmin.result, ada.userId);
    expect(outcome.recipientUserId).toBe(opal.userId);
    const [mail] = await waitForMail(world.config, opal.email, { jobId: outcome.jobId });
    expect(mail!.subject).toMatch(/^Ada Advisor: Client Performance Summary for /);
    expect(mail!.text).toContain("Ada Advisor's 2 clients");
    expect(mail!.attachments.map((a) => a.contentType)).toEqual(['application/pdf']);
    await sleep(500);
    expect(await mailTo(world.config, ada.email, outcome.jobId)).toEqual([]);

    const nobody = await completed(await requestClientPerformance({ userId: 987_654 }));
    expect(nobody.result.skipped).toEqual([{ userId: 987_654, reason: advisorSkips.userGone }]);
  });
});
