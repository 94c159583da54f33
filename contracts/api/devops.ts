import { z } from 'zod';
import { JobKind } from '../events/job';

/** admin.md sections 8 and 9: the work-queue page's texts and poll interval. */
export const devopsTexts = {
  clearFailed: 'There was an error while clearing the queue.',
  clearCancelled: 'Cancelling clear queue request!',
  /** The typed word of a queue clear (admin.md section 5). */
  clearWord: 'clear',
} as const;
export const QUEUE_POLL_MS = 5000;

/**
 * What a Clear button clears, in the job states of the jobs read model (docs/adr/0040): waiting jobs
 * are `created` (recorded, not started), locked ones `running` (a workflow holds them); both are
 * cancelled with their workflows. Failed jobs are history: clearing them sets the queue's mark, and
 * the failed count shows only failures after it.
 */
export const QueueClearStatus = z.enum(['locks', 'waiting', 'failed']);
export type QueueClearStatus = z.infer<typeof QueueClearStatus>;

export const QueueNameParam = z.object({ name: JobKind }).strict();
export const QueueClearQuery = z.object({ status: QueueClearStatus }).strict();

export const QueueClearResponse = z.object({
  queue: JobKind,
  status: QueueClearStatus,
  /** Jobs cancelled (locks, waiting) or failures set aside (failed). */
  cleared: z.int().nonnegative(),
  message: z.string(),
});
export type QueueClearResponse = z.infer<typeof QueueClearResponse>;

/** One job kind's queue: jobs by state, and the Temporal task queue its runs go to. */
export const JobQueue = z.object({
  name: JobKind,
  taskQueue: z.string(),
  waiting: z.int().nonnegative(),
  locked: z.int().nonnegative(),
  failed: z.int().nonnegative(),
  completed: z.int().nonnegative(),
  cancelled: z.int().nonnegative(),
  /** Failures before this time are cleared from `failed`; null when never cleared. */
  failedClearedAt: z.string().nullable(),
  /** The oldest waiting job's creation time, or null. */
  oldestWaitingAt: z.string().nullable(),
});
export type JobQueue = z.infer<typeof JobQueue>;

export const TemporalPoller = z.object({
  identity: z.string(),
  lastAccessTime: z.string().nullable(),
  type: z.enum(['workflow', 'activity']),
});

export const TemporalTaskQueue = z.object({
  name: z.string(),
  /** sync, metrics, reports, datasets or system (workflows/task-queues.ts). */
  concern: z.string(),
  workflowBacklog: z.int().nonnegative(),
  activityBacklog: z.int().nonnegative(),
  pollers: z.array(TemporalPoller),
});
export type TemporalTaskQueue = z.infer<typeof TemporalTaskQueue>;

/** A part that could not be read (server down) says why instead of failing the whole page. */
const Unavailable = z.object({ available: z.literal(false), error: z.string() });

export const TemporalQueues = z.union([
  z.object({
    available: z.literal(true),
    address: z.string(),
    namespace: z.string(),
    serverVersion: z.string().nullable(),
    queues: z.array(TemporalTaskQueue),
  }),
  Unavailable,
]);

export const ProjectionLagRow = z.object({
  name: z.string(),
  version: z.int(),
  checkpoint: z.int(),
  head: z.int(),
  lag: z.int().nonnegative(),
  rebuilding: z.boolean(),
});

export const KafkaGroupLag = z.object({
  groupId: z.string(),
  state: z.string(),
  members: z.int().nonnegative(),
  topics: z.array(
    z.object({ topic: z.string(), lag: z.int().nonnegative(), partitions: z.int().nonnegative() }),
  ),
  lag: z.int().nonnegative(),
});

export const KafkaLag = z.union([
  z.object({ available: z.literal(true), brokers: z.array(z.string()), groups: z.array(KafkaGroupLag) }),
  Unavailable,
]);

/** The read store's server in place of the spec's cache-store card. */
export const ReadStoreStats = z.object({
  kind: z.enum(['mongodb', 'embedded']),
  version: z.string(),
  /** Resident memory in bytes (the gateway process's own for the embedded store); null if unknown. */
  memoryBytes: z.number().nonnegative().nullable(),
  /** Open connections; 1 for the embedded store, which is a file opened by this process. */
  clients: z.int().nonnegative().nullable(),
  uptimeSeconds: z.number().nonnegative().nullable(),
  collections: z.int().nonnegative(),
});

export const QueuesResponse = z.object({
  polledAt: z.string(),
  jobs: z.array(JobQueue),
  temporal: TemporalQueues,
  projections: z.array(ProjectionLagRow),
  outbox: z.object({ depth: z.int().nonnegative(), oldestAt: z.string().nullable() }),
  kafka: KafkaLag,
  readStore: ReadStoreStats,
});
export type QueuesResponse = z.infer<typeof QueuesResponse>;

/** GET /api/devops/postgres: per read-store collection its name, document count and field names. */
export const DatabaseCollection = z.object({
  name: z.string(),
  count: z.int().nonnegative(),
  fields: z.array(z.string()),
});
export const DatabaseResponse = z.object({
  kind: z.enum(['mongodb', 'embedded']),
  collections: z.array(DatabaseCollection),
});
export type DatabaseResponse = z.infer<typeof DatabaseResponse>;
