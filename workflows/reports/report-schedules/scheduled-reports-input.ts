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
