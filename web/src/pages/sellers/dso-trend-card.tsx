import { Card, LineChart, Text } from '@tremor/react';
import type { MetricRow } from '../../../../contracts/ledger';
import { useMetricRows } from '../../api/queries/metrics';
import { ChartFrame } from './chart-frame';
import { periodLabel } from './forecast-series';

const MONTHS_SHOWN = 24;

export type DsoPoint = { month: string; Standard: number | null; Countback: number | null };

/**
 * Standard and countback DSO by month, oldest first. Rows hold hundredths of a day; a month without
 * sales has Count 0 and no DSO (contracts/ledger.ts), shown as a gap rather than as zero days.
 */
export const dsoSeries = (
  input: { standard: readonly MetricRow[]; countback: readonly MetricRow[] },
  months: number,
): DsoPoint[] => {
  const byMonth = new Map<string, DsoPoint>();
  const add = (rows: readonly MetricRow[], field: 'Standard' | 'Countback') => {
    for (const row of rows) {
      const key = row.StartDate.slice(0, 7);
      const point = byMonth.get(key) ?? {
        month: periodLabel(`${key}-01T00:00:00Z`, 'MONTHLY'),
        Standard: null,
        Countback: null,
      };
      point[field] = row.Count === 0 ? null : row.Value / 100;
      byMonth.set(key, point);
    }
  };
  add(input.standard, 'Standard');
  add(input.countback, 'Countback');
  return [...byMonth.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .slice(-months)
    .map(([, point]) => point);
};

const days = (value: number) => `${value.toFixed(0)} d`;
const daysCell = (value: number | null) => (value === null ? 'No sales' : `${value.toFixed(1)} days`);

/** Days sales outstanding, standard and countback, over the last two years by month. */
export const DsoTrendCard = ({ sellerId }: { sellerId: number }) => {
  const standard = useMetricRows({ sellerId, type: 'DSO', frequency: 'MONTHLY' });
  const countback = useMetricRows({ sellerId, type: 'DSO_COUNTBACK', frequency: 'MONTHLY' });
  const failed = [standard, countback].find((query) => query.isError);
  const series =
    standard.data && countback.data
      ? dsoSeries({ standard: standard.data.rows, countback: countback.data.rows }, MONTHS_SHOWN)
      : null;

  return (
    <section aria-labelledby="dso-title">
      <Card>
        <h2 id="dso-title" className="text-tremor-title font-medium text-tremor-content-strong">
          DSO trend
        </h2>
        <Text className="mt-1">
          Standard: the open balance at the month&apos;s end over the month&apos;s sales, times its days.
          Countback: how many days of the latest sales, counted back, the open balance covers.
        </Text>
        {failed?.error && (
          <p role="alert" className="mt-3 text-sm text-red-700">
            {failed.error.message}
          </p>
        )}
        {!series && !failed && (
          <p role="status" className="mt-3 text-sm text-gray-600">
            Loading...
          </p>
        )}
        {series?.length === 0 && (
          <Text className="mt-3">No DSO yet: it is computed with the metrics after each completed sync.</Text>
        )}
        {series && series.length > 0 && (
          <ChartFrame
            chart={
              <LineChart
                className="mt-4 h-64"
                data={series}
                index="month"
                categories={['Standard', 'Countback']}
                colors={['blue', 'violet']}
                valueFormatter={days}
                yAxisWidth={56}
                showTooltip={false}
                connectNulls={false}
              />
            }
            caption="DSO by month, standard and countback"
            headers={['Month', 'Standard DSO', 'Countback DSO']}
            rows={series.map((point) => [point.month, daysCell(point.Standard), daysCell(point.Countback)])}
          />
        )}
      </Card>
    </section>
  );
};
