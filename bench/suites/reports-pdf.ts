/**
 * The weekly PDF at scale (issue 14, suite `reports`): renderSellerReport's weekly report for a seller
 * with `pdfCustomers` customers (default 10,000) and `pdfInvoices` invoices (default 1,000,000), beside
 * pdfkit (the engine beneath @react-pdf) drawing the same texts, tables and vector shapes by hand from
 * the same gathered data, in the same run. Both draw in a process of their own started the same way
 * (node with tsx), so their peak memory compares, twice: a fresh process without warm-up (its first
 * render, the cold figure, and the median of the second half of `pdfRenders` renders), then a fresh
 * process warmed up as the PDF process is at its start (`pdfWarmUps` renders of the made-up report of
 * pdf-warm-up.ts; pdfkit draws the same report as many times): its first job and the median of the
 * second half of its jobs, what a long-lived PDF process serves. CPU time counts, as the machine may
 * be shared; each process's start-to-ready time is printed. The data gathering is timed apart,
 * beside one plain scan of the seller's invoices:
 * what the report must never do per render.
 *
 * Seeded in an embedded read store of the run's own: the tenant and seller read models; N ledger
 * customers; the invoices over the 3 years before asOf (one line each, due in 30 days) and one payment
 * per paid invoice, each customer paying with its own lateness (a tenth of them 25 days later in the
 * last 4 weeks, so payment habits change); invoices not paid by asOf, and 0.3% never paid, stay open.
 * The metric rows are synthetic but complete in shape (14 types x 5 frequencies, 3 years: what a
 * metrics run stores), with revenue and collections summed from the seeded ledger; no metrics run over
 * the million invoices is made (the metrics suite measures that). One collections forecast (13 weeks).
 * Not seeded: credit memos, products, customer_receivables (the weekly report reads none of them).
 */
import { fork } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Db } from 'mongodb';
import { MetricFrequency, MetricType } from '../../contracts/ledger';
import { openReadStore } from '../../projections/read-store/open-read-store';
import { currentCollection } from '../../projections/framework/read-model-versions';
import {
  sellersProjection,
  type SellerCollections,
  type SellerDoc,
} from '../../projections/sellers/sellers-projection';
import { tenantsCollection } from '../../projections/tenants/tenant-view';
import type { TenantDocument } from '../../projections/tenants/tenants-projection';
import { ensureForecastIndexes, storeSellerForecast } from '../../workflows/forecast/forecast-store';
import { ensureLedgerIndexes, ledgerCollections } from '../../workflows/ledger/ledger-collections';
import {
  dayOfMonthIndex,
  dayToDate,
  monthIndexOf,
  nextPeriodDay,
  periodStartDay,
  toDay,
  type ComputedMetricRow,
} from '../../workflows/metrics/compute-metrics';
import { storeMetrics } from '../../workflows/metrics/metric-store';
import {
  configurePdfProcess,
  PDF_WARM_UP_RENDERS,
  renderPdf,
  startPdfProcess,
  stopPdfProcess,
} from '../../workflows/reports/pdf/pdf-renderer';
import { warmUpJob } from '../../workflows/reports/pdf/pdf-warm-up';
import { renderSellerReport } from '../../workflows/reports/pdf/render-seller-report';
import { gatherReportData } from '../../workflows/reports/report-data/gather-report-data';
import type { ReportData } from '../../workflows/reports/report-data/report-data';
import { benchConfig } from '../bench-config';
import type { BenchSuite, Figure } from '../harness';
import { measurePeakRss } from '../sync-bench-seller';
import type { BaselineReply, BaselineRequest } from '../reports-pdfkit-baseline';

const SELLER = 1;
const TENANT = 1;
const DAY = 86_400_000;
/** A Tuesday: the weekly report covers Monday 17 to Sunday 23 November 2025. */
const asOf = new Date('2025-11-25T07:00:00.000Z');
const BATCH = 5000;

/** A deterministic pseudo-random integer in [0, n) from a seed. */
const pick = (seed: number, n: number) =>
  Math.floor(((((Math.sin(seed * 12.9898 + 78.233) * 43758.5453) % 1) + 1) % 1) * n);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const insertBatch = (db: Db, collection: string, docs: object[]) =>
  docs.length === 0 ? Promise.resolve() : db.collection(collection).insertMany(docs, { ordered: false });

const seedReadModels = async (db: Db) => {
  const tenant: TenantDocument = {
    _id: TENANT,
    position: 1,
    Name: 'Bench Holdings',
    sortName: 'bench holdings',
    FriendlyName: null,
    Classification: 'BUSINESS',
    UsageType: 'NORMAL',
    BusinessModel: 'B2B',
    Industry: { FreeForm: 'Wholesale', NAICS2017: '423710', Description: null },
    PartnerId: null,
    Referrer: null,
    ReferrerIdentifier: null,
    LandingPage: null,
    PlanIdentifier: 'growth_business',
    Reporting: {
      RetentionPeriod: 'AUTO',
      WeeklyDay: 2,
      MonthlyDay: 7,
      Currency: 'USD',
      WeeklyEmailsDisabled: false,
      MonthlyEmailsDisabled: false,
    },
    LogoURL: null,
    PendingLogoURL: null,
    PendingLogoContentType: null,
    LogoSubmittedAt: null,
    LastLogoDecision: null,
    LogoReviewedAt: null,
    CreatedBy: null,
    createdAt: asOf,
    status: 'active',
    deletedAt: null,
    disableReason: null,
    purged: false,
    purgedAt: null,
  };
  await (await tenantsCollection(db)).insertOne(tenant);
  const seller: SellerDoc = {
    _id: SELLER,
    position: 1,
    sellerId: SELLER,
    tenantId: TENANT,
    provider: 'XERO',
    companyName: 'Bench Books',
    companyNameSort: 'bench books',
    url: null,
    authMethod: 'oauth2',
    authTokenOwner: null,
    authTokenStatus: 'ACTIVE',
    authTokenRefreshedAt: asOf,
    companyFilePath: null,
    active: true,
    disconnected: false,
    disconnectedAt: null,
    deleted: false,
    deletedAt: null,
    createdAt: asOf,
    collectionDate: asOf,
    metricsDate: asOf,
    featureFlags: {},
    runningSyncId: null,
    runningSyncMode: null,
    runningSyncRequestedAt: null,
    runningSyncStartedAt: null,
    lastSyncId: null,
    lastSyncOutcome: null,
    lastSyncFinishedAt: null,
    lastSyncFailure: null,
  };
  await (
    await currentCollection<SellerCollections, SellerDoc>(db, sellersProjection, 'sellers')
  ).insertOne(seller);
};

/**
 * Writes the customers, invoices and payments, answering revenue and collections by day (for the
 * synthetic metric rows) and how many invoices stay open.
 */
const seedLedger = async (
  db: Db,
  size: { customers: number; invoices: number },
  log: (m: string) => void,
) => {
  const base = { sellerId: SELLER, tenantId: TENANT, epoch: 1, hash: 'h', changedAt: asOf };
  const customers = Array.from({ length: size.customers }, (_, i) => ({
    ...base,
    _id: `${SELLER}:C${i + 1}`,
    providerId: `C${i + 1}`,
    customerId: i + 1,
    name: `Customer ${String(i + 1).padStart(5, '0')} Trading`,
    email: null,
    createdAt: asOf,
    habit: null,
  }));
  for (let i = 0; i < customers.length; i += BATCH)
    await insertBatch(db, ledgerCollections.customers, customers.slice(i, i + BATCH));
  const lastDay = toDay(asOf);
  const firstDay = lastDay - 3 * 365;
  const revenue = new Map<number, number>();
  const paid = new Map<number, number>();
  let open = 0;
  let invoices: object[] = [];
  let payments: object[] = [];
  for (let i = 0; i < size.invoices; i += 1) {
    const day = firstDay + Math.floor((i * (lastDay - firstDay)) / size.invoices);
    const customerId = ((i * 7919) % size.customers) + 1;
    const amount = 10_000 + pick(i, 490_000);
    const dueDay = day + 30;
    const changed = customerId % 10 === 0;
    const lateness = (customerId % 9) * 5 + pick(i + 1, 11) - 5;
    let payDay = Math.max(day, dueDay + lateness);
    if (changed && payDay >= lastDay - 35) payDay += 25;
    const neverPaid = pick(i + 2, 1000) < 3;
    const isOpen = neverPaid || payDay >= lastDay;
    const providerId = `I${i + 1}`;
    revenue.set(day, (revenue.get(day) ?? 0) + amount);
    invoices.push({
      ...base,
      _id: `${SELLER}:${providerId}`,
      providerId,
      customerId,
      docNumber: `INV-${i + 1}`,
      transactionDate: dayToDate(day),
      dueDate: dayToDate(dueDay),
      amount,
      balance: isOpen ? amount : 0,
      lines: [{ productId: 1 + (i % 50), quantity: 1, amount }],
    });
    if (isOpen) open += 1;
    else {
      paid.set(payDay, (paid.get(payDay) ?? 0) + amount);
      payments.push({
        ...base,
        _id: `${SELLER}:P${i + 1}`,
        providerId: `P${i + 1}`,
        customerId,
        date: dayToDate(payDay),
        amount,
        applications: [{ invoiceProviderId: providerId, amount }],
      });
    }
    if (invoices.length === BATCH) {
      await insertBatch(db, ledgerCollections.invoices, invoices);
      await insertBatch(db, ledgerCollections.payments, payments);
      invoices = [];
      payments = [];
      if ((i + 1) % 100_000 === 0) log(`  ${i + 1} invoices written`);
    }
  }
  await insertBatch(db, ledgerCollections.invoices, invoices);
  await insertBatch(db, ledgerCollections.payments, payments);
  log('creating the ledger indexes');
  await ensureLedgerIndexes(db);
  return { revenue, paid, open, firstDay, lastDay };
};

/** Every metric row a run would store, in shape: revenue and collections summed, the rest plausible. */
const syntheticRows = (ledger: Awaited<ReturnType<typeof seedLedger>>): ComputedMetricRow[] => {
  const rows: ComputedMetricRow[] = [];
  const sumOver = (sums: Map<number, number>, from: number, to: number) => {
    let total = 0;
    for (let day = from; day <= to; day += 1) total += sums.get(day) ?? 0;
    return total;
  };
  const periods = (frequency: MetricFrequency) => {
    const list: { start: number; last: number }[] = [];
    if (frequency === 'TRAILING3MONTHS' || frequency === 'TRAILING12MONTHS') {
      const months = frequency === 'TRAILING3MONTHS' ? 3 : 12;
      for (let m = monthIndexOf(ledger.firstDay); m <= monthIndexOf(ledger.lastDay); m += 1)
        list.push({
          start: dayOfMonthIndex(m - months + 1),
          last: Math.min(dayOfMonthIndex(m + 1) - 1, ledger.lastDay),
        });
      return list;
    }
    for (
      let start = periodStartDay(frequency, ledger.firstDay);
      start <= ledger.lastDay;
      start = nextPeriodDay(frequency, start)
    )
      list.push({ start, last: Math.min(nextPeriodDay(frequency, start) - 1, ledger.lastDay) });
    return list;
  };
  for (const frequency of MetricFrequency.options)
    for (const { start, last } of periods(frequency)) {
      const sales = sumOver(ledger.revenue, start, last);
      const collected = sumOver(ledger.paid, start, last);
      const days = last - start + 1;
      const ar = Math.round(sales * (45 / Math.max(days, 1)));
      for (const type of MetricType.options) {
        const share: Partial<Record<MetricType, number>> = {
          AGING_CURRENT: 0.55,
          AGING_1_30: 0.25,
          AGING_31_60: 0.1,
          AGING_61_90: 0.05,
          AGING_OVER_90: 0.05,
        };
        const agingShare = share[type];
        const value =
          type === 'TOTAL_REVENUE'
            ? sales
            : type === 'TOTAL_PAID'
              ? collected
              : agingShare !== undefined
                ? Math.round(ar * agingShare)
                : type === 'COLLECTION_EFFECTIVENESS_INDEX'
                  ? 8_500 + pick(start, 1000)
                  : 3_000 + pick(start + type.length, 3_000);
        rows.push({ type, frequency, startDate: dayToDate(start), value, count: sales > 0 ? 100 : 0 });
      }
    }
  return rows;
};

/** Seeds the benchmark's seller (see the header); answers how many invoices stay open. */
export const seedReportsPdfSeller = async (
  db: Db,
  size: { customers: number; invoices: number },
  log: (message: string) => void,
) => {
  const customers = size.customers;
  const invoiceCount = size.invoices;
  await seedReadModels(db);
  const ledger = await seedLedger(db, { customers, invoices: invoiceCount }, log);
  await storeMetrics(
    db,
    { sellerId: SELLER, tenantId: TENANT, asOf, generation: 'bench' },
    {
      rows: syntheticRows(ledger),
      customers: [],
      summary: {
        retentionMonths: 12,
        customersT36M: customers,
        activeCustomers: customers,
        invoicesT36M: invoiceCount,
        invoiceSalesT36M: [...ledger.revenue.values()].reduce((a, b) => a + b, 0),
        salesAllTime: [...ledger.revenue.values()].reduce((a, b) => a + b, 0),
        paidAllTime: [...ledger.paid.values()].reduce((a, b) => a + b, 0),
        openBalance: 0,
      },
    },
  );
  await ensureForecastIndexes(db);
  await storeSellerForecast(db, {
    sellerId: SELLER,
    kind: 'collections',
    issuedAt: asOf,
    asOf,
    method: 'bench',
    history: [],
    points: Array.from({ length: 13 }, (_, i) => ({
      startDate: new Date(asOf.getTime() + (i * 7 + 1) * DAY),
      mean: 50_000_000 - i * 1_000_000,
      lower80: 40_000_000 - i * 1_000_000,
      upper80: 60_000_000 - i * 1_000_000,
      lower95: 35_000_000,
      upper95: 65_000_000,
    })),
    scale: null,
    baseline: null,
    openInvoices: ledger.open,
    openBalance: 0,
    beyondHorizon: 0,
  });
  return { open: ledger.open };
};

type Timing = { ms: number; cpuMs: number };

/**
 * The pdfkit baseline in a fresh process of its own: `warmUpRenders` drawings of the PDF process's
 * warm-up report (as the PDF process makes at its start), then `renders` drawings of the data.
 */
const pdfkitBaseline = (data: ReportData, renders: number, warmUpRenders: number) =>
  new Promise<BaselineReply>((resolve, reject) => {
    const child = fork(join(__dirname, '..', 'reports-pdfkit-baseline.ts'), [], {
      execArgv: ['--import', 'tsx'],
      serialization: 'advanced',
    });
    child.once('message', (reply: BaselineReply | { error: string }) => {
      child.kill();
      if ('error' in reply) reject(new Error(reply.error));
      else resolve(reply);
    });
    const warmUp = warmUpJob();
    if (warmUp.kind !== 'periodic') throw new Error('The warm-up report is a weekly one');
    child.send({ data, renders, warmUp: warmUp.data, warmUpRenders } satisfies BaselineRequest);
  });

/** `renders` renders of the data by react-pdf in a fresh PDF process warmed up `warmUpRenders` times. */
const reactPdfSeries = async (data: ReportData, renders: number, warmUpRenders: number) => {
  await stopPdfProcess();
  configurePdfProcess({ warmUpRenders });
  const warmUp = await startPdfProcess();
  const series = [];
  for (let i = 0; i < renders; i += 1) series.push(await renderPdf({ kind: 'periodic', data }));
  configurePdfProcess({ warmUpRenders: PDF_WARM_UP_RENDERS });
  return { series, warmUp };
};

/**
 * A series of renders in a fresh process: the first (just after loading) and the warm ones (the
 * last half, once the JIT has compiled the hot paths, as in a long-lived PDF process).
 */
const phases = (timings: Timing[]) => {
  const warm = timings.slice(Math.ceil(timings.length / 2));
  return {
    first: timings[0] ?? { ms: 0, cpuMs: 0 },
    warm: { ms: median(warm.map((t) => t.ms)), cpuMs: median(warm.map((t) => t.cpuMs)) },
  };
};

export const suite: BenchSuite = {
  name: 'reports-pdf',
  description: 'the weekly PDF of a seller with N customers and M invoices beside pdfkit drawing the same',
  // Named apart from the other parts' (suite `reports` merges every part's parameters).
  params: {
    pdfCustomers: 10_000,
    pdfInvoices: 1_000_000,
    pdfRuns: 3,
    pdfRenders: 12,
    pdfWarmUps: PDF_WARM_UP_RENDERS,
  },
  run: async (params, { log }) => {
    const customers = params.pdfCustomers ?? 10_000;
    const invoiceCount = params.pdfInvoices ?? 1_000_000;
    const runs = Math.max(1, params.pdfRuns ?? 3);
    const renderCount = Math.max(2, params.pdfRenders ?? 12);
    const warmUps = Math.max(0, params.pdfWarmUps ?? PDF_WARM_UP_RENDERS);
    const config = benchConfig('reports-pdf');
    const store = await openReadStore(config);
    const { db } = store;
    try {
      log(`seeding ${customers} customers and ${invoiceCount} invoices with their payments`);
      const seeding = performance.now();
      const ledger = await seedReportsPdfSeller(db, { customers, invoices: invoiceCount }, log);
      log(`seeded in ${((performance.now() - seeding) / 1000).toFixed(0)} s; ${ledger.open} invoices open`);

      const query = { sellerId: SELLER, frequency: 'weekly' as const, asOf };
      await gatherReportData(db, query);
      const gatherTimes: number[] = [];
      const gatherCpu: number[] = [];
      const gathered = await measurePeakRss(async () => {
        const all: ReportData[] = [];
        for (let i = 0; i < runs; i += 1) {
          const t = performance.now();
          const cpu = process.cpuUsage();
          all.push(await gatherReportData(db, query));
          const used = process.cpuUsage(cpu);
          gatherTimes.push(performance.now() - t);
          gatherCpu.push((used.user + used.system) / 1000);
        }
        return all[0] as ReportData;
      });
      const data = gathered.result;
      log(
        `gathering: ${median(gatherTimes).toFixed(0)} ms (CPU ${median(gatherCpu).toFixed(0)}, median of ${runs}), ` +
          `${data.chase.overdueInvoices} overdue, ${data.habits.total} habit changes, peak RSS ${gathered.peakMiB.toFixed(0)} MiB`,
      );

      log('baseline: one plain scan of the seller invoices (what a render must never do)');
      const scanCpu = process.cpuUsage();
      let scanned = 0;
      for await (const doc of db
        .collection(ledgerCollections.invoices)
        .find({ sellerId: SELLER }, { projection: { _id: 0, customerId: 1, balance: 1, dueDate: 1 } }))
        scanned += doc ? 1 : 0;
      const scanUsed = process.cpuUsage(scanCpu);
      const scanCpuMs = (scanUsed.user + scanUsed.system) / 1000;
      log(`scan: ${scanned} invoices in ${(scanCpuMs / 1000).toFixed(1)} s of CPU`);

      log(`react-pdf: ${renderCount} renders in a fresh PDF process without warm-up`);
      const cold = await reactPdfSeries(data, renderCount, 0);
      const reactCold = phases(cold.series.map((r) => ({ ms: r.renderMs, cpuMs: r.renderCpuMs })));
      log(
        `react-pdf, no warm-up: first ${reactCold.first.ms.toFixed(0)} ms (CPU ${reactCold.first.cpuMs.toFixed(0)}), ` +
          `renders ${Math.ceil(renderCount / 2) + 1}-${renderCount} ${reactCold.warm.ms.toFixed(0)} ms (CPU ${reactCold.warm.cpuMs.toFixed(0)})`,
      );
      log(`react-pdf: ${renderCount} renders in a fresh PDF process warmed up ${warmUps} times at its start`);
      const warmed = await reactPdfSeries(data, renderCount, warmUps);
      const renders = warmed.series;
      const react = phases(renders.map((r) => ({ ms: r.renderMs, cpuMs: r.renderCpuMs })));
      const reactPdfRssKb = Math.max(...renders.map((r) => r.processMaxRssKb));
      log(
        `react-pdf, warmed up (start to ready ${warmed.warmUp.ms.toFixed(0)} ms, CPU ${warmed.warmUp.cpuMs.toFixed(0)}): ` +
          `first ${react.first.ms.toFixed(0)} ms (CPU ${react.first.cpuMs.toFixed(0)}), warm ` +
          `${react.warm.ms.toFixed(0)} ms (CPU ${react.warm.cpuMs.toFixed(0)}), ${renders[0]?.bytes.length ?? 0} bytes, ` +
          `PDF process peak ${(reactPdfRssKb / 1024).toFixed(0)} MiB`,
      );

      const endToEnd: number[] = [];
      for (let i = 0; i < runs; i += 1) {
        const t = performance.now();
        await renderSellerReport(db, { sellerId: SELLER, type: 'WEEKLY_REPORT', asOf });
        endToEnd.push(performance.now() - t);
      }
      log(`renderSellerReport end to end (warm PDF process): ${median(endToEnd).toFixed(0)} ms`);

      const coldBaseline = await pdfkitBaseline(data, renderCount, 0);
      const pdfkitCold = phases(coldBaseline.timings);
      const baseline = await pdfkitBaseline(data, renderCount, warmUps);
      const pdfkit = phases(baseline.timings);
      log(
        `pdfkit, no warm-up: first ${pdfkitCold.first.ms.toFixed(0)} ms (CPU ${pdfkitCold.first.cpuMs.toFixed(0)}), ` +
          `renders ${Math.ceil(renderCount / 2) + 1}-${renderCount} CPU ${pdfkitCold.warm.cpuMs.toFixed(0)}; warmed up ` +
          `(start to ready ${baseline.warmUp.ms.toFixed(0)} ms, CPU ${baseline.warmUp.cpuMs.toFixed(0)}): first ` +
          `${pdfkit.first.ms.toFixed(0)} ms (CPU ${pdfkit.first.cpuMs.toFixed(0)}), warm ${pdfkit.warm.ms.toFixed(0)} ms ` +
          `(CPU ${pdfkit.warm.cpuMs.toFixed(0)}), process peak ${(baseline.maxRssKb / 1024).toFixed(0)} MiB`,
      );

      const target = { kind: 'ratio', op: '<=', value: 3, source: 'issue 14' } as const;
      const later = `renders ${Math.ceil(renderCount / 2) + 1}-${renderCount}`;
      const figures: Figure[] = [
        {
          name: 'weekly PDF, first render of a fresh process without warm-up (CPU)',
          unit: 's',
          value: reactCold.first.cpuMs / 1000,
          baseline: {
            name: 'pdfkit drawing the same, first in a fresh process (CPU)',
            value: pdfkitCold.first.cpuMs / 1000,
          },
          higherIsBetter: false,
          target,
        },
        {
          name: `weekly PDF, fresh process without warm-up (CPU, median of ${later})`,
          unit: 's',
          value: reactCold.warm.cpuMs / 1000,
          baseline: { name: `pdfkit drawing the same, ${later} (CPU)`, value: pdfkitCold.warm.cpuMs / 1000 },
          higherIsBetter: false,
          target,
        },
        {
          name: `weekly PDF, first job of a process warmed up at its start (${warmUps} renders of a made-up report, CPU)`,
          unit: 's',
          value: react.first.cpuMs / 1000,
          baseline: {
            name: 'pdfkit drawing the same, first after the same warm-up (CPU)',
            value: pdfkit.first.cpuMs / 1000,
          },
          higherIsBetter: false,
          target,
        },
        {
          name: `weekly PDF, warm process (CPU, median of jobs ${Math.ceil(renderCount / 2) + 1}-${renderCount} after warm-up)`,
          unit: 's',
          value: react.warm.cpuMs / 1000,
          baseline: { name: 'pdfkit drawing the same, warm (CPU)', value: pdfkit.warm.cpuMs / 1000 },
          higherIsBetter: false,
          target,
        },
        {
          name: 'PDF process start to ready: loading and warm-up (CPU)',
          unit: 's',
          value: warmed.warmUp.cpuMs / 1000,
          baseline: {
            name: 'pdfkit process start to ready, the same warm-up (CPU)',
            value: baseline.warmUp.cpuMs / 1000,
          },
          higherIsBetter: false,
        },
        {
          name: 'weekly PDF, warm process (wall clock)',
          unit: 's',
          value: react.warm.ms / 1000,
          baseline: { name: 'pdfkit drawing the same, warm (wall clock)', value: pdfkit.warm.ms / 1000 },
          higherIsBetter: false,
          target,
        },
        {
          name: 'weekly report end to end: gather + render (renderSellerReport, median)',
          unit: 's',
          value: median(endToEnd) / 1000,
          baseline: {
            name: 'the same gathering + warm pdfkit drawing',
            value: (median(gatherTimes) + pdfkit.warm.ms) / 1000,
          },
          higherIsBetter: false,
          target,
        },
        {
          name: 'peak RSS of the PDF process',
          unit: 'MiB',
          value: reactPdfRssKb / 1024,
          baseline: { name: 'peak RSS of the pdfkit process', value: baseline.maxRssKb / 1024 },
          higherIsBetter: false,
        },
        {
          name: `gathering the report data (${customers} customers, ${invoiceCount} invoices, CPU, median)`,
          unit: 's',
          value: median(gatherCpu) / 1000,
          baseline: { name: "one plain scan of the seller's invoices (CPU)", value: scanCpuMs / 1000 },
          higherIsBetter: false,
        },
      ];
      return figures;
    } finally {
      await stopPdfProcess();
      await store.close();
      rmSync(config.DATA_DIR, { recursive: true, force: true });
    }
  },
};
