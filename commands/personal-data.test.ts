import { readFileSync } from 'node:fs';
import type { EventMetadata } from '../contracts/events/envelope';
import { AppError } from '../contracts/errors';
import { handleCommand, type CommandHandlerDeps } from './command-handler';
import { decodeEvents } from './event-codec';
import { ERASED, createPersonalDataProtector, subjectOf, tenantSubject, userSubject } from './personal-data';
import { InMemoryPersonalDataKeyStore, type PersonalDataKeyStore } from './personal-data-key-store';
import { runWithRequestContext } from './request-context';
import { SqlitePersonalDataKeyStore } from './sqlite-personal-data-key-store';
import { accountDecider, accountRegistry, type AccountCommand } from './testing/account-decider';
import { useTempSqliteFiles } from './testing/temp-sqlite-files';

const files = useTempSqliteFiles();
const now = new Date('2025-05-01T09:00:00.000Z');

const metadata = (overrides: Partial<EventMetadata> = {}): EventMetadata => ({
  tenantId: null,
  actor: 'system:test',
  ip: null,
  method: null,
  url: null,
  body: null,
  requestId: null,
  correlationId: 'c',
  causationId: 'c',
  time: now.toISOString(),
  ...overrides,
});

const openAccount = (accountId: number, tenantId = 42): AccountCommand => ({
  type: 'OpenAccount',
  data: { accountId, tenantId, owner: 'Ada Lovelace' },
  now,
});

const setUp = (keys: PersonalDataKeyStore = new InMemoryPersonalDataKeyStore()) => {
  const store = files.openStore();
  const deps: CommandHandlerDeps = {
    store,
    registry: accountRegistry,
    personalData: createPersonalDataProtector({ keys, registry: accountRegistry }),
  };
  const run = (streamId: string, commandId: string, command: AccountCommand) =>
    runWithRequestContext(
      { actor: 'user:7', tenantId: 42, ip: '203.0.113.9', body: { owner: 'Ada Lovelace' } },
      () => handleCommand(accountDecider, { streamId, commandId, command }, deps),
    );
  return { store, deps, run };
};

describe('personal data', () => {
  it('is stored encrypted and read back in clear', async () => {
    const { store, deps, run } = setUp();

    await run('account-1', 'open', openAccount(1));

    const raw = await store.readStream('account-1');
    expect(JSON.stringify(raw)).not.toMatch(/Ada|Lovelace|203\.0\.113\.9/);
    const [event] = await decodeEvents(deps, raw);
    expect(event?.data).toEqual({
      accountId: 1,
      tenantId: 42,
      owner: 'Ada Lovelace',
      openedAt: now.toISOString(),
    });
    expect(event?.metadata).toMatchObject({ ip: '203.0.113.9', body: { owner: 'Ada Lovelace' } });
  });

  it('reads back as the erased marker once the subject is erased, the rest of the event intact', async () => {
    const { store, deps, run } = setUp();
    await run('account-1', 'open', openAccount(1));
    await run('account-1', 'deposit', { type: 'Deposit', data: { amounts: [5] }, now });
    await run('account-2', 'open-other-tenant', openAccount(2, 43));

    await deps.personalData.erase(tenantSubject(42));

    const [opened, deposited] = await decodeEvents(deps, await store.readStream('account-1'));
    expect(opened?.data).toEqual({ accountId: 1, tenantId: 42, owner: ERASED, openedAt: now.toISOString() });
    expect(opened?.metadata).toMatchObject({ ip: ERASED, body: ERASED, actor: 'user:7', tenantId: 42 });
    expect(deposited?.data).toEqual({ amount: 5 });
    const [otherTenant] = await decodeEvents(deps, await store.readStream('account-2'));
    expect(otherTenant?.data).toMatchObject({ owner: 'Ada Lovelace' });
  });

  it('still folds an erased stream, and refuses new personal data for an erased subject', async () => {
    const { store, deps, run } = setUp();
    await run('account-1', 'open', openAccount(1));
    await run('account-1', 'deposit', { type: 'Deposit', data: { amounts: [5] }, now });
    await deps.personalData.erase(tenantSubject(42));

    await expect(
      run('account-1', 'withdraw', { type: 'Withdraw', data: { amount: 5 }, now }),
    ).resolves.toMatchObject({ nextRevision: 2 });
    const refused = await run('account-3', 'open-3', openAccount(3)).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('conflict');
    expect(await store.readStream('account-3')).toHaveLength(0);
  });

  it('makes no key for an event with nothing to seal, and seals the next one that has', async () => {
    const keys = new InMemoryPersonalDataKeyStore();
    const { personalData } = setUp(keys).deps;
    const workflowEvent = { streamId: 'account-1', type: 'Deposited', data: { amount: 5 } };

    const stored = await personalData.protect({ ...workflowEvent, metadata: metadata({ tenantId: 42 }) });

    expect(stored).toEqual({ data: { amount: 5 }, metadata: metadata({ tenantId: 42 }) });
    expect(await keys.existingKey(tenantSubject(42))).toBeNull();
    const fromRequest = await personalData.protect({
      ...workflowEvent,
      metadata: metadata({ tenantId: 42, ip: '203.0.113.9' }),
    });
    expect(fromRequest.metadata.ip).toMatch(/^pd:v1:tenant:42:/);
    expect(await keys.existingKey(tenantSubject(42))).not.toBeNull();
  });
  it('belongs to the user on a user stream and to the tenant elsewhere', () => {
    const base = { data: {}, metadata: metadata({ tenantId: 9 }) };
    expect(subjectOf({ ...base, streamId: 'user-7' })).toBe(userSubject(7));
    expect(subjectOf({ ...base, streamId: 'tenant-42' })).toBe(tenantSubject(42));
    expect(subjectOf({ ...base, streamId: 'seller-5', data: { tenantId: 42 } })).toBe(tenantSubject(42));
    expect(subjectOf({ ...base, streamId: 'invite-42-ab12' })).toBe(tenantSubject(9));
    expect(subjectOf({ streamId: 'plan-3', data: {}, metadata: metadata() })).toBeNull();
  });
});

describe('SQLite personal-data key store', () => {
  const open = (path: string) => {
    const keys = new SqlitePersonalDataKeyStore({ path });
    files.track(keys);
    return keys;
  };

  it('keeps keys across reopening and gives every connection the same key', async () => {
    const path = files.freshPath('keys');
    const [a, b] = [open(path), open(path)];

    const [fromA, fromB] = await Promise.all([a.keyFor('tenant:1'), b.keyFor('tenant:1')]);
    const reopened = open(path);

    expect(fromA).toEqual(fromB);
    expect(await reopened.existingKey('tenant:1')).toEqual(fromA);
    expect(await reopened.existingKey('tenant:2')).toBeNull();
  });

  it('erases for good: the key is gone from the file and never made again', async () => {
    const path = files.freshPath('keys');
    const keys = open(path);
    const key = await keys.keyFor('tenant:1');
    await keys.keyFor('tenant:2');
    if (key === 'erased') throw new Error('a new subject has a key');

    await keys.erase('tenant:1');

    expect(await keys.existingKey('tenant:1')).toBeNull();
    expect(await keys.keyFor('tenant:1')).toBe('erased');
    expect(await open(path).existingKey('tenant:2')).not.toBeNull();
    for (const file of [path, `${path}-wal`]) {
      const bytes = (() => {
        try {
          return readFileSync(file);
        } catch {
          return Buffer.alloc(0);
        }
      })();
      expect(bytes.includes(key)).toBe(false);
    }
  });

  it('erases personal data end to end through the command handler', async () => {
    const keys = open(files.freshPath('keys'));
    const { store, deps, run } = setUp(keys);
    await run('account-1', 'open', openAccount(1));

    await deps.personalData.erase(tenantSubject(42));

    const [opened] = await decodeEvents(deps, await store.readStream('account-1'));
    expect(opened?.data).toMatchObject({ owner: ERASED, accountId: 1 });
  });
});
