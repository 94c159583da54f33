import type { Actor } from '../domain/actor';
import type { TenantCommand } from '../domain/tenant/decide';
import { tenantDecider } from '../domain/tenant/tenant-decider';
import { handleCommand, type CommandHandlerDeps } from './command-handler';
import { decodeEvents } from './event-codec';
import { eventRegistry } from './event-registry';
import { allocateId } from './id-allocator';
import { ERASED, createPersonalDataProtector, tenantSubject } from './personal-data';
import { InMemoryPersonalDataKeyStore } from './personal-data-key-store';
import { runWithRequestContext } from './request-context';
import { useTempSqliteFiles } from './testing/temp-sqlite-files';
import { tenantStream } from '../contracts/stream-ids';

// The real tenant decider through the whole write side: ids, contracts, personal data, If-Match.
const files = useTempSqliteFiles();
const now = new Date('2025-05-01T09:00:00.000Z');
const founder: Actor = { userId: 7, isPlatformAdmin: false, tenantRole: null, isAdvisor: false };
const admin: Actor = { userId: 1, isPlatformAdmin: true, tenantRole: null, isAdvisor: false };

const setUp = () => {
  const store = files.openStore();
  const deps: CommandHandlerDeps = {
    store,
    registry: eventRegistry,
    personalData: createPersonalDataProtector({
      keys: new InMemoryPersonalDataKeyStore(),
      registry: eventRegistry,
    }),
  };
  const run = (commandId: string, streamId: string, command: TenantCommand, ifMatch?: number) =>
    runWithRequestContext({ actor: 'user:7', body: command.data }, () =>
      handleCommand(tenantDecider, { streamId, commandId, command, ifMatch }, deps),
    );
  return { store, deps, run };
};

const createTenant = async (setup: ReturnType<typeof setUp>, commandId: string) => {
  const tenantId = await allocateId(setup.store, { category: 'tenant', commandId, now });
  const result = await setup.run(commandId, tenantStream(tenantId), {
    type: 'CreateTenant',
    data: { tenantId, name: 'Lovelace Analytics', classification: 'BUSINESS' },
    now,
    actor: founder,
  });
  return { tenantId, result };
};

describe('tenant commands through handleCommand', () => {
  it('creates a tenant under a fresh id, once, however often the command is retried', async () => {
    const setup = setUp();

    const first = await createTenant(setup, 'create-acme');
    const retried = await createTenant(setup, 'create-acme');

    expect(retried).toEqual(first);
    expect(first.result.events).toMatchObject([
      { type: 'TenantCreated', data: { TenantId: first.tenantId, Name: 'Lovelace Analytics', CreatedBy: 7 } },
    ]);
    expect(await setup.store.readStream(tenantStream(first.tenantId))).toHaveLength(1);
  });

  it('renames with the revision the browser saw, and refuses a second edit from the same page', async () => {
    const setup = setUp();
    const { tenantId, result } = await createTenant(setup, 'create');
    const rename = (name: string): TenantCommand => ({
      type: 'RenameTenant',
      data: { name },
      now,
      actor: { ...founder, tenantRole: 'ADMIN' },
    });

    const renamed = await setup.run(
      'rename-1',
      tenantStream(tenantId),
      rename('Ada Analytics'),
      result.nextRevision,
    );
    const stale = await setup
      .run('rename-2', tenantStream(tenantId), rename('Byron Analytics'), result.nextRevision)
      .catch((e: unknown) => e);

    expect(renamed.nextRevision).toBe(1);
    expect(stale).toMatchObject({ code: 'stale' });
  });

  it('erases the tenant name on purge while the rest of its history stays readable', async () => {
    const setup = setUp();
    const { tenantId } = await createTenant(setup, 'create');
    const stream = tenantStream(tenantId);
    await setup.run('disable', stream, {
      type: 'DisableTenant',
      data: { reason: 'TESTING' },
      now,
      actor: admin,
    });
    await setup.run('purge', stream, { type: 'PurgeTenant', data: { permanent: true }, now, actor: admin });

    await setup.deps.personalData.erase(tenantSubject(tenantId));

    const raw = await setup.store.readStream(stream);
    expect(JSON.stringify(raw)).not.toContain('Lovelace');
    const [created, disabled, purged] = await decodeEvents(setup.deps, raw);
    expect(created?.data).toMatchObject({ TenantId: tenantId, Name: ERASED, Classification: 'BUSINESS' });
    expect(disabled?.data).toMatchObject({ Reason: 'TESTING' });
    expect(purged?.data).toMatchObject({ Permanent: true });
  });
});
