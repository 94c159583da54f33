import type { EventStore } from './event-store/event-store';
import { allocateId, claimStreamOf, idStreamOf } from './id-allocator';
import { useTempSqliteFiles } from './testing/temp-sqlite-files';

const files = useTempSqliteFiles();

describe('allocateId', () => {
  it('hands out 1, 2, 3 per category, independently of other categories', async () => {
    const store = files.openStore();

    const tenants = [
      await allocateId(store, { category: 'tenant', commandId: 'a' }),
      await allocateId(store, { category: 'tenant', commandId: 'b' }),
    ];
    const user = await allocateId(store, { category: 'user', commandId: 'c' });
    const third = await allocateId(store, { category: 'tenant', commandId: 'd' });

    expect([...tenants, third]).toEqual([1, 2, 3]);
    expect(user).toBe(1);
  });

  it('gives a retried command the id it got before, without allocating another', async () => {
    const store = files.openStore();
    const first = await allocateId(store, { category: 'seller', commandId: 'connect-1' });
    await allocateId(store, { category: 'seller', commandId: 'connect-2' });

    const retried = await allocateId(store, { category: 'seller', commandId: 'connect-1' });

    expect(retried).toBe(first);
    expect(await store.readStream(idStreamOf('seller'))).toHaveLength(2);
  });

  it('gives one command distinct ids for distinct purposes, each stable on retry', async () => {
    const store = files.openStore();
    const owner = await allocateId(store, { category: 'user', commandId: 'signup', purpose: 'owner' });
    const client = await allocateId(store, { category: 'user', commandId: 'signup', purpose: 'client' });

    expect(owner).not.toBe(client);
    expect(await allocateId(store, { category: 'user', commandId: 'signup', purpose: 'client' })).toBe(
      client,
    );
  });

  it('50 concurrent allocations over several connections get 50 distinct ids', async () => {
    const first = files.openStore();
    const stores: EventStore[] = [first, ...[1, 2, 3, 4].map(() => files.openStore(first.path))];

    const ids = await Promise.all(
      Array.from({ length: 50 }, (_, n) =>
        allocateId(stores[n % stores.length] as EventStore, { category: 'job', commandId: `job-${n}` }),
      ),
    );

    expect(new Set(ids).size).toBe(50);
    expect(ids.every((id) => Number.isInteger(id) && id > 0)).toBe(true);
  });

  it('concurrent deliveries of one command agree on one id', async () => {
    const store = files.openStore();

    const ids = await Promise.all(
      Array.from({ length: 5 }, () => allocateId(store, { category: 'invite', commandId: 'invite-1' })),
    );

    expect(new Set(ids).size).toBe(1);
    const [claim] = await store.readStream(claimStreamOf('invite', 'invite-1'));
    expect(claim?.data).toMatchObject({ id: ids[0] });
  });

  it('keeps the request body and ip out of the id streams', async () => {
    const store = files.openStore();
    await allocateId(store, { category: 'tenant', commandId: 'x' });

    const [allocated] = await store.readStream(idStreamOf('tenant'));
    expect(allocated?.metadata).toMatchObject({ ip: null, body: null, causationId: 'x' });
  });
});
