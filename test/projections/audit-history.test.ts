import type { EventMetadata } from '../../contracts/events/envelope';
import { eventIdFor } from '../../commands/event-id';
import type { EventStore } from '../../commands/event-store/event-store';
import { ERASED, tenantSubject, userSubject } from '../../commands/personal-data';
import { auditHistoryProjection } from '../../projections/audit-history/audit-history-projection';
import { queryAuditHistory } from '../../projections/audit-history/query-audit-history';
import { ProjectionProcessor } from '../../projections/framework/projection-processor';
import { rebuildProjection } from '../../projections/framework/rebuild-projection';
import { currentVersion } from '../../projections/framework/read-model-versions';
import { appendOne } from './audit-workload';
import { useProjectionTestSetup } from './projection-test-setup';
import { versionChecksums } from './read-model-checksum';

const { context, openStore } = useProjectionTestSetup(__filename);
const projection = auditHistoryProjection;

let store: EventStore;
let sequence = 0;

const metadata = (tenantId: number | null, actor: string): EventMetadata => ({
  tenantId,
  actor,
  ip: '198.51.100.4',
  method: 'POST',
  url: '/api/somewhere',
  body: { name: 'Acme', password: 'never-shown' },
  requestId: `req-${sequence}`,
  correlationId: `corr-${sequence}`,
  causationId: null,
  time: new Date(Date.UTC(2026, 2, 1, 10, 0, sequence)).toISOString(),
});

/** Appends one event the way the command side stores it (personal data encrypted). */
const append = (streamId: string, type: string, data: Record<string, unknown>, actor = 'user:10') => {
  sequence += 1;
  // Registration happens outside any tenant; everything else in the payload's tenant or tenant 1.
  const tenantId = actor === 'anonymous' ? null : typeof data.TenantId === 'number' ? data.TenantId : 1;
  return appendOne(store, context.keys, {
    id: eventIdFor(`audit-${sequence}`, 0),
    streamId,
    type,
    data,
    metadata: metadata(tenantId, actor),
  });
};

const catchUp = () =>
  new ProjectionProcessor({ db: context.db, store, decode: context.decode, projection }).catchUp();

beforeAll(async () => {
  store = openStore();
  await append('user-10', 'UserRegistered', { UserId: 10, Email: 'ann@example.com' }, 'anonymous');
  await append('tenant-1', 'TenantCreated', { TenantId: 1, Name: 'Acme' });
  await append('seller-11', 'SellerConnected', { SellerId: 11, TenantId: 1 });
  await append('tenant-2', 'TenantCreated', { TenantId: 2, Name: 'Globex' }, 'user:20');
  await append('seller-11', 'SellerDeleted', { SellerId: 11, TenantId: 1 });
  await append('seller-21', 'SellerConnected', { SellerId: 21, TenantId: 2 }, 'system:sync');
  await catchUp();
});

describe('the audit history', () => {
  it("lists one tenant's events newest first, with user, action, asset and request details", async () => {
    const { entries, stale } = await queryAuditHistory(context.db, { tenantId: 1 });

    expect(stale).toBe(false);
    expect(entries.map((e) => [e.type, e.action, e.asset, e.assetId, e.userId, e.userEmail])).toEqual([
      ['SellerDeleted', 'DELETE', 'seller', '11', 10, 'ann@example.com'],
      ['SellerConnected', 'CREATE', 'seller', '11', 10, 'ann@example.com'],
      ['TenantCreated', 'CREATE', 'tenant', '1', 10, 'ann@example.com'],
    ]);
    expect(entries[0]).toMatchObject({
      id: 'seller-11@1',
      time: '2026-03-01T10:00:05.000Z',
      request: {
        id: 'req-5',
        ip: '198.51.100.4',
        url: '/api/somewhere',
        method: 'POST',
        body: { name: 'Acme' },
      },
    });
  });

  it('never mixes tenants, and has no user for system actions', async () => {
    const { entries } = await queryAuditHistory(context.db, { tenantId: 2 });

    expect(entries.map((e) => [e.type, e.userId, e.userEmail, e.actor])).toEqual([
      ['SellerConnected', null, null, 'system:sync'],
      ['TenantCreated', 20, null, 'user:20'],
    ]);
  });

  it('returns at most `limit` rows, and never more than 1000', async () => {
    expect(
      (await queryAuditHistory(context.db, { tenantId: 1, limit: 2 })).entries.map((e) => e.type),
    ).toEqual(['SellerDeleted', 'SellerConnected']);
    for (let n = 0; n < 1005; n += 1)
      await append('seller-31', 'SellerActivated', { SellerId: 31, TenantId: 3 });
    await catchUp();

    expect((await queryAuditHistory(context.db, { tenantId: 3 })).entries).toHaveLength(1000);
    expect((await queryAuditHistory(context.db, { tenantId: 3, limit: 5000 })).entries).toHaveLength(1000);
  });

  it("shows the user's current address on every row", async () => {
    await append('user-10', 'UserEmailChanged', { UserId: 10, Email: 'ann.new@example.com' });
    await catchUp();

    const { entries } = await queryAuditHistory(context.db, { tenantId: 1, limit: 10 });
    const ann = entries.filter((e) => e.userId === 10);
    expect(ann.length).toBeGreaterThan(2);
    expect(new Set(ann.map((e) => e.userEmail))).toEqual(new Set(['ann.new@example.com']));
  });

  it("waits for the caller's own change when asked, and flags the answer stale when it cannot", async () => {
    const position = await append('seller-12', 'SellerConnected', { SellerId: 12, TenantId: 1 });

    const stale = await queryAuditHistory(context.db, {
      tenantId: 1,
      afterPosition: position,
      waitTimeoutMs: 50,
    });
    expect(stale.stale).toBe(true);
    expect(stale.entries.map((e) => e.assetId)).not.toContain('12');

    const live = new ProjectionProcessor({ db: context.db, store, decode: context.decode, projection });
    live.start();
    try {
      const fresh = await queryAuditHistory(context.db, {
        tenantId: 1,
        afterPosition: position,
        waitTimeoutMs: 30_000,
      });
      expect(fresh.stale).toBe(false);
      expect(fresh.entries[0]).toMatchObject({ type: 'SellerConnected', assetId: '12' });
    } finally {
      await live.stop();
    }
  });

  it('erases personal data as the key erasure does, so a rebuild afterwards finds the same rows', async () => {
    // User deletion: the user's key is erased; tenant purge: the tenant's key, and its rows go.
    await append('user-10', 'UserDeleted', { UserId: 10 });
    await context.keys.erase(userSubject(10));
    await context.keys.erase(tenantSubject(2));
    await append('tenant-2', 'TenantPurged', { TenantId: 2, Permanent: true }, 'user:99');
    await catchUp();

    const tenant1 = (await queryAuditHistory(context.db, { tenantId: 1, limit: 20 })).entries;
    expect(tenant1.every((e) => e.userEmail === null)).toBe(true);
    const userRows = tenant1.filter((e) => e.asset === 'user');
    expect(userRows.length).toBeGreaterThan(0);
    expect(userRows.every((e) => e.request.ip === ERASED && e.request.body === ERASED)).toBe(true);
    expect(tenant1.find((e) => e.asset === 'seller')?.request.ip).toBe('198.51.100.4');
    expect((await queryAuditHistory(context.db, { tenantId: 2 })).entries).toEqual([]);

    const version = await currentVersion(context.db, projection.name);
    const live = await versionChecksums(context.db, projection, version);
    const rebuilt = await rebuildProjection({ db: context.db, store, decode: context.decode }, projection);
    expect(await versionChecksums(context.db, projection, rebuilt.version)).toEqual(live);
  });

  it('refuses a query without a tenant', async () => {
    await expect(queryAuditHistory(context.db, { tenantId: 0 })).rejects.toThrow(/tenantId/);
  });
});
