import type { FastifyReply } from 'fastify';
import Database from 'better-sqlite3';
import type { Db } from 'mongodb';
import type { z } from 'zod';
import {
  type JobQueue,
  type QueueClearResponse,
  type QueueClearStatus,
  type QueuesResponse,
  type ReadStoreStats,
} from '../../../contracts/api/devops';
import { JobKind } from '../../../contracts/events/job';
import { jobStream } from '../../../contracts/stream-ids';
import { jobDecider } from '../../../domain/job/job-decider';
import type { JobStatus } from '../../../domain/job/job';
import { projectionStatus } from '../../../projections/framework/projection-status';
import { jobsCollection } from '../../../projections/jobs/query-jobs';
import { projections } from '../../../projections/registry';
import { taskQueues } from '../../../workflows/task-queues';
import { LEDGER_OUTBOX, type LedgerOutboxEntry } from '../../../workflows/ledger/ledger-outbox';
import { executeCommand } from '../../execute-command';
import type { GatewayServices } from '../../services';
import type { PlatformProbes } from './platform-probes';

/** Operational marks of the devops page (when each queue's failures were last cleared); not a read model. */
export const DEVOPS_QUEUE_MARKS = 'devops_queue_marks';
type QueueMark = { _id: JobKind; failedClearedAt: Date };

/** Which Temporal task queue each job kind's runs go to (workflows/task-queues.ts). */
const taskQueueConcern: Record<JobKind, keyof ReturnType<typeof taskQueues>> = {
  sync: 'sync',
  metrics: 'metrics',
  forecast: 'metrics',
  report: 'reports',
  dataset: 'datasets',
  task: 'system',
};

/** At most this many jobs are cancelled by one clear; the button can be pressed again. */
const CLEAR_BATCH = 1000;

const statusOfClear: Record<Exclude<QueueClearStatus, 'failed'>, JobStatus> = {
  waiting: 'created',
  locks: 'running',
};

const marksOf = (db: Db) => db.collection<QueueMark>(DEVOPS_QUEUE_MARKS);

/**
 * Completed and cancelled counts are history that grows without end: each is a scan of the kind's
 * jobs (about 50 ms per count at 200,000 jobs on the embedded store, whose queries block the event
 * loop), so they are read at most once a minute per process, or after a clear. Waiting, locked and
 * failed, what an operator acts on, are read on every poll.
 */
const HISTORY_TTL_MS = 60_000;
type HistoryCounts = { at: number; counts: Map<JobKind, { completed: number; cancelled: number }> };
const historyCache = new WeakMap<Db, HistoryCounts>();

const historyCounts = async (services: GatewayServices) => {
  const cached = historyCache.get(services.db);
  if (cached && Date.now() - cached.at < HISTORY_TTL_MS) return cached.counts;
  const jobs = await jobsCollection(services.db);
  const counts = new Map<JobKind, { completed: number; cancelled: number }>();
  for (const kind of JobKind.options)
    counts.set(kind, {
      completed: await jobs.countDocuments({ kind, status: 'completed' }),
      cancelled: await jobs.countDocuments({ kind, status: 'cancelled' }),
    });
  historyCache.set(services.db, { at: Date.now(), counts });
  return counts;
};

const jobQueues = async (services: GatewayServices): Promise<JobQueue[]> => {
  const jobs = await jobsCollection(services.db);
  const marks = new Map((await marksOf(services.db).find({}).toArray()).map((mark) => [mark._id, mark]));
  const history = await historyCounts(services);
  const queues = taskQueues(services.config);
  return Promise.all(
    JobKind.options.map(async (kind) => {
      const clearedAt = marks.get(kind)?.failedClearedAt ?? null;
      const count = (status: JobStatus) => jobs.countDocuments({ kind, status });
      const [waiting, locked, failed] = await Promise.all([
        count('created'),
        count('running'),
        jobs.countDocuments(
          clearedAt ? { kind, status: 'failed', finishedAt: { $gt: clearedAt } } : { kind, status: 'failed' },
        ),
      ]);
      // The oldest waiting job only when there is one: the sort reads every waiting job of the kind.
      const oldest =
        waiting === 0 ? null : await jobs.findOne({ kind, status: 'created' }, { sort: { createdAt: 1 } });
      return {
        name: kind,
        taskQueue: queues[taskQueueConcern[kind]],
        waiting,
        locked,
        failed,
        completed: history.get(kind)?.completed ?? 0,
        cancelled: history.get(kind)?.cancelled ?? 0,
        failedClearedAt: clearedAt?.toISOString() ?? null,
        oldestWaitingAt: oldest?.createdAt.toISOString() ?? null,
      };
    }),
  );
};

let sqliteVersion: string | null = null;
const embeddedVersion = () => {
  if (sqliteVersion === null) {
    const memory = new Database(':memory:');
    try {
      const row = memory.prepare('SELECT sqlite_version() AS version').get() as { version: string };
      sqliteVersion = row.version;
    } finally {
      memory.close();
    }
  }
  return sqliteVersion;
};

type ServerStatus = {
  version?: string;
  uptime?: number;
  mem?: { resident?: number };
  connections?: { current?: number };
};

/**
 * The read store's server: MongoDB's serverStatus (FerretDB answers it too), or for the embedded store
 * its SQLite version and this process's memory, since the store lives inside the gateway.
 */
export const readStoreStats = async (services: GatewayServices): Promise<z.infer<typeof ReadStoreStats>> => {
  const collections = (await services.db.listCollections({}, { nameOnly: true }).toArray()).length;
  if (!services.config.MONGO_URL) {
    return {
      kind: 'embedded',
      version: `SQLite ${embeddedVersion()}`,
      memoryBytes: process.memoryUsage().rss,
      clients: 1,
      uptimeSeconds: Math.round(process.uptime()),
      collections,
    };
  }
  const status = (await services.db.admin().command({ serverStatus: 1 })) as ServerStatus;
  return {
    kind: 'mongodb',
    version: status.version ?? 'unknown',
    memoryBytes: typeof status.mem?.resident === 'number' ? status.mem.resident * 1024 * 1024 : null,
    clients: typeof status.connections?.current === 'number' ? status.connections.current : null,
    uptimeSeconds: typeof status.uptime === 'number' ? status.uptime : null,
    collections,
  };
};

const outboxDepth = async (db: Db) => {
  const outbox = db.collection<LedgerOutboxEntry>(LEDGER_OUTBOX);
  // Natural order is insertion order; no sort, so FerretDB does not parse every entry (ledger-outbox.ts).
  const [depth, oldest] = await Promise.all([
    outbox.estimatedDocumentCount(),
    outbox.find({}).limit(1).toArray(),
  ]);
  return { depth, oldestAt: oldest[0]?.createdAt.toISOString() ?? null };
};

/** GET /api/devops/queues: everything the platform has waiting, each part read on its own. */
export const workQueues = async (
  services: GatewayServices,
  probes: PlatformProbes,
): Promise<QueuesResponse> => {
  const [jobs, temporal, lags, outbox, kafka, readStore] = await Promise.all([
    jobQueues(services),
    probes.temporalQueues(),
    projectionStatus(services.db, services.writeSide.store, projections),
    outboxDepth(services.db),
    probes.kafkaLag(),
    readStoreStats(services),
  ]);
  return {
    polledAt: services.now().toISOString(),
    jobs,
    temporal,
    projections: lags.map((lag) => ({
      name: lag.name,
      version: lag.version,
      checkpoint: lag.checkpoint,
      head: lag.head,
      lag: lag.lag,
      rebuilding: lag.rebuilding.length > 0,
    })),
    outbox,
    kafka,
    readStore,
  };
};

/**
 * DELETE /api/devops/queues/{name}?status=: waiting and locked jobs are cancelled (JobCancelled, and
 * their Temporal runs asked to cancel); failures are set aside by the queue's mark (docs/adr/0040).
 */
export const clearQueue = async (
  reply: FastifyReply,
  probes: PlatformProbes,
  input: { queue: JobKind; status: QueueClearStatus },
): Promise<QueueClearResponse> => {
  const { services } = reply.request.server;
  const { queue, status } = input;
  const now = services.now();
  // The page shows the clear's effect on its next poll, history counts included.
  historyCache.delete(services.db);
  if (status === 'failed') {
    const jobs = await jobsCollection(services.db);
    const marks = marksOf(services.db);
    const previous = (await marks.findOne({ _id: queue }))?.failedClearedAt ?? null;
    const cleared = await jobs.countDocuments(
      previous
        ? { kind: queue, status: 'failed', finishedAt: { $gt: previous } }
        : { kind: queue, status: 'failed' },
    );
    await marks.updateOne({ _id: queue }, { $set: { failedClearedAt: now } }, { upsert: true });
    return { queue, status, cleared, message: `Cleared ${cleared} failed ${queue} jobs.` };
  }
  const jobs = await jobsCollection(services.db);
  const targets = await jobs
    .find({ kind: queue, status: statusOfClear[status] })
    .sort({ createdAt: 1 })
    .limit(CLEAR_BATCH)
    .toArray();
  let cleared = 0;
  for (const job of targets) {
    const result = await executeCommand(reply, jobDecider, {
      streamId: jobStream(job._id),
      tenantId: job.tenantId,
      command: {
        type: 'CancelJob',
        data: { reason: `Cleared from the ${queue} queue (${status}) by a platform admin.` },
        now,
      },
    });
    if (result.events.length > 0) {
      cleared += 1;
      await probes.cancelWorkflow(job.workflowId);
    }
  }
  const what = status === 'waiting' ? 'waiting' : 'locked';
  return { queue, status, cleared, message: `Cancelled ${cleared} ${what} ${queue} jobs.` };
};
