import mongoose from 'mongoose';
import type { Logger } from 'pino';
import type { Config } from '../contracts/config';
import { check, healthReport, type RunningProcess } from '../contracts/health';
import { buildApp } from './app';

/** The gateway process: the HTTP API, websockets and the built web app. */
export const startGatewayRole = async (config: Config, logger: Logger): Promise<RunningProcess> => {
  const mongo = await mongoose
    .createConnection(config.MONGO_URL, { serverSelectionTimeoutMS: 5000 })
    .asPromise();
  const health = async () => healthReport('gateway', [await check('mongo', () => mongo.db!.admin().ping())]);
  const app = await buildApp({ config, logger, health });
  await app.listen({ host: config.GATEWAY_HOST, port: config.GATEWAY_PORT });
  return {
    name: 'gateway',
    health,
    stop: async () => {
      await app.close();
      await mongo.close();
    },
  };
};
