import type { ScheduledFrequency } from './schedule-spec';

/** The action of a tenant's weekly or monthly schedule (schedule-spec.ts). */
export type ScheduledReportsInput = {
  tenantId: number;
  frequency: ScheduledFrequency;
  /** Set by a caller that starts a send by hand (tests, backfills); a scheduled run uses its start time. */
  scheduledAt?: string;
};

export type ScheduledReportsStep = ScheduledReportsInput & {
  /** `<schedule id>-<scheduled time>`: keys the jobs this run records. */
  scheduledRunId: string;
  scheduledAt: string;
};

export type ScheduledReportsResult = {
  /** Why nothing was recorded (the tenant disabled, or this frequency's emails disabled). */
  skipped: string | null;
  jobIds: number[];
};

/** How a batched send splits its jobs: sellers per batch activity, batch activities at a time. */
export type ScheduledBatching = { size: number; lanes: number };

/** A scheduled send's job of one seller, run by one of the send's batches. */
export type ScheduledJob = { jobId: number; sellerId: number };

export type ScheduledBlockResult = {
  skipped: string | null;
  jobs: ScheduledJob[];
  /** Chosen by the worker that recorded the jobs, kept in the history so a replay splits the same way. */
  batching: ScheduledBatching;
  /**
   * How many of `jobs` (the first ones) the step recorded; the run records the rest beside its first
   * batches. Absent in a history from before `firstBatchesOnly`: all of them.
   */
  recorded?: number;
};

/** One batch activity's input: the send's step and its share of the jobs. */
export type ScheduledBatchStep = ScheduledReportsStep & { jobs: ScheduledJob[] };

export type ScheduledBatchResult = {
  /** Jobs this attempt ran to their end (completed, or failed with a refusal's reason). */
  finished: number;
  /** Jobs already ended when the attempt began (an earlier attempt's work, or cancelled). */
  alreadyEnded: number;
};
