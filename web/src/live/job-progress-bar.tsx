import { ProgressBar } from '@tremor/react';
import type { JobKind } from '../../../contracts/events/job';
import type { RunningJob } from './running-jobs';

const kindTexts: Record<JobKind, string> = {
  sync: 'Syncing data',
  metrics: 'Generating metrics',
  forecast: 'Generating forecasts',
  report: 'Preparing report',
  dataset: 'Preparing data set',
  task: 'Running task',
};

/** "Syncing data: invoices 120 of 500" (the stage is the pipeline's own word for what it is doing). */
export const jobProgressText = (job: RunningJob): string => {
  const stage = job.stage ? `: ${job.stage}` : '';
  const count = job.total === null ? (job.done > 0 ? ` ${job.done}` : '') : ` ${job.done} of ${job.total}`;
  return `${kindTexts[job.kind]}${stage}${count}`;
};

export const jobPercent = (job: RunningJob): number | null =>
  job.total === null || job.total === 0 ? null : Math.min(100, Math.round((job.done / job.total) * 100));

/** A running job as a labelled progress bar; without a total the bar pulses instead of guessing. */
export const JobProgressBar = ({ job }: { job: RunningJob }) => {
  const percent = jobPercent(job);
  const text = jobProgressText(job);
  return (
    <div className="space-y-1" data-testid={`job-progress-${job.jobId}`}>
      <p className="text-xs text-gray-600">{text}</p>
      <div
        role="progressbar"
        aria-label={text}
        aria-valuemin={0}
        aria-valuemax={100}
        {...(percent === null ? {} : { 'aria-valuenow': percent })}
      >
        {percent === null ? (
          <div className="h-2 w-full animate-pulse rounded-full bg-blue-200" />
        ) : (
          <ProgressBar value={percent} color="blue" showAnimation />
        )}
      </div>
    </div>
  );
};

export const JobProgressList = ({ jobs }: { jobs: readonly RunningJob[] }) =>
  jobs.length === 0 ? null : (
    <div className="space-y-2" aria-live="polite">
      {jobs.map((job) => (
        <JobProgressBar key={job.jobId} job={job} />
      ))}
    </div>
  );
