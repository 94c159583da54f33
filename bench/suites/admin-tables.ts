/**
 * The admin tables at platform scale (issue 13): the query functions behind the tenants, sellers,
 * users (scope=all) and audit history tables, each asked for a 20-row filtered, sorted page and (where
 * the table has one) a search, on read models holding 100,000 tenants and sellers, 300,000 users and
 * 1,000,000 audit rows, beside the same queries on 1,000 of each (the rule: at most 2x).
 * The read models are seeded through the read store's bulk insert, as the projectors would have left
 * them, on the embedded store (docs/adr/0028-embedded-read-store.md); no HTTP, no event store.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Db } from 'mongodb';
import {
  auditHistoryProjection,
  type AuditRow,
} from '../../projections/audit-history/audit-history-projection';
import { queryAuditHistory } from '../../projections/audit-history/query-audit-history';
import {
  currentCollection,
  currentVersion,
  ensureIndexes,
} from '../../projections/framework/read-model-versions';
import { openReadStore, type ReadStore } from '../../projections/read-store/open-read-store';
import { projections } from '../../projections/registry';
import { listAdminSellers } from '../../projections/sellers/query-sellers';
import {
  sellersProjection,
  type SellerDoc,
  type SellerTenantDoc,
} from '../../projections/sellers/sellers-projection';
import { queryTenantList } from '../../projections/tenants/query-tenants';
import { tenantsProjection, type TenantDocument } from '../../projections/tenants/tenants-projection';
import { queryUserList } from '../../projections/users/query-users';
import {
  usersProjection,
  type MembershipDocument,
  type UserDocument,
} from '../../projections/users/users-projection';
import { percentile, type BenchSuite, type Figure } from '../harness';

const BATCH = 5000;
export const FIRST_ID = 1_000_000;
/** Each tenant with history has 1,000 audit rows, at both sizes: the page reads the same shape. */
const AUDIT_ROWS_PER_TENANT = 1000;
const auditTenants = (rows: number) => Math.max(1, Math.ceil(rows / AUDIT_ROWS_PER_TENANT));
const createdAt = (n: number) => new Date(Date.UTC(2024, 0, 1) + (n % 700) * 86_400_000);

export type Sizes = { tenants: number; users: number; audit: number };

const tenantDoc = (id: number): TenantDocument => ({
  _id: id,
  position: 0,
  Name: `Seeded Co ${id}`,
  sortName: `seeded co ${id}`,
  FriendlyName: null,
  Classification: id % 5 === 0 ? 'FIRM' : 'BUSINESS',
  UsageType: id % 3 === 0 ? 'TEST' : 'NORMAL',
  BusinessModel: null,
  Industry: null,
  PartnerId: null,
  Referrer: null,
  ReferrerIdentifier: null,
  LandingPage: null,
  PlanIdentifier: null,
  Reporting: {} as TenantDocument['Reporting'],
  LogoURL: null,
  PendingLogoURL: null,
  PendingLogoContentType: null,
  LogoSubmittedAt: null,
  LastLogoDecision: null,
  LogoReviewedAt: null,
  CreatedBy: null,
  createdAt: createdAt(id),
  status: 'active',
  deletedAt: null,
  disableReason: null,
  purged: false,
  purgedAt: null,
});

const userDoc = (id: number): UserDocument => ({
  _id: id,
  position: 0,
  Email: `seeded-${id}@example.test`,
  GivenName: 'Seeded',
  FamilyName: `User ${id}`,
  Name: `Seeded User ${id}`,
  sortName: `seeded user ${id}`,
  JobTitle: null,
  PrimaryClassification: 'MEMBER',
  signupProvider: null,
  hasPassword: true,
  Logins: id % 50,
  LastLogin: null,
  LastLoginMethod: null,
  createdAt: createdAt(id),
  DefaultPartnerTenantId: null,
  EmailVerified: true,
  PasswordResetRequired: false,
  deleted: id % 100 === 0,
  deletedAt: null,
});

const membershipDoc = (userId: number, tenantId: number): MembershipDocument => ({
  _id: `${userId}:${tenantId}`,
  position: 0,
  userId,
  tenantId,
  Status: 'ACTIVE',
  Role: 'USER',
  Classification: 'MEMBER',
  JobTitle: null,
  SendWeekly: false,
  SendMonthly: false,
  InviteId: null,
  joinedAt: createdAt(userId),
  userDeleted: false,
});

/** One seller per tenant, as the sellers read model holds them (projections/sellers). */
const sellerDoc = (id: number): SellerDoc => ({
  _id: id,
  position: 0,
  sellerId: id,
  tenantId: id,
  provider: id % 4 === 0 ? 'QBO' : 'DEMO',
  companyName: `Seeded Books ${id}`,
  companyNameSort: `seeded books ${id}`,
  url: null,
  authMethod: 'oauth2',
  authTokenOwner: null,
  authTokenStatus: 'ACTIVE',
  authTokenRefreshedAt: null,
  companyFilePath: null,
  active: id % 7 !== 0,
  disconnected: false,
  disconnectedAt: null,
  deleted: false,
  deletedAt: null,
  createdAt: createdAt(id),
  collectionDate: null,
  metricsDate: null,
  runningSyncId: null,
  runningSyncMode: null,
  runningSyncRequestedAt: null,
  runningSyncStartedAt: null,
  lastSyncId: null,
  lastSyncOutcome: null,
  lastSyncFinishedAt: null,
  lastSyncFailure: null,
});

const sellerTenantDoc = (id: number): SellerTenantDoc => ({
  _id: id,
  position: 0,
  name: `Seeded Co ${id}`,
  partnerId: null,
});

/** Audit rows spread over the first tenants, 1,000 each, in event order. */
const auditRow = (n: number, rows: number): AuditRow => {
  const tenantId = FIRST_ID + (n % auditTenants(rows));
  return {
    _id: `e-${n}`,
    streamId: `tenant-${tenantId}`,
    revision: n,
    position: n + 1,
    eventId: `e-${n}`,
    type: 'TenantRenamed',
    tenantId,
    subject: `tenant:${tenantId}`,
    actor: `user:${FIRST_ID + (n % 1000)}`,
    userId: FIRST_ID + (n % 1000),
    action: 'Update' as AuditRow['action'],
    asset: 'tenant',
    assetId: String(tenantId),
    time: new Date(Date.UTC(2025, 0, 1) + n * 1000),
    request: { id: `r-${n}`, ip: '127.0.0.1', url: '/api/tenants', method: 'PUT', body: null },
  };
};

const inBatches = async (count: number, write: (from: number, size: number) => Promise<unknown>) => {
  for (let from = 0; from < count; from += BATCH) await write(from, Math.min(BATCH, count - from));
};

/** Seeds the admin tables' read models (also test/read-store/admin-table-plans.test.ts, at a small size). */
export const seedAdminTables = async (db: Db, sizes: Sizes, log: (m: string) => void) => {
  for (const projection of projections) {
    await ensureIndexes(db, projection, await currentVersion(db, projection.name));
  }
  const timed = async (what: string, count: number, work: () => Promise<unknown>) => {
    const started = performance.now();
    await work();
    const seconds = (performance.now() - started) / 1000;
    log(`  ${count} ${what} in ${seconds.toFixed(1)} s (${Math.round(count / seconds)} /s)`);
  };
  const tenants = await currentCollection<'tenants', TenantDocument>(db, tenantsProjection, 'tenants');
  await timed('tenants', sizes.tenants, () =>
    inBatches(sizes.tenants, (from, size) =>
      tenants.insertMany(Array.from({ length: size }, (_, i) => tenantDoc(FIRST_ID + from + i))),
    ),
  );
  const sellers = await currentCollection<'sellers' | 'tenants', SellerDoc>(db, sellersProjection, 'sellers');
  const sellerTenants = await currentCollection<'sellers' | 'tenants', SellerTenantDoc>(
    db,
    sellersProjection,
    'tenants',
  );
  await timed('sellers (and their tenants)', sizes.tenants, () =>
    inBatches(sizes.tenants, async (from, size) => {
      const ids = Array.from({ length: size }, (_, i) => FIRST_ID + from + i);
      await sellers.insertMany(ids.map(sellerDoc));
      await sellerTenants.insertMany(ids.map(sellerTenantDoc));
    }),
  );
  const users = await currentCollection<'users' | 'memberships', UserDocument>(db, usersProjection, 'users');
  const memberships = await currentCollection<'users' | 'memberships', MembershipDocument>(
    db,
    usersProjection,
    'memberships',
  );
  await timed('users (and their memberships)', sizes.users, () =>
    inBatches(sizes.users, async (from, size) => {
      const ids = Array.from({ length: size }, (_, i) => FIRST_ID + from + i);
      await users.insertMany(ids.map(userDoc));
      await memberships.insertMany(
        ids.map((id, i) => membershipDoc(id, FIRST_ID + ((from + i) % sizes.tenants))),
      );
    }),
  );
  const audit = await currentCollection<'rows' | 'emails', AuditRow>(db, auditHistoryProjection, 'rows');
  await timed('audit rows', sizes.audit, () =>
    inBatches(sizes.audit, (from, size) =>
      audit.insertMany(Array.from({ length: size }, (_, i) => auditRow(from + i, sizes.audit))),
    ),
  );
};

/** Median milliseconds over `times` calls; each call must return `rows` rows (a real page, not empty). */
const medianMs = async (
  times: number,
  work: (i: number) => Promise<number>,
  rows: (n: number) => boolean,
) => {
  const sample: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const started = performance.now();
    const got = await work(i);
    sample.push(performance.now() - started);
    if (!rows(got)) throw new Error(`a query returned ${got} rows`);
  }
  return percentile(sample, 50);
};

type Measures = Record<string, number>;

/** Every table's page and search; ids picked within the first 1,000 so both sizes ask the same. */
const measure = async (db: Db, sizes: Sizes, times: number, log: (m: string) => void): Promise<Measures> => {
  const now = new Date(Date.UTC(2026, 0, 1));
  const twenty = (n: number) => n === 20;
  const some = (n: number) => n > 0;
  const out: Measures = {};
  out['tenants: 20-row page of listed tenants, newest first (page 2)'] = await medianMs(
    times,
    async () => (await queryTenantList(db, { page: 2 })).rows.length,
    twenty,
  );
  out['tenants: search by name'] = await medianMs(
    times,
    async (i) => (await queryTenantList(db, { search: `co ${FIRST_ID + 101 + (i % 98)}` })).rows.length,
    some,
  );
  out['sellers: 20-row page of active DEMO sellers by company name (rows 21-40)'] = await medianMs(
    times,
    async () =>
      (
        await listAdminSellers(db, {
          now,
          active: true,
          providers: ['DEMO'],
          sort: { field: 'CompanyName', direction: 'asc' },
          offset: 20,
          limit: 20,
        })
      ).rows.length,
    twenty,
  );
  out['sellers: search by company name, 20 rows'] = await medianMs(
    times,
    async (i) =>
      (await listAdminSellers(db, { now, search: `books ${FIRST_ID + 101 + (i % 98)}`, limit: 20 })).rows
        .length,
    some,
  );
  out['users (scope=all): 20-row page by name (page 2)'] = await medianMs(
    times,
    async () =>
      (await queryUserList(db, { page: 2, pageSize: 20, sort: { field: 'Name', direction: 'asc' } })).rows
        .length,
    twenty,
  );
  out['users (scope=all): search by name or email, 20 rows'] = await medianMs(
    times,
    async (i) =>
      (await queryUserList(db, { search: `user ${FIRST_ID + 101 + (i % 98)}`, pageSize: 20 })).rows.length,
    some,
  );
  out["audit history: a tenant's newest 20 rows"] = await medianMs(
    times,
    async (i) =>
      (
        await queryAuditHistory(db, {
          tenantId: FIRST_ID + (i % Math.min(100, auditTenants(sizes.audit))),
          limit: 20,
        })
      ).entries.length,
    twenty,
  );
  for (const [name, value] of Object.entries(out)) log(`  ${name}: ${value.toFixed(2)} ms`);
  return out;
};

const measured = async (sizes: Sizes, times: number, log: (m: string) => void): Promise<Measures> => {
  const dir = mkdtempSync(join(tmpdir(), 'ledgerwise-bench-admin-tables-'));
  let store: ReadStore | undefined;
  try {
    store = await openReadStore({ DATA_DIR: dir });
    log(`seeding ${sizes.tenants} tenants and sellers, ${sizes.users} users, ${sizes.audit} audit rows`);
    await seedAdminTables(store.db, sizes, log);
    return await measure(store.db, sizes, times, log);
  } finally {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  }
};

export const suite: BenchSuite = {
  name: 'admin-tables',
  description:
    "the admin tables' queries (tenants, sellers, users scope=all, audit history): a 20-row filtered, sorted page and a search at platform scale beside 1k",
  params: { tenants: 100_000, users: 300_000, audit: 1_000_000, small: 1000, times: 30 },
  run: async (params, { log }) => {
    const { tenants = 100_000, users = 300_000, audit = 1_000_000, small = 1000, times = 30 } = params;
    log(`small: ${small} of each`);
    const baseline = await measured({ tenants: small, users: small, audit: small }, times, log);
    log('large');
    const large = await measured({ tenants, users, audit }, times, log);
    // One process seeds and queries both sizes: its peak is the large store's seeding and queries.
    log(`peak RSS of the bench process: ${Math.round(process.resourceUsage().maxRSS / 1024)} MiB`);
    return Object.entries(large).map(([name, value]): Figure => ({
      name: `${name} (${tenants} tenants, ${users} users, ${audit} audit rows; median)`,
      unit: 'ms',
      value,
      baseline: { name: `the same at ${small} of each`, value: baseline[name] ?? Number.NaN },
      higherIsBetter: false,
      target: { kind: 'ratio', op: '<=', value: 2, source: 'issue 13' },
    }));
  },
};
