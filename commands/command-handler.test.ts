import type * as NodeFs from 'node:fs';
import { AppError } from '../contracts/errors';
import { handleCommand, type CommandHandlerDeps, type CommandRequest } from './command-handler';
import type { EventStore } from './event-store/event-store';
import { allocateId } from './id-allocator';
import { createPersonalDataProtector } from './personal-data';
import { InMemoryPersonalDataKeyStore } from './personal-data-key-store';
import { runWithRequestContext } from './request-context';
import { accountDecider, accountRegistry, type AccountCommand } from './testing/account-decider';
import { useTempSqliteFiles } from './testing/temp-sqlite-files';

const files = useTempSqliteFiles();
const now = new Date('2025-05-01T09:00:00.000Z');

const depsFor = (store: EventStore, overrides: Partial<CommandHandlerDeps> = {}): CommandHandlerDeps => ({
  store,
  registry: accountRegistry,
  personalData: createPersonalDataProtector({
    keys: new InMemoryPersonalDataKeyStore(),
    registry: accountRegistry,
  }),
  ...overrides,
});

const open = (accountId: number, owner = 'Ada Lovelace'): AccountCommand => ({
  type: 'OpenAccount',
  data: { accountId, tenantId: 42, owner },
  now,
});
const deposit = (...amounts: number[]): AccountCommand => ({ type: 'Deposit', data: { amounts }, now });
const withdraw = (amount: number): AccountCommand => ({ type: 'Withdraw', data: { amount }, now });

const request = (
  commandId: string,
  command: AccountCommand,
  extra: Partial<CommandRequest<AccountCommand>> = {},
): CommandRequest<AccountCommand> => ({ streamId: 'account-1', commandId, command, ...extra });

/** The AppError a promise rejects with (fails the test if it resolves or throws something else). */
const appErrorOf = async (promise: Promise<unknown>): Promise<AppError> => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
};

/** A store with account-1 opened (revision 0). */
const openedAccount = async () => {
  const store = files.openStore();
  const deps = depsFor(store);
  await handleCommand(accountDecider, request('open', open(1)), deps);
  return { store, deps };
};

describe('handleCommand', () => {
  it('appends the decided events and answers with the revision and global position of the last one', async () => {
    const { store, deps } = await openedAccount();

    const result = await handleCommand(accountDecider, request('d1', deposit(5, 7)), deps);

    const stream = await store.readStream('account-1');
    expect(result.events).toEqual([
      { type: 'Deposited', data: { amount: 5 } },
      { type: 'Deposited', data: { amount: 7 } },
    ]);
    expect(result.nextRevision).toBe(2);
    expect(result.position).toBe(stream[2]?.position);
    expect(stream.map((e) => e.metadata.causationId)).toEqual(['open', 'd1', 'd1']);
  });

  it('folds the history, so the decider sees earlier events', async () => {
    const { deps } = await openedAccount();
    await handleCommand(accountDecider, request('d1', deposit(10)), deps);

    await expect(handleCommand(accountDecider, request('w1', withdraw(10)), deps)).resolves.toMatchObject({
      nextRevision: 2,
    });
    const refused = await appErrorOf(handleCommand(accountDecider, request('w2', withdraw(1)), deps));
    expect(refused.userMessage).toBe('Insufficient funds.');
  });

  it('appends nothing when the decider refuses', async () => {
    const { store, deps } = await openedAccount();
    const head = await store.headPosition();

    const error = await appErrorOf(handleCommand(accountDecider, request('w1', withdraw(1)), deps));

    expect(error.code).toBe('conflict');
    expect(await store.readStream('account-1')).toHaveLength(1);
    expect(await store.headPosition()).toBe(head);
  });

  it('appends nothing when one payload fails its schema, even if others in the batch are valid', async () => {
    const { store, deps } = await openedAccount();
    const head = await store.headPosition();

    const error = await appErrorOf(handleCommand(accountDecider, request('d1', deposit(5, 1.5)), deps));

    expect(error.code).toBe('validation');
    expect(error.properties).toHaveProperty('amount');
    expect(await store.readStream('account-1')).toHaveLength(1);
    expect(await store.headPosition()).toBe(head);
  });

  it('answers a command that changes nothing with the current revision and appends nothing', async () => {
    const { store, deps } = await openedAccount();

    const result = await handleCommand(accountDecider, request('d0', deposit()), deps);

    const [opened] = await store.readStream('account-1');
    expect(result).toEqual({ events: [], nextRevision: 0, position: opened?.position });
  });
});

describe('handleCommand: idempotency', () => {
  it('answers a repeated command id as before and appends nothing, even after later commands', async () => {
    const { store, deps } = await openedAccount();
    const first = await handleCommand(accountDecider, request('d1', deposit(5)), deps);
    await handleCommand(accountDecider, request('d2', deposit(6)), deps);
    const head = await store.headPosition();

    const again = await handleCommand(accountDecider, request('d1', deposit(5)), deps);

    expect(again).toEqual(first);
    expect(await store.headPosition()).toBe(head);
    expect(await store.readStream('account-1')).toHaveLength(3);
  });

  it('answers a repeated browser command as before instead of calling its old If-Match stale', async () => {
    const { deps } = await openedAccount();
    const first = await handleCommand(accountDecider, request('d1', deposit(5), { ifMatch: 0 }), deps);

    await expect(
      handleCommand(accountDecider, request('d1', deposit(5), { ifMatch: 0 }), deps),
    ).resolves.toEqual(first);
  });

  it('appends once when the same command is delivered twice at the same time', async () => {
    const { store, deps } = await openedAccount();

    const [a, b] = await Promise.all([
      handleCommand(accountDecider, request('d1', deposit(5)), deps),
      handleCommand(accountDecider, request('d1', deposit(5)), deps),
    ]);

    expect(a).toEqual(b);
    expect(await store.readStream('account-1')).toHaveLength(2);
  });

  it('recognises a retried command that creates a stream under a freshly allocated id', async () => {
    const store = files.openStore();
    const deps = depsFor(store);
    const create = async () => {
      const accountId = await allocateId(store, { category: 'tenant', commandId: 'create-1', now });
      return handleCommand(
        accountDecider,
        { streamId: `account-${accountId}`, commandId: 'create-1', command: open(accountId) },
        deps,
      );
    };

    const first = await create();
    const head = await store.headPosition();
    const retried = await create();

    expect(retried).toEqual(first);
    expect(await store.headPosition()).toBe(head);
  });
});

describe('handleCommand: If-Match', () => {
  it('refuses a stale revision with a 412 AppError and appends nothing', async () => {
    const { store, deps } = await openedAccount();
    await handleCommand(accountDecider, request('d1', deposit(5)), deps);

    const error = await appErrorOf(
      handleCommand(accountDecider, request('d2', deposit(6), { ifMatch: 0 }), deps),
    );

    expect(error.code).toBe('stale');
    expect(await store.readStream('account-1')).toHaveLength(2);
  });

  it('accepts the current revision and answers with the next one (the new ETag)', async () => {
    const { deps } = await openedAccount();

    const result = await handleCommand(accountDecider, request('d1', deposit(5), { ifMatch: 0 }), deps);

    expect(result.nextRevision).toBe(1);
  });

  it('refuses, never retries, when another write lands between its read and its append', async () => {
    const { store, deps } = await openedAccount();

    // Two browser edits made from the same page: both saw revision 0, only one may win.
    const outcomes = await Promise.allSettled([
      handleCommand(accountDecider, request('d1', deposit(5), { ifMatch: 0 }), deps),
      handleCommand(accountDecider, request('d2', deposit(6), { ifMatch: 0 }), deps),
    ]);

    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const [refused] = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('stale');
    expect(await store.readStream('account-1')).toHaveLength(2);
  });
});

describe('handleCommand: 50 concurrent commands on one stream', () => {
  // Fifty writers on four SQLite connections retry against each other; on a
  // loaded 2-core CI machine that takes longer than jest's 5 s default.
  const contendedTimeout = 30_000;
  const concurrentDeposits = async (maxRetries: number) => {
    const { store, deps } = await openedAccount();
    // Four connections to one file, as four processes would have.
    const stores = [store, ...[1, 2, 3].map(() => files.openStore(store.path))];
    const ids = Array.from({ length: 50 }, (_, n) => `deposit-${n + 1}`);
    const outcomes = await Promise.allSettled(
      ids.map((id, n) =>
        handleCommand(accountDecider, request(id, deposit(n + 1)), {
          ...deps,
          store: stores[n % stores.length] as EventStore,
          maxRetries,
        }),
      ),
    );
    const stream = await store.readStream('account-1');
    const accepted = ids.filter((_, n) => outcomes[n]?.status === 'fulfilled');
    const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
    return { stream, accepted, refused, outcomes };
  };

  it(
    'without retries: every accepted command appears exactly once and every other one reports a conflict',
    async () => {
      const { stream, accepted, refused } = await concurrentDeposits(0);

      expect(accepted.length).toBeGreaterThan(0);
      expect(accepted.length + refused.length).toBe(50);
      for (const error of refused) {
        expect(error).toBeInstanceOf(AppError);
        expect((error as AppError).code).toBe('conflict');
      }
      const recorded = stream.slice(1).map((e) => e.metadata.causationId);
      expect(recorded.sort()).toEqual([...accepted].sort());
    },
    contendedTimeout,
  );

  it('through one process: all are accepted in turn, none conflicts even without retries', async () => {
    const { store, deps } = await openedAccount();
    const ids = Array.from({ length: 20 }, (_, n) => `queued-${n + 1}`);

    const outcomes = await Promise.allSettled(
      ids.map((id, n) =>
        handleCommand(accountDecider, request(id, deposit(n + 1)), { ...deps, maxRetries: 0 }),
      ),
    );

    expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([]);
    expect((await store.readStream('account-1')).slice(1).map((e) => e.metadata.causationId)).toEqual(ids);
  });

  it(
    'with retries: all 50 are accepted, each once, and no deposit is lost',
    async () => {
      const { stream, accepted, outcomes } = await concurrentDeposits(60);

      expect(accepted).toHaveLength(50);
      const recorded = stream.slice(1).map((e) => e.metadata.causationId);
      expect(new Set(recorded).size).toBe(50);
      expect(recorded).toHaveLength(50);
      const total = stream.slice(1).reduce((sum, e) => sum + (e.data as { amount: number }).amount, 0);
      expect(total).toBe((50 * 51) / 2);
      // Each answer names the revision and position where its own event was stored.
      for (const outcome of outcomes) {
        if (outcome.status !== 'fulfilled') continue;
        const stored = stream[outcome.value.nextRevision];
        expect(stored?.position).toBe(outcome.value.position);
        expect(stored?.data).toEqual(outcome.value.events[0]?.data);
      }
    },
    contendedTimeout,
  );
});

describe('handleCommand: durability (docs/adr/0052)', () => {
  it('starts the next command on the stream during the sync, and answers each only once it is durable', async () => {
    const { store, deps } = await openedAccount();
    // The module object the store's own import reads; holds every WAL sync until released.
    const fs = jest.requireActual<typeof NodeFs>('node:fs');
    const real = fs.fdatasync;
    const held: (() => void)[] = [];
    const spy = jest
      .spyOn(fs, 'fdatasync')
      .mockImplementation((fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => {
        held.push(() => real(fd, callback));
      });
    try {
      let answered = 0;
      const commands = [1, 2, 3].map((n) =>
        handleCommand(accountDecider, request(`durable-${n}`, deposit(n)), deps).then((result) => {
          answered += 1;
          return result;
        }),
      );
      // All three are committed while the first sync is still running; none is answered yet.
      for (let i = 0; i < 50 && (await store.readStream('account-1')).length < 4; i += 1)
        await new Promise((resolve) => setTimeout(resolve, 10));
      expect(await store.readStream('account-1')).toHaveLength(4);
      expect(answered).toBe(0);

      while (held.length > 0 || answered < 3) {
        held.splice(0).forEach((run) => run());
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect((await Promise.all(commands)).map((result) => result.nextRevision)).toEqual([1, 2, 3]);
      // One sync for the first, one for the two committed during it.
      expect(spy.mock.calls.length).toBeLessThanOrEqual(2);
    } finally {
      held.splice(0).forEach((run) => run());
      spy.mockRestore();
    }
  });
});

describe('handleCommand: metadata', () => {
  it('records who asked, from the request context, without the secrets of the body', async () => {
    const store = files.openStore();
    const deps = depsFor(store);

    await runWithRequestContext(
      {
        tenantId: 42,
        actor: 'user:7',
        ip: '203.0.113.9',
        method: 'POST',
        url: '/accounts',
        body: { owner: 'Ada Lovelace', password: 'hunter2', nested: { apiKey: 'sk_live_1' } },
        requestId: 'req-1',
      },
      () => handleCommand(accountDecider, request('open', open(1)), deps),
    );

    const raw = await store.readStream('account-1');
    expect(JSON.stringify(raw)).not.toMatch(/hunter2|sk_live_1/);
    const [event] = await deps.personalData.reveal(raw);
    expect(event?.metadata).toMatchObject({
      tenantId: 42,
      actor: 'user:7',
      ip: '203.0.113.9',
      method: 'POST',
      url: '/accounts',
      body: { owner: 'Ada Lovelace', nested: {} },
      requestId: 'req-1',
      correlationId: 'req-1',
      causationId: 'open',
      time: now.toISOString(),
    });
  });
});

describe('handleCommand: commands queued on one stream are decided together (docs/adr/0054)', () => {
  /** Counts the store's appends (each one transaction) from now on. */
  const countAppends = (store: EventStore) => {
    const visible = jest.spyOn(store, 'appendVisible' as never);
    return () => visible.mock.calls.length;
  };

  it('keeps their order, appends the queued ones in one transaction and answers each with its own event', async () => {
    const { store, deps } = await openedAccount();
    const appends = countAppends(store);
    const ids = Array.from({ length: 6 }, (_, n) => `grouped-${n + 1}`);

    // The first runs at once; the five that queue behind it are decided and appended together.
    const results = await Promise.all(
      ids.map((id, n) => handleCommand(accountDecider, request(id, deposit(n + 1)), deps)),
    );

    expect(appends()).toBe(2);
    const stream = await store.readStream('account-1');
    expect(stream.slice(1).map((e) => e.metadata.causationId)).toEqual(ids);
    results.forEach((result, n) => {
      expect(result.nextRevision).toBe(n + 1);
      expect(result.position).toBe(stream[n + 1]?.position);
      expect(result.events).toEqual([{ type: 'Deposited', data: { amount: n + 1 } }]);
    });
  });

  it('decides each on the state the ones before it left; a refused one answers alone and the rest still append', async () => {
    const { store, deps } = await openedAccount();
    const run = (id: string, command: AccountCommand) =>
      handleCommand(accountDecider, request(id, command), deps).then(
        (result) => ({ id, ok: true as const, result }),
        (error: unknown) => ({ id, ok: false as const, error }),
      );

    const outcomes = await Promise.all([
      run('first', deposit(1)),
      run('d5', deposit(5)),
      run('too-much', withdraw(100)),
      run('bad-amount', deposit(1.5)),
      run('d7', deposit(7)),
      // Only allowed with the deposits queued before it: 1 + 5 + 7.
      run('w13', withdraw(13)),
    ]);

    const refused = outcomes.filter((o) => !o.ok);
    expect(refused.map((o) => o.id)).toEqual(['too-much', 'bad-amount']);
    expect(refused[0]?.ok === false && (refused[0].error as AppError).code).toBe('conflict');
    expect(refused[1]?.ok === false && refused[1].error).toBeTruthy();
    const stream = await store.readStream('account-1');
    expect(stream.slice(1).map((e) => e.metadata.causationId)).toEqual(['first', 'd5', 'd7', 'w13']);
    const w13 = outcomes.find((o) => o.id === 'w13');
    expect(w13?.ok && w13.result).toMatchObject({ nextRevision: 4, position: stream[4]?.position });
    // A later command folds the stored events to the same balance: 0 left.
    const overdraft = await appErrorOf(handleCommand(accountDecider, request('w1', withdraw(1)), deps));
    expect(overdraft.code).toBe('conflict');
  });

  it('checks each If-Match against the revision the commands queued before it leave', async () => {
    const { store, deps } = await openedAccount();
    const outcomes = await Promise.allSettled([
      handleCommand(accountDecider, request('a', deposit(1), { ifMatch: 0 }), deps),
      handleCommand(accountDecider, request('b', deposit(2), { ifMatch: 1 }), deps),
      // Saw revision 1 too, but 'b' changed the stream before it: stale.
      handleCommand(accountDecider, request('c', deposit(3), { ifMatch: 1 }), deps),
      handleCommand(accountDecider, request('d', deposit(4), { ifMatch: 2 }), deps),
      // Changes nothing: answered with the revision and position the commands before it left.
      handleCommand(accountDecider, request('e', deposit()), deps),
    ]);

    expect(outcomes.map((o) => o.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    const stale = outcomes[2]?.status === 'rejected' ? (outcomes[2].reason as AppError) : undefined;
    expect(stale?.code).toBe('stale');
    const stream = await store.readStream('account-1');
    expect(stream.slice(1).map((e) => e.metadata.causationId)).toEqual(['a', 'b', 'd']);
    expect(outcomes[3]?.status === 'fulfilled' && outcomes[3].value.nextRevision).toBe(3);
    expect(outcomes[4]?.status === 'fulfilled' && outcomes[4].value).toEqual({
      events: [],
      nextRevision: 3,
      position: stream[3]?.position,
    });
  });

  it("records each command's own request context, also when decided in a group", async () => {
    const { store, deps } = await openedAccount();
    const ids = ['ctx-1', 'ctx-2', 'ctx-3'];

    await Promise.all(
      ids.map((id, n) =>
        runWithRequestContext({ actor: `user:${n + 1}`, requestId: `req-${id}` }, () =>
          handleCommand(accountDecider, request(id, deposit(n + 1)), deps),
        ),
      ),
    );

    const stream = await store.readStream('account-1');
    expect(
      stream.slice(1).map((e) => [e.metadata.causationId, e.metadata.actor, e.metadata.requestId]),
    ).toEqual(ids.map((id, n) => [id, `user:${n + 1}`, `req-${id}`]));
  });

  it('answers a command id queued twice from the first one, appending once', async () => {
    const { store, deps } = await openedAccount();
    const [first, again, other] = await Promise.all([
      handleCommand(accountDecider, request('x', deposit(1)), deps),
      handleCommand(accountDecider, request('twice', deposit(2)), deps),
      handleCommand(accountDecider, request('twice', deposit(2)), deps),
    ]).then(([a, b, c]) => [a, b, c]);

    expect(first?.nextRevision).toBe(1);
    expect(again).toEqual(other);
    const stream = await store.readStream('account-1');
    expect(stream.slice(1).map((e) => e.metadata.causationId)).toEqual(['x', 'twice']);
  });
});
