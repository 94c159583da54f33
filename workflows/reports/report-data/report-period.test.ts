import {
  habitWindowsOf,
  isoDay,
  reportPeriodOf,
  samePeriodLastYear,
  shiftPeriod,
  type DayRange,
} from './report-period';

const shown = (range: DayRange) => `${isoDay(range.start)}..${isoDay(range.end)}`;

describe('report periods', () => {
  it('covers the last whole Monday-to-Sunday week before the send day', () => {
    // Tuesday 26 November 2024, the default weekly send day.
    expect(shown(reportPeriodOf('weekly', new Date('2024-11-26T07:00:00Z')))).toBe('2024-11-18..2024-11-24');
    // Sent on a Monday: the week that just ended.
    expect(shown(reportPeriodOf('weekly', new Date('2024-11-25T00:00:00Z')))).toBe('2024-11-18..2024-11-24');
    // Sent on a Sunday: not the week that ends that day, which is not over.
    expect(shown(reportPeriodOf('weekly', new Date('2024-11-24T23:59:59Z')))).toBe('2024-11-11..2024-11-17');
  });

  it('covers the last whole calendar month, across a year end and a leap February', () => {
    expect(shown(reportPeriodOf('monthly', new Date('2025-01-07T07:00:00Z')))).toBe('2024-12-01..2024-12-31');
    expect(shown(reportPeriodOf('monthly', new Date('2024-03-01T00:00:00Z')))).toBe('2024-02-01..2024-02-29');
  });

  it('compares with the previous period and the same period last year', () => {
    const week = reportPeriodOf('weekly', new Date('2024-11-26T07:00:00Z'));
    expect(shown(shiftPeriod('weekly', week, -1))).toBe('2024-11-11..2024-11-17');
    // 52 weeks earlier: a Monday again.
    expect(shown(samePeriodLastYear('weekly', week))).toBe('2023-11-20..2023-11-26');
    const month = reportPeriodOf('monthly', new Date('2024-03-07T07:00:00Z'));
    expect(shown(shiftPeriod('monthly', month, -1))).toBe('2024-01-01..2024-01-31');
    expect(shown(samePeriodLastYear('monthly', month))).toBe('2023-02-01..2023-02-28');
  });

  it('sets 4 weeks against the 4 before for weekly habits, the month against the one before for monthly', () => {
    const week = reportPeriodOf('weekly', new Date('2024-11-26T07:00:00Z'));
    const weekly = habitWindowsOf('weekly', week);
    expect([shown(weekly.before), shown(weekly.after)]).toEqual([
      '2024-09-30..2024-10-27',
      '2024-10-28..2024-11-24',
    ]);
    const monthly = habitWindowsOf('monthly', reportPeriodOf('monthly', new Date('2024-03-07T07:00:00Z')));
    expect([shown(monthly.before), shown(monthly.after)]).toEqual([
      '2024-01-01..2024-01-31',
      '2024-02-01..2024-02-29',
    ]);
  });
});
