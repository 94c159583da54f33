import { Grid } from '@tremor/react';
import type { SellerForecastsResponse } from '../../../../contracts/api/forecasts';
import type { SellerAgingResponse } from '../../../../contracts/api/receivables';
import type { MetricRow } from '../../../../contracts/ledger';
import { useMetricRows } from '../../api/queries/metrics';
import { StatCard } from '../dashboard/stat-card';
import { expectedTotal } from './forecast-series';

/** The newest period that has a value (Count 0 means none for the ratio metrics), in whole units. */
export const latestWithValue = (rows: readonly MetricRow[] | undefined): number | null => {
  const row = rows?.findLast((candidate) => candidate.Count > 0);
  return row ? row.Value / 100 : null;
};

/**
 * The seller's headline figures: trailing-year revenue, open and overdue balances (today's aging),
 * DSO of the latest month with sales, and the next 13 weeks' expected revenue and cash-in.
 */
export const SellerKpis = ({
  sellerId,
  aging,
  forecasts,
  money,
}: {
  sellerId: number;
  aging: SellerAgingResponse | undefined;
  forecasts: SellerForecastsResponse | undefined;
  money: (value: number) => string;
}) => {
  const revenueT12 = useMetricRows({ sellerId, type: 'TOTAL_REVENUE', frequency: 'TRAILING12MONTHS' });
  const dso = useMetricRows({ sellerId, type: 'DSO', frequency: 'MONTHLY' });
  const revenue = latestWithValue(revenueT12.data?.rows);
  const dsoDays = latestWithValue(dso.data?.rows);
  const weekly = forecasts?.revenue.weekly;
  const collections = forecasts?.collections;
  const dash = '—';

  return (
    <Grid numItemsSm={2} numItemsLg={3} className="gap-4">
      <StatCard label="Revenue, last 12 months" value={revenue === null ? dash : money(revenue)} />
      <StatCard label="Open balance" value={aging ? money(aging.total.amount / 100) : dash} />
      <StatCard label="Overdue" value={aging ? money(aging.total.overdue / 100) : dash} />
      <StatCard label="DSO, latest month" value={dsoDays === null ? dash : `${dsoDays.toFixed(1)} days`} />
      <StatCard
        label="Revenue forecast, next 13 weeks"
        value={weekly ? money(expectedTotal(weekly.points)) : dash}
      />
      <StatCard
        label="Expected cash-in, next 13 weeks"
        value={collections ? money(expectedTotal(collections.weeks)) : dash}
      />
    </Grid>
  );
};
