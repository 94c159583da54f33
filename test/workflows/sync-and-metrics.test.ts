import { MetricFrequency, MetricType } from '../../contracts/ledger';
import { jobDecider } from '../../domain/job/job-decider';
import { sellerDecider } from '../../domain/seller/seller-decider';
import { handleCommand } from '../../commands/command-handler';
import type { DemoProfile } from '../../workflows/demo/demo-profile';
import { saveDemoProfile } from '../../workflows/demo/demo-profiles';
import { ledgerEntities } from '../../workflows/ledger/ledger-collections';
import { queryMetricRows, querySellerMetricSummary } from '../../workflows/metrics/metric-store';
import type { generateMetricsWorkflow } from '../../workflows/metrics/workflows';
import { startSellerSync } from '../../workflows/sync/client';
import type { syncSellerWorkflow } from '../../workflows/sync/workflows';
import { readState } from '../../workflows/sync/system-commands';
import { expectedMetricRows } from './expected-metrics';
import {
  byProviderId,
  connectDemoSeller,
  generatedCompany,
  storedLedger,
  useLedgerWorld,
} from './ledger-world';
import { jobStream, sellerStream } from '../../contracts/stream-ids';

jest.setTimeout(240_000);

const world = useLedgerWorld(__filename);
const { withWorkers, temporal } = world;

const setFlag = async (sellerId: number, flag: string, value: unknown) => {
  await handleCommand(
    sellerDecider,
    {
      streamId: sellerStream(sellerId),
      commandId: `flag-${sellerId}-${flag}`,
      command: { type: 'SetSellerFeatureFlag', now: new Date(), data: { flag, value } },
    },
    world.events().writeSide,
  );
};

const smallCompany: DemoProfile = { seed: 42, startDate: '2022-01-01', invoicesPerYear: 240 };
const until = new Date('2024-06-30T12:00:00.000Z');

describe('SyncSeller and GenerateMetrics on a DEMO seller', () => {
  const sellerId = 101;
  const tenantId = 7;

  it('populates the ledger with exactly the generated company, records the CollectionDate and MetricsDate, and completes the job', async () => {
    await connectDemoSeller(world.events(), { sellerId, tenantId });
    await saveDemoProfile(world.db(), { sellerId, profile: smallCompany });
    await setFlag(sellerId, 'exclusions.CustomerIds', [3, 5]);
    await setFlag(sellerId, 'exclusions.ProductIds', ['2']);

    const result = await withWorkers(async () => {
      const started = await startSellerSync(
        { sellerId, tenantId, mode: 'populate', jobId: 501, until, pageSize: 40 },
        temporal(),
      );
      expect(started.workflowId).toMatch(new RegExp(`^sync-seller-${sellerId}-\\d+$`));
      const handle = world.client().workflow.getHandle<typeof syncSellerWorkflow>(started.workflowId);
      const outcome = await handle.result();
      await world
        .client()
        .workflow.getHandle<typeof generateMetricsWorkflow>(`${started.workflowId}-metrics`)
        .result();
      return outcome;
    });

    const expected = generatedCompany(smallCompany, { sellerId, until });
    expect(byProviderId(await storedLedger(world.db(), sellerId))).toEqual(byProviderId(expected));
    expect(result.records).toBe(ledgerEntities.reduce((n, e) => n + expected[e].length, 0));
    expect(expected.invoices.length).toBeGreaterThan(400);
    // The generated company has every payment habit, partial payments, credits and an overdue tail.
    expect(new Set(expected.customers.map((c) => c.habit))).toEqual(
      new Set(['prompt', 'slow', 'erratic', 'seasonal']),
    );
    expect(expected.creditMemos.length).toBeGreaterThan(0);
    expect(expected.invoices.some((i) => i.balance > 0 && i.dueDate < new Date('2024-01-01'))).toBe(true);
    const paymentsPerInvoice = new Map<string, number>();
    for (const p of expected.payments)
      for (const a of p.applications)
        paymentsPerInvoice.set(a.invoiceProviderId, (paymentsPerInvoice.get(a.invoiceProviderId) ?? 0) + 1);
    expect([...paymentsPerInvoice.values()].some((n) => n > 1)).toBe(true);

    const seller = await readState(world.events().writeSide, sellerDecider, sellerStream(sellerId));
    expect(seller.status === 'known' && seller.collectionDate).toBe(until.toISOString());
    expect(seller.status === 'known' && seller.metricsDate).not.toBeNull();
    expect(seller.status === 'known' && seller.runningSync).toBeNull();
    const job = await readState(world.events().writeSide, jobDecider, jobStream(501));
    expect(job.status).toBe('completed');
    expect(job.status !== 'none' && job.progress?.stage).toBe('metrics');
  });

  it('stores metric values that agree with an independent computation for every type and frequency', async () => {
    const expected = generatedCompany(smallCompany, { sellerId, until });
    for (const type of MetricType.options)
      for (const frequency of MetricFrequency.options) {
        const rows = await queryMetricRows(world.db(), { sellerId, type, frequency });
        const want = expectedMetricRows({
          invoices: expected.invoices,
          payments: expected.payments,
          creditMemos: expected.creditMemos,
          excludedCustomers: [3, 5],
          excludedProducts: [2],
          asOf: until,
          type,
          frequency,
        });
        expect({ type, frequency, rows }).toEqual({ type, frequency, rows: want });
      }
    const summary = await querySellerMetricSummary(world.db(), sellerId);
    const kept = expected.invoices.filter((i) => ![3, 5].includes(i.customerId));
    expect(summary?.openBalance).toBe(kept.reduce((s, i) => s + i.balance, 0));
    expect(summary?.retentionMonths === 3 || summary?.retentionMonths === 12).toBe(true);
    expect(summary?.customersT36M).toBe(new Set(kept.map((i) => i.customerId)).size);
  });

  it('advances the DEMO seller to a later date (only fetch): the ledger equals the company as of that date', async () => {
    const later = new Date('2024-09-30T12:00:00.000Z');
    await withWorkers(async () => {
      const started = await startSellerSync(
        { sellerId, tenantId, mode: 'sync', jobId: 502, until: later, onlyFetch: true, pageSize: 40 },
        temporal(),
      );
      return world.client().workflow.getHandle<typeof syncSellerWorkflow>(started.workflowId).result();
    });
    expect(byProviderId(await storedLedger(world.db(), sellerId))).toEqual(
      byProviderId(generatedCompany(smallCompany, { sellerId, until: later })),
    );
    const job = await readState(world.events().writeSide, jobDecider, jobStream(502));
    expect(job.status).toBe('completed');
  });
});
