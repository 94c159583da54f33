import { BarChart, Card, Grid, Metric, Text } from '@tremor/react';
import type { SellerResponse } from '../../../../contracts/api/sellers';
import type { Currency } from '../../../../contracts/events/tenant';
import type { MetricRow } from '../../../../contracts/ledger';
import { useMetricRows } from '../../api/queries/metrics';
import { daysText, latestValue, moneyFormatter, monthlySeries } from './receivables-figures';

const MONTHS_SHOWN = 12;

/**
 * A synced seller's numbers on the dashboard: trailing-12-month revenue and payments, the average gap
 * between a customer's purchases, and the last twelve months as a chart (with the same figures as a
 * table for screen readers, since the chart itself is a picture).
 */
export const ReceivablesCard = ({ seller, currency }: { seller: SellerResponse; currency: Currency }) => {
  const revenue = useMetricRows({ sellerId: seller.Id, type: 'TOTAL_REVENUE', frequency: 'MONTHLY' });
  const paid = useMetricRows({ sellerId: seller.Id, type: 'TOTAL_PAID', frequency: 'MONTHLY' });
  const revenueT12 = useMetricRows({
    sellerId: seller.Id,
    type: 'TOTAL_REVENUE',
    frequency: 'TRAILING12MONTHS',
  });
  const paidT12 = useMetricRows({ sellerId: seller.Id, type: 'TOTAL_PAID', frequency: 'TRAILING12MONTHS' });
  const gap = useMetricRows({
    sellerId: seller.Id,
    type: 'AVG_DAYS_BETWEEN_PURCHASES',
    frequency: 'TRAILING12MONTHS',
  });
  const money = moneyFormatter(currency);
  const name = seller.CompanyName ?? seller.Provider;
  const titleId = `receivables-${seller.Id}`;

  const queries = [revenue, paid, revenueT12, paidT12, gap];
  const failed = queries.find((query) => query.isError);
  const series =
    revenue.data && paid.data
      ? monthlySeries({ revenue: revenue.data.rows, paid: paid.data.rows }, MONTHS_SHOWN)
      : [];
  const figure = (rows: { rows: readonly MetricRow[] } | undefined) => {
    const value = rows ? latestValue(rows.rows) : null;
    return value === null ? '—' : money(value);
  };

  return (
    <section aria-labelledby={titleId}>
      <Card>
        <h2 id={titleId} className="text-tremor-title font-medium text-tremor-content-strong">
          Receivables: {name}
        </h2>
        {seller.MetricsDate && (
          <Text className="mt-1">Figures as of {new Date(seller.MetricsDate).toLocaleString()}</Text>
        )}
        {failed?.error && (
          <p role="alert" className="mt-3 text-sm text-red-700">
            {failed.error.message}
          </p>
        )}
        <Grid numItemsSm={3} className="mt-4 gap-4">
          <div>
            <Text>Revenue, last 12 months</Text>
            <Metric>{figure(revenueT12.data)}</Metric>
          </div>
          <div>
            <Text>Paid, last 12 months</Text>
            <Metric>{figure(paidT12.data)}</Metric>
          </div>
          <div>
            <Text>Average days between purchases</Text>
            <Metric>{daysText(gap.data ? latestValue(gap.data.rows) : null)}</Metric>
          </div>
        </Grid>
        {series.length > 0 && (
          <>
            {/* The chart is for the eye; the table below says the same to screen readers. `inert`
                rather than aria-hidden alone: recharts makes its surface focusable, and a focusable
                element inside aria-hidden fails axe's aria-hidden-focus rule. React 18 has no prop for it. */}
            <div aria-hidden="true" ref={(element) => element?.setAttribute('inert', '')}>
              <BarChart
                className="mt-6 h-64"
                data={series}
                index="month"
                categories={['Revenue', 'Paid']}
                colors={['blue', 'emerald']}
                valueFormatter={money}
                yAxisWidth={72}
              />
            </div>
            {/* sr-only on a wrapper: a table keeps its content's width whatever width it is given, and this
                one widened the page on a 360 px screen. */}
            <div className="sr-only">
              <table>
                <caption>Revenue and payments by month, {name}</caption>
                <thead>
                  <tr>
                    <th scope="col">Month</th>
                    <th scope="col">Revenue</th>
                    <th scope="col">Paid</th>
                  </tr>
                </thead>
                <tbody>
                  {series.map((point) => (
                    <tr key={point.month}>
                      <th scope="row">{point.month}</th>
                      <td>{money(point.Revenue)}</td>
                      <td>{money(point.Paid)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </Card>
    </section>
  );
};
