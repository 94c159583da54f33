import { AppError } from '../contracts/errors';
import type { Actor } from '../domain/actor';
import type { TenantCommand } from '../domain/tenant/decide';
import { tenantDecider } from '../domain/tenant/tenant-decider';
import { handleCommand, type CommandHandlerDeps } from './command-handler';
import { decodeEvents } from './event-codec';
import { eventRegistry } from './event-registry';
import { ERASED, createPersonalDataProtector, tenantSubject } from './personal-data';
import { InMemoryPersonalDataKeyStore } from './personal-data-key-store';
import { runWithRequestContext } from './request-context';
import { streamHistory } from './stream-history';
import { useTempSqliteFiles } from './testing/temp-sqlite-files';

const files = useTempSqliteFiles();
const admin: Actor = { userId: 1, isPlatformAdmin: true, tenantRole: null, isAdvisor: false };
const at = (minute: number) => new Date(Date.UTC(2025, 4, 1, 9, minute));

const setUp = async () => {
  const store = files.openStore();
  const deps: CommandHandlerDeps = {
    store,
    registry: eventRegistry,
    personalData: createPersonalDataProtector({
      keys: new InMemoryPersonalDataKeyStore(),
      registry: eventRegistry,
    }),
  };
  const run = (commandId: string, command: TenantCommand, ip: string) =>
    runWithRequestContext(
      { actor: 'user:1', ip, method: 'PUT', url: '/api/tenants/5', body: command.data },
      () => handleCommand(tenantDecider, { streamId: 'tenant-5', commandId, command }, deps),
    );
  await run(
    'c1',
    {
      type: 'CreateTenant',
      data: { tenantId: 5, name: 'Acme', classification: 'BUSINESS' },
      now: at(0),
      actor: admin,
    },
    '10.0.0.1',
  );
  await run(
    'c2',
    { type: 'RenameTenant', data: { name: 'Acme Receivables' }, now: at(1), actor: admin },
    '10.0.0.2',
  );
  await run(
    'c3',
    { type: 'DisableTenant', data: { reason: 'TESTING' }, now: at(2), actor: admin },
    '10.0.0.3',
  );
  const source = {
    store,
    decode: (events: Parameters<typeof decodeEvents>[1]) => decodeEvents(deps, events),
  };
  return { deps, source };
};

describe('stream history (audit replay)', () => {
  it('gives every event with its request metadata and the aggregate state after it', async () => {
    const { source } = await setUp();
    const history = await streamHistory(source, 'tenant-5');

    expect(history.steps.map((s) => s.event.type)).toEqual([
      'TenantCreated',
      'TenantRenamed',
      'TenantDisabled',
    ]);
    expect(history.steps.map((s) => s.event.metadata.ip)).toEqual(['10.0.0.1', '10.0.0.2', '10.0.0.3']);
    expect(history.steps.map((s) => s.event.metadata.actor)).toEqual(['user:1', 'user:1', 'user:1']);
    expect(history.steps.map((s) => s.stateAfter)).toMatchObject([
      { status: 'active', name: 'Acme' },
      { status: 'active', name: 'Acme Receivables' },
      { status: 'disabled', name: 'Acme Receivables' },
    ]);
    expect(history.nextRevision).toBeNull();
  });

  it('pages through a long stream, folding the state from the start for a later page', async () => {
    const { source } = await setUp();
    const first = await streamHistory(source, 'tenant-5', { maxCount: 2 });
    expect(first.steps).toHaveLength(2);
    expect(first.nextRevision).toBe(2);

    const second = await streamHistory(source, 'tenant-5', { fromRevision: 2, maxCount: 2 });
    expect(second.steps.map((s) => s.event.revision)).toEqual([2]);
    expect(second.steps[0]?.stateAfter).toMatchObject({ status: 'disabled', name: 'Acme Receivables' });
    expect(second.nextRevision).toBeNull();
  });

  it('shows erased personal data as erased after a purge erased the tenant key', async () => {
    const { deps, source } = await setUp();
    await deps.personalData.erase(tenantSubject(5));
    const history = await streamHistory(source, 'tenant-5');
    expect(history.steps[1]?.stateAfter).toMatchObject({ name: ERASED });
    expect(history.steps[1]?.event.metadata.ip).toBe(ERASED);
  });

  it('refuses streams that are not aggregates, or do not exist, as not found', async () => {
    const { source } = await setUp();
    for (const streamId of ['ids-tenant', 'tenant-404', 'nonsense']) {
      await expect(streamHistory(source, streamId)).rejects.toMatchObject({ code: 'not_found' });
    }
    await expect(streamHistory(source, 'ids-tenant')).rejects.toBeInstanceOf(AppError);
  });
});
