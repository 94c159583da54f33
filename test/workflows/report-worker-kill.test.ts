import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { NativeConnection, type Worker } from '@temporalio/worker';
import pino from 'pino';
import { JobEvent } from '../../contracts/events/job';
import { jobStream, recipientStream, tenantStream } from '../../contracts/stream-ids';
import { systemActor } from '../../domain/actor';
import { jobDecider } from '../../domain/job/job-decider';
import { isFinished } from '../../domain/job/job';
import { recipientDecider } from '../../domain/recipient/recipient-decider';
import { sellerDecider } from '../../domain/seller/seller-decider';
import { tenantDecider } from '../../domain/tenant/tenant-decider';
import { handleCommand } from '../../commands/command-handler';
import { ProjectionProcessor } from '../../projections/framework/projection-processor';
import { projections } from '../../projections/registry';
import { projectionPositions } from '../../projections/framework/read-your-writes';
import { listArchivedReports } from '../../projections/reports/query-reports';
import { createMetricsWorker } from '../../workflows/metrics/worker';
import { recordReportJob } from '../../workflows/reports/record-report-job';
import { archiveObjectKey, tenantArchivePrefix } from '../../workflows/reports/archive/report-archive';
import { startReportJobReactor } from '../../workflows/reports/report-job-reactor';
import type { ReportJobResult } from '../../workflows/reports/report-job-input';
import { connectorsFor } from '../../workflows/sync/connectors';
import { startSyncRequestReactor } from '../../workflows/sync/sync-request-reactor';
import { readState } from '../../workflows/sync/system-commands';
import { createSyncWorker } from '../../workflows/sync/worker';
import { withReadStoreEnv } from '../harness/isolation';
import { childSays, connectDemoSeller, killHard, useLedgerWorld } from './ledger-world';
import { mailTo, waitForMail } from './report-mail';

/**
 * Issue 14, done means: a report workflow killed in the middle sends no duplicate email and archives
 * each report once. The reports worker runs in a process of its own; it is SIGKILLed just after the
 * mail server accepted the second of six emails and the job recorded it, before the send's activity
 * could report back, so Temporal runs that send again on the next worker. A new worker process
 * finishes the job. MailDev then holds exactly one email per recipient, and the archive one file (one
 * object, one row) for the report.
 */
jest.setTimeout(300_000);

const world = useLedgerWorld(__filename);
const tenantId = 31;
const sellerId = 310;
let nativeConnection: NativeConnection;
let workers: Worker[] = [];
let running: Promise<unknown>;
let processors: ProjectionProcessor[] = [];
const reactors: { stop: () => Promise<void> }[] = [];
let child: ChildProcess | null = null;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const reactorDeps = () => ({
  writeSide: world.events().writeSide,
  db: world.db(),
  client: world.client(),
  config: world.config,
  logger: pino({ level: 'silent' }),
});

const spawnReportsWorker = (mode: 'stall-after-second-email' | 'normal') =>
  // node with tsx as a loader (not the tsx wrapper), so a SIGKILL stops the process doing the work.
  spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'report-worker-child.ts'), mode], {
    env: {
      ...withReadStoreEnv(process.env, world.config),
      DATA_DIR: world.dataDir,
      TEMPORAL_TASK_QUEUE_PREFIX: world.config.TEMPORAL_TASK_QUEUE_PREFIX,
      S3_BUCKET: world.config.S3_BUCKET,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });

beforeAll(async () => {
  const { config } = world;
  const events = world.events();
  const db = world.db();
  processors = projections.map(
    (projection) =>
      new ProjectionProcessor({
        db,
        store: events.store,
        decode: events.decode,
        projection,
        logger: pino({ level: 'silent' }),
      }),
  );
  for (const processor of processors) processor.start();
  nativeConnection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
  const deps = { db, writeSide: events.writeSide, now: () => new Date() };
  workers = [
    await createSyncWorker({
      connection: nativeConnection,
      config,
      deps: { ...deps, connectorFor: connectorsFor(db) },
    }),
    await createMetricsWorker({ connection: nativeConnection, config, deps }),
  ];
  running = Promise.all(workers.map((worker) => worker.run()));
  reactors.push(startSyncRequestReactor(reactorDeps()), startReportJobReactor(reactorDeps()));
});

afterAll(async () => {
  if (child) await killHard(child);
  for (const reactor of reactors) await reactor.stop();
  for (const worker of workers) worker.shutdown();
  await running;
  for (const processor of processors) await processor.stop();
  await nativeConnection?.close();
});

/** A tenant, its DEMO seller synced with metrics, and six contacts subscribed to its reports. */
const seed = async (): Promise<{ emails: string[]; recipientIds: number[] }> => {
  const { writeSide } = world.events();
  const run = <S, C extends { now: Date }, E extends { type: string; data: unknown }>(
    decider: Parameters<typeof handleCommand<S, C, E>>[0],
    streamId: string,
    command: C,
  ) =>
    handleCommand(
      decider,
      { streamId, commandId: `${streamId}:${command.now.getTime()}:${Math.random()}`, command },
      writeSide,
    );
  await run(tenantDecider, tenantStream(tenantId), {
    type: 'CreateTenant',
    data: { tenantId, name: 'Kill Safe Ltd', classification: 'BUSINESS' },
    now: new Date(),
    actor: systemActor,
  });
  await connectDemoSeller(world.events(), { sellerId, tenantId });
  const emails = ['ada', 'ben', 'cy', 'di', 'ed', 'flo'].map(
    (name) => `${name}.${world.names.runId}@example.test`,
  );
  const recipientIds = emails.map((_, index) => 3100 + index);
  for (const [index, email] of emails.entries())
    await run(recipientDecider, recipientStream(recipientIds[index]!), {
      type: 'SubscribeRecipient',
      now: new Date(),
      data: {
        recipientId: recipientIds[index]!,
        tenantId,
        sellerId,
        subscriber: { email, givenName: email.split('.')[0]!, familyName: null, jobTitle: null },
        actor: systemActor,
        subscriberAlreadySubscribed: false,
      },
    });
  for (let attempt = 0; attempt < 1200; attempt += 1) {
    const seller = await readState(writeSide, sellerDecider, `seller-${sellerId}`);
    if (seller.status === 'known' && seller.metricsDate !== null) return { emails, recipientIds };
    await sleep(250);
  }
  throw new Error('the DEMO seller never finished its first sync and metrics');
};

const jobEvents = async (jobId: number) =>
  (await world.events().store.readStream(jobStream(jobId))).map((event) =>
    JobEvent.parse({ type: event.type, data: event.data }),
  );

/** Every read model has the store's last event. */
const settled = async () => {
  const head = await world.events().store.headPosition();
  const positions = projectionPositions(world.db());
  await Promise.all(projections.map((p) => positions.waitForPosition(p.name, head, 20_000)));
};

describe('a report worker killed mid-job', () => {
  it('sends no duplicate email and archives the report once', async () => {
    const { emails, recipientIds } = await seed();
    await settled();

    child = spawnReportsWorker('stall-after-second-email');
    await childSays(child, 'ready');
    const emailedTwice = childSays(child, 'emailed-twice');
    const { jobId } = await recordReportJob(
      { writeSide: world.events().writeSide, config: world.config },
      {
        requestId: `kill-test-${world.names.runId}`,
        process: 'report-test',
        tenantId,
        sellerId,
        parameters: { type: 'weekly', recipientIds },
        now: new Date(),
      },
    );

    await emailedTwice;
    await killHard(child);
    expect((await jobEvents(jobId)).filter((e) => e.type === 'JobReportEmailed')).toHaveLength(2);
    child = null;
    const job = await readState(world.events().writeSide, jobDecider, jobStream(jobId));
    expect(job.status !== 'none' && isFinished(job.status)).toBe(false);
    const sentBeforeKill = (
      await Promise.all(emails.map((email) => mailTo(world.config, email, jobId)))
    ).flat();
    expect(sentBeforeKill.length).toBeLessThan(emails.length);

    // A new worker takes the job over where the killed one left it.
    child = spawnReportsWorker('normal');
    await childSays(child, 'ready');
    let events: JobEvent[] = [];
    for (let attempt = 0; attempt < 1200; attempt += 1) {
      events = await jobEvents(jobId);
      if (events.some((e) => e.type === 'JobCompleted' || e.type === 'JobFailed')) break;
      await sleep(250);
    }
    const completed = events.find((e) => e.type === 'JobCompleted');
    expect(completed?.type).toBe('JobCompleted');
    const result = (completed?.type === 'JobCompleted' ? completed.data.result : null) as ReportJobResult;
    expect(result.sent).toEqual(recipientIds);

    // Exactly one email per recipient.
    for (const email of emails) await waitForMail(world.config, email, { jobId });
    await sleep(1000);
    for (const email of emails) expect(await mailTo(world.config, email, jobId)).toHaveLength(1);
    expect(events.filter((e) => e.type === 'JobReportEmailed')).toHaveLength(emails.length);

    // One archived report: one record, one object, one row in the archive's table.
    expect(events.filter((e) => e.type === 'JobReportArchived')).toHaveLength(1);
    const s3 = new S3Client({
      endpoint: world.config.S3_ENDPOINT,
      region: world.config.S3_REGION,
      forcePathStyle: world.config.S3_FORCE_PATH_STYLE,
      credentials: {
        accessKeyId: world.config.S3_ACCESS_KEY_ID,
        secretAccessKey: world.config.S3_SECRET_ACCESS_KEY,
      },
    });
    const listed = await s3.send(
      new ListObjectsV2Command({ Bucket: world.config.S3_BUCKET, Prefix: tenantArchivePrefix(tenantId) }),
    );
    expect((listed.Contents ?? []).map((object) => object.Key)).toEqual([
      archiveObjectKey({ tenantId, jobId, sellerId, type: 'WEEKLY_REPORT', extension: 'pdf' }),
    ]);
    s3.destroy();
    await settled();
    const { rows } = await listArchivedReports(world.db(), { tenantId, sellerId, limit: 100 });
    expect(rows.map((row) => row.Type)).toEqual(['WEEKLY_REPORT']);
  });
});
