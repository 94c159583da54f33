import { daysText, latestValue, moneyFormatter, monthlySeries } from './receivables-figures';

const row = (StartDate: string, Value: number) => ({ StartDate, Value, Count: 1 });

describe('receivables figures', () => {
  it('reads the newest period in whole units', () => {
    expect(
      latestValue([row('2026-09-01T00:00:00.000Z', 1000), row('2026-10-01T00:00:00.000Z', 123456)]),
    ).toBe(1234.56);
    expect(latestValue([])).toBeNull();
  });

  it('pairs revenue and payments by month, oldest first, keeping months that have only one of them', () => {
    const series = monthlySeries(
      {
        revenue: [row('2026-09-01T00:00:00.000Z', 50000), row('2026-10-01T00:00:00.000Z', 70000)],
        paid: [row('2026-08-01T00:00:00.000Z', 10000), row('2026-10-01T00:00:00.000Z', 65000)],
      },
      12,
    );
    expect(series).toEqual([
      { month: 'Aug 2026', Revenue: 0, Paid: 100 },
      { month: 'Sep 2026', Revenue: 500, Paid: 0 },
      { month: 'Oct 2026', Revenue: 700, Paid: 650 },
    ]);
  });

  it('keeps only the last months asked for', () => {
    const revenue = Array.from({ length: 30 }, (_, i) =>
      row(new Date(Date.UTC(2024, i, 1)).toISOString(), (i + 1) * 100),
    );
    const series = monthlySeries({ revenue, paid: [] }, 12);
    expect(series).toHaveLength(12);
    expect(series[0]).toEqual({ month: 'Jul 2025', Revenue: 19, Paid: 0 });
    expect(series.at(-1)).toEqual({ month: 'Jun 2026', Revenue: 30, Paid: 0 });
  });

  it('formats money in the company’s currency and days with one decimal', () => {
    expect(moneyFormatter('GBP')(1234.56)).toBe('£1,235');
    expect(moneyFormatter('USD')(0)).toBe('$0');
    expect(daysText(31.456)).toBe('31.5 days');
    expect(daysText(null)).toBe('No data yet');
  });
});
