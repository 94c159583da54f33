import Database from 'better-sqlite3';
import { useGatewayWorld } from '../gateway/gateway-world';
import { buildCast, rightfulFor, routeExamples } from '../gateway/route-cast';
import type { Cast } from '../gateway/route-examples/types';
import { testReadStore } from '../harness/isolation';

/**
 * Every filtered query the API makes is served by an index (issue 13, docs/adr/0028-embedded-read-store.md).
 * The happy path of every route example runs against a gateway whose embedded read store reports each
 * SELECT; SQLite's plan for each must search an index, not scan the collection. A query that filters
 * on a field no index covers, or an index dropped from a projection's declaration, fails this test.
 */
type Seen = { collection: string; sql: string; params: unknown[]; where: string };
const seen: Seen[] = [];
const world = useGatewayWorld(__filename, {}, { observeReadStore: (statement) => seen.push(statement) });
const onEmbedded = testReadStore() === 'embedded';
if (!onEmbedded) {
  console.warn(
    'SKIPPED: hot-query plans: the suite runs on the MongoDB wire server, whose plans are its own',
  );
}

/** Filtered queries that scan on purpose, each with its reason. */
const knownScans: { collection: RegExp; where: RegExp; reason: string }[] = [
  {
    collection: /^projection_checkpoints$/,
    where: /name/,
    reason: 'bookkeeping: one row per read model and version, a few dozen at most',
  },
  {
    collection: /./,
    where: /instr\(/,
    reason:
      'a search box: no index serves "contains"; SQLite narrows the rows without decoding them (filter-sql.ts)',
  },
];

let cast: Cast;
beforeAll(async () => {
  ({ ...cast } = await buildCast(world, { a: 'Plans A', b: 'Plans B', f: 'Plans F' }));
}, 120_000);

(onEmbedded ? it : it.skip)(
  'serves every filtered query of every route from an index',
  async () => {
    for (const example of routeExamples()) {
      const request = await example.happy(cast);
      await (request.as ?? rightfulFor(example.access, cast).browser).request({
        method: example.method,
        url: request.url,
        body: request.body,
        headers: request.headers,
      });
    }
    await world.settle();
    const sqlite = new Database(world.config.READ_STORE_PATH ?? '', { readonly: true });
    const scans = new Map<string, string>();
    for (const statement of seen) {
      if (statement.where === '1') continue; // a listing: nothing to filter
      if (knownScans.some((k) => k.collection.test(statement.collection) && k.where.test(statement.where)))
        continue;
      const plan = (
        sqlite.prepare(`EXPLAIN QUERY PLAN ${statement.sql}`).all(...statement.params) as { detail: string }[]
      ).map((row) => row.detail);
      // An index: a B-tree, a count read from its counters (the primary key of _read_store_counts), or
      // a search index's trigram lookup (an FTS5 MATCH, `VIRTUAL TABLE INDEX 0:M...`).
      const indexed = (line: string) =>
        /USING (COVERING )?INDEX|USING PRIMARY KEY|VIRTUAL TABLE INDEX \d+:M/.test(line);
      const scanned = plan.some((line) => /^SCAN /.test(line) && !indexed(line));
      const byRowidOnly = plan.every((line) => !indexed(line));
      if (scanned || byRowidOnly) scans.set(`${statement.collection}: ${statement.where}`, plan.join(' | '));
    }
    sqlite.close();
    expect(Object.fromEntries(scans)).toEqual({});
    expect(seen.length).toBeGreaterThan(50);
  },
  600_000,
);
