import { BarChart, Card, Text } from '@tremor/react';
import { useMemo, useState } from 'react';
import type { MetricFrequency, MetricRow } from '../../../../contracts/ledger';
import { useMetricRows } from '../../api/queries/metrics';
import { useEveryTenantSellers } from '../../api/queries/platforms';
import { SelectField } from '../../forms/select-field';
import { TextField } from '../../forms/text-field';
import type { DataColumn } from '../../table/data-columns';
import { DataTable } from '../../table/data-table';
import { PageFrame } from '../dashboard/stat-card';
import { transactionDay } from '../sellers/customer-transactions';
import { useDebouncedValue } from '../sellers/use-debounced-value';

/** admin.md section 2: the chart offers these two metrics. */
const metricOptions = [
  { value: 'TOTAL_REVENUE', label: 'Total Revenue' },
  { value: 'TOTAL_PAID', label: 'Total Paid' },
] as const;
type ChartMetric = (typeof metricOptions)[number]['value'];

const frequencyOptions: { value: MetricFrequency; label: string }[] = [
  { value: 'WEEKLY', label: 'Weekly' },
  { value: 'MONTHLY', label: 'Monthly' },
  { value: 'YEARLY', label: 'Yearly' },
  { value: 'TRAILING3MONTHS', label: 'Trailing 3 months' },
  { value: 'TRAILING12MONTHS', label: 'Trailing 12 months' },
];

/** Metric values are in hundredths (admin.md section 9); the chart shows them divided by 100. */
const amount = (value: number) =>
  new Intl.NumberFormat('en-US', { maximumFractionDigits: 2, minimumFractionDigits: 2 }).format(value);

const rowColumns: DataColumn<MetricRow>[] = [
  {
    id: 'StartDate',
    header: 'Start date',
    value: (row) => row.StartDate,
    sortable: true,
    cell: (row) => transactionDay(row.StartDate),
  },
  {
    id: 'Value',
    header: 'Value',
    value: (row) => row.Value,
    sortable: true,
    align: 'end',
    cell: (row) => amount(row.Value / 100),
  },
  { id: 'Count', header: 'Count', value: (row) => row.Count, sortable: true, align: 'end' },
];

/** /admin/metrics: one seller's Total Revenue or Total Paid rows as a column chart and a table. */
export const AdminMetricsPage = () => {
  const [metric, setMetric] = useState<ChartMetric>('TOTAL_REVENUE');
  const [frequency, setFrequency] = useState<MetricFrequency>('MONTHLY');
  const [search, setSearch] = useState('');
  const [chosenSeller, setChosenSeller] = useState('');
  const sellers = useEveryTenantSellers(useDebouncedValue(search, 300));
  const sellerOptions = useMemo(
    () =>
      (sellers.data?.rows ?? []).map((seller) => ({
        value: String(seller.Id),
        label: `${seller.CompanyName ?? seller.Provider} (seller ${seller.Id}${
          seller.Tenant?.Name ? `, ${seller.Tenant.Name}` : ''
        })`,
      })),
    [sellers.data],
  );
  // The choice stands while it is among the search's results; otherwise the first result is shown.
  const sellerId = sellerOptions.some((option) => option.value === chosenSeller)
    ? chosenSeller
    : (sellerOptions[0]?.value ?? '');
  const rows = useMetricRows(
    { sellerId: Number(sellerId), type: metric, frequency },
    { anyTenant: true, enabled: sellerId !== '' },
  );
  const metricLabel = metricOptions.find((option) => option.value === metric)?.label ?? metric;
  const points = (rows.data?.rows ?? []).map((row) => ({
    start: transactionDay(row.StartDate),
    value: row.Value / 100,
  }));

  return (
    <PageFrame title="Metrics">
      <Card>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <SelectField
            name="metric"
            label="Metric"
            value={metric}
            onValueChange={(value) => setMetric(value as ChartMetric)}
            options={metricOptions}
          />
          <TextField
            name="sellerSearch"
            label="Find a seller"
            type="search"
            value={search}
            onValueChange={setSearch}
          />
          <SelectField
            name="seller"
            label="Seller"
            value={sellerId}
            onValueChange={setChosenSeller}
            options={sellerOptions}
            {...(sellerOptions.length === 0
              ? { blankLabel: sellers.isPending ? 'Loading...' : 'No sellers found' }
              : {})}
          />
          <SelectField
            name="frequency"
            label="Frequency"
            value={frequency}
            onValueChange={(value) => setFrequency(value as MetricFrequency)}
            options={frequencyOptions}
          />
        </div>
        {sellers.isError && (
          <p role="alert" className="mt-3 text-sm text-red-700">
            {sellers.error.message}
          </p>
        )}
      </Card>
      {sellerId !== '' && (
        <section aria-labelledby="metric-chart-title">
          <Card>
            <h2 id="metric-chart-title" className="text-tremor-title font-medium text-tremor-content-strong">
              {metricLabel}, {frequencyOptions.find((option) => option.value === frequency)?.label}
            </h2>
            {rows.isError && (
              <p role="alert" className="mt-3 text-sm text-red-700">
                {rows.error.message}
              </p>
            )}
            {rows.data && rows.data.MetricsDate === null && (
              <Text className="mt-3">
                This seller has no metrics yet: they are generated after its first completed sync (S on the
                admin Sellers page runs them again).
              </Text>
            )}
            {points.length > 0 && (
              // For the eye only: the table below gives screen readers the same figures. `inert` as in
              // ChartFrame, since recharts makes its surface focusable.
              <div aria-hidden="true" ref={(element) => element?.setAttribute('inert', '')}>
                <BarChart
                  className="mt-4 h-72"
                  data={points.map((point) => ({ start: point.start, [metricLabel]: point.value }))}
                  index="start"
                  categories={[metricLabel]}
                  colors={['blue']}
                  valueFormatter={amount}
                  yAxisWidth={88}
                  showTooltip={false}
                  showLegend={false}
                />
              </div>
            )}
            <div className="mt-4">
              <DataTable
                label={`${metricLabel} by start date`}
                data={rows.isError ? [] : rows.data?.rows}
                columns={rowColumns}
                getRowId={(row) => row.StartDate}
                initialSort={{ id: 'StartDate', desc: true }}
              />
            </div>
          </Card>
        </section>
      )}
    </PageFrame>
  );
};
