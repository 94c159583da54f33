import type { RecordedEvent } from '../../contracts/events/envelope';
import { auditHistoryProjection } from './audit-history-projection';

const recorded = (
  overrides: Partial<RecordedEvent> & Pick<RecordedEvent, 'type' | 'streamId'>,
): RecordedEvent => ({
  id: '00000000-0000-4000-8000-000000000001',
  revision: 3,
  position: 17,
  schemaVersion: 1,
  data: {},
  metadata: {
    tenantId: 42,
    actor: 'user:7',
    ip: '203.0.113.7',
    method: 'POST',
    url: '/api/sellers/12',
    body: { name: 'Acme', password: 'hunter2', nested: { apiKey: 'k', keep: 1 } },
    requestId: 'req-1',
    correlationId: 'corr-1',
    causationId: null,
    time: '2026-03-01T10:00:00.000Z',
  },
  recordedAt: '2026-03-01T10:00:01.000Z',
  ...overrides,
});

describe('the audit history projection', () => {
  it('writes one row per event keyed by stream and revision, with asset, action and request', () => {
    const writes = auditHistoryProjection.project(
      recorded({ type: 'SellerDeleted', streamId: 'seller-12', data: { SellerId: 12, TenantId: 42 } }),
    );
    expect(writes).toHaveLength(1);
    const [write] = writes;
    expect(write).toMatchObject({
      kind: 'insert',
      collection: 'rows',
      id: 'seller-12@3',
      doc: {
        tenantId: 42,
        subject: 'tenant:42',
        userId: 7,
        actor: 'user:7',
        action: 'DELETE',
        type: 'SellerDeleted',
        asset: 'seller',
        assetId: '12',
        time: new Date('2026-03-01T10:00:00.000Z'),
      },
    });
    expect(write?.kind === 'insert' && write.doc.request).toEqual({
      id: 'req-1',
      ip: '203.0.113.7',
      url: '/api/sellers/12',
      method: 'POST',
      body: { name: 'Acme', nested: { keep: 1 } },
    });
  });

  it('has no user for system actors and takes the tenant from a tenant stream', () => {
    const [write] = auditHistoryProjection.project(
      recorded({
        type: 'TenantRenamed',
        streamId: 'tenant-5',
        metadata: {
          ...recorded({ type: 'x', streamId: 'x' }).metadata,
          actor: 'system:sync',
          tenantId: null,
        },
      }),
    );
    expect(write).toMatchObject({ doc: { userId: null, tenantId: 5, asset: 'tenant', assetId: '5' } });
  });

  it("keeps users' addresses beside the rows and clears them when the user is deleted", () => {
    const registered = auditHistoryProjection.project(
      recorded({ type: 'UserRegistered', streamId: 'user-7', data: { UserId: 7, Email: 'ann@example.com' } }),
    );
    expect(registered).toContainEqual({
      kind: 'insert',
      collection: 'emails',
      id: 'user-7@3',
      doc: { userId: 7, email: 'ann@example.com' },
    });
    const deleted = auditHistoryProjection.project(
      recorded({ type: 'UserDeleted', streamId: 'user-7', data: { UserId: 7 } }),
    );
    expect(deleted).toContainEqual({
      kind: 'insert',
      collection: 'emails',
      id: 'user-7@3',
      doc: { userId: 7, email: null },
    });
    expect(deleted.filter((w) => w.kind === 'update')).toHaveLength(3);
  });

  it("removes a permanently purged tenant's rows and writes none for the purge", () => {
    const writes = auditHistoryProjection.project(
      recorded({ type: 'TenantPurged', streamId: 'tenant-42', data: { TenantId: 42, Permanent: true } }),
    );
    expect(writes).toEqual([{ kind: 'delete', collection: 'rows', filter: { subject: 'tenant:42' } }]);
  });
});
