import type { Db } from 'mongodb';
import { fetchDemoPage } from '../../workflows/demo/demo-connector';
import { createMetricsAccumulator, type ComputedMetrics } from '../../workflows/metrics/compute-metrics';
import {
  CUSTOMER_METRICS,
  METRIC_ROWS,
  queryMetricRows,
  querySellerMetricSummary,
  storeMetrics,
} from '../../workflows/metrics/metric-store';
import { useTestReadStore } from '../harness/test-read-store';

const readStore = useTestReadStore(__filename);
let db: Db;
beforeAll(() => {
  db = readStore.db();
});

const sellerId = 41;
const asOf = new Date('2024-06-30T12:00:00.000Z');

/** The metrics of a generated DEMO company of that size. */
const metricsOf = (invoicesPerYear: number): ComputedMetrics => {
  const accumulator = createMetricsAccumulator({ customerIds: [], productIds: [] });
  const { page } = fetchDemoPage(
    { seed: 8, startDate: '2022-01-01', invoicesPerYear },
    { sellerId, since: null, until: asOf, cursor: null, pageSize: 1_000_000 },
  );
  page.invoices.forEach(accumulator.addInvoice);
  page.payments.forEach(accumulator.addPayment);
  return accumulator.compute({ asOf, retention: 'AUTO' });
};

const store = (generation: string, metrics: ComputedMetrics) =>
  storeMetrics(db, { sellerId, tenantId: 3, asOf, generation }, metrics);

const series = { sellerId, type: 'TOTAL_REVENUE', frequency: 'MONTHLY' } as const;
const expectedSeries = (metrics: ComputedMetrics) =>
  metrics.rows
    .filter((r) => r.type === series.type && r.frequency === series.frequency)
    .map((r) => ({ StartDate: r.startDate.toISOString(), Value: r.value, Count: r.count }));
const storedCustomers = () =>
  db
    .collection(CUSTOMER_METRICS)
    .find({ sellerId }, { projection: { _id: 0, sellerId: 0, generation: 0 } })
    .sort({ customerId: 1 })
    .toArray();

describe('storing a seller metrics', () => {
  const small = metricsOf(300);
  const big = metricsOf(900);

  it('replaces the previous run whole: rows, customer metrics and summary of the new run only', async () => {
    await store('run-1', small);
    expect(await queryMetricRows(db, series)).toEqual(expectedSeries(small));
    await store('run-2', big);
    expect(big.customers.length).toBeGreaterThan(small.customers.length);
    expect(await queryMetricRows(db, series)).toEqual(expectedSeries(big));
    expect(await storedCustomers()).toEqual(big.customers);
    expect(await db.collection(METRIC_ROWS).countDocuments({ sellerId })).toBe(big.rows.length);
    expect(await querySellerMetricSummary(db, sellerId)).toMatchObject(big.summary);
  });

  it('shows readers the live run while a newer one is being written, never a mix', async () => {
    // What a run that died halfway through writing its rows leaves behind.
    await db.collection<{ _id: string }>(METRIC_ROWS).insertMany(
      small.rows
        .filter((r) => r.type === series.type && r.frequency === series.frequency)
        .slice(0, 5)
        .map((row, index) => ({
          _id: `${sellerId}:run-3:${index}`,
          sellerId,
          ...row,
          generation: 'run-3',
        })),
    );
    expect(await queryMetricRows(db, series)).toEqual(expectedSeries(big));
    // Its retry (same generation) stores the whole run over the leftovers.
    await store('run-3', small);
    expect(await queryMetricRows(db, series)).toEqual(expectedSeries(small));
    expect(await db.collection(METRIC_ROWS).countDocuments({ sellerId })).toBe(small.rows.length);
    expect(await storedCustomers()).toEqual(small.customers);
  });

  it('keeps a run a retried attempt had already stored and made live', async () => {
    await store('run-3', small);
    expect(await queryMetricRows(db, series)).toEqual(expectedSeries(small));
    expect(await db.collection(METRIC_ROWS).countDocuments({ sellerId })).toBe(small.rows.length);
    expect(await db.collection(CUSTOMER_METRICS).countDocuments({ sellerId })).toBe(small.customers.length);
  });
});
