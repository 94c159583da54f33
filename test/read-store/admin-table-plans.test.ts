import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIRST_ID, seedAdminTables } from '../../bench/suites/admin-tables';
import type { EmbeddedDb } from '../../projections/read-store/embedded/embedded-db';
import { openReadStore, type ReadStore } from '../../projections/read-store/open-read-store';
import { listAdminSellers } from '../../projections/sellers/query-sellers';
import { queryTenantList } from '../../projections/tenants/query-tenants';
import { queryUserList } from '../../projections/users/query-users';

/**
 * The admin tables read a page, a count and a search without walking their collections (issue 13,
 * docs/adr/0051-admin-table-counts-and-search.md). Each query of the tenants, sellers and users
 * tables runs on the embedded store seeded as bench admin-tables seeds it (3,000 of each), and
 * SQLite's plan of every statement it makes must read a page from an index in the page's order (no
 * `USE TEMP B-TREE FOR ORDER BY`, no scan), take its counts from counters and its searches from a
 * trigram index. Removing a declared index, its `counted` or `search` option, or a query's use of
 * them fails this test.
 */
type Statement = { collection: string; sql: string; params: unknown[] };

const SIZE = 3000;
const now = new Date(Date.UTC(2026, 0, 1));

describe('admin table plans', () => {
  let dir: string;
  let store: ReadStore;
  let explain: (statement: Statement) => string[];
  const seen: Statement[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lw-admin-plans-'));
    const seeding = await openReadStore({ DATA_DIR: dir });
    await seedAdminTables(seeding.db, { tenants: SIZE, users: SIZE, audit: 1000 }, () => undefined);
    await seeding.close();
    // Opened again, as the gateway opens the store a projector filled: SQLite's statistics are
    // brought up to date at open (PRAGMA optimize), which the planner's choices below rely on.
    store = await openReadStore({ DATA_DIR: dir }, { observeStatements: (s) => seen.push(s) });
    const embedded = store.db as unknown as EmbeddedDb;
    explain = (statement) => embedded.explain(statement.sql, statement.params);
  }, 120_000);
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The plans of the statements one query made, by collection. */
  const plansOf = async (run: () => Promise<unknown>) => {
    seen.length = 0;
    await run();
    return seen.map((statement) => ({
      collection: statement.collection,
      counter: /_read_store_counts/.test(statement.sql),
      search: /#search\./.test(statement.sql),
      plan: explain(statement).join(' | '),
    }));
  };

  /** A page read in its order from an index: SQLite stops after the page's rows. */
  const expectInOrder = (plan: string | undefined) => {
    expect(plan).toMatch(/USING (COVERING )?INDEX/);
    expect(plan).not.toMatch(/USE TEMP B-TREE FOR ORDER BY/);
  };

  /** Every statement searches an index (a few sorted matches or rows by id may be sorted after). */
  const expectIndexed = (plans: { collection: string; plan: string }[]) => {
    const unindexed = plans.filter(
      ({ plan }) =>
        /SCAN "?c:[a-z_0-9]+"?( |$)/.test(plan) ||
        !/USING (COVERING )?INDEX|PRIMARY KEY|VIRTUAL TABLE INDEX \d+:M/.test(plan),
    );
    expect(unindexed).toEqual([]);
  };

  it('reads the tenants page from the status index in order, and its total from counters', async () => {
    const plans = await plansOf(() => queryTenantList(store.db, { page: 2 }));
    const tenants = plans.filter((p) => p.collection.startsWith('tenants_'));
    expect(tenants.filter((p) => p.counter)).toHaveLength(1);
    const pages = tenants.filter((p) => !p.counter && !/\(rowid=\?\)|\(id=\?\)/.test(p.plan));
    expect(pages.length).toBeGreaterThan(0);
    for (const page of pages) {
      expect(page.plan).toMatch(/USING INDEX c:tenants_v\d+\.status_id/);
      expectInOrder(page.plan);
    }
    expectIndexed(plans);
  });

  it('finds tenants by name through the search index', async () => {
    const plans = await plansOf(() => queryTenantList(store.db, { search: `co ${FIRST_ID + 150}` }));
    const tenants = plans.filter((p) => p.collection.startsWith('tenants_'));
    expect(tenants.every((p) => p.search && /VIRTUAL TABLE INDEX \d+:M/.test(p.plan))).toBe(true);
    expectIndexed(plans);
  });

  it('reads the sellers page by company name in order, and both counts from counters', async () => {
    const plans = await plansOf(() =>
      listAdminSellers(store.db, {
        now,
        active: true,
        providers: ['DEMO'],
        sort: { field: 'CompanyName', direction: 'asc' },
        offset: 20,
        limit: 20,
      }),
    );
    const sellers = plans.filter((p) => p.collection.startsWith('sellers_'));
    expect(sellers.filter((p) => p.counter)).toHaveLength(2);
    const page = sellers.find((p) => !p.counter)?.plan;
    expect(page).toMatch(/provider_deleted_active_name/);
    expectInOrder(page);
    expectIndexed(plans);
  });

  it('finds sellers by company name and by their tenant name through the search indexes', async () => {
    const plans = await plansOf(() =>
      listAdminSellers(store.db, { now, search: `books ${FIRST_ID + 150}`, limit: 20 }),
    );
    // The tenant names, then the sellers' company names and URLs (with those tenants' sellers);
    // the page is short, so it is the whole match and no count reads it again.
    expect(plans.filter((p) => p.search).map((p) => p.collection.replace(/_v\d+$/, ''))).toEqual([
      'seller_tenants',
      'sellers',
    ]);
    expectIndexed(plans);
  });

  it('reads the users page by name in order, its total from counters, and searches by index', async () => {
    const page = await plansOf(() =>
      queryUserList(store.db, { page: 2, pageSize: 20, sort: { field: 'Name', direction: 'asc' } }),
    );
    expect(page.filter((p) => p.collection.startsWith('users_') && p.counter)).toHaveLength(1);
    expectInOrder(page.find((p) => p.collection.startsWith('users_') && !p.counter)?.plan);
    expectIndexed(page);
    const search = await plansOf(() => queryUserList(store.db, { search: `user ${FIRST_ID + 150}` }));
    expect(search.filter((p) => p.collection.startsWith('users_')).every((p) => p.search)).toBe(true);
    expectIndexed(search);
  });
});
