import type { RecordedEvent } from '../../contracts/events/envelope';
import { AUDIT_HISTORY } from '../audit-history/audit-history-projection';
import { PLANS } from '../plans/plans-projection';
import { projections } from '../registry';
import { TENANTS } from '../tenants/tenants-projection';
import { noticeTargetOf } from './notice-target';
import { projectionsReading } from './read-model-waiter';

const event = (streamId: string, type: string, data: unknown): RecordedEvent => ({
  id: '6f1c2b1e-8f3a-4a51-9b7c-2f1e0a6d9c11',
  streamId,
  revision: 3,
  position: 40,
  type,
  schemaVersion: 1,
  data,
  // The actor's tenant (a platform admin working in tenant 99): never the notice's.
  metadata: {
    tenantId: 99,
    actor: 'user:1',
    ip: null,
    method: null,
    url: null,
    body: null,
    requestId: null,
    correlationId: 'c',
    causationId: null,
    time: '2026-01-01T00:00:00.000Z',
  },
  recordedAt: '2026-01-01T00:00:00.000Z',
});

describe('noticeTargetOf', () => {
  it('sends a tenant change to that tenant, whichever tenant the actor works in', () => {
    expect(noticeTargetOf(event('tenant-12', 'TenantRenamed', { TenantId: 12, Name: 'A' }))).toEqual({
      entity: 'tenant',
      id: 12,
      audience: { kind: 'tenant', tenantId: 12 },
    });
  });

  it('tells a membership change from a change of the person', () => {
    const role = event('user-5', 'UserTenantRoleChanged', { UserId: 5, TenantId: 12, Role: 'ADMIN' });
    expect(noticeTargetOf(role)).toEqual({
      entity: 'membership',
      id: 5,
      audience: { kind: 'tenant', tenantId: 12 },
    });
    const renamed = event('user-5', 'UserRenamed', { UserId: 5 });
    expect(noticeTargetOf(renamed)).toEqual({
      entity: 'user',
      id: 5,
      audience: { kind: 'member-tenants', userId: 5 },
    });
  });

  it('finds the owner of a seller, job or invite stream from its first event when the event names none', () => {
    expect(noticeTargetOf(event('seller-8', 'SellerActivated', { sellerId: 8 }))).toEqual({
      entity: 'seller',
      id: 8,
      audience: { kind: 'stream-owner' },
    });
    expect(noticeTargetOf(event('job-3', 'JobCreated', { jobId: 3, tenantId: 12 }))?.audience).toEqual({
      kind: 'tenant',
      tenantId: 12,
    });
    expect(noticeTargetOf(event('invite-12-ab12', 'InviteSent', {}))).toMatchObject({
      entity: 'invite',
      id: '12-ab12',
    });
  });

  it('sends plans to platform admins and ignores bookkeeping streams', () => {
    expect(noticeTargetOf(event('plan-2', 'PlanRenamed', { PlanId: 2 }))?.audience).toEqual({
      kind: 'platform',
    });
    expect(noticeTargetOf(event('ids-seller', 'IdAllocated', { id: 4 }))).toBeNull();
    expect(noticeTargetOf(event('idclaim-seller-x', 'IdClaimed', { id: 4 }))).toBeNull();
  });
});

describe('projectionsReading', () => {
  it('waits for the read models whose filter lets the event through, the audit history always', () => {
    const names = (e: RecordedEvent) => projectionsReading(projections, e).map((p) => p.name);
    const renamed = names(event('tenant-12', 'TenantRenamed', { TenantId: 12 }));
    expect(renamed).toEqual(expect.arrayContaining([AUDIT_HISTORY, TENANTS]));
    const planRenamed = names(event('plan-2', 'PlanRenamed', { PlanId: 2 }));
    expect(planRenamed).toEqual(expect.arrayContaining([AUDIT_HISTORY, PLANS]));
    expect(planRenamed).not.toContain(TENANTS);
  });
});
