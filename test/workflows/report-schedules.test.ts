import { Client, Connection, ScheduleNotFoundError, type ScheduleDescription } from '@temporalio/client';
import { MockActivityEnvironment } from '@temporalio/testing';
import { NativeConnection, type Worker } from '@temporalio/worker';
import pino from 'pino';
import { JobCreated } from '../../contracts/events/job';
import { jobStream, sellerStream, tenantStream } from '../../contracts/stream-ids';
import { systemActor } from '../../domain/actor';
import { sellerDecider } from '../../domain/seller/seller-decider';
import { tenantDecider } from '../../domain/tenant/tenant-decider';
import type { ReportParts } from '../../workflows/reports/activities';
import { startReportScheduleReactor } from '../../workflows/reports/report-schedules/report-schedule-reactor';
import {
  reportScheduleId,
  type ScheduledFrequency,
} from '../../workflows/reports/report-schedules/schedule-spec';
import { allocateJobIdBlock } from '../../workflows/reports/report-schedules/job-id-block';
import { createScheduledReportsActivities } from '../../workflows/reports/report-schedules/scheduled-reports-activities';
import type {
  ScheduledBatching,
  ScheduledBlockResult,
  ScheduledReportsResult,
} from '../../workflows/reports/report-schedules/scheduled-reports-input';
import { createReportsWorker } from '../../workflows/reports/worker';
import { useGatewayWorld } from '../gateway/gateway-world';

/**
 * The tenants' weekly and monthly report Schedules on the real Temporal dev server (Temporal's
 * time-skipping test server has no Schedules: CreateSchedule answers "unimplemented"). The schedule
 * reactor follows the tenant events; the describe() of each schedule shows when it will fire; a
 * backfill makes it fire on the days it would have, and each run records one report job per synced,
 * active seller of the tenant, as the gateway records them.
 */
jest.setTimeout(120_000);

const world = useGatewayWorld(__filename);
let nativeConnection: NativeConnection;
let connection: Connection;
let client: Client;
let worker: Worker;
let running: Promise<void>;
let reactor: { stop: () => Promise<void> };
const tenantIds: number[] = [];

const unused = () => Promise.reject(new Error('report jobs do not run in this test'));
const parts: ReportParts = {
  renderPdf: unused,
  renderSheet: unused,
  archive: unused,
  readArchived: unused,
  wasEmailed: unused,
  recordEmailed: unused,
  isDemoRecipient: () => false,
  mailer: { send: unused },
};

beforeAll(async () => {
  const { config, services } = world;
  nativeConnection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
  connection = await Connection.connect({ address: config.TEMPORAL_ADDRESS });
  client = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE });
  worker = await createReportsWorker({
    connection: nativeConnection,
    config,
    client,
    deps: { db: services.db, writeSide: services.writeSide, now: () => new Date(), config, parts },
  });
  running = worker.run();
  reactor = startReportScheduleReactor({
    writeSide: services.writeSide,
    db: services.db,
    client,
    config,
    logger: pino({ level: 'silent' }),
  });
});

afterAll(async () => {
  await reactor?.stop();
  // Schedules outlive the test on the shared dev server: none may be left to fire.
  for (const tenantId of tenantIds)
    for (const frequency of ['weekly', 'monthly'] as const)
      await client.schedule
        .getHandle(reportScheduleId(world.config, { tenantId, frequency }))
        .delete()
        .catch(() => undefined);
  worker?.shutdown();
  await running;
  await connection?.close();
  await nativeConnection?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let nextTenantId = 700;
const createTenant = async (name: string) => {
  const tenantId = (nextTenantId += 1);
  tenantIds.push(tenantId);
  await world.run(tenantDecider, tenantStream(tenantId), {
    type: 'CreateTenant',
    data: { tenantId, name, classification: 'BUSINESS' },
    now: new Date(),
    actor: systemActor,
  });
  return tenantId;
};

const changeReporting = (tenantId: number, data: Record<string, unknown>) =>
  world.run(tenantDecider, tenantStream(tenantId), {
    type: 'ChangeReportingSettings',
    data,
    now: new Date(),
    actor: systemActor,
  });

let nextSellerId = 7000;
const connectSeller = async (tenantId: number, state: 'synced' | 'unsynced' | 'inactive') => {
  const sellerId = (nextSellerId += 1);
  const stream = sellerStream(sellerId);
  const now = new Date();
  await world.run(sellerDecider, stream, {
    type: 'ConnectSeller',
    now,
    data: {
      sellerId,
      tenantId,
      provider: 'DEMO',
      actor: systemActor,
      tenantIsDemo: true,
      tenantHasConnectedSeller: false,
      planAllowsProvider: true,
      companyName: `Seller ${sellerId}`,
      url: null,
      authMethod: 'none',
      authTokenOwner: null,
      credentialsRef: null,
      companyFilePath: null,
    },
  });
  if (state !== 'unsynced')
    await world.run(sellerDecider, stream, {
      type: 'RecordSellerCollectionDate',
      now,
      data: { collectionDate: now },
    });
  if (state === 'inactive')
    await world.run(sellerDecider, stream, { type: 'SetSellerActive', now, data: { active: false } });
  return sellerId;
};

const handleOf = (tenantId: number, frequency: ScheduledFrequency) =>
  client.schedule.getHandle(reportScheduleId(world.config, { tenantId, frequency }));

/** The schedule once it satisfies `ready` (the reactor follows the store a moment behind). */
const scheduleWhen = async (
  tenantId: number,
  frequency: ScheduledFrequency,
  ready: (description: ScheduleDescription) => boolean,
): Promise<ScheduleDescription> => {
  let last: unknown;
  // Up to a minute: on a loaded machine the reactor and the dev server can lag by seconds.
  for (let attempt = 0; attempt < 600; attempt += 1) {
    try {
      const description = await handleOf(tenantId, frequency).describe();
      if (ready(description)) return description;
      last = description.spec;
    } catch (error) {
      if (!(error instanceof ScheduleNotFoundError)) throw error;
      last = error;
    }
    await sleep(100);
  }
  throw new Error(`the ${frequency} schedule of tenant ${tenantId} never got ready: ${JSON.stringify(last)}`);
};

/** Weekday, day of month and time of an instant as a clock in the zone shows them. */
const localOf = (at: Date, timeZone: string) => {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.weekday} ${parts.day} ${parts.hour}:${parts.minute}`;
};

const weekdaysAndTimes = (times: readonly Date[], timeZone: string) => [
  ...new Set(times.map((at) => localOf(at, timeZone).replace(/ \d+ /, ' '))),
];
const daysAndTimes = (times: readonly Date[], timeZone: string) => [
  ...new Set(times.map((at) => localOf(at, timeZone).replace(/^\w+ /, ''))),
];

const hasSpec = (weekday: string) => (description: ScheduleDescription) =>
  description.spec.calendars?.[0]?.dayOfWeek?.[0]?.start === weekday;

/** The scheduled send's activities over the world's services, as the reports worker builds them. */
const scheduledActivities = (batching?: ScheduledBatching) =>
  createScheduledReportsActivities({
    db: world.services.db,
    writeSide: world.services.writeSide,
    now: () => new Date(),
    config: world.config,
    client,
    ...(batching ? { batching } : {}),
  });

/** One firing of a tenant's schedule at `at`, with the run id Temporal gives a scheduled run. */
const firingAt = (tenantId: number, frequency: ScheduledFrequency, at: string) => ({
  tenantId,
  frequency,
  scheduledRunId: `${reportScheduleId(world.config, { tenantId, frequency })}-${at.replace('.000Z', 'Z')}`,
  scheduledAt: at,
});

describe('report schedules', () => {
  it('are created with a tenant: weekly on WeeklyDay, monthly on MonthlyDay, at 07:00 UTC by default', async () => {
    const tenantId = await createTenant('Schedules Default Ltd');

    const weekly = await scheduleWhen(tenantId, 'weekly', () => true);
    const monthly = await scheduleWhen(tenantId, 'monthly', () => true);
    expect(weekly.info.nextActionTimes.length).toBeGreaterThanOrEqual(5);
    // Defaults of admin.md section 9: WeeklyDay 2 (Tuesday), MonthlyDay 7.
    expect(weekdaysAndTimes(weekly.info.nextActionTimes, 'UTC')).toEqual(['Tue 07:00']);
    expect(daysAndTimes(monthly.info.nextActionTimes, 'UTC')).toEqual(['7 07:00']);
    expect(weekly.state.paused).toBe(false);
    expect(weekly.action).toMatchObject({
      type: 'startWorkflow',
      workflowType: 'scheduledReportsWorkflow',
      taskQueue: `${world.config.TEMPORAL_TASK_QUEUE_PREFIX}-reports`,
      args: [{ tenantId, frequency: 'weekly' }],
    });
  });

  it("move when the day or the time zone changes, and keep 07:00 on the tenant's clock across DST", async () => {
    const tenantId = await createTenant('Schedules New York Inc');
    await scheduleWhen(tenantId, 'weekly', () => true);

    await changeReporting(tenantId, { weeklyDay: 5, monthlyDay: 28, timeZone: 'America/New_York' });

    const weekly = await scheduleWhen(tenantId, 'weekly', hasSpec('FRIDAY'));
    const monthly = await scheduleWhen(tenantId, 'monthly', (d) => d.spec.timezone === 'America/New_York');
    expect(weekdaysAndTimes(weekly.info.nextActionTimes, 'America/New_York')).toEqual(['Fri 07:00']);
    expect(daysAndTimes(monthly.info.nextActionTimes, 'America/New_York')).toEqual(['28 07:00']);
    // Ten months ahead cross a change of the clocks: the UTC hour moves, the local one does not.
    const utcHours = new Set(monthly.info.nextActionTimes.map((at) => at.getUTCHours()));
    expect([...utcHours].sort()).toEqual([11, 12]);
  });

  it('pause a disabled frequency, whose send then records nothing, and resume when it is enabled', async () => {
    const tenantId = await createTenant('Schedules Paused Ltd');
    await connectSeller(tenantId, 'synced');
    await scheduleWhen(tenantId, 'weekly', () => true);

    await changeReporting(tenantId, { weeklyEmailsDisabled: true });
    const paused = await scheduleWhen(tenantId, 'weekly', (d) => d.state.paused);
    expect(paused.state.note).toBe('Weekly emails are disabled for this tenant.');
    expect((await handleOf(tenantId, 'monthly').describe()).state.paused).toBe(false);

    // A send that fires anyway (triggered by hand, or due just before the pause) records no job.
    await handleOf(tenantId, 'weekly').trigger();
    const fired = await scheduleWhen(tenantId, 'weekly', (d) => d.info.recentActions.length > 0);
    const run = fired.info.recentActions[0]!.action.workflow;
    await expect(client.workflow.getHandle(run.workflowId).result()).resolves.toEqual({
      skipped: 'Weekly emails are disabled for this company.',
      jobIds: [],
    } satisfies ScheduledReportsResult);

    await changeReporting(tenantId, { weeklyEmailsDisabled: false });
    await scheduleWhen(tenantId, 'weekly', (d) => !d.state.paused);
  });

  it('fire on their day: each run records one report job per synced, active seller', async () => {
    const tenantId = await createTenant('Schedules Backfill Ltd');
    const synced = [await connectSeller(tenantId, 'synced'), await connectSeller(tenantId, 'synced')];
    await connectSeller(tenantId, 'unsynced');
    await connectSeller(tenantId, 'inactive');
    await changeReporting(tenantId, { weeklyDay: 4, timeZone: 'Asia/Kolkata' });
    await scheduleWhen(tenantId, 'weekly', hasSpec('THURSDAY'));
    await world.settle();

    // The schedule takes the actions it would have taken over the past fortnight.
    const end = new Date();
    await handleOf(tenantId, 'weekly').backfill({
      start: new Date(end.getTime() - 14 * 24 * 60 * 60 * 1000),
      end,
      overlap: 'ALLOW_ALL',
    });
    const fired = await scheduleWhen(tenantId, 'weekly', (d) => d.info.recentActions.length === 2);
    const due = fired.info.recentActions.map((action) => action.scheduledAt);
    expect(weekdaysAndTimes(due, 'Asia/Kolkata')).toEqual(['Thu 07:00']);

    const results = await Promise.all(
      fired.info.recentActions.map(
        (action) =>
          client.workflow
            .getHandle(action.action.workflow.workflowId)
            .result() as Promise<ScheduledReportsResult>,
      ),
    );
    for (const [index, result] of results.entries()) {
      expect(result.skipped).toBeNull();
      const jobs = await Promise.all(
        result.jobIds.map(async (jobId) => {
          const [created] = await world.services.writeSide.store.readStream(jobStream(jobId), {
            maxCount: 1,
          });
          return JobCreated.parse({ type: created?.type, data: created?.data }).data;
        }),
      );
      expect(jobs.map((job) => job.sellerId).sort()).toEqual(synced);
      for (const job of jobs) {
        expect(job).toMatchObject({ kind: 'report', tenantId });
        const runId = fired.info.recentActions[index]!.action.workflow.workflowId;
        expect(job.parameters).toEqual({
          type: 'workflow',
          frequency: 'weekly',
          noOverride: true,
          noRecent: true,
          onlyArchive: false,
          skipRecentDataChecks: false,
          scheduledAt: due[index]!.toISOString(),
          // Sent by the scheduled run's own batches, not by a run of its own (docs/adr/0038).
          batchRunId: runId,
        });
        expect(job.workflowId).toBe(
          `${world.config.TEMPORAL_TASK_QUEUE_PREFIX}-report-seller-${job.sellerId}-job-${job.jobId}`,
        );
        // The scheduled run ended each job itself (these sellers have no metrics yet: skipped).
        const ended = await world.services.writeSide.store.readStream(jobStream(job.jobId));
        expect(ended.map((event) => event.type)).toEqual(['JobCreated', 'JobStarted', 'JobCompleted']);
        expect(ended[2]?.data).toMatchObject({
          result: { skipped: 'The seller has not synced yet.', sent: [], archived: [] },
        });
        // No run per job: the job reactor leaves a batched job to its scheduled run.
        await expect(client.workflow.getHandle(job.workflowId).describe()).rejects.toThrow();
      }
    }
    // The jobs are in the tables like the ones users ask for.
    await world.settle();
    const jobIds = results.flatMap((result) => result.jobIds);
    expect(new Set(jobIds).size).toBe(4);
  });

  it('record each job once however often a run is retried (its id keys them)', async () => {
    const tenantId = await createTenant('Schedules Retry Ltd');
    await connectSeller(tenantId, 'synced');
    await world.settle();
    const { services } = world;
    const activities = scheduledActivities();
    const step = firingAt(tenantId, 'monthly', '2026-03-07T07:00:00.000Z');
    const environment = new MockActivityEnvironment();
    const record = () =>
      environment.run<[typeof step], ScheduledReportsResult, typeof activities.recordScheduledReportJobs>(
        activities.recordScheduledReportJobs,
        step,
      );
    const first = await record();
    const again = await record();

    expect(first.jobIds).toHaveLength(1);
    expect(again).toEqual(first);
    const events = await services.writeSide.store.readStream(jobStream(first.jobIds[0]!));
    // Recorded once; the run this path starts may already have started the job (JobStarted) on a
    // busy machine, which is not a second record.
    expect(events.filter((event) => event.type === 'JobCreated')).toHaveLength(1);
    expect(events[0]?.type).toBe('JobCreated');
  });

  it("record a batched send's jobs once, with one block of ids, however often it is retried", async () => {
    const tenantId = await createTenant('Schedules Block Ltd');
    const sellerIds = [await connectSeller(tenantId, 'synced'), await connectSeller(tenantId, 'synced')];
    await world.settle();
    const { services } = world;
    const activities = scheduledActivities();
    const step = firingAt(tenantId, 'weekly', '2026-03-10T07:00:00.000Z');
    const environment = new MockActivityEnvironment();
    const record = () =>
      environment.run<[typeof step], ScheduledBlockResult, typeof activities.recordScheduledJobBlock>(
        activities.recordScheduledJobBlock,
        step,
      );
    const idsBefore = await services.writeSide.store.readStream('ids-job', {
      direction: 'backwards',
      maxCount: 1,
    });
    const first = await record();
    const again = await record();

    expect(again).toEqual(first);
    expect(first.jobs.map((job) => job.sellerId).sort()).toEqual(sellerIds);
    // One block: consecutive ids, allocated once.
    const jobIds = first.jobs.map((job) => job.jobId).sort((a, b) => a - b);
    expect(jobIds[1]).toBe(jobIds[0]! + 1);
    const allocated = await services.writeSide.store.readStream('ids-job', {
      fromRevision: (idsBefore[0]?.revision ?? -1) + 1,
    });
    expect(
      allocated.filter((event) =>
        (event.data as { claimKey: string }).claimKey.startsWith(step.scheduledRunId),
      ),
    ).toHaveLength(2);
    for (const job of first.jobs) {
      const events = await services.writeSide.store.readStream(jobStream(job.jobId));
      expect(events.map((event) => event.type)).toEqual(['JobCreated']);
      expect(events[0]?.data).toMatchObject({
        sellerId: job.sellerId,
        parameters: { type: 'workflow', frequency: 'weekly', batchRunId: step.scheduledRunId },
      });
    }
  });

  it('record the first batches’ jobs with the block and the rest beside them, each once however often retried', async () => {
    const tenantId = await createTenant('Schedules Early Ltd');
    const sellerIds = [
      await connectSeller(tenantId, 'synced'),
      await connectSeller(tenantId, 'synced'),
      await connectSeller(tenantId, 'synced'),
    ];
    await world.settle();
    // One seller a batch, one batch at a time: the block records the first job only.
    const activities = scheduledActivities({ size: 1, lanes: 1 });
    const firing = firingAt(tenantId, 'weekly', '2026-03-17T07:00:00.000Z');
    const step = { ...firing, firstBatchesOnly: true };
    const environment = new MockActivityEnvironment();
    const recordBlock = () =>
      environment.run<[typeof step], ScheduledBlockResult, typeof activities.recordScheduledJobBlock>(
        activities.recordScheduledJobBlock,
        step,
      );
    const createdOf = async (jobId: number) =>
      (await world.services.writeSide.store.readStream(jobStream(jobId))).filter(
        (event) => event.type === 'JobCreated',
      ).length;

    const block = await recordBlock();
    expect(await recordBlock()).toEqual(block);
    expect(block.recorded).toBe(1);
    expect(block.jobs.map((job) => job.sellerId).sort()).toEqual(sellerIds);
    const [first, ...rest] = block.jobs;
    expect(await createdOf(first!.jobId)).toBe(1);
    for (const job of rest) expect(await createdOf(job.jobId)).toBe(0);

    const recordRest = () =>
      environment.run(activities.recordScheduledJobs, {
        ...firing,
        jobs: rest,
      });
    await recordRest();
    await recordRest();
    for (const job of block.jobs) expect(await createdOf(job.jobId)).toBe(1);
    const [created] = await world.services.writeSide.store.readStream(jobStream(rest[0]!.jobId));
    expect(created?.data).toMatchObject({
      sellerId: rest[0]!.sellerId,
      parameters: { frequency: 'weekly', batchRunId: step.scheduledRunId },
    });
  });

  it('keep the job of a seller that left between two attempts, to be skipped, not left waiting', async () => {
    const tenantId = await createTenant('Schedules Leaver Ltd');
    const staying = await connectSeller(tenantId, 'synced');
    const leaving = await connectSeller(tenantId, 'synced');
    await world.settle();
    const activities = scheduledActivities();
    const step = firingAt(tenantId, 'weekly', '2026-03-17T07:00:00.000Z');
    const record = () =>
      new MockActivityEnvironment().run<
        [typeof step],
        ScheduledBlockResult,
        typeof activities.recordScheduledJobBlock
      >(activities.recordScheduledJobBlock, step);
    // The first attempt records both jobs, then times out; before the retry one seller goes inactive.
    const first = await record();
    await world.run(sellerDecider, sellerStream(leaving), {
      type: 'SetSellerActive',
      now: new Date(),
      data: { active: false },
    });
    await world.settle();
    const again = await record();

    expect(first.jobs.map((job) => job.sellerId).sort()).toEqual([staying, leaving]);
    // Its job was recorded: the retry hands it to a batch, whose plan skips an inactive seller.
    expect(again.jobs).toEqual(first.jobs);
  });

  it('give each key of a send the same job id on every attempt, in blocks of at most the block size', async () => {
    const { store } = world.services.writeSide;
    const commandId = `${reportScheduleId(world.config, { tenantId: 1, frequency: 'weekly' })}-block-test-${Date.now()}`;
    const keys = [1, 2, 3, 4, 5].map((seller) => `${commandId}:seller-${seller}`);
    const now = new Date();
    const first = await allocateJobIdBlock(store, { commandId, keys, now, blockSize: 2 });
    expect([...first.keys()].sort()).toEqual([...keys].sort());
    expect(new Set(first.values()).size).toBe(5);
    // A retry, even one given the keys in another order, answers the same ids.
    expect(
      await allocateJobIdBlock(store, { commandId, keys: [...keys].reverse(), now, blockSize: 2 }),
    ).toEqual(first);
    // Three claimed blocks (2, 2 and 1 ids); a key the first attempt did not have gets a fourth.
    const added = `${commandId}:seller-6`;
    const again = await allocateJobIdBlock(store, { commandId, keys: [...keys, added], now, blockSize: 2 });
    expect(again.get(added)).toBeGreaterThan(Math.max(...first.values()));
    for (const key of keys) expect(again.get(key)).toBe(first.get(key));
    const claims = await Promise.all(
      [0, 1, 2, 3, 4].map((block) => store.readStream(`idclaim-job-${commandId}/block-${block}`)),
    );
    expect(claims.map((events) => events.length)).toEqual([1, 1, 1, 1, 0]);
  });

  it('pause with a disabled tenant and go with its purge', async () => {
    const tenantId = await createTenant('Schedules Purged Ltd');
    await scheduleWhen(tenantId, 'monthly', () => true);
    const now = new Date();

    await world.run(tenantDecider, tenantStream(tenantId), {
      type: 'DisableTenant',
      data: { reason: 'TESTING' },
      now,
      actor: systemActor,
    });
    const paused = await scheduleWhen(tenantId, 'monthly', (d) => d.state.paused);
    expect(paused.state.note).toBe('The company is disabled.');

    await world.run(tenantDecider, tenantStream(tenantId), {
      type: 'PurgeTenant',
      data: { permanent: false },
      now,
      actor: systemActor,
    });
    for (const frequency of ['weekly', 'monthly'] as const) {
      let gone = false;
      for (let attempt = 0; attempt < 600 && !gone; attempt += 1) {
        gone = await handleOf(tenantId, frequency)
          .describe()
          .then(
            () => false,
            (error: unknown) => error instanceof ScheduleNotFoundError,
          );
        if (!gone) await sleep(100);
      }
      expect(gone).toBe(true);
    }
  });
});
