import { BarChart, Card, Text } from '@tremor/react';
import { useId, useState } from 'react';
import type { AgingBucket } from '../../../../contracts/api/receivables';
import { useSellerAging } from '../../api/queries/receivables';
import { ChartFrame } from './chart-frame';
import { dayText, invoicesText } from './receivables-format';

export const bucketTexts: Record<AgingBucket, string> = {
  current: 'Current',
  '1-30': '1 to 30 days',
  '31-60': '31 to 60 days',
  '61-90': '61 to 90 days',
  'over-90': 'Over 90 days',
};

/** The chart's axis labels: short enough that none is dropped on a narrow card. */
const bucketAxisTexts: Record<AgingBucket, string> = {
  current: 'Current',
  '1-30': '1-30',
  '31-60': '31-60',
  '61-90': '61-90',
  'over-90': '90+',
};

/** Open amounts by days past due as of a chosen day (the seller's last sync until one is chosen). */
export const AgingCard = ({ sellerId, money }: { sellerId: number; money: (value: number) => string }) => {
  const [asOf, setAsOf] = useState('');
  const aging = useSellerAging(sellerId, asOf === '' ? null : asOf);
  const dateId = useId();
  const data = aging.data?.buckets.map((bucket) => ({
    bucket: bucketTexts[bucket.bucket],
    axis: bucketAxisTexts[bucket.bucket],
    'Open amount': bucket.amount / 100,
    invoices: bucket.invoices,
  }));

  return (
    <section aria-labelledby="aging-title">
      <Card>
        <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
          <h2 id="aging-title" className="text-tremor-title font-medium text-tremor-content-strong">
            Aging
          </h2>
          <div>
            <label htmlFor={dateId} className="block text-sm font-medium text-gray-700">
              As of
            </label>
            <input
              id={dateId}
              type="date"
              value={asOf}
              onChange={(event) => setAsOf(event.target.value)}
              className="rounded-md border border-gray-300 px-2 py-1 text-sm focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600"
            />
          </div>
        </div>
        {aging.isError && (
          <p role="alert" className="mt-3 text-sm text-red-700">
            {aging.error.message}
          </p>
        )}
        {aging.isPending && (
          <p role="status" className="mt-3 text-sm text-gray-600">
            Loading...
          </p>
        )}
        {aging.data && data && (
          <>
            <Text className="mt-2">
              {money(aging.data.total.amount / 100)} open in {invoicesText(aging.data.total.invoices)} on{' '}
              {dayText(aging.data.asOf)}, {money(aging.data.total.overdue / 100)} of it overdue.
            </Text>
            {aging.data.total.invoices === 0 ? (
              <Text className="mt-3">
                Nothing was open on that day: every invoice was paid or not yet issued.
              </Text>
            ) : (
              <ChartFrame
                chart={
                  <BarChart
                    className="mt-4 h-64"
                    data={data}
                    index="axis"
                    categories={['Open amount']}
                    colors={['amber']}
                    valueFormatter={money}
                    yAxisWidth={72}
                    showTooltip={false}
                  />
                }
                caption={`Aging as of ${dayText(aging.data.asOf)}`}
                headers={['Days past due', 'Open amount', 'Invoices']}
                rows={data.map((row) => [row.bucket, money(row['Open amount']), String(row.invoices)])}
              />
            )}
          </>
        )}
      </Card>
    </section>
  );
};
