import {
  dayOfMonthIndex,
  dayToDate,
  monthIndexOf,
  periodStartDay,
  toDay,
} from '../../metrics/compute-metrics';

/**
 * The periods a report speaks of (docs/adr/0036-report-content.md). Days are UTC day numbers, as in
 * the metric rows: a week runs Monday to Sunday, a month is a calendar month. A report sent at
 * `asOf` covers the last whole period before the one holding `asOf`.
 */
export type ReportFrequency = 'weekly' | 'monthly';

export type DayRange = { start: number; end: number };

/** The last whole week or month before the one holding `asOf`. */
export const reportPeriodOf = (frequency: ReportFrequency, asOf: Date): DayRange => {
  const day = toDay(asOf);
  if (frequency === 'weekly') {
    const start = periodStartDay('WEEKLY', day) - 7;
    return { start, end: start + 6 };
  }
  const month = monthIndexOf(day);
  return { start: dayOfMonthIndex(month - 1), end: dayOfMonthIndex(month) - 1 };
};

/** The period `count` periods before (negative) or after (positive) `period`. */
export const shiftPeriod = (frequency: ReportFrequency, period: DayRange, count: number): DayRange => {
  if (frequency === 'weekly') return { start: period.start + 7 * count, end: period.end + 7 * count };
  const month = monthIndexOf(period.start) + count;
  return { start: dayOfMonthIndex(month), end: dayOfMonthIndex(month + 1) - 1 };
};

/**
 * The same period a year earlier: the week 52 weeks before (it starts on a Monday as well, so its
 * metric row exists), or the same calendar month of the year before.
 */
export const samePeriodLastYear = (frequency: ReportFrequency, period: DayRange): DayRange =>
  shiftPeriod(frequency, period, frequency === 'weekly' ? -52 : -12);

/**
 * The two windows whose payments the payment-habit comparison sets side by side: the period and the
 * one before for monthly reports; for weekly reports the 4 weeks ending with the period and the 4
 * weeks before them, since one week holds too few payments per customer to speak of a habit.
 */
export const habitWindowsOf = (
  frequency: ReportFrequency,
  period: DayRange,
): { before: DayRange; after: DayRange } => {
  if (frequency === 'monthly') return { before: shiftPeriod('monthly', period, -1), after: period };
  const after = { start: period.end - 27, end: period.end };
  return { before: { start: after.start - 28, end: after.start - 1 }, after };
};

export const isoDay = (day: number) => dayToDate(day).toISOString().slice(0, 10);
export const dayOfIso = (iso: string) => toDay(new Date(`${iso.slice(0, 10)}T00:00:00.000Z`));
/** The instant a day ends at (its last millisecond): what "as of the end of the day" means. */
export const endOfDay = (day: number) => new Date((day + 1) * 86_400_000 - 1);
