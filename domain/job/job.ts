import { match } from 'ts-pattern';
import type { JobEvent, JobKind } from '../../contracts/events/job';

export type JobStatus = 'created' | 'running' | 'completed' | 'failed' | 'cancelled';
export type JobProgress = { stage: string; done: number; total: number | null; recordedAt: string };

export type KnownJob = { jobId: number; kind: JobKind; status: JobStatus; progress: JobProgress | null };

export type JobState = { status: 'none' } | KnownJob;

export const initialJobState = (): JobState => ({ status: 'none' });

export const isFinished = (status: JobStatus) =>
  status === 'completed' || status === 'failed' || status === 'cancelled';

const onKnown = (state: JobState, change: (job: KnownJob) => Partial<KnownJob>): JobState =>
  state.status === 'none' ? state : { ...state, ...change(state) };

export const evolveJob = (state: JobState, event: JobEvent): JobState =>
  match(event)
    .with({ type: 'JobCreated' }, ({ data }): JobState => ({
      jobId: data.jobId,
      kind: data.kind,
      status: 'created',
      progress: null,
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
    .exhaustive();
