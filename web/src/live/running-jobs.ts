import { useAtomValue } from 'jotai';
import type { Job } from '../../../contracts/api/jobs';
import { useJobs } from '../api/queries/jobs';
import { isFinished, jobProgressAtom, type JobProgress } from './job-progress';

export type RunningJob = Pick<JobProgress, 'jobId' | 'kind' | 'sellerId' | 'stage' | 'done' | 'total'>;

const statusOf = (job: Job): JobProgress['status'] => (job.Status === 'created' ? 'queued' : job.Status);

/**
 * The jobs still running, with their progress: the jobs read model gives the state at load (a tab
 * opened mid-sync), the live socket everything after. A job the socket reports finished drops out.
 */
export const runningJobsOf = (
  jobs: readonly Job[],
  live: Readonly<Record<number, JobProgress>>,
  sellerId?: number,
): RunningJob[] => {
  const byId = new Map<number, RunningJob & { status: JobProgress['status'] }>();
  for (const job of jobs)
    byId.set(job.Id, {
      jobId: job.Id,
      kind: job.Kind,
      sellerId: job.SellerId,
      stage: job.Progress?.stage ?? null,
      done: job.Progress?.done ?? 0,
      total: job.Progress?.total ?? null,
      status: statusOf(job),
    });
  for (const progress of Object.values(live)) byId.set(progress.jobId, progress);
  return [...byId.values()]
    .filter((job) => !isFinished(job.status))
    .filter((job) => sellerId === undefined || job.sellerId === sellerId)
    .sort((a, b) => a.jobId - b.jobId)
    .map(({ jobId, kind, sellerId: seller, stage, done, total }) => ({
      jobId,
      kind,
      sellerId: seller,
      stage,
      done,
      total,
    }));
};

/** The current tenant's running jobs (optionally one seller's), kept live. */
export const useRunningJobs = (sellerId?: number): RunningJob[] => {
  const live = useAtomValue(jobProgressAtom);
  const jobs = useJobs({ sellerId, limit: 20 });
  return runningJobsOf(jobs.data?.jobs ?? [], live, sellerId);
};
