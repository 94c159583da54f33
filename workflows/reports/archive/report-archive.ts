import type { ArchivedReportType } from '../../../contracts/api/reports';
import { AppError } from '../../../contracts/errors';
import { jobStream } from '../../../contracts/stream-ids';
import type { CommandHandlerDeps } from '../../../commands/command-handler';
import { allocateId } from '../../../commands/id-allocator';
import { archivedFileKey, type KnownJob } from '../../../domain/job/job';
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

/**
 * Stores one rendered report of a job and records it. A second call for the same job, type and
 * seller (a retried activity, a replayed workflow) answers the first call's id without storing again;
 * a call killed between the store and the record stores the same key again, then records it once.
 */
export const archiveReport = async (
  deps: ReportArchiveDeps,
  input: { tenantId: number; sellerId: number | null; jobId: number; report: RenderedReport },
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
  // The same claim key on every retry: a retried call gets the id its first attempt allocated.
  const archivedReportId = await allocateId(deps.writeSide.store, {
    category: 'archivedReport',
    commandId: `job-${jobId}-${report.type}-${sellerId ?? 'tenant'}`,
    now: deps.now(),
  });
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
      },
    },
  });
  // A concurrent call may have recorded the file first: answer what the stream holds.
  const recorded = (await readJob(deps.writeSide, jobId)).archived[fileKey];
  if (!recorded) throw new Error(`Job ${jobId}: archived ${fileKey} but found no record of it`);
  return recorded;
};

export type ReportEmailDeps = { writeSide: CommandHandlerDeps; now: () => Date };

/**
 * Records that a report job's email reached one recipient, after the mail server accepted it. A
 * second record for the same recipient in the same job changes nothing.
 */
export const recordReportEmailed = async (
  deps: ReportEmailDeps,
  input: { jobId: number; recipientId: number; reportTypes: ArchivedReportType[]; messageId: string },
): Promise<void> => {
  const job = await readJob(deps.writeSide, input.jobId);
  if (job.emailedRecipientIds.includes(input.recipientId)) return;
  await runSystemCommand(contextOf(deps.writeSide, job), jobDecider, {
    streamId: jobStream(input.jobId),
    step: `report-emailed:${input.recipientId}`,
    command: {
      type: 'RecordReportEmailed',
      now: deps.now(),
      data: { recipientId: input.recipientId, reportTypes: input.reportTypes, messageId: input.messageId },
    },
  });
};

/** True when the job already emailed this recipient: the send step skips them on a retry. */
export const wasReportEmailed = async (
  deps: Pick<ReportEmailDeps, 'writeSide'>,
  jobId: number,
  recipientId: number,
): Promise<boolean> => (await readJob(deps.writeSide, jobId)).emailedRecipientIds.includes(recipientId);
