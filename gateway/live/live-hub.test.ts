import type { LiveNotice, ServerMessage } from '../../contracts/live';
import { LiveHub } from './live-hub';

const client = (isPlatformAdmin = false) => {
  const received: ServerMessage[] = [];
  return { isPlatformAdmin, send: (message: ServerMessage) => received.push(message), received };
};

const invalidate = (tenantId: number | null, position: number): LiveNotice => ({
  type: 'invalidate',
  entity: tenantId === null ? 'plan' : 'tenant',
  id: tenantId ?? 1,
  tenantId,
  position,
});

describe('LiveHub', () => {
  it('delivers a tenant’s notices only to its watchers, and platform notices only to platform admins', () => {
    const hub = new LiveHub();
    hub.started(10);
    const member = client();
    const other = client();
    const admin = client(true);
    hub.watch(member, 1);
    hub.watch(other, 2);
    hub.watch(admin, 2);
    hub.publish(invalidate(1, 11));
    hub.publish(invalidate(null, 12));
    expect(member.received).toEqual([invalidate(1, 11)]);
    expect(other.received).toEqual([]);
    expect(admin.received).toEqual([invalidate(null, 12)]);

    hub.unwatch(member, 1);
    hub.publish(invalidate(1, 13));
    expect(member.received).toHaveLength(1);
    expect(hub.watchers(1)).toBe(0);
  });

  it('asks the watchers of a tenant to recheck a user whose membership there changed', () => {
    const hub = new LiveHub();
    const rechecked: number[] = [];
    hub.watch({ ...client(), membershipChanged: (userId) => rechecked.push(userId) }, 1);
    hub.publish({ type: 'invalidate', entity: 'membership', id: 5, tenantId: 1, position: 3 });
    hub.publish({ type: 'invalidate', entity: 'user', id: 6, tenantId: 1, position: 4 });
    expect(rechecked).toEqual([5]);
  });

  it('tells every client, whatever it watches, that a user’s own facts changed', () => {
    const hub = new LiveHub();
    const told: string[] = [];
    const watcher = (name: string, isPlatformAdmin: boolean) => ({
      ...client(isPlatformAdmin),
      userChanged: (userId: number, position: number) => told.push(`${name}:${userId}@${position}`),
    });
    hub.watch(watcher('admin', true), 2);
    hub.watch(watcher('member', false), 1);
    hub.publish({ type: 'invalidate', entity: 'user', id: 6, tenantId: 1, position: 4 });
    hub.publish({ type: 'invalidate', entity: 'tenant', id: 1, tenantId: 1, position: 5 });
    expect(told.sort()).toEqual(['admin:6@4', 'member:6@4']);
  });

  it('tells whether a reconnecting client may have missed a notice', () => {
    const hub = new LiveHub();
    const member = client();
    expect(hub.mayHaveMissed(5, member, 1)).toBe(true); // not following the store yet
    hub.started(10);
    expect(hub.mayHaveMissed(9, member, 1)).toBe(true); // before this process followed the store
    expect(hub.mayHaveMissed(10, member, 1)).toBe(false);
    hub.publish(invalidate(2, 11));
    hub.processed(11);
    expect(hub.mayHaveMissed(10, member, 1)).toBe(false); // another tenant's notice
    hub.publish(invalidate(1, 12));
    expect(hub.mayHaveMissed(11, member, 1)).toBe(true);
    expect(hub.mayHaveMissed(12, member, 1)).toBe(false);
    expect(hub.position).toBe(11);
  });
});
