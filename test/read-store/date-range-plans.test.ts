import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedDb } from '../../projections/read-store/embedded/embedded-db';
import { jobsProjection } from '../../projections/jobs/jobs-projection';

/**
 * Date ranges go to SQL as index ranges (docs/adr/0028-embedded-read-store.md, filter-sql.ts): the jobs
 * read model's hot date queries (a tenant's jobs in a period, a queue's oldest waiting jobs, a task's
 * latest runs) must search their index on the date, not scan, and be decided in SQL (exact) so pages
 * and counts run there. Fails if a Date comparison stops being pushed down, or the index declarations
 * stop covering these queries.
 */
const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000);

let dir: string;
let db: EmbeddedDb;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lw-date-plans-'));
  db = new EmbeddedDb({ path: join(dir, 'read-models.sqlite') });
  const jobs = db.collection('jobs');
  await jobs.createIndexes([...(jobsProjection.indexes?.jobs ?? [])] as never);
  await jobs.insertMany(
    Array.from({ length: 3000 }, (_, n) => ({
      _id: `job-${n}`,
      tenantId: 1 + (n % 30),
      sellerIds: [100 + (n % 60)],
      kind: n % 2 === 0 ? 'metrics' : 'forecast',
      status: n % 5 === 0 ? 'queued' : 'done',
      type: `task-${n % 4}`,
      createdAt: day(n % 365),
    })),
  );
});

afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const hotQueries: {
  name: string;
  filter: Record<string, unknown>;
  sort: Record<string, 1 | -1>;
  index: string;
}[] = [
  {
    name: "a tenant's jobs created in March, newest first",
    filter: { tenantId: 7, createdAt: { $gte: day(59), $lt: day(90) } },
    sort: { createdAt: -1 },
    index: 'tenant_created',
  },
  {
    name: "a queue's waiting jobs older than a cut-off, oldest first",
    filter: { kind: 'metrics', status: 'queued', createdAt: { $lt: day(100) } },
    sort: { createdAt: 1 },
    index: 'kind_status_created',
  },
  {
    name: "a task's runs since a date",
    filter: { type: 'task-2', createdAt: { $gt: day(300) } },
    sort: { createdAt: -1 },
    index: 'type_created',
  },
];

describe('date-range queries on the embedded read store', () => {
  it.each(hotQueries)(
    '$name: searches its index on the date range and is exact',
    ({ filter, sort, index }) => {
      const { plan, exact } = db.collection('jobs').explainSql(filter, sort);
      const text = plan.join(' | ');

      expect(exact).toBe(true);
      // The index's equality columns, then a range on its date column (createdAt, last in each index).
      expect(text).toMatch(
        new RegExp(`^SEARCH c:jobs USING INDEX c:jobs\\.${index} \\((<expr>=\\? AND )*<expr>[<>]=?\\?`),
      );
      // The index also gives the order: no sort of the matches.
      expect(text).not.toMatch(/TEMP B-TREE/);
      expect(text).not.toMatch(/^SCAN |\| SCAN /);
    },
  );

  it.each(hotQueries)(
    '$name: returns what a JavaScript check of every job returns',
    async ({ filter, sort }) => {
      const all = await db.collection('jobs').find({}).toArray();
      const range = Object.values(filter).find((value) => typeof value === 'object') as Record<string, Date>;
      const inRange = (at: Date) =>
        (range.$gte === undefined || at >= range.$gte) &&
        (range.$gt === undefined || at > range.$gt) &&
        (range.$lt === undefined || at < range.$lt);
      const expected = all.filter(
        (job) =>
          Object.entries(filter).every(([key, value]) => typeof value === 'object' || job[key] === value) &&
          inRange(job.createdAt as Date),
      );

      const found = await db.collection('jobs').find(filter).sort(sort).toArray();
      expect(found.length).toBeGreaterThan(0);
      expect(found.map((job) => job._id).sort()).toEqual(expected.map((job) => job._id).sort());
      expect(await db.collection('jobs').countDocuments(filter)).toBe(expected.length);
    },
  );
});
