import { z } from 'zod';
import { AppError } from '../contracts/errors';
import { handleCommand } from './command-handler';
import { decodeEvents } from './event-codec';
import { eventIdFor } from './event-id';
import {
  aggregateEvents,
  createEventRegistry,
  eventRegistry,
  upcastPayload,
  validatedPayload,
} from './event-registry';
import { createPersonalDataProtector } from './personal-data';
import { InMemoryPersonalDataKeyStore } from './personal-data-key-store';
import { metadataFor } from './request-context';
import {
  AccountOpened,
  Withdrawn,
  accountDecider,
  accountEventVersions,
  accountPersonalDataFields,
} from './testing/account-decider';
import { useTempSqliteFiles } from './testing/temp-sqlite-files';

const files = useTempSqliteFiles();
const now = new Date('2025-05-01T09:00:00.000Z');

/** A made-up version 2 of Deposited: v1 had a bare number `value`, v2 has `amount`. */
const DepositedV2 = z.object({
  type: z.literal('Deposited'),
  data: z.object({ amount: z.int().positive() }),
});
const AccountEventV2 = z.discriminatedUnion('type', [AccountOpened, DepositedV2, Withdrawn]);
const upcastedRegistry = createEventRegistry([
  {
    ...aggregateEvents(AccountEventV2, { ...accountEventVersions, Deposited: 2 }, accountPersonalDataFields),
    upcasters: { Deposited: { 1: (data) => ({ amount: (data as { value: number }).value }) } },
  },
]);

describe('event registry', () => {
  it('knows every event type of the aggregates whose contracts exist, with version and personal fields', () => {
    expect(eventRegistry.definitionOf('TenantCreated')).toMatchObject({
      schemaVersion: 1,
      personalDataFields: expect.arrayContaining(['Name']) as unknown,
    });
    expect(eventRegistry.definitionOf('SellerConnected')?.personalDataFields).toContain('authTokenOwner');
    expect(eventRegistry.types()).toEqual(expect.arrayContaining(['UserRegistered', 'IdAllocated']));
    expect(eventRegistry.definitionOf('NoSuchEvent')).toBeUndefined();
  });

  it('validates a payload against its contract and names the bad fields', () => {
    expect(validatedPayload(upcastedRegistry, { type: 'Deposited', data: { amount: 3 } })).toEqual({
      data: { amount: 3 },
      schemaVersion: 2,
    });
    let error: unknown;
    try {
      validatedPayload(upcastedRegistry, { type: 'Deposited', data: { amount: -1 } });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('validation');
    expect((error as AppError).properties).toHaveProperty('amount');
  });

  it('upcasts stored data of an older version through the chain, and leaves current data alone', () => {
    expect(
      upcastPayload(upcastedRegistry, { type: 'Deposited', schemaVersion: 1, data: { value: 4 } }),
    ).toEqual({ amount: 4 });
    expect(
      upcastPayload(upcastedRegistry, { type: 'Deposited', schemaVersion: 2, data: { amount: 4 } }),
    ).toEqual({ amount: 4 });
  });

  it('refuses, at start-up, a version bump without its upcaster and a type registered twice', () => {
    const v3 = { ...accountEventVersions, Deposited: 3 };
    expect(() =>
      createEventRegistry([
        {
          ...aggregateEvents(AccountEventV2, v3, accountPersonalDataFields),
          upcasters: { Deposited: { 1: (d) => d } },
        },
      ]),
    ).toThrow('Deposited v3 has no upcaster from v2');
    const account = aggregateEvents(AccountEventV2, accountEventVersions, accountPersonalDataFields);
    expect(() => createEventRegistry([account, account])).toThrow('registered twice');
  });

  it('refuses to read data written by a newer program', () => {
    expect(() => upcastPayload(upcastedRegistry, { type: 'Deposited', schemaVersion: 3, data: {} })).toThrow(
      'newer than this program knows',
    );
  });

  it('lets the command handler fold v1 events already in the store as v2', async () => {
    const store = files.openStore();
    const personalData = createPersonalDataProtector({
      keys: new InMemoryPersonalDataKeyStore(),
      registry: upcastedRegistry,
    });
    const deps = { store, registry: upcastedRegistry, personalData };
    await handleCommand(
      accountDecider,
      {
        streamId: 'account-1',
        commandId: 'open',
        command: { type: 'OpenAccount', data: { accountId: 1, tenantId: 42, owner: 'Ada' }, now },
      },
      deps,
    );
    // A deposit written by the old code, before the upgrade.
    await store.append(
      'account-1',
      [
        {
          id: eventIdFor('old-deposit', 0),
          type: 'Deposited',
          schemaVersion: 1,
          data: { value: 10 },
          metadata: metadataFor('old-deposit', now),
        },
      ],
      { kind: 'exact', revision: 0 },
    );

    // The balance of 10 is only there if the old deposit was upcast before folding.
    await handleCommand(
      accountDecider,
      { streamId: 'account-1', commandId: 'w', command: { type: 'Withdraw', data: { amount: 10 }, now } },
      deps,
    );
    const [, oldDeposit, withdrawal] = await decodeEvents(deps, await store.readStream('account-1'));
    expect(oldDeposit).toMatchObject({ schemaVersion: 2, data: { amount: 10 } });
    expect(withdrawal).toMatchObject({ schemaVersion: 1, data: { amount: 10 } });
  });
});
