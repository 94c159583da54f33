import { match } from 'ts-pattern';
import type { ArchivedReportType, ReportExtension } from '../../contracts/api/reports';
import { AppError } from '../../contracts/errors';
import type {
  JobEvent,
  JobJson,
  JobKind,
  ManagedReportProvider,
  ManagedReportType,
} from '../../contracts/events/job';
import type { DomainCommand } from '../decider';
import {
  archivedFileKey,
  isFinished,
  managedReportKey,
  type JobState,
  type JobStatus,
  type KnownJob,
} from './job';

export type CreateJob = DomainCommand<
  'CreateJob',
  {
    jobId: number;
    kind: JobKind;
    tenantId: number;
    sellerId: number | null;
    parameters: JobJson;
    workflowId: string;
  }
>;
export type StartJob = DomainCommand<'StartJob', Record<string, never>>;
export type RecordJobProgress = DomainCommand<
  'RecordJobProgress',
  { stage: string; done: number; total: number | null }
>;
export type CompleteJob = DomainCommand<'CompleteJob', { result: JobJson | null }>;
export type FailJob = DomainCommand<'FailJob', { reason: string }>;
export type CancelJob = DomainCommand<'CancelJob', { reason: string | null }>;

/** The tenant is the job's own; `sellerId` is the report's seller (null for a tenant-wide report). */
export type RecordReportArchived = DomainCommand<
  'RecordReportArchived',
  {
    archivedReportId: number;
    sellerId: number | null;
    type: ArchivedReportType;
    extension: ReportExtension;
    displayName: string;
    fileName: string;
    contentType: string;
    size: number;
    objectKey: string;
    /**
     * A job still `created` is started in the same append (JobStarted, then JobReportArchived): the
     * scheduled send's batches begin a job with its first file (docs/adr/0038, fewer appends).
     */
    startJob?: boolean;
  }
>;
export type RecordReportEmailed = DomainCommand<
  'RecordReportEmailed',
  {
    recipientId: number;
    reportTypes: ArchivedReportType[];
    messageId: string;
    /**
     * The job's last email: JobCompleted with this result in the same append (the scheduled send's
     * batches, docs/adr/0038). A job completed already records nothing more.
     */
    complete?: { result: JobJson | null };
  }
>;

/** A live report a live reports job wrote to a cloud drive (docs/adr/0049-live-reports.md). */
export type RecordManagedReport = DomainCommand<
  'RecordManagedReport',
  {
    sellerId: number;
    integrationId: number;
    provider: ManagedReportProvider;
    type: ManagedReportType;
    fileId: string;
    storageUrl: string;
    displayName: string;
  }
>;

export type JobCommand =
  | CreateJob
  | StartJob
  | RecordJobProgress
  | CompleteJob
  | FailJob
  | CancelJob
  | RecordReportArchived
  | RecordReportEmailed
  | RecordManagedReport;

/** Progress is coarse: within a stage, at most one record a second (architecture.md, workflows). */
export const minProgressIntervalMs = 1000;

const requireJob = (state: JobState): KnownJob => {
  if (state.status === 'none') throw new AppError('not_found', 'Job not found.');
  return state;
};

const alreadyFinished = (status: JobStatus) =>
  new AppError('conflict', `The job has already ${status === 'cancelled' ? 'been cancelled' : status}.`);

/**
 * Finishing commands are retried by workers: repeating the same ending changes nothing, a different
 * ending after the job finished is refused.
 */
const finish = (job: KnownJob, ending: JobStatus, event: () => JobEvent): JobEvent[] => {
  if (job.status === ending) return [];
  if (isFinished(job.status)) throw alreadyFinished(job.status);
  return [event()];
};

const isCount = (value: number) => Number.isSafeInteger(value) && value >= 0;

const recordProgress = (command: RecordJobProgress, job: KnownJob): JobEvent[] => {
  const { stage, done, total } = command.data;
  if (isFinished(job.status)) throw alreadyFinished(job.status);
  const properties: Record<string, string> = {};
  if (!stage.trim()) properties.stage = 'required';
  if (!isCount(done)) properties.done = 'Must be a whole number of at least 0.';
  if (total !== null && !isCount(total)) properties.total = 'Must be a whole number of at least 0.';
  else if (total !== null && done > total) properties.done = 'Cannot exceed the total.';
  if (Object.keys(properties).length > 0)
    throw new AppError('validation', 'The progress is not valid.', { properties });

  const last = job.progress;
  const sameStage = last !== null && last.stage === stage;
  if (sameStage && last.done === done && last.total === total) return [];
  const tooSoon = sameStage && command.now.getTime() - Date.parse(last.recordedAt) < minProgressIntervalMs;
  // The last step of a stage is always kept, so the browser never shows a stage stuck short of its total.
  if (tooSoon && done !== total) return [];
  const at = command.now.toISOString();
  const progress: JobEvent = {
    type: 'JobProgressRecorded',
    data: { jobId: job.jobId, stage, done, total, recordedAt: at },
  };
  return job.status === 'created'
    ? [{ type: 'JobStarted', data: { jobId: job.jobId, startedAt: at } }, progress]
    : [progress];
};

const isId = (value: number) => Number.isSafeInteger(value) && value > 0;

const refuseInvalid = (message: string, properties: Record<string, string>) => {
  if (Object.keys(properties).length > 0) throw new AppError('validation', message, { properties });
};

/** A retried archive step finds its file recorded and records nothing (docs/adr/0035-report-archive.md). */
const recordArchived = (command: RecordReportArchived, job: KnownJob): JobEvent[] => {
  const { startJob, ...data } = command.data;
  if (job.archived[archivedFileKey(data.type, data.sellerId)]) return [];
  if (isFinished(job.status)) throw alreadyFinished(job.status);
  const properties: Record<string, string> = {};
  if (!isId(data.archivedReportId)) properties.archivedReportId = 'Must be a positive whole number.';
  if (data.sellerId !== null && !isId(data.sellerId))
    properties.sellerId = 'Must be a positive whole number.';
  if (!isCount(data.size)) properties.size = 'Must be a whole number of at least 0.';
  for (const field of ['displayName', 'fileName', 'contentType', 'objectKey'] as const)
    if (!data[field].trim()) properties[field] = 'required';
  refuseInvalid('The archived report is not valid.', properties);
  const taken = Object.values(job.archived).some((file) => file.archivedReportId === data.archivedReportId);
  if (taken) throw new AppError('conflict', 'The archived report id is already used by this job.');
  const at = command.now.toISOString();
  return [
    ...(startJob === true && job.status === 'created'
      ? [{ type: 'JobStarted' as const, data: { jobId: job.jobId, startedAt: at } }]
      : []),
    {
      type: 'JobReportArchived',
      data: { jobId: job.jobId, tenantId: job.tenantId, ...data, archivedAt: at },
    },
  ];
};

/** One email per recipient and job: a retried send step finds it recorded and records nothing. */
const recordEmailed = (command: RecordReportEmailed, job: KnownJob): JobEvent[] => {
  const { recipientId, reportTypes, messageId, complete } = command.data;
  const completing = (): JobEvent[] =>
    complete === undefined
      ? []
      : finish(job, 'completed', () => ({
          type: 'JobCompleted',
          data: { jobId: job.jobId, result: complete.result, completedAt: command.now.toISOString() },
        }));
  if (job.emailedRecipientIds.includes(recipientId)) return isFinished(job.status) ? [] : completing();
  if (isFinished(job.status)) throw alreadyFinished(job.status);
  const properties: Record<string, string> = {};
  if (!isId(recipientId)) properties.recipientId = 'Must be a positive whole number.';
  if (reportTypes.length === 0) properties.reportTypes = 'required';
  if (!messageId.trim()) properties.messageId = 'required';
  refuseInvalid('The emailed report is not valid.', properties);
  return [
    {
      type: 'JobReportEmailed',
      data: {
        jobId: job.jobId,
        recipientId,
        reportTypes: [...new Set(reportTypes)],
        messageId,
        sentAt: command.now.toISOString(),
      },
    },
    ...completing(),
  ];
};

/** One live report per integration, type and seller and job: a retried write step records nothing. */
const recordManaged = (command: RecordManagedReport, job: KnownJob): JobEvent[] => {
  const { data } = command;
  if (job.managed[managedReportKey(data.integrationId, data.type, data.sellerId)]) return [];
  if (isFinished(job.status)) throw alreadyFinished(job.status);
  const properties: Record<string, string> = {};
  if (!isId(data.sellerId)) properties.sellerId = 'Must be a positive whole number.';
  if (!isId(data.integrationId)) properties.integrationId = 'Must be a positive whole number.';
  for (const field of ['fileId', 'storageUrl', 'displayName'] as const)
    if (!data[field].trim()) properties[field] = 'required';
  if (!properties.storageUrl && !/^https?:\/\//.test(data.storageUrl))
    properties.storageUrl = 'Must be an http or https address.';
  refuseInvalid('The live report is not valid.', properties);
  return [
    {
      type: 'JobManagedReportWritten',
      data: { jobId: job.jobId, tenantId: job.tenantId, ...data, writtenAt: command.now.toISOString() },
    },
  ];
};

export const decideJob = (command: JobCommand, state: JobState): JobEvent[] =>
  match(command)
    .with({ type: 'CreateJob' }, (c): JobEvent[] => {
      if (state.status !== 'none') throw new AppError('conflict', 'The job already exists.');
      if (!c.data.workflowId.trim())
        throw new AppError('validation', 'The workflow id is required.', {
          properties: { workflowId: 'required' },
        });
      return [{ type: 'JobCreated', data: { ...c.data, createdAt: c.now.toISOString() } }];
    })
    .with({ type: 'StartJob' }, (c): JobEvent[] => {
      const job = requireJob(state);
      if (isFinished(job.status)) throw alreadyFinished(job.status);
      if (job.status === 'running') return [];
      return [{ type: 'JobStarted', data: { jobId: job.jobId, startedAt: c.now.toISOString() } }];
    })
    .with({ type: 'RecordJobProgress' }, (c) => recordProgress(c, requireJob(state)))
    .with({ type: 'CompleteJob' }, (c) => {
      const job = requireJob(state);
      return finish(job, 'completed', () => ({
        type: 'JobCompleted',
        data: { jobId: job.jobId, result: c.data.result, completedAt: c.now.toISOString() },
      }));
    })
    .with({ type: 'FailJob' }, (c) => {
      const job = requireJob(state);
      const reason = c.data.reason.trim();
      if (!reason && !isFinished(job.status))
        throw new AppError('validation', 'A reason is required.', { properties: { reason: 'required' } });
      return finish(job, 'failed', () => ({
        type: 'JobFailed',
        data: { jobId: job.jobId, reason, failedAt: c.now.toISOString() },
      }));
    })
    .with({ type: 'CancelJob' }, (c) => {
      const job = requireJob(state);
      return finish(job, 'cancelled', () => ({
        type: 'JobCancelled',
        data: { jobId: job.jobId, reason: c.data.reason?.trim() || null, cancelledAt: c.now.toISOString() },
      }));
    })
    .with({ type: 'RecordReportArchived' }, (c) => recordArchived(c, requireJob(state)))
    .with({ type: 'RecordReportEmailed' }, (c) => recordEmailed(c, requireJob(state)))
    .with({ type: 'RecordManagedReport' }, (c) => recordManaged(c, requireJob(state)))
    .exhaustive();
