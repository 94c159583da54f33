import { MongoClient } from 'mongodb';
import type { Logger } from 'pino';
import type { Config } from '../contracts/config';
import { check, healthReport, type RunningProcess } from '../contracts/health';
import { openEventSource } from '../projections/open-event-store';
import { buildApp } from './app';
import { createSessionStore } from './auth/session-store';

/** The gateway process: the HTTP API, websockets and the built web app. */
export const startGatewayRole = async (config: Config, logger: Logger): Promise<RunningProcess> => {
  const mongo = await MongoClient.connect(config.MONGO_URL, { serverSelectionTimeoutMS: 5000 });
  const health = async () => healthReport('gateway', [await check('mongo', () => mongo.db().admin().ping())]);
  const events = await openEventSource(config);
  const sessions = await createSessionStore(mongo.db());
  const app = await buildApp({ config, logger, health, services: { sessions, events } });
  await app.listen({ host: config.GATEWAY_HOST, port: config.GATEWAY_PORT });
  return {
    name: 'gateway',
    health,
    stop: async () => {
      await app.close();
      await events.close();
      await mongo.close();
    },
  };
};
