/**
 * A weekly schedule tick (issue 14, suite `reports`): one tenant with `sellers` synced DEMO sellers
 * (default 1,000), each with one report recipient. Its weekly Temporal Schedule is triggered on the
 * dev server; the scheduled send records a report job per seller, the job reactor starts each run,
 * and the reports worker (as the worker process runs it: two activities at a time, one PDF process)
 * plans, renders the weekly PDF, archives it in the local S3 server, emails it and tracks the
 * recipient. Timed from the trigger to the last job completed, beside the same weekly PDFs rendered
 * alone (renderSellerReportWithSummary, one after another, no workflow) in the same run.
 *
 * The read models are projected as production projects them: by `ledgerwise projector` in a process of
 * its own (architecture.md, Processes) on the run's data folder, not inside the worker's process as
 * `ledgerwise all` runs them for local use. Its CPU during the tick, and how long after the last job it
 * has caught up (when the jobs table shows every job done), are figures of their own.
 *
 * The email is built in full (MIME with the PDF attached, by nodemailer) but not handed to an SMTP
 * server: MailDev is shared with the test suites, which read every email it holds. The SMTP hop is in
 * the report tests' timings instead.
 *
 * Seeded in a run of its own (event store, embedded read store, task queues, bucket): the tenant, its
 * sellers connected and synced on the write side, a DEMO ledger each (`invoicesPerYear` over the past
 * two years; 360 is the DEMO connector's own small business) written as a sync writes it, metrics computed by the metrics code itself, and the
 * read models projected from the events.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import pino from 'pino';
import type { Db } from 'mongodb';
import type { Config } from '../../contracts/config';
import { handleCommand } from '../../commands/command-handler';
import { openEventSource, type EventSource } from '../../commands/open-event-source';
import { recipientStream, sellerStream, tenantStream } from '../../contracts/stream-ids';
import { systemActor } from '../../domain/actor';
import type { Decider, DomainEvent } from '../../domain/decider';
import { recipientDecider } from '../../domain/recipient/recipient-decider';
import { sellerDecider } from '../../domain/seller/seller-decider';
import { tenantDecider } from '../../domain/tenant/tenant-decider';
import { projectionPositions } from '../../projections/framework/read-your-writes';
import { openReadStore } from '../../projections/read-store/open-read-store';
import { projections } from '../../projections/registry';
import { fetchDemoPage } from '../../workflows/demo/demo-connector';
import { createMailerWith, type Mailer } from '../../workflows/email/smtp-mailer';
import { ensureLedgerIndexes } from '../../workflows/ledger/ledger-collections';
import { writeLedgerPage } from '../../workflows/ledger/write-ledger-page';
import { storeMetrics } from '../../workflows/metrics/metric-store';
import { scanSellerMetrics } from '../../workflows/metrics/scan-seller-metrics';
import { createReportObjectStore, tenantArchivePrefix } from '../../workflows/reports/archive/report-archive';
import { renderSellerReportWithSummary } from '../../workflows/reports/pdf/render-seller-report';
import { stopPdfProcess } from '../../workflows/reports/pdf/pdf-renderer';
import { startReportJobReactor } from '../../workflows/reports/report-job-reactor';
import { createReportParts } from '../../workflows/reports/report-parts';
import { startReportScheduleReactor } from '../../workflows/reports/report-schedules/report-schedule-reactor';
import { reportScheduleId } from '../../workflows/reports/report-schedules/schedule-spec';
import { createReportsWorker } from '../../workflows/reports/worker';
import { benchConfig } from '../bench-config';
import type { BenchSuite, Figure } from '../harness';
import { measurePeakRss } from '../sync-bench-seller';
import { freePort, stopChild } from '../../test/harness/ledgerwise-process';

const TENANT = 1;
/** The tenant of the warm-up tick (its sellers' ids follow the measured tenant's). */
const WARM_UP_TENANT = 2;
const YEAR = 365 * 86_400_000;

const run = <S, C extends { now: Date }, E extends DomainEvent>(
  events: EventSource,
  decider: Decider<S, C, E>,
  streamId: string,
  step: string,
  command: C,
) => handleCommand(decider, { streamId, commandId: `bench:${streamId}:${step}`, command }, events.writeSide);

/** One seller as a sync and a metrics run leave it, with one contact subscribed to its reports. */
const seedSeller = async (
  context: { db: Db; events: EventSource; now: Date; invoicesPerYear: number; tenantId: number },
  sellerId: number,
) => {
  const { db, events, now, tenantId } = context;
  const stream = sellerStream(sellerId);
  await run(events, sellerDecider, stream, 'connect', {
    type: 'ConnectSeller',
    now,
    data: {
      sellerId,
      tenantId,
      provider: 'DEMO',
      actor: systemActor,
      tenantIsDemo: true,
      tenantHasConnectedSeller: true,
      planAllowsProvider: true,
      companyName: `Bench Seller ${sellerId}`,
      url: null,
      authMethod: 'none',
      authTokenOwner: null,
      credentialsRef: null,
      companyFilePath: null,
    },
  });
  const profile = {
    seed: sellerId,
    startDate: new Date(now.getTime() - 2 * YEAR).toISOString().slice(0, 10),
    invoicesPerYear: context.invoicesPerYear,
  };
  let cursor: string | null = null;
  do {
    const fetched = fetchDemoPage(profile, { sellerId, since: null, until: now, cursor, pageSize: 5000 });
    await writeLedgerPage({ db, tenantId, epoch: 1, now, compare: false }, fetched.page);
    cursor = fetched.nextCursor;
  } while (cursor !== null);
  await run(events, sellerDecider, stream, 'collected', {
    type: 'RecordSellerCollectionDate',
    now,
    data: { collectionDate: now },
  });
  const metrics = await scanSellerMetrics(db, {
    sellerId,
    exclusions: { customerIds: [], productIds: [] },
    asOf: now,
    retention: 'AUTO',
  });
  await storeMetrics(db, { sellerId, tenantId, asOf: now, generation: 'bench' }, metrics);
  await run(events, sellerDecider, stream, 'metrics', {
    type: 'RecordSellerMetricsDate',
    now,
    data: { metricsDate: now },
  });
  await run(events, recipientDecider, recipientStream(sellerId), 'subscribe', {
    type: 'SubscribeRecipient',
    now,
    data: {
      recipientId: sellerId,
      tenantId,
      sellerId,
      subscriber: {
        email: `reader${sellerId}@bench.test`,
        givenName: 'Reader',
        familyName: null,
        jobTitle: null,
      },
      actor: systemActor,
      subscriberAlreadySubscribed: false,
    },
  });
};

/**
 * Every email built in full (MIME, attachments) and dropped, as if SMTP had accepted it: the product's
 * mailer (in its mail thread, as the worker runs it) on nodemailer's stream transport.
 */
const mimeOnlyMailer = (): Mailer =>
  createMailerWith({
    transport: { streamTransport: true, buffer: true },
    from: 'Ledgerwise <reports@bench.test>',
  });

/** The fields of a /proc stat file after the command name (Linux, as these machines are). */
const statFields = (path: string): string[] => {
  const stat = readFileSync(path, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
};

/** utime plus stime in seconds: fields 14 and 15 of stat, 12 and 13 after the command name and state. */
const cpuSecondsIn = (fields: readonly string[]): number => (Number(fields[11]) + Number(fields[12])) / 100;

/** CPU seconds (user + system) a process has used so far. */
const cpuSecondsOf = (pid: number): number => cpuSecondsIn(statFields(`/proc/${pid}/stat`));

/**
 * CPU seconds this process's main thread has used so far (its thread id is the process id): the
 * process's figure also counts its worker threads (the report archive's, the mail thread's).
 */
const mainThreadCpuSeconds = (): number =>
  cpuSecondsIn(statFields(`/proc/${process.pid}/task/${process.pid}/stat`));

/** CPU seconds of each of this process's threads so far, by thread id (the main thread's id is the pid). */
const threadCpuSeconds = (): Map<number, number> => {
  const byThread = new Map<number, number>();
  for (const entry of readdirSync(`/proc/${process.pid}/task`)) {
    try {
      byThread.set(Number(entry), cpuSecondsIn(statFields(`/proc/${process.pid}/task/${entry}/stat`)));
    } catch {
      /* ended meanwhile */
    }
  }
  return byThread;
};

/** What each thread used since `before`, those above 0.05 s, for the log (* a thread started since). */
const threadCpuSince = (before: Map<number, number>): string =>
  [...threadCpuSeconds()]
    .map(([tid, seconds]) => [tid, seconds - (before.get(tid) ?? 0)] as const)
    .filter(([, seconds]) => seconds >= 0.05)
    .map(([tid, seconds]) => `${tid}${before.has(tid) ? '' : '*'}: ${seconds.toFixed(2)}`)
    .join(', ');

/** CPU seconds of this process and of its children but `except` (the PDF process: pdf-renderer.ts). */
const ownCpuSeconds = (except: number): number => {
  const own = process.cpuUsage();
  let children = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === except) continue;
    try {
      const fields = statFields(`/proc/${entry}/stat`);
      if (Number(fields[1]) === process.pid) children += cpuSecondsIn(fields);
    } catch {
      /* gone meanwhile */
    }
  }
  return (own.user + own.system) / 1e6 + children;
};

type EventTime = { seconds?: unknown; nanos?: number | null } | null | undefined;
const millisOf = (time: EventTime): number => Number(time?.seconds ?? 0) * 1000 + (time?.nanos ?? 0) / 1e6;

/**
 * Where a job's time went, from up to 30 Temporal histories read back afterwards (the jobs' own runs,
 * or with the scheduled send in batches the tick's one run): start to first workflow task, and each
 * activity's queue wait (scheduled to started) and run, mean seconds.
 */
const logJobHistories = async (
  client: Client,
  workflowIds: string[],
  log: (message: string) => void,
): Promise<void> => {
  const step = Math.max(1, Math.floor(workflowIds.length / 30));
  const sums = new Map<string, { total: number; count: number }>();
  const add = (name: string, value: number) => {
    const sum = sums.get(name) ?? { total: 0, count: 0 };
    sums.set(name, { total: sum.total + value, count: sum.count + 1 });
  };
  for (let index = 0; index < workflowIds.length; index += step) {
    const workflowId = workflowIds[index]!;
    const history = await client.workflow.getHandle(workflowId).fetchHistory();
    const events = history.events ?? [];
    const started = millisOf(events[0]?.eventTime);
    const firstTask = events.find((event) => event.workflowTaskStartedEventAttributes);
    if (firstTask) add('start to first workflow task', millisOf(firstTask.eventTime) - started);
    const byId = new Map(events.map((event) => [Number(event.eventId), event]));
    const startedAt = new Map<number, number>();
    for (const event of events) {
      const startedActivity = event.activityTaskStartedEventAttributes;
      const completed = event.activityTaskCompletedEventAttributes;
      if (startedActivity) {
        const scheduled = byId.get(Number(startedActivity.scheduledEventId));
        const name = scheduled?.activityTaskScheduledEventAttributes?.activityType?.name ?? '?';
        startedAt.set(Number(startedActivity.scheduledEventId), millisOf(event.eventTime));
        add(`${name}: queue wait`, millisOf(event.eventTime) - millisOf(scheduled?.eventTime));
      }
      if (completed) {
        const scheduled = byId.get(Number(completed.scheduledEventId));
        const name = scheduled?.activityTaskScheduledEventAttributes?.activityType?.name ?? '?';
        const at = startedAt.get(Number(completed.scheduledEventId));
        if (at !== undefined) add(`${name}: run`, millisOf(event.eventTime) - at);
      }
    }
    const last = events[events.length - 1];
    if (last) add('start to close', millisOf(last.eventTime) - started);
    add('history events', events.length * 1000);
  }
  for (const [name, sum] of sums)
    log(`  job history, ${name}: ${(sum.total / sum.count / 1000).toFixed(2)} (mean of ${sum.count})`);
};

const startCpuProfile = async () => {
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
    );
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 1000 });
  await post('Profiler.start');
  return {
    stop: async () => {
      const { profile } = (await post('Profiler.stop')) as { profile: unknown };
      session.disconnect();
      return profile;
    },
  };
};

/** The pid of a local server's process by pieces of its command line (the Temporal dev server), or null. */
const serverPid = (...pieces: string[]): number | null => {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const commandLine = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ');
      if (pieces.every((piece) => commandLine.includes(piece))) return Number(entry);
    } catch {
      /* gone meanwhile */
    }
  }
  return null;
};

/** The peak resident size of a process so far (VmHWM), in MiB. */
const peakRssMiBOf = (pid: number): number => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((row) => row.startsWith('VmHWM:'));
  return Number(line?.match(/\d+/)?.[0] ?? 0) / 1024;
};

/**
 * The projector as production runs it: `ledgerwise projector`, a process of its own (architecture.md,
 * Processes) on the run's data folder and read store, leased projections and all. The worker process
 * of the tick then holds only what the worker role holds.
 */
const startProjectorProcess = async (
  config: Config,
): Promise<{ child: ChildProcess; stop: () => Promise<void> }> => {
  const healthPort = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    DATA_DIR: config.DATA_DIR,
    TEMPORAL_TASK_QUEUE_PREFIX: config.TEMPORAL_TASK_QUEUE_PREFIX,
    KAFKA_TOPIC_PREFIX: config.KAFKA_TOPIC_PREFIX,
    PROJECTOR_HEALTH_PORT: String(healthPort),
  };
  delete env.READ_STORE_PATH;
  if (config.MONGO_URL) env.MONGO_URL = config.MONGO_URL;
  else delete env.MONGO_URL;
  // BENCH_PROJECTOR_PROFILE=<folder>: a CPU profile of the projector process, written when it stops.
  const profileFolder = process.env.BENCH_PROJECTOR_PROFILE;
  const profileArgs = profileFolder ? ['--cpu-prof', `--cpu-prof-dir=${profileFolder}`] : [];
  const child = spawn(
    process.execPath,
    [...profileArgs, '--import', 'tsx', 'cli/ledgerwise.ts', 'projector'],
    {
      cwd: join(__dirname, '..', '..'),
      detached: true,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const stop = () => stopChild(child);
  for (let attempt = 0; ; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`the projector process exited:\n${output}`);
    const healthy = await fetch(`http://127.0.0.1:${healthPort}/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) break;
    if (attempt > 240) {
      await stop();
      throw new Error(`the projector process did not start within 60 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { child, stop };
};

export const suite: BenchSuite = {
  name: 'reports-schedule',
  description:
    'A weekly schedule tick for N sellers (record, render, archive, email), beside rendering the same PDFs alone',
  // activities: 0 runs the reports worker's own number of activity slots.
  // batch and lanes: 0 runs the scheduled send's own batching (sellers per batch, batches at a time).
  // warmUp: sellers of a second tenant whose weekly tick runs first, untimed (0: the measured tick is
  // the worker's first).
  params: { sellers: 1000, invoicesPerYear: 360, activities: 0, batch: 0, lanes: 0, warmUp: 50 },
  run: async (params, { log }) => {
    const sellers = params.sellers ?? 1000;
    const warmUpSellers = params.warmUp ?? 50;
    const config = {
      ...benchConfig('reports-schedule'),
      S3_BUCKET: `lwbench-reports-${Date.now().toString(36)}`,
    };
    const readStore = await openReadStore(config);
    const { db } = readStore;
    const events = await openEventSource(config);
    const now = new Date();
    let projector: Awaited<ReturnType<typeof startProjectorProcess>> | null = null;
    const nativeConnection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
    const connection = await Connection.connect({ address: config.TEMPORAL_ADDRESS });
    const client = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE });
    const objects = createReportObjectStore(config);
    const mailer = mimeOnlyMailer();
    const reactors: { stop: () => Promise<void> }[] = [];
    try {
      log(
        `seeding a tenant with ${sellers} synced DEMO sellers (${params.invoicesPerYear} invoices a year each)`,
      );
      await ensureLedgerIndexes(db);
      await run(events, tenantDecider, tenantStream(TENANT), 'create', {
        type: 'CreateTenant',
        now,
        data: { tenantId: TENANT, name: 'Bench Holdings', classification: 'BUSINESS' },
        actor: systemActor,
      });
      const seedStarted = performance.now();
      const seedContext = { db, events, now, invoicesPerYear: params.invoicesPerYear ?? 360 };
      for (let sellerId = 1; sellerId <= sellers; sellerId += 1) {
        await seedSeller({ ...seedContext, tenantId: TENANT }, sellerId);
        if (sellerId % 100 === 0) log(`  ${sellerId} sellers seeded`);
      }
      if (warmUpSellers > 0) {
        log(`seeding a second tenant with ${warmUpSellers} sellers for the warm-up tick`);
        await run(events, tenantDecider, tenantStream(WARM_UP_TENANT), 'create', {
          type: 'CreateTenant',
          now,
          data: { tenantId: WARM_UP_TENANT, name: 'Warm-up Holdings', classification: 'BUSINESS' },
          actor: systemActor,
        });
        for (let sellerId = sellers + 1; sellerId <= sellers + warmUpSellers; sellerId += 1)
          await seedSeller({ ...seedContext, tenantId: WARM_UP_TENANT }, sellerId);
      }
      projector = await startProjectorProcess(config);
      const projectorPid = projector.child.pid ?? 0;
      const head = await events.store.headPosition();
      const positions = projectionPositions(db);
      await Promise.all(projections.map((p) => positions.waitForPosition(p.name, head, 600_000)));
      log(`seeded and projected in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s`);

      // Rendered alone once before the tick and once after it: the other agents' load on the shared
      // cores swings within minutes, and the mean of the two brackets the tick.
      const renderAlone = async (when: string) => {
        log(`baseline ${when} the tick: the same weekly PDFs rendered alone, one after another`);
        const cpuBefore = ownCpuSeconds(projectorPid);
        const processCpuBefore = process.cpuUsage();
        const threadsBefore = threadCpuSeconds();
        // BENCH_ALONE_PROFILE=<file>: a CPU profile of the baseline after the tick, to set beside the tick's.
        const aloneProfile =
          when === 'after' && process.env.BENCH_ALONE_PROFILE ? await startCpuProfile() : null;
        const measured = await measurePeakRss(async () => {
          const started = performance.now();
          for (let sellerId = 1; sellerId <= sellers; sellerId += 1)
            await renderSellerReportWithSummary(db, { sellerId, type: 'WEEKLY_REPORT', asOf: now });
          return (performance.now() - started) / 1000;
        });
        const cpuSeconds = ownCpuSeconds(projectorPid) - cpuBefore;
        const processCpu = process.cpuUsage(processCpuBefore);
        if (aloneProfile && process.env.BENCH_ALONE_PROFILE)
          writeFileSync(process.env.BENCH_ALONE_PROFILE, JSON.stringify(await aloneProfile.stop()));
        log(
          `alone ${when}: this process ${((processCpu.user + processCpu.system) / 1e6).toFixed(2)} cpu s, by thread: ${threadCpuSince(threadsBefore)}`,
        );
        log(
          `alone ${when}: ${measured.result.toFixed(1)} s, ${cpuSeconds.toFixed(1)} cpu s (with the PDF process), peak RSS ${measured.peakMiB.toFixed(0)} MiB`,
        );
        return { seconds: measured.result, cpuSeconds, peakMiB: measured.peakMiB };
      };
      await renderSellerReportWithSummary(db, { sellerId: 1, type: 'WEEKLY_REPORT', asOf: now }); // warm-up
      const aloneBefore = await renderAlone('before');

      const clock = () => new Date();
      const deps = { db, writeSide: events.writeSide, now: clock };
      // The upload and mail threads (docs/adr/0058) started before the worker's bundle is built, as a
      // worker that has sent a report before finds them: a thread loads its modules on its first call.
      objects.warm?.();
      mailer.warm?.();
      const worker = await createReportsWorker({
        connection: nativeConnection,
        // --activities=N tries another number of activity slots (the worker's default otherwise).
        ...(params.activities ? { maxConcurrentActivities: params.activities } : {}),
        // --batch=N --lanes=M try another batching of the scheduled send.
        scheduledBatching: {
          ...(params.batch ? { size: params.batch } : {}),
          ...(params.lanes ? { lanes: params.lanes } : {}),
        },
        config,
        client,
        deps: { ...deps, config, parts: createReportParts({ ...deps, objects, mailer }) },
      });
      const reactorDeps = {
        writeSide: events.writeSide,
        db,
        client,
        config,
        logger: pino({ level: 'silent' }),
      };
      reactors.push(startReportScheduleReactor(reactorDeps), startReportJobReactor(reactorDeps));
      const weeklyScheduleOf = async (tenantId: number) => {
        const handle = client.schedule.getHandle(reportScheduleId(config, { tenantId, frequency: 'weekly' }));
        for (let attempt = 0; ; attempt += 1) {
          const exists = await handle.describe().then(
            () => true,
            () => false,
          );
          if (exists) return handle;
          if (attempt > 600) throw new Error(`tenant ${tenantId}'s weekly schedule was never created`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      };
      const schedule = await weeklyScheduleOf(TENANT);
      const warmUpSchedule = warmUpSellers > 0 ? await weeklyScheduleOf(WARM_UP_TENANT) : null;

      /** Resolves once `count` more jobs have ended (completed or failed), counting the failed. */
      const jobsEnding = async (count: number, progress: boolean) => {
        let ended = 0;
        let failedJobs = 0;
        let resolveAll: () => void = () => undefined;
        const allEnded = new Promise<void>((resolve) => (resolveAll = resolve));
        const subscription = events.store.subscribe(
          (event) => {
            if (event.type === 'JobFailed') failedJobs += 1;
            ended += 1;
            if (progress && ended % 100 === 0) log(`  ${ended} report jobs finished`);
            if (ended >= count) resolveAll();
            return Promise.resolve();
          },
          { after: await events.store.headPosition(), filter: { eventTypes: ['JobCompleted', 'JobFailed'] } },
        );
        return {
          done: allEnded,
          counts: () => ({ ended, failed: failedJobs }),
          stop: () => subscription.stop(),
        };
      };

      // The Temporal dev server and s3rver are shared with the test suites: their CPU is printed, not a figure.
      const temporalPid = serverPid('temporal server start-dev');
      const s3Pid = serverPid('s3rver.js');
      /**
       * The CPU counters, read again once the warm-up tick is over: the measured tick's figures are
       * its own.
       */
      const startMeasuring = async () => ({
        headBeforeTick: await events.store.headPosition(),
        triggeredAt: Date.now(),
        workerCpuBefore: process.cpuUsage(),
        mainThreadCpuBefore: mainThreadCpuSeconds(),
        tickCpuBefore: ownCpuSeconds(projectorPid),
        projectorCpuBefore: cpuSecondsOf(projectorPid),
        s3CpuBefore: s3Pid ? cpuSecondsOf(s3Pid) : 0,
        temporalCpuBefore: temporalPid ? cpuSecondsOf(temporalPid) : 0,
        threadsBefore: threadCpuSeconds(),
        // BENCH_CPU_PROFILE=<file>: a CPU profile of this (the worker's) process during the tick only.
        profiling: process.env.BENCH_CPU_PROFILE ? await startCpuProfile() : null,
      });
      let measuring: Awaited<ReturnType<typeof startMeasuring>> | undefined;
      let tickJobs: Awaited<ReturnType<typeof jobsEnding>> | undefined;
      let projectorCaughtUp = 0;
      const inWorkflow = await measurePeakRss(() =>
        worker.runUntil(async () => {
          // A worker in service has sent reports before: the code of the tick's steps (the SDK's
          // activity path, the commands, the upload and mail threads) is compiled, as the baseline's
          // rendering is by its warm-up render. A small tenant's tick runs first, untimed.
          if (warmUpSchedule) {
            log(`warm-up: the weekly tick of ${warmUpSellers} sellers of another tenant (not timed)`);
            const warmUpJobs = await jobsEnding(warmUpSellers, false);
            const warmUpStarted = performance.now();
            await warmUpSchedule.trigger();
            await warmUpJobs.done;
            await warmUpJobs.stop();
            const settled = await events.store.headPosition();
            await Promise.all(projections.map((p) => positions.waitForPosition(p.name, settled, 600_000)));
            log(
              `warm-up: ${warmUpJobs.counts().ended} jobs in ${((performance.now() - warmUpStarted) / 1000).toFixed(1)} s (${warmUpJobs.counts().failed} failed)`,
            );
          }
          tickJobs = await jobsEnding(sellers, true);
          log('workflow: triggering the weekly schedule');
          measuring = await startMeasuring();
          const started = performance.now();
          const monotonicStart = process.hrtime.bigint() / 1000n;
          await schedule.trigger();
          await tickJobs.done;
          const done = performance.now();
          // The window of the tick on the monotonic clock CPU profiles use (microseconds), to cut a
          // profile of another process (BENCH_PROJECTOR_PROFILE) to the tick.
          log(`tick window (monotonic µs): ${monotonicStart}..${process.hrtime.bigint() / 1000n}`);
          // The jobs table shows the last job done once the projector has read its events.
          const last = await events.store.headPosition();
          await Promise.all(projections.map((p) => positions.waitForPosition(p.name, last, 600_000)));
          projectorCaughtUp = (performance.now() - done) / 1000;
          return (done - started) / 1000;
        }),
      );
      if (!measuring || !tickJobs) throw new Error('the tick did not run');
      const {
        headBeforeTick,
        triggeredAt,
        workerCpuBefore,
        mainThreadCpuBefore,
        tickCpuBefore,
        projectorCpuBefore,
        s3CpuBefore,
        temporalCpuBefore,
        threadsBefore,
        profiling,
      } = measuring;
      const { ended: finished, failed } = tickJobs.counts();
      if (profiling && process.env.BENCH_CPU_PROFILE)
        writeFileSync(process.env.BENCH_CPU_PROFILE, JSON.stringify(await profiling.stop()));
      const workerCpu = process.cpuUsage(workerCpuBefore);
      const tickCpuSeconds = ownCpuSeconds(projectorPid) - tickCpuBefore;
      const workerCpuSeconds = (workerCpu.user + workerCpu.system) / 1e6;
      const mainThreadCpu = mainThreadCpuSeconds() - mainThreadCpuBefore;
      const projectorCpuSeconds = cpuSecondsOf(projectorPid) - projectorCpuBefore;
      const projectorPeakMiB = peakRssMiBOf(projectorPid);
      log(`CPU by thread of the worker process during the tick: ${threadCpuSince(threadsBefore)}`);
      if (s3Pid)
        log(`CPU of s3rver during the tick (shared): ${(cpuSecondsOf(s3Pid) - s3CpuBefore).toFixed(1)} s`);
      if (temporalPid)
        log(
          `CPU of the Temporal dev server during the tick (shared): ${(cpuSecondsOf(temporalPid) - temporalCpuBefore).toFixed(1)} s`,
        );
      await tickJobs.stop();
      // What the tick appended, read back afterwards (nothing is read during it): events per job by
      // type, and when each step happened, seconds after the trigger (first, median, last).
      const appended = await events.store.readAll({ after: headBeforeTick });
      const byType = new Map<string, number[]>();
      for (const event of appended)
        byType.set(event.type, [
          ...(byType.get(event.type) ?? []),
          (Date.parse(event.recordedAt) - triggeredAt) / 1000,
        ]);
      // A batched send's jobs have no run of their own: the tick's run holds their batches.
      const created = appended
        .filter((event) => event.type === 'JobCreated')
        .map((event) => event.data as { workflowId: string; parameters: { batchRunId?: unknown } });
      const tickRunId = created.find((job) => typeof job.parameters.batchRunId === 'string')?.parameters
        .batchRunId as string | undefined;
      await logJobHistories(client, tickRunId ? [tickRunId] : created.map((job) => job.workflowId), log);
      log(
        `events appended in the tick: ${appended.length} (${(appended.length / sellers).toFixed(1)} a job)`,
      );
      for (const [type, times] of [...byType].sort((a, b) => Math.min(...a[1]) - Math.min(...b[1]))) {
        const sorted = [...times].sort((a, b) => a - b);
        const at = (q: number) =>
          sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1);
        log(`  ${type}: ${sorted.length}, at ${at(0)} / ${at(0.5)} / ${at(1)} s`);
      }
      // Jobs completed in each second after the trigger: how fast the tick starts and how long its tail is.
      const perSecond: number[] = [];
      for (const at of byType.get('JobCompleted') ?? [])
        perSecond[Math.floor(at)] = (perSecond[Math.floor(at)] ?? 0) + 1;
      log(`  jobs completed in each second: ${Array.from(perSecond, (count) => count ?? 0).join(' ')}`);
      log(
        `CPU during the tick: worker process ${workerCpuSeconds.toFixed(2)} s (its main thread ${mainThreadCpu.toFixed(2)} s, ${((mainThreadCpu / sellers) * 1000).toFixed(1)} ms a job), projector process ${projectorCpuSeconds.toFixed(1)} s (peak RSS ${projectorPeakMiB.toFixed(0)} MiB); projector caught up ${projectorCaughtUp.toFixed(1)} s after the last job`,
      );
      log(
        `workflow: ${inWorkflow.result.toFixed(1)} s for ${finished} jobs (${failed} failed), peak RSS ${inWorkflow.peakMiB.toFixed(0)} MiB`,
      );
      const aloneAfter = await renderAlone('after');
      const alone = {
        result: (aloneBefore.seconds + aloneAfter.seconds) / 2,
        cpuSeconds: (aloneBefore.cpuSeconds + aloneAfter.cpuSeconds) / 2,
        peakMiB: Math.max(aloneBefore.peakMiB, aloneAfter.peakMiB),
      };
      const perMinute = (seconds: number) => (sellers / seconds) * 60;
      const figures: Figure[] = [
        {
          name: `Weekly schedule tick, ${sellers} sellers: trigger to last job completed`,
          unit: 's',
          value: inWorkflow.result,
          baseline: {
            name: `the same weekly PDFs rendered alone, one after another (mean of ${aloneBefore.seconds.toFixed(1)} s before the tick and ${aloneAfter.seconds.toFixed(1)} s after)`,
            value: alone.result,
          },
          higherIsBetter: false,
          target: { kind: 'ratio', op: '<=', value: 1.5, source: 'issue 14' },
        },
        {
          name: 'Weekly schedule tick: reports sent per minute',
          unit: 'reports/min',
          value: perMinute(inWorkflow.result),
          baseline: { name: 'weekly PDFs rendered alone per minute', value: perMinute(alone.result) },
          higherIsBetter: true,
        },
        {
          name: 'Weekly schedule tick: peak RSS of the worker process',
          unit: 'MiB',
          value: inWorkflow.peakMiB,
          baseline: { name: 'rendering alone', value: alone.peakMiB },
          higherIsBetter: false,
        },
      ];
      figures.push(
        {
          name: 'Weekly schedule tick: CPU (worker and PDF processes, and the projector process)',
          unit: 'cpu s',
          value: tickCpuSeconds + projectorCpuSeconds,
          baseline: { name: 'rendering alone (this process and the PDF process)', value: alone.cpuSeconds },
          higherIsBetter: false,
        },
        {
          name: 'Weekly schedule tick: CPU of the projector process (its own process, as in production)',
          unit: 'cpu s',
          value: projectorCpuSeconds,
          baseline: { name: 'CPU of the worker process (without the PDF process)', value: workerCpuSeconds },
          higherIsBetter: false,
        },
        {
          name: 'Weekly schedule tick: projector caught up after the last job completed',
          unit: 's',
          value: projectorCaughtUp,
          baseline: { name: 'trigger to last job completed', value: inWorkflow.result },
          higherIsBetter: false,
        },
        {
          name: 'Weekly schedule tick: peak RSS of the projector process',
          unit: 'MiB',
          value: projectorPeakMiB,
          baseline: { name: 'peak RSS of the worker process', value: inWorkflow.peakMiB },
          higherIsBetter: false,
        },
      );
      if (failed > 0) log(`WARNING: ${failed} report jobs failed`);
      return figures;
    } finally {
      for (const reactor of reactors) await reactor.stop();
      // A schedule outlives the run on the dev server: none may be left to fire.
      for (const tenantId of [TENANT, WARM_UP_TENANT])
        for (const frequency of ['weekly', 'monthly'] as const)
          await client.schedule
            .getHandle(reportScheduleId(config, { tenantId, frequency }))
            .delete()
            .catch(() => undefined);
      await projector?.stop();
      await stopPdfProcess();
      for (const tenantId of [TENANT, WARM_UP_TENANT])
        await objects.deletePrefix(tenantArchivePrefix(tenantId)).catch(() => 0);
      objects.close();
      mailer.close();
      await connection.close();
      await nativeConnection.close();
      await events.close();
      await readStore.close();
      rmSync(config.DATA_DIR, { recursive: true, force: true });
    }
  },
};
