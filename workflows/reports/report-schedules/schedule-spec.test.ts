import { defaultReportingSettings } from '../../../contracts/events/tenant';
import { reportScheduleId, reportScheduleShapes, timeZoneOf } from './schedule-spec';

describe('report schedules', () => {
  it('fire weekly on WeeklyDay and monthly on MonthlyDay at 07:00 in the tenant zone', () => {
    const [weekly, monthly] = reportScheduleShapes({
      ...defaultReportingSettings,
      WeeklyDay: 0,
      MonthlyDay: 28,
      TimeZone: 'America/New_York',
    });
    expect(weekly).toMatchObject({
      frequency: 'weekly',
      paused: false,
      spec: { calendars: [{ dayOfWeek: 'SUNDAY', hour: 7, minute: 0 }], timezone: 'America/New_York' },
    });
    expect(monthly).toMatchObject({
      frequency: 'monthly',
      paused: false,
      spec: { calendars: [{ dayOfMonth: 28, hour: 7, minute: 0 }], timezone: 'America/New_York' },
    });
  });

  it('pause a frequency whose emails are disabled', () => {
    const shapes = reportScheduleShapes({ ...defaultReportingSettings, MonthlyEmailsDisabled: true });
    expect(shapes.map((s) => [s.frequency, s.paused])).toEqual([
      ['weekly', false],
      ['monthly', true],
    ]);
  });

  it('use UTC without a zone, or with one the runtime does not know', () => {
    expect(timeZoneOf({})).toBe('UTC');
    expect(timeZoneOf({ TimeZone: 'Mars/Olympus_Mons' })).toBe('UTC');
    expect(timeZoneOf({ TimeZone: 'Europe/London' })).toBe('Europe/London');
  });

  it('are named by deployment, frequency and tenant', () => {
    expect(
      reportScheduleId({ TEMPORAL_TASK_QUEUE_PREFIX: 'ledgerwise' }, { tenantId: 12, frequency: 'weekly' }),
    ).toBe('ledgerwise-reports-weekly-tenant-12');
  });
});
