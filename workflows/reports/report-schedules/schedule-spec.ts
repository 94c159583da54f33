import type { DayOfWeek, ScheduleSpec } from '@temporalio/client';
import type { Config } from '../../../contracts/config';
import { defaultTimeZone, isTimeZone, type ReportingSettings } from '../../../contracts/events/tenant';

/** The scheduled sends (architecture.md, workflows): one schedule per tenant and frequency. */
export const scheduledFrequencies = ['weekly', 'monthly'] as const;
export type ScheduledFrequency = (typeof scheduledFrequencies)[number];

/** The morning hour the sends go out, in the tenant's time zone (issue 14, Sending). */
export const sendHour = 7;

const daysOfWeek: readonly DayOfWeek[] = [
  'SUNDAY',
  'MONDAY',
  'TUESDAY',
  'WEDNESDAY',
  'THURSDAY',
  'FRIDAY',
  'SATURDAY',
];

/**
 * `<prefix>-reports-weekly-tenant-12`: readable in the Temporal UI's schedules list, and qualified by
 * the deployment's prefix, as workflow ids are, because tenant ids restart at 1 in a fresh event store.
 */
export const reportScheduleId = (
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE_PREFIX'>,
  schedule: { tenantId: number; frequency: ScheduledFrequency },
) => `${config.TEMPORAL_TASK_QUEUE_PREFIX}-reports-${schedule.frequency}-tenant-${schedule.tenantId}`;

/** The zone the tenant's sends follow; an unknown name (a zone the runtime dropped) falls back to UTC. */
export const timeZoneOf = (reporting: Pick<ReportingSettings, 'TimeZone'>): string =>
  reporting.TimeZone !== undefined && isTimeZone(reporting.TimeZone) ? reporting.TimeZone : defaultTimeZone;

/** What one of a tenant's schedules should be, derived from its reporting settings alone. */
export type ReportScheduleShape = {
  frequency: ScheduledFrequency;
  spec: ScheduleSpec;
  /** A disabled frequency keeps its schedule, paused, so re-enabling it keeps its history. */
  paused: boolean;
  /** Shown in the Temporal UI beside a paused schedule. */
  note: string;
};

/** Weekly on WeeklyDay (0 = Sunday) and monthly on MonthlyDay (1 to 28), at 07:00 in the tenant's zone. */
export const reportScheduleShapes = (reporting: ReportingSettings): ReportScheduleShape[] => {
  const timezone = timeZoneOf(reporting);
  const weekday = daysOfWeek[reporting.WeeklyDay] ?? 'TUESDAY';
  return [
    {
      frequency: 'weekly',
      spec: {
        calendars: [{ dayOfWeek: weekday, hour: sendHour, minute: 0, comment: `weekly on ${weekday}` }],
        timezone,
      },
      paused: reporting.WeeklyEmailsDisabled,
      note: reporting.WeeklyEmailsDisabled ? 'Weekly emails are disabled for this tenant.' : 'Sending.',
    },
    {
      frequency: 'monthly',
      spec: {
        calendars: [
          {
            dayOfMonth: reporting.MonthlyDay,
            hour: sendHour,
            minute: 0,
            comment: `monthly on day ${reporting.MonthlyDay}`,
          },
        ],
        timezone,
      },
      paused: reporting.MonthlyEmailsDisabled,
      note: reporting.MonthlyEmailsDisabled ? 'Monthly emails are disabled for this tenant.' : 'Sending.',
    },
  ];
};
