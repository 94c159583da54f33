import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { EmbeddedDb } from '../../projections/read-store/embedded/embedded-db';

/**
 * Regression test for the quadratic filtered scan (commit 63f666e): an unsorted scan with a filter once
 * read batches of `filter AND rowid > ? ORDER BY rowid LIMIT ?`, and SQLite searched the index and
 * sorted every match again for each batch, so the work grew with the square of the matches (over 6
 * minutes for one seller's 1M invoices). Work is counted, not timed: every run of a statement that
 * evaluates the filter visits all matching index entries, so the number of such runs must not grow
 * with the collection (it was about log2(matches / 256) plus matches / 8192; it is 1).
 */
const runsOf = new Map<string, number>();
const originalPrepare = Database.prototype.prepare;

beforeAll(() => {
  // Counts each run of a statement whose SQL filters on sellerId (the store's own statements included).
  Database.prototype.prepare = function prepare(this: Database.Database, sql: string) {
    const statement = originalPrepare.call(this, sql);
    if (!sql.includes(`json_extract(doc, '$."sellerId"') = ?`)) return statement;
    for (const method of ['all', 'get', 'iterate'] as const) {
      const run = statement[method].bind(statement) as (...args: unknown[]) => unknown;
      (statement as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
        runsOf.set(sql, (runsOf.get(sql) ?? 0) + 1);
        return run(...args);
      };
    }
    return statement;
  } as typeof originalPrepare;
});
afterAll(() => {
  Database.prototype.prepare = originalPrepare;
});

/** Runs of filter-evaluating statements for one unsorted scan of a seller's invoices out of `count`. */
const filterRuns = async (count: number) => {
  const dir = mkdtempSync(join(tmpdir(), 'lw-scan-work-'));
  const db = new EmbeddedDb({ path: join(dir, 'read-models.sqlite') });
  try {
    const invoices = db.collection('invoices');
    await invoices.createIndexes([{ key: { sellerId: 1 }, name: 'seller' }] as never);
    for (let from = 0; from < count; from += 5000) {
      await invoices.insertMany(
        Array.from({ length: Math.min(5000, count - from) }, (_, i) => ({
          _id: `INV-${from + i}`,
          // Nine in ten invoices are seller 1's, the rest spread over others: the slow case was a big seller.
          sellerId: (from + i) % 10 === 0 ? 2 + ((from + i) % 7) : 1,
          total: from + i,
        })),
      );
    }
    runsOf.clear();
    let seen = 0;
    for await (const invoice of invoices.find({ sellerId: 1 })) if (invoice.sellerId === 1) seen += 1;
    expect(seen).toBe(count - Math.ceil(count / 10));
    return [...runsOf.values()].reduce((sum, runs) => sum + runs, 0);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
};

it('evaluates a filter as often for 45,000 matching rows as for 4,500: index work stays linear', async () => {
  const small = await filterRuns(5_000);
  const large = await filterRuns(50_000);

  expect(small).toBeGreaterThan(0); // the counter sees the store's statements at all
  expect(large).toBe(small);
  expect(large).toBeLessThanOrEqual(2);
}, 60_000);
