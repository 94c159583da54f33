import type { ArchivedReportType } from '../../../contracts/api/reports';
import { AppError } from '../../../contracts/errors';
import { jobStream } from '../../../contracts/stream-ids';
import type { CommandHandlerDeps } from '../../../commands/command-handler';
import { ApplicationFailure } from '@temporalio/activity';
import type { EventStore } from '../../../commands/event-store/event-store';
import { idStreamOf } from '../../../commands/id-allocator';
import type { JobJson } from '../../../contracts/events/job';
import { archivedFileKey, isFinished, type KnownJob } from '../../../domain/job/job';
import { jobDecider } from '../../../domain/job/job-decider';
import { runSystemCommand, type SystemCommandContext } from '../../sync/system-commands';
import { currentState } from '../current-state';
import type { RenderedReport } from '../rendered-report';
import type { ReportObjectStore } from './report-object-store';

export {
  createReportObjectStore,
  type ObjectStoreConfig,
  type ReportObjectStore,
  type StoredObject,
} from './report-object-store';

/**
 * The report archive (docs/adr/0035-report-archive.md): every sent report's file is stored under a
 * key derived from its job, type and seller, then recorded as the job's JobReportArchived event.
 * Each step is idempotent, so a report workflow killed anywhere and retried archives each file once.
 */
export type ReportArchiveDeps = {
  writeSide: CommandHandlerDeps;
  objects: ReportObjectStore;
  now: () => Date;
};

/** Where a tenant's archived files live; the tenant purge deletes this prefix. */
export const tenantArchivePrefix = (tenantId: number): string => `tenants/${tenantId}/`;

/** `tenants/<tenantId>/jobs/<jobId>/<TYPE>-<sellerId>.<ext>`, `tenant` for a tenant-wide report. */
export const archiveObjectKey = (file: {
  tenantId: number;
  jobId: number;
  sellerId: number | null;
  type: ArchivedReportType;
  extension: string;
}): string =>
  `${tenantArchivePrefix(file.tenantId)}jobs/${file.jobId}/${file.type}-${file.sellerId ?? 'tenant'}.${file.extension}`;

const readJob = async (writeSide: CommandHandlerDeps, jobId: number): Promise<KnownJob> => {
  const job = await currentState(writeSide, jobDecider, jobStream(jobId));
  if (job.status === 'none') throw new AppError('not_found', 'Job not found.');
  return job;
};

/** The job's own workflow id prefixes the command ids: the audit trail shows the run that recorded it. */
const contextOf = (writeSide: CommandHandlerDeps, job: KnownJob): SystemCommandContext => ({
  writeSide,
  workflowId: job.workflowId,
  tenantId: job.tenantId,
  process: 'reports',
});

/** How many files one job can archive: its ids are `floor + jobId * 32 + position` (1 to 31). */
export const archivedIdsPerJob = 32;

/**
 * The ids archives were allocated before they came from the job's stream (`ids-archivedReport`, no
 * longer appended to): ids from the job's stream start above the last of them, so no id is reused.
 * Read once per process and event store; a fresh store has none (0).
 */
const allocatedFloors = new WeakMap<EventStore, Promise<number>>();
const allocatedFloorOf = (store: EventStore): Promise<number> => {
  let floor = allocatedFloors.get(store);
  if (!floor) {
    floor = store
      .readStream(idStreamOf('archivedReport'), { direction: 'backwards', maxCount: 1 })
      .then(([last]) => (last ? last.revision + 1 : 0));
    floor.catch(() => allocatedFloors.delete(store));
    allocatedFloors.set(store, floor);
  }
  return floor;
};

/**
 * The id of a job's next archived file, from the job's own stream: its position among the job's
 * files. Unique across jobs (a job's ids are its own range) and within the job (the decider refuses
 * an id the job already recorded, under the stream's expected revision).
 */
export const archivedReportIdOf = (floor: number, jobId: number, position: number): number => {
  if (position < 1 || position >= archivedIdsPerJob)
    throw new Error(`Job ${jobId}: a job archives at most ${archivedIdsPerJob - 1} files`);
  return floor + jobId * archivedIdsPerJob + position;
};

const isConflict = (error: unknown) =>
  (error instanceof AppError && error.code === 'conflict') ||
  (error instanceof ApplicationFailure && error.type === 'AppError:conflict');

/**
 * Stores one rendered report of a job and records it. A second call for the same job, type and
 * seller (a retried activity, a replayed workflow) answers the first call's id without storing again;
 * a call killed between the store and the record stores the same key again, then records it once.
 */
export const archiveReport = async (
  deps: ReportArchiveDeps,
  input: {
    tenantId: number;
    sellerId: number | null;
    jobId: number;
    report: RenderedReport;
    /** Start a job still `created` in the same append (the scheduled send's batches). */
    startJob?: boolean;
  },
): Promise<{ archivedReportId: number; objectKey: string }> => {
  const { tenantId, sellerId, jobId, report } = input;
  const job = await readJob(deps.writeSide, jobId);
  if (job.tenantId !== tenantId)
    throw new AppError('not_found', 'Job not found.', {
      message: `Job ${jobId} belongs to tenant ${job.tenantId}, not ${tenantId}`,
    });
  const fileKey = archivedFileKey(report.type, sellerId);
  const before = job.archived[fileKey];
  if (before) return before;

  const objectKey = archiveObjectKey({
    tenantId,
    jobId,
    sellerId,
    type: report.type,
    extension: report.extension,
  });
  await deps.objects.put(objectKey, report.bytes, report.contentType);
  const floor = await allocatedFloorOf(deps.writeSide.store);
  // The id is the file's position in the job: a concurrent call recording another file of the same
  // job first takes that position, and this one reads the job again and takes the next.
  let current = job;
  for (let attempt = 1; ; attempt += 1) {
    const archivedReportId = archivedReportIdOf(floor, jobId, Object.keys(current.archived).length + 1);
    try {
      await runSystemCommand(contextOf(deps.writeSide, job), jobDecider, {
        streamId: jobStream(jobId),
        step: `archive-report:${fileKey}`,
        command: {
          type: 'RecordReportArchived',
          now: deps.now(),
          data: {
            archivedReportId,
            sellerId,
            type: report.type,
            extension: report.extension,
            displayName: report.displayName,
            fileName: report.fileName,
            contentType: report.contentType,
            size: report.bytes.byteLength,
            objectKey,
            ...(input.startJob ? { startJob: true } : {}),
          },
        },
      });
    } catch (error) {
      if (!isConflict(error) || attempt >= archivedIdsPerJob) throw error;
      current = await readJob(deps.writeSide, jobId);
      if (current.archived[fileKey]) return current.archived[fileKey];
      continue;
    }
    // A concurrent call may have recorded the file first: answer what the stream holds.
    const recorded = (await readJob(deps.writeSide, jobId)).archived[fileKey];
    if (!recorded) throw new Error(`Job ${jobId}: archived ${fileKey} but found no record of it`);
    return recorded;
  }
};

export type ReportEmailDeps = { writeSide: CommandHandlerDeps; now: () => Date };

/**
 * Records that a report job's email reached one recipient, after the mail server accepted it. A
 * second record for the same recipient in the same job changes nothing.
 */
export const recordReportEmailed = async (
  deps: ReportEmailDeps,
  input: {
    jobId: number;
    recipientId: number;
    reportTypes: ArchivedReportType[];
    messageId: string;
    /** Completes the job with this result in the same append (the scheduled send's batches). */
    complete?: { result: JobJson | null };
  },
): Promise<void> => {
  const job = await readJob(deps.writeSide, input.jobId);
  if (job.emailedRecipientIds.includes(input.recipientId) && (!input.complete || isFinished(job.status)))
    return;
  await runSystemCommand(contextOf(deps.writeSide, job), jobDecider, {
    streamId: jobStream(input.jobId),
    step: `report-emailed:${input.recipientId}`,
    command: {
      type: 'RecordReportEmailed',
      now: deps.now(),
      data: {
        recipientId: input.recipientId,
        reportTypes: input.reportTypes,
        messageId: input.messageId,
        ...(input.complete ? { complete: input.complete } : {}),
      },
    },
  });
};

/** True when the job already emailed this recipient: the send step skips them on a retry. */
export const wasReportEmailed = async (
  deps: Pick<ReportEmailDeps, 'writeSide'>,
  jobId: number,
  recipientId: number,
): Promise<boolean> => (await readJob(deps.writeSide, jobId)).emailedRecipientIds.includes(recipientId);
