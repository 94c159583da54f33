/**
 * The embedded read store at scale (issue 13, docs/adr/0028-embedded-read-store.md): keyed lookups and
 * a 20-row filtered, sorted page on a small and a large ledger (the large figure against the small one,
 * same run), and a scan of every invoice through the store against the same rows read straight from
 * SQLite with a plain SELECT and JSON.parse (the engine's floor for handing documents to JavaScript).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import type { Db } from 'mongodb';
import { openReadStore, type ReadStore } from '../../projections/read-store/open-read-store';
import { ensureLedgerIndexes, ledgerCollections } from '../../workflows/ledger/ledger-collections';
import { percentile, type BenchSuite, type Figure } from '../harness';
import { measurePeakRss } from '../sync-bench-seller';

const SELLERS = 20;
const INSERT_BATCH = 2000;

const day = (offset: number) =>
  new Date(Date.UTC(2020, 0, 1) + offset * 86_400_000).toISOString().slice(0, 10);

/** Invoice rows shaped as the ledger stores them (workflows/ledger/write-ledger-page.ts). */
const invoice = (n: number) => {
  const sellerId = 1000 + (n % SELLERS);
  const issued = Math.floor(n / SELLERS) % 2000;
  return {
    _id: `${sellerId}:INV-${n}`,
    sellerId,
    tenantId: sellerId,
    providerId: `INV-${n}`,
    customerId: `C-${n % 5000}`,
    transactionDate: day(issued),
    dueDate: day(issued + 30),
    total: (n % 997) * 10.5,
    balance: n % 3 === 0 ? 0 : (n % 997) * 5.25,
    currency: 'USD',
    status: n % 3 === 0 ? 'PAID' : 'OPEN',
    epoch: 1,
    hash: `h${n}`,
    changedAt: new Date(Date.UTC(2026, 0, 1)),
  };
};

const fill = async (db: Db, count: number, log: (m: string) => void) => {
  await ensureLedgerIndexes(db);
  const invoices = db.collection(ledgerCollections.invoices);
  const started = performance.now();
  for (let from = 0; from < count; from += INSERT_BATCH) {
    const docs = Array.from({ length: Math.min(INSERT_BATCH, count - from) }, (_, i) => invoice(from + i));
    await invoices.insertMany(docs as never[], { ordered: false });
    if ((from / INSERT_BATCH) % 100 === 99) log(`  ${from + INSERT_BATCH} invoices`);
  }
  return (performance.now() - started) / 1000;
};

/** Median microseconds per call over `times` calls of `work(i)`. */
const medianMicros = async (times: number, work: (i: number) => Promise<unknown>) => {
  const sample: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const started = performance.now();
    await work(i);
    sample.push((performance.now() - started) * 1000);
  }
  return percentile(sample, 50);
};

type Store = { store: ReadStore; dir: string; db: Db; count: number; fillSeconds: number };

const openFilled = async (count: number, log: (m: string) => void): Promise<Store> => {
  const dir = mkdtempSync(join(tmpdir(), 'ledgerwise-bench-readstore-'));
  const store = await openReadStore({ DATA_DIR: dir });
  log(`filling ${count} invoices`);
  const fillSeconds = await fill(store.db, count, log);
  log(`  ${count} invoices in ${fillSeconds.toFixed(1)} s (${Math.round(count / fillSeconds)} /s)`);
  return { store, dir, db: store.db, count, fillSeconds };
};

const keyedLookup = (s: Store, lookups: number) =>
  medianMicros(lookups, (i) => {
    const n = (i * 7919) % s.count;
    return s.db.collection(ledgerCollections.invoices).findOne({ _id: invoice(n)._id } as never);
  });

/** Page 2 of a seller's invoices due before a date, by due date: the receivables table's query. */
const tablePage = (s: Store, pages: number) =>
  medianMicros(pages, async (i) => {
    const page = await s.db
      .collection(ledgerCollections.invoices)
      .find({ sellerId: 1000 + (i % SELLERS), dueDate: { $lt: day(1500) } })
      .sort({ dueDate: 1 })
      .skip(20)
      .limit(20)
      .toArray();
    if (page.length !== 20) throw new Error(`a page of ${page.length} rows`);
  });

export const suite: BenchSuite = {
  name: 'readstore',
  description:
    'embedded read store: keyed lookups and table pages at two sizes, a full scan against raw SQLite',
  params: { small: 1000, large: 1_000_000, lookups: 2000, pages: 300 },
  run: async (params, { log }) => {
    const { small: smallCount = 1000, large: largeCount = 1_000_000, lookups = 2000, pages = 300 } = params;
    const small = await openFilled(smallCount, log);
    const smallLookup = await keyedLookup(small, lookups);
    const smallPage = await tablePage(small, pages);
    log(`small: lookup ${smallLookup.toFixed(0)} µs, page ${smallPage.toFixed(0)} µs`);
    await small.store.close();
    rmSync(small.dir, { recursive: true, force: true });

    const large = await openFilled(largeCount, log);
    try {
      const largeLookup = await keyedLookup(large, lookups);
      const largePage = await tablePage(large, pages);
      log(`large: lookup ${largeLookup.toFixed(0)} µs, page ${largePage.toFixed(0)} µs`);

      log('scan through the store');
      const scan = await measurePeakRss(async () => {
        const started = performance.now();
        let rows = 0;
        for await (const doc of large.db.collection(ledgerCollections.invoices).find({})) {
          if (doc.sellerId !== undefined) rows += 1;
        }
        return { rows, seconds: (performance.now() - started) / 1000 };
      });
      log(
        `  ${scan.result.rows} rows in ${scan.result.seconds.toFixed(1)} s, peak RSS ${scan.peakMiB.toFixed(0)} MiB`,
      );

      log('scan straight from SQLite (SELECT and JSON.parse)');
      const raw = await measurePeakRss(() => {
        const sqlite = new Database(join(large.dir, 'read-models.sqlite'), { readonly: true });
        const started = performance.now();
        let rows = 0;
        const select = sqlite.prepare(`SELECT doc FROM "c:${ledgerCollections.invoices}"`).pluck();
        for (const json of select.iterate() as Iterable<string>) {
          if ((JSON.parse(json) as { sellerId?: number }).sellerId !== undefined) rows += 1;
        }
        sqlite.close();
        return Promise.resolve({ rows, seconds: (performance.now() - started) / 1000 });
      });
      log(
        `  ${raw.result.rows} rows in ${raw.result.seconds.toFixed(1)} s, peak RSS ${raw.peakMiB.toFixed(0)} MiB`,
      );

      const figures: Figure[] = [
        {
          name: `find by _id, ${largeCount} documents (median)`,
          unit: 'µs',
          value: largeLookup,
          baseline: { name: `the same at ${smallCount} documents`, value: smallLookup },
          higherIsBetter: false,
          target: { kind: 'ratio', op: '<=', value: 2, source: 'issue 13' },
        },
        {
          name: `20-row filtered, sorted page, ${largeCount} documents (median)`,
          unit: 'µs',
          value: largePage,
          baseline: { name: `the same at ${smallCount} documents`, value: smallPage },
          higherIsBetter: false,
          target: { kind: 'ratio', op: '<=', value: 2, source: 'issue 13' },
        },
        {
          name: `scan of ${largeCount} invoices through the store`,
          unit: 's',
          value: scan.result.seconds,
          baseline: { name: 'the same rows by SQL SELECT and JSON.parse', value: raw.result.seconds },
          higherIsBetter: false,
          target: { kind: 'ratio', op: '<=', value: 5, source: 'issue 13' },
        },
        {
          name: 'peak RSS of the bench process during the store scan',
          unit: 'MiB',
          value: scan.peakMiB,
          baseline: { name: 'during the raw SQL scan', value: raw.peakMiB },
          higherIsBetter: false,
        },
        {
          name: `insert of ${largeCount} invoices with the ledger's 3 indexes`,
          unit: 'invoices/s',
          value: largeCount / large.fillSeconds,
          baseline: { name: `the same at ${smallCount}`, value: smallCount / small.fillSeconds },
          higherIsBetter: true,
        },
      ];
      return figures;
    } finally {
      await large.store.close();
      rmSync(large.dir, { recursive: true, force: true });
    }
  },
};
