import { match } from 'ts-pattern';
import type { ArchivedReportType } from '../../contracts/api/reports';
import type { JobEvent, JobKind } from '../../contracts/events/job';

export type JobStatus = 'created' | 'running' | 'completed' | 'failed' | 'cancelled';
export type JobProgress = { stage: string; done: number; total: number | null; recordedAt: string };

/** A report file the job archived (JobReportArchived). */
export type ArchivedFile = { archivedReportId: number; objectKey: string };

export type KnownJob = {
  jobId: number;
  kind: JobKind;
  tenantId: number;
  /** The Temporal workflow that runs the job: the prefix of its steps' command ids. */
  workflowId: string;
  status: JobStatus;
  progress: JobProgress | null;
  /** Keyed by archivedFileKey: what the job archived, so a retried step archives nothing twice. */
  archived: Readonly<Record<string, ArchivedFile>>;
  /** Recipients the job's email reached, so a retried send step mails nobody twice. */
  emailedRecipientIds: readonly number[];
  /** Keyed by managedReportKey: the live reports the job wrote (file ids), each recorded once. */
  managed: Readonly<Record<string, string>>;
};

export type JobState = { status: 'none' } | KnownJob;

export const initialJobState = (): JobState => ({ status: 'none' });

/** One archived file per report type and seller in a job. */
export const archivedFileKey = (type: ArchivedReportType, sellerId: number | null): string =>
  `${type}:${sellerId ?? 'tenant'}`;

/** One live report per integration, type and seller in a job. */
export const managedReportKey = (integrationId: number, type: string, sellerId: number): string =>
  `${integrationId}:${type}:${sellerId}`;

export const isFinished = (status: JobStatus) =>
  status === 'completed' || status === 'failed' || status === 'cancelled';

const onKnown = (state: JobState, change: (job: KnownJob) => Partial<KnownJob>): JobState =>
  state.status === 'none' ? state : { ...state, ...change(state) };

export const evolveJob = (state: JobState, event: JobEvent): JobState =>
  match(event)
    .with({ type: 'JobCreated' }, ({ data }): JobState => ({
      jobId: data.jobId,
      kind: data.kind,
      tenantId: data.tenantId,
      workflowId: data.workflowId,
      status: 'created',
      progress: null,
      archived: {},
      emailedRecipientIds: [],
      managed: {},
    }))
    .with({ type: 'JobStarted' }, () => onKnown(state, () => ({ status: 'running' })))
    .with({ type: 'JobProgressRecorded' }, ({ data }) =>
      onKnown(state, () => ({
        status: 'running',
        progress: { stage: data.stage, done: data.done, total: data.total, recordedAt: data.recordedAt },
      })),
    )
    .with({ type: 'JobCompleted' }, () => onKnown(state, () => ({ status: 'completed' })))
    .with({ type: 'JobFailed' }, () => onKnown(state, () => ({ status: 'failed' })))
    .with({ type: 'JobCancelled' }, () => onKnown(state, () => ({ status: 'cancelled' })))
    .with({ type: 'JobReportArchived' }, ({ data }) =>
      onKnown(state, (job) => ({
        archived: {
          ...job.archived,
          [archivedFileKey(data.type, data.sellerId)]: {
            archivedReportId: data.archivedReportId,
            objectKey: data.objectKey,
          },
        },
      })),
    )
    .with({ type: 'JobReportEmailed' }, ({ data }) =>
      onKnown(state, (job) => ({ emailedRecipientIds: [...job.emailedRecipientIds, data.recipientId] })),
    )
    .with({ type: 'JobManagedReportWritten' }, ({ data }) =>
      onKnown(state, (job) => ({
        managed: {
          ...job.managed,
          [managedReportKey(data.integrationId, data.type, data.sellerId)]: data.fileId,
        },
      })),
    )
    .exhaustive();
