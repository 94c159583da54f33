import { QueryClient } from '@tanstack/react-query';
import { createStore } from 'jotai';
import type { ServerMessage } from '../../../contracts/live';
import { ApiClient } from '../api/api-client';
import { jobQueries } from '../api/queries/jobs';
import { reportQueries } from '../api/queries/reports';
import { sellerQueries } from '../api/queries/platforms';
import { sessionKey } from '../api/queries/session';
import { tenantQueries } from '../api/queries/tenants';
import { userQueries } from '../api/queries/users';
import { applyLiveMessage } from './apply-live-message';
import { jobProgressAtom } from './job-progress';
import { LiveSocket, type SocketLike } from './live-socket';

class FakeSocket implements SocketLike {
  sent: unknown[] = [];
  closedWith: number | null = null;
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close(code = 1000) {
    this.closedWith = code;
  }
  receive(message: ServerMessage) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  drop(code = 1006) {
    this.onclose?.({ code });
  }
}

const harness = () => {
  const sockets: FakeSocket[] = [];
  const timers: { run: () => void; ms: number }[] = [];
  const received: ServerMessage[] = [];
  let sessionEnded = 0;
  const live = new LiveSocket({
    urlOf: (after) => `ws://app/api/live${after === null ? '' : `?after=${after}`}`,
    createSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    onMessage: (message) => received.push(message),
    onSessionEnded: () => sessionEnded++,
    setTimer: (run, ms) => timers.push({ run, ms }),
    clearTimer: () => undefined,
    random: () => 1,
  });
  return { live, sockets, timers, received, sessionEnded: () => sessionEnded };
};

const last = <T>(items: readonly T[]): T => items[items.length - 1]!;

describe('the live socket', () => {
  it('reconnects with growing waits, passing the last position it saw as ?after=', () => {
    const { live, sockets, timers } = harness();
    live.start();
    expect(sockets[0]!.url).toBe('ws://app/api/live');
    sockets[0]!.receive({ type: 'hello', tenantId: 7, position: 40 });
    sockets[0]!.receive({
      type: 'invalidate',
      entity: 'seller',
      id: 1,
      tenantId: 7,
      position: 52,
    });
    sockets[0]!.drop();
    expect(timers.map((t) => t.ms)).toEqual([1000]);
    last(timers).run();
    expect(sockets[1]!.url).toBe('ws://app/api/live?after=52');

    sockets[1]!.drop();
    last(timers).run();
    sockets[2]!.drop();
    expect(timers.map((t) => t.ms)).toEqual([1000, 2000, 4000]);

    // A hello means the server took us back: the next drop starts from the shortest wait again.
    last(timers).run();
    sockets[3]!.receive({ type: 'heartbeat', position: 60 });
    sockets[3]!.receive({ type: 'hello', tenantId: 7, position: 60 });
    sockets[3]!.drop();
    expect(last(timers).ms).toBe(1000);
    last(timers).run();
    expect(last(sockets).url).toBe('ws://app/api/live?after=60');
  });

  it('stops for good when the server says the session ended (4401), and when signed out', () => {
    const { live, sockets, timers, sessionEnded } = harness();
    live.start();
    sockets[0]!.drop(4401);
    expect(sessionEnded()).toBe(1);
    expect(timers).toHaveLength(0);

    const other = harness();
    other.live.start();
    other.live.stop();
    expect(other.sockets[0]!.closedWith).toBe(1000);
    other.sockets[0]!.drop(1000);
    expect(other.timers).toHaveLength(0);
  });

  it('subscribes to the tenant the session switched to, also when the server still watches another', () => {
    const { live, sockets } = harness();
    live.watch(7);
    live.start();
    sockets[0]!.receive({ type: 'hello', tenantId: 7, position: 1 });
    expect(sockets[0]!.sent).toEqual([]);
    live.watch(8);
    expect(sockets[0]!.sent).toEqual([{ type: 'subscribe', tenantId: 8 }]);
    sockets[0]!.drop();
  });

  it('ignores what is not a message of the contract', () => {
    const { live, sockets, received } = harness();
    live.start();
    sockets[0]!.onmessage?.({ data: 'not json' });
    sockets[0]!.onmessage?.({ data: JSON.stringify({ type: 'gossip' }) });
    expect(received).toEqual([]);
  });
});

describe('what live messages do to the page', () => {
  // The keys the pages' queries use, from their factories (web/src/api/queries).
  const api = new ApiClient({ fetch: () => Promise.reject(new Error('no calls in these tests')) });
  const sellersOf = (tenantId: number) => sellerQueries.connected(api, tenantId).queryKey;
  const teamOf = (tenantId: number) => userQueries.team(api, tenantId).queryKey;
  const tenantOf = (tenantId: number) => tenantQueries.details(api, tenantId).queryKey;
  const featuresOf = (tenantId: number) => tenantQueries.features(api, tenantId).queryKey;
  const jobsOf = (tenantId: number) =>
    jobQueries.list(api, { tenantId, filter: { sellerId: 1, limit: 20 } }).queryKey;
  const archiveOf = (tenantId: number) => reportQueries.archived(api, { tenantId }).queryKey;

  const setup = () => {
    const queryClient = new QueryClient();
    const store = createStore();
    const seed = (key: readonly unknown[]) => queryClient.setQueryData(key, { seeded: true });
    const stale = () =>
      queryClient
        .getQueryCache()
        .getAll()
        .filter((query) => query.state.isInvalidated)
        .map((query) => JSON.stringify(query.queryKey))
        .sort();
    const target = {
      queryClient,
      store: () => store,
      who: () => ({ userId: 3, tenantId: 7 }),
    };
    return { queryClient, store, seed, stale, target };
  };

  it('invalidates exactly the queries that show the entity, in the notice tenant', () => {
    const { seed, stale, target } = setup();
    seed(sellersOf(7));
    seed(teamOf(7));
    seed(sellersOf(8));
    seed(sessionKey);
    applyLiveMessage(
      target,
      { type: 'invalidate', entity: 'seller', id: 1, tenantId: 7, position: 5 },
      { firstConnect: false },
    );
    expect(stale()).toEqual([JSON.stringify(sellersOf(7))]);
  });

  it('refreshes the session when the current tenant or user changes', () => {
    const { seed, stale, target } = setup();
    seed(sessionKey);
    seed(tenantOf(7));
    applyLiveMessage(
      target,
      { type: 'invalidate', entity: 'tenant', id: 7, tenantId: 7, position: 5 },
      { firstConnect: false },
    );
    expect(stale()).toEqual([JSON.stringify(sessionKey), JSON.stringify(tenantOf(7))].sort());
  });

  it('invalidates a platform notice (plans) in every tenant', () => {
    const { seed, stale, target } = setup();
    seed(featuresOf(7));
    seed(featuresOf(9));
    seed(sellersOf(7));
    applyLiveMessage(
      target,
      { type: 'invalidate', entity: 'plan', id: 2, tenantId: null, position: 5 },
      { firstConnect: false },
    );
    expect(stale()).toEqual([JSON.stringify(featuresOf(7)), JSON.stringify(featuresOf(9))]);
  });

  it("refreshes a tenant's plan features on its billing notices, and every tenant's on a plan notice", () => {
    const { seed, stale, target } = setup();
    seed(featuresOf(7));
    seed(featuresOf(8));
    applyLiveMessage(
      target,
      { type: 'invalidate', entity: 'billing', id: 4, tenantId: 7, position: 5 },
      { firstConnect: false },
    );
    expect(stale()).toEqual([JSON.stringify(featuresOf(7))]);
    applyLiveMessage(
      target,
      { type: 'invalidate', entity: 'plan', id: 2, tenantId: null, position: 6 },
      { firstConnect: false },
    );
    expect(stale()).toEqual([JSON.stringify(featuresOf(7)), JSON.stringify(featuresOf(8))]);
  });

  it('refetches everything shown on refetch and on the first hello, but not on later hellos', () => {
    const { seed, stale, target } = setup();
    seed(sellersOf(7));
    seed(teamOf(7));
    seed(sessionKey);
    applyLiveMessage(target, { type: 'hello', tenantId: 7, position: 1 }, { firstConnect: false });
    expect(stale()).toEqual([]);
    applyLiveMessage(target, { type: 'refetch' }, { firstConnect: false });
    expect(stale()).toEqual([JSON.stringify(sellersOf(7)), JSON.stringify(teamOf(7))]);

    const other = setup();
    other.seed(sellersOf(7));
    applyLiveMessage(other.target, { type: 'hello', tenantId: 7, position: 1 }, { firstConnect: true });
    expect(other.stale()).toEqual([JSON.stringify(sellersOf(7))]);
  });

  it('keeps each job newest progress in the atom, and refreshes the jobs and their results when one finishes', () => {
    const { seed, stale, store, target } = setup();
    seed(jobsOf(7));
    seed(archiveOf(7));
    seed(archiveOf(8));
    const progress = (position: number, done: number, status: 'running' | 'completed') =>
      applyLiveMessage(
        target,
        {
          type: 'job-progress',
          jobId: 11,
          kind: 'sync',
          tenantId: 7,
          sellerId: 1,
          stage: 'invoices',
          done,
          total: 500,
          status,
          position,
        },
        { firstConnect: false },
      );
    progress(10, 120, 'running');
    progress(8, 50, 'running');
    expect(store.get(jobProgressAtom)[11]).toMatchObject({ done: 120, status: 'running' });
    expect(stale()).toEqual([]);
    progress(12, 500, 'completed');
    expect(store.get(jobProgressAtom)[11]).toMatchObject({ done: 500, status: 'completed' });
    // A finished report job has archived files: the tenant's archive is fetched again, no other's.
    expect(stale().sort()).toEqual([JSON.stringify(archiveOf(7)), JSON.stringify(jobsOf(7))].sort());
  });
});
