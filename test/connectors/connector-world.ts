import { NativeConnection, type Worker } from '@temporalio/worker';
import type { Db } from 'mongodb';
import { handleCommand } from '../../commands/command-handler';
import { createCredentialVault, type Secret } from '../../commands/credential-vault';
import type { EventSource } from '../../commands/open-event-source';
import type { Config } from '../../contracts/config';
import type { SellerProvider } from '../../contracts/events/seller';
import { emptyLedgerPage, type LedgerEntity, type LedgerPage } from '../../contracts/ledger';
import { sellerStream } from '../../contracts/stream-ids';
import { systemActor } from '../../domain/actor';
import { sellerDecider } from '../../domain/seller/seller-decider';
import { ledgerCollections, ledgerEntities, type LedgerDoc } from '../../workflows/ledger/ledger-collections';
import { createMetricsWorker } from '../../workflows/metrics/worker';
import { startSellerSync } from '../../workflows/sync/client';
import { connectorsFor } from '../../workflows/sync/connectors';
import { createSyncWorker } from '../../workflows/sync/worker';
import type { syncSellerWorkflow } from '../../workflows/sync/workflows';
import { readState } from '../../workflows/sync/system-commands';
import type { LedgerWorld } from '../workflows/ledger-world';

/**
 * The connector tests' pipeline: the ledger world of test/workflows (own database, event store, task
 * queues) with sync workers whose connectors point at the fakes, and sellers connected with tokens
 * sealed in the credential vault as a finished connect leaves them.
 */
export const connectorWorkers = (world: LedgerWorld, config: () => Config) => {
  let native: NativeConnection | undefined;
  const start = async (): Promise<Worker[]> => {
    native ??= await NativeConnection.connect({ address: world.config.TEMPORAL_ADDRESS });
    const db = world.db();
    const deps = { db, writeSide: world.events().writeSide, now: () => new Date() };
    return [
      await createSyncWorker({
        connection: native,
        config: world.config,
        deps: {
          ...deps,
          connectorFor: connectorsFor(db, { config: config(), writeSide: deps.writeSide, now: deps.now }),
        },
      }),
      await createMetricsWorker({ connection: native, config: world.config, deps }),
    ];
  };
  return {
    /** Runs workers until `work` settles. */
    run: async <T>(work: () => Promise<T>): Promise<T> => {
      const [first, ...others] = await start();
      const runs = others.map((w) => w.run());
      try {
        return await first!.runUntil(work());
      } finally {
        others.forEach((w) => w.shutdown());
        await Promise.all(runs);
      }
    },
    close: async () => {
      await native?.close();
    },
  };
};

export const connectOAuthSeller = async (
  world: LedgerWorld,
  seller: {
    sellerId: number;
    tenantId: number;
    provider: SellerProvider;
    companyName: string;
    secret: Secret;
  },
) => {
  const vault = createCredentialVault({ db: world.db(), masterSecret: world.config.SESSION_SECRET });
  const credentialsRef = await vault.store({
    tenantId: seller.tenantId,
    kind: 'oauth',
    secret: seller.secret,
  });
  await handleCommand(
    sellerDecider,
    {
      streamId: sellerStream(seller.sellerId),
      commandId: `connect-${seller.sellerId}-${credentialsRef}`,
      command: {
        type: 'ConnectSeller',
        now: new Date(),
        data: {
          sellerId: seller.sellerId,
          tenantId: seller.tenantId,
          provider: seller.provider,
          actor: systemActor,
          tenantIsDemo: false,
          tenantHasConnectedSeller: false,
          planAllowsProvider: true,
          companyName: seller.companyName,
          url: null,
          authMethod: 'oauth2',
          authTokenOwner: null,
          credentialsRef,
          companyFilePath: null,
        },
      },
    },
    world.events().writeSide,
  );
  return credentialsRef;
};

export const sellerState = async (world: LedgerWorld, sellerId: number) => {
  const state = await readState(world.events().writeSide, sellerDecider, sellerStream(sellerId));
  if (state.status !== 'known') throw new Error(`seller ${sellerId} is not known`);
  return state;
};

/** Runs one sync to its end and answers its result, or the failure's message. */
export const runSync = async (
  world: LedgerWorld,
  workers: ReturnType<typeof connectorWorkers>,
  request: {
    sellerId: number;
    tenantId: number;
    mode: 'populate' | 'sync' | 'repopulate';
    jobId: number;
    pageSize?: number;
  },
) => {
  const started = await startSellerSync(
    { ...request, onlyFetch: true, pageSize: request.pageSize ?? 100 },
    world.temporal(),
  );
  return workers.run(async () => {
    try {
      const result = await world
        .client()
        .workflow.getHandle<typeof syncSellerWorkflow>(started.workflowId)
        .result();
      return { ok: true as const, result };
    } catch (error) {
      let deepest = error as { cause?: unknown; message?: string };
      while (deepest.cause) deepest = deepest.cause;
      return { ok: false as const, reason: deepest.message ?? String(error) };
    }
  });
};

/** The stored ledger of a seller without storage fields. */
export const storedLedger = async (db: Db, sellerId: number): Promise<LedgerPage> => {
  const page = emptyLedgerPage();
  for (const entity of ledgerEntities) {
    const docs = await db
      .collection<LedgerDoc<LedgerEntity>>(ledgerCollections[entity])
      .find({ sellerId }, { projection: { _id: 0, tenantId: 0, epoch: 0, hash: 0, changedAt: 0 } })
      .toArray();
    (page[entity] as unknown[]).push(...docs);
  }
  return page;
};

export const sumOf = <T>(rows: T[], amount: (row: T) => number) =>
  rows.reduce((n, row) => n + amount(row), 0);

export type { EventSource };

type PlatformFake = { configValues: Partial<Record<keyof Config, unknown>>; close: () => Promise<void> };

/**
 * A platform fake for the file's tests, started in beforeAll and closed in afterAll, with sync workers
 * whose connectors point at it. `fake()` is the running fake; `settings` are config values the file adds
 * (a longer retry wait, say), `prepare` what it does to the fake once started (lifting a rate limit).
 */
export const usePlatformFake = <F extends PlatformFake>(
  world: LedgerWorld,
  start: () => Promise<F>,
  options: { settings?: Partial<Config>; prepare?: (fake: F) => void } = {},
) => {
  let running: F | undefined;
  let config: Config | undefined;
  const workers = connectorWorkers(world, () => {
    if (!config) throw new Error('the platform fake is used before beforeAll');
    return config;
  });
  beforeAll(async () => {
    running = await start();
    options.prepare?.(running);
    config = { ...world.config, ...running.configValues, ...options.settings } as Config;
  });
  afterAll(async () => {
    await workers.close();
    await running?.close();
  });
  const fake = (): F => {
    if (!running) throw new Error('the platform fake is used before beforeAll');
    return running;
  };
  return { fake, workers };
};
