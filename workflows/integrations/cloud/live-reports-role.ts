import type { Client } from '@temporalio/client';
import type { NativeConnection, Worker } from '@temporalio/worker';
import type { Db } from 'mongodb';
import type { Logger } from 'pino';
import type { CommandHandlerDeps } from '../../../commands/command-handler';
import type { Config } from '../../../contracts/config';
import { createCloudTokens } from './cloud-tokens';
import { startLiveReportsReactor } from './live-reports-reactor';
import { createLiveReportsWorker } from './worker';

/**
 * Everything the worker process needs for Live Reports (docs/adr/0049-live-reports.md), in one call:
 * the live reports worker (its own queue and workflow bundle) with the cloud accounts' tokens, and the
 * reactor that starts a refresh after every sync. The caller runs `worker` with its other workers and
 * calls `stop` before shutting them down.
 */
export const startLiveReports = async (options: {
  connection: NativeConnection;
  client: Client;
  config: Config;
  db: Db;
  writeSide: CommandHandlerDeps;
  logger: Logger;
  now?: () => Date;
}): Promise<{ worker: Worker; stop: () => Promise<void> }> => {
  const { connection, client, config, db, writeSide, logger } = options;
  const now = options.now ?? (() => new Date());
  const worker = await createLiveReportsWorker({
    connection,
    config,
    deps: {
      db,
      writeSide,
      now,
      config,
      client,
      tokensFor: createCloudTokens({ db, writeSide, config, now }),
    },
  });
  const reactor = startLiveReportsReactor({
    writeSide,
    db,
    client,
    config,
    now,
    logger: logger.child({ reactor: 'live-reports' }),
  });
  return { worker, stop: () => reactor.stop() };
};
