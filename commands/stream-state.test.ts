import { foldEvents } from '../domain/decider';
import { handleCommand, type CommandHandlerDeps } from './command-handler';
import { decodeEvents, toDomainEvent } from './event-codec';
import type { EventStore } from './event-store/event-store';
import { createPersonalDataProtector } from './personal-data';
import { InMemoryPersonalDataKeyStore } from './personal-data-key-store';
import { loadStreamState } from './stream-state';
import {
  accountDecider,
  accountRegistry,
  type AccountCommand,
  type AccountEvent,
} from './testing/account-decider';
import { useTempSqliteFiles } from './testing/temp-sqlite-files';

const files = useTempSqliteFiles();
const now = new Date('2025-05-01T09:00:00.000Z');
const keys = new InMemoryPersonalDataKeyStore();
const depsFor = (store: EventStore): CommandHandlerDeps => ({
  store,
  registry: accountRegistry,
  personalData: createPersonalDataProtector({ keys, registry: accountRegistry }),
});

const command = (commandId: string, cmd: AccountCommand) => ({
  streamId: 'account-1',
  commandId,
  command: cmd,
});
const open = command('open', {
  type: 'OpenAccount',
  data: { accountId: 1, tenantId: 42, owner: 'Ada' },
  now,
});
const deposit = (id: string, amount: number) =>
  command(id, { type: 'Deposit', data: { amounts: [amount] }, now });

/** The state as a fresh fold of the whole stream gives it: what the cache must always agree with. */
const foldedFromScratch = async (deps: CommandHandlerDeps) =>
  foldEvents(
    accountDecider,
    (await decodeEvents(deps, await deps.store.readStream('account-1'))).map(toDomainEvent) as AccountEvent[],
  );

describe('loadStreamState', () => {
  it('sees events another process appended since it last loaded the stream', async () => {
    const store = files.openStore();
    const here = depsFor(store);
    const elsewhere = depsFor(files.openStore(store.path));
    await handleCommand(accountDecider, open, here);
    await handleCommand(accountDecider, deposit('d1', 5), here);
    expect((await loadStreamState(here, accountDecider, 'account-1')).state).toMatchObject({ balance: 5 });

    await handleCommand(accountDecider, deposit('d2', 7), elsewhere);
    const loaded = await loadStreamState(here, accountDecider, 'account-1');

    expect(loaded.state).toEqual(await foldedFromScratch(here));
    expect(loaded.state).toMatchObject({ balance: 12 });
    expect(loaded.revision).toBe(2);
    expect(loaded.appendedBy('d2')).toBe(true);
  });

  it('starts over when the stream was deleted behind it, instead of answering the old state', async () => {
    const deps = depsFor(files.openStore());
    await handleCommand(accountDecider, open, deps);
    await handleCommand(accountDecider, deposit('d1', 5), deps);
    await loadStreamState(deps, accountDecider, 'account-1');

    await deps.store.deleteStream('account-1');
    const loaded = await loadStreamState(deps, accountDecider, 'account-1');

    expect(loaded.state).toEqual({ opened: false });
    expect(loaded.revision).toBe(-1);
    expect(loaded.appendedBy('d1')).toBe(false);
  });

  it('recognises a retried command after the stream was cached, and appends nothing for it', async () => {
    const deps = depsFor(files.openStore());
    await handleCommand(accountDecider, open, deps);
    const first = await handleCommand(accountDecider, deposit('d1', 5), deps);
    await handleCommand(accountDecider, deposit('d2', 6), deps);

    const retried = await handleCommand(accountDecider, deposit('d1', 5), deps);

    expect(retried).toEqual(first);
    expect(await deps.store.readStream('account-1')).toHaveLength(3);
    expect(await foldedFromScratch(deps)).toMatchObject({ balance: 11 });
  });

  it('keeps a state no caller can change in place (frozen under test)', async () => {
    const deps = depsFor(files.openStore());
    await handleCommand(accountDecider, open, deps);
    const { state } = await loadStreamState(deps, accountDecider, 'account-1');

    expect(() => {
      (state as { balance: number }).balance = 1_000_000;
    }).toThrow(TypeError);
    expect((await loadStreamState(deps, accountDecider, 'account-1')).state).toMatchObject({ balance: 0 });
  });
  it('reads nothing again while nothing was committed, and reads again after any commit (ADR 54)', async () => {
    const store = files.openStore();
    const here = depsFor(store);
    const elsewhere = depsFor(files.openStore(store.path));
    await handleCommand(accountDecider, open, here);
    await loadStreamState(here, accountDecider, 'account-1');
    const reads = jest.spyOn(store, 'readStream');

    // The route's check and the command of one request: the second load reads nothing.
    await loadStreamState(here, accountDecider, 'account-1');
    await loadStreamState(here, accountDecider, 'account-1');
    expect(reads).toHaveBeenCalledTimes(0);

    // A commit of another connection (another process), even to another stream, is looked at.
    await handleCommand(accountDecider, { ...open, streamId: 'account-2', commandId: 'open-2' }, elsewhere);
    await loadStreamState(here, accountDecider, 'account-1');
    expect(reads).toHaveBeenCalledTimes(1);
    await handleCommand(accountDecider, deposit('d2', 7), elsewhere);
    const loaded = await loadStreamState(here, accountDecider, 'account-1');
    expect(reads).toHaveBeenCalledTimes(2);
    expect(loaded.state).toMatchObject({ balance: 7 });
    expect(loaded.appendedBy('d2')).toBe(true);

    // And one of this connection's own.
    await here.store.deleteStream('account-1');
    const reopened = await loadStreamState(here, accountDecider, 'account-1');
    expect(reads).toHaveBeenCalledTimes(4); // the check of the cached copy, then the whole stream
    expect(reopened.state).toEqual({ opened: false });
  });

  it('folds its own appends into the cached copy: the next load decodes nothing (ADR 54)', async () => {
    const store = files.openStore();
    const here = depsFor(store);
    const elsewhere = depsFor(files.openStore(store.path));
    await handleCommand(accountDecider, open, here);
    await loadStreamState(here, accountDecider, 'account-1');
    const reveals = jest.spyOn(here.personalData, 'reveal');
    const reads = jest.spyOn(store, 'readStream');

    await handleCommand(accountDecider, deposit('d1', 5), here);
    await handleCommand(accountDecider, deposit('d2', 6), here);
    const loaded = await loadStreamState(here, accountDecider, 'account-1');

    // Each command's load found the copy its predecessor left: anchors were read, nothing decoded.
    expect(reveals).not.toHaveBeenCalled();
    for (const [, options] of reads.mock.calls) expect(options?.fromRevision).toBeDefined();
    expect(loaded.state).toEqual(await foldedFromScratch(here));
    expect(loaded.state).toMatchObject({ balance: 11 });
    expect(loaded.revision).toBe(2);
    expect(loaded.appendedBy('d2')).toBe(true);

    // Another process's append on top is still read, decoded and folded in.
    await handleCommand(accountDecider, deposit('d3', 7), elsewhere);
    reveals.mockClear();
    const after = await loadStreamState(here, accountDecider, 'account-1');
    expect(reveals).toHaveBeenCalledTimes(1);
    expect(after.state).toEqual(await foldedFromScratch(here));
    expect(after.state).toMatchObject({ balance: 18 });
  });
});
