import { LineChart, ScatterChart } from '@tremor/react';
import { useId, useMemo, useState } from 'react';
import type { AssetInvoice } from '../../../../contracts/api/receivables';
import type { DataColumn } from '../../table/data-columns';
import { DataTable } from '../../table/data-table';
import { ChartFrame } from './chart-frame';
import { timeTick, transactionDay, transactionPoints } from './customer-transactions';
import { daysOrDash } from './receivables-format';

const Toggle = ({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (on: boolean) => void;
}) => {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <input
        id={id}
        type="checkbox"
        role="switch"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        className="h-4 w-4 focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600"
      />
      <label htmlFor={id} className="text-sm font-medium text-gray-800">
        {label}
      </label>
    </div>
  );
};

const invoiceColumns = (money: (value: number) => string): DataColumn<AssetInvoice>[] => [
  {
    id: 'date',
    header: 'Date',
    value: (row) => row.transactionDate,
    sortable: true,
    cell: (row) => transactionDay(row.transactionDate),
  },
  {
    id: 'amount',
    header: 'Amount',
    value: (row) => row.amount,
    sortable: true,
    align: 'end',
    cell: (row) => money(row.amount / 100),
  },
  {
    id: 'daysSincePrevious',
    header: 'Days Since Previous Txn',
    value: (row) => row.daysSincePrevious,
    sortable: true,
    align: 'end',
    cell: (row) => (row.daysSincePrevious === null ? '—' : String(Math.round(row.daysSincePrevious))),
  },
  {
    id: 'movingAvgDbt',
    header: 'MovingAvg DBT',
    value: (row) => row.movingAvgDbtDays,
    sortable: true,
    align: 'end',
    cell: (row) => daysOrDash(row.movingAvgDbtDays),
  },
];

/**
 * The customer transaction chart (portal.md 2.3, admin.md explorer): the customer's invoices drawn at
 * 1500 x 540 (scaled down on narrower screens), amounts or their running total, as a line with one
 * step per invoice or, showing time gaps, as a scatter spaced by the real days between invoices; and
 * the table Date, Amount, Days Since Previous Txn, MovingAvg DBT.
 */
export const CustomerTransactionChart = ({
  name,
  invoices,
  money,
}: {
  name: string;
  invoices: readonly AssetInvoice[];
  money: (value: number) => string;
}) => {
  const [cumulative, setCumulative] = useState(false);
  const [timeGaps, setTimeGaps] = useState(false);
  const points = useMemo(() => transactionPoints(invoices), [invoices]);
  const columns = useMemo(() => invoiceColumns(money), [money]);
  const series = cumulative ? 'Cumulative amount' : 'Amount';
  const data = points.map((point) => ({
    date: point.date,
    time: point.time,
    group: 'Invoices',
    [series]: cumulative ? point.cumulative : point.amount,
  }));

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap gap-6" role="group" aria-label="Chart options">
        <Toggle label="Cumulative" checked={cumulative} onChange={setCumulative} />
        <Toggle label="Show time gaps" checked={timeGaps} onChange={setTimeGaps} />
      </div>
      {points.length === 0 ? (
        <p className="text-sm text-gray-600">No invoices for this customer yet.</p>
      ) : (
        <div
          className="w-full max-w-[1500px]"
          data-testid="customer-transaction-chart"
          data-chart={timeGaps ? 'scatter' : 'line'}
        >
          <ChartFrame
            chart={
              timeGaps ? (
                <ScatterChart
                  className="aspect-[1500/540] h-auto w-full"
                  data={data}
                  x="time"
                  y={series}
                  category="group"
                  colors={['blue']}
                  valueFormatter={{ x: timeTick, y: money }}
                  minXValue={points[0]?.time}
                  maxXValue={points.at(-1)?.time}
                  yAxisWidth={80}
                  showTooltip={false}
                  showLegend={false}
                />
              ) : (
                <LineChart
                  className="aspect-[1500/540] h-auto w-full"
                  data={data}
                  index="date"
                  categories={[series]}
                  colors={['blue']}
                  valueFormatter={money}
                  yAxisWidth={80}
                  showTooltip={false}
                  showLegend={false}
                />
              )
            }
            caption={`${series} by invoice date, ${name}`}
            headers={['Date', series]}
            rows={points.map((point) => [point.date, money(cumulative ? point.cumulative : point.amount)])}
          />
        </div>
      )}
      <DataTable
        label={`Invoices of ${name}`}
        data={invoices}
        columns={columns}
        getRowId={(row) => row.providerId}
        initialSort={{ id: 'date', desc: true }}
        emptyText="No invoices for this customer yet."
      />
    </div>
  );
};
