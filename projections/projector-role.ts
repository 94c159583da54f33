import mongoose from 'mongoose';
import type { Logger } from 'pino';
import type { Config } from '../contracts/config';
import { check, healthReport, type RunningProcess } from '../contracts/health';

/** The projector process: runs the projection processors that build the Mongo read models. */
export const startProjectorRole = async (config: Config, logger: Logger): Promise<RunningProcess> => {
  const mongo = await mongoose
    .createConnection(config.MONGO_URL, { serverSelectionTimeoutMS: 5000 })
    .asPromise();
  logger.debug({ database: mongo.name }, 'connected to the read-model database');
  return {
    name: 'projector',
    health: async () => healthReport('projector', [await check('mongo', () => mongo.db!.admin().ping())]),
    stop: async () => {
      await mongo.close();
    },
  };
};
