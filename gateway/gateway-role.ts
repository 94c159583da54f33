import type { Logger } from 'pino';
import type { Config } from '../contracts/config';
import { check, healthReport, type RunningProcess } from '../contracts/health';
import { openEventSource } from '../commands/open-event-source';
import { openReadStore } from '../projections/read-store/open-read-store';
import { createMailer } from '../workflows/email/smtp-mailer';
import { buildApp } from './app';
import { startLive } from './live/live-service';
import { createGatewayServices } from './services';

/** The gateway process: the HTTP API, websockets and the built web app. */
export const startGatewayRole = async (config: Config, logger: Logger): Promise<RunningProcess> => {
  const readStore = await openReadStore(config);
  const { db } = readStore;
  const source = await openEventSource(config);
  // Each dependency by name, so a failing health check says which one is down.
  const health = async () =>
    healthReport('gateway', [
      await check('read store', readStore.ping),
      await check('event store', () => source.writeSide.store.headPosition()),
    ]);
  const mailer = createMailer(config);
  const services = await createGatewayServices({ config, db, source, mailer });
  // Each gateway process follows the store itself and notifies its own sockets.
  const live = await startLive({ store: source.writeSide.store, db, logger });
  services.live = live.service;
  const app = await buildApp({ config, logger, health, services });
  await app.listen({ host: config.GATEWAY_HOST, port: config.GATEWAY_PORT });
  return {
    name: 'gateway',
    health,
    stop: async () => {
      await app.close();
      await live.stop();
      mailer.close();
      await source.close();
      await readStore.close();
    },
  };
};
