import { MongoClient } from 'mongodb';
import type { Logger } from 'pino';
import type { Config } from '../contracts/config';
import { check, healthReport, type HealthCheck, type RunningProcess } from '../contracts/health';
import { ProjectionProcessor } from './framework/projection-processor';
import { openEventSource } from '../commands/open-event-source';
import { projections } from './registry';

/** The projector process: one processor per read model, each from its own checkpoint. */
export const startProjectorRole = async (config: Config, logger: Logger): Promise<RunningProcess> => {
  const mongo = await MongoClient.connect(config.MONGO_URL, { serverSelectionTimeoutMS: 5000 });
  const source = await openEventSource(config).catch(async (error: unknown) => {
    await mongo.close();
    throw error;
  });
  const { store, decode } = source;
  const db = mongo.db();
  logger.debug({ database: db.databaseName }, 'connected to the read-model database');
  const processors = projections.map(
    (projection) => new ProjectionProcessor({ db, store, decode, projection, logger }),
  );
  for (const processor of processors) processor.start();

  /** A processor is healthy while it runs without a failing batch; its lag is reported either way. */
  const processorChecks = async (): Promise<HealthCheck[]> => {
    const head = await store.headPosition();
    return processors.map((processor) => {
      const { name, version, checkpoint, running, lastError } = processor.status();
      const lag = Math.max(0, head - checkpoint);
      const detail = `version ${version ?? '-'}, checkpoint ${checkpoint}, head ${head}, lag ${lag}`;
      return {
        name: `projection:${name}`,
        ok: running && lastError === null,
        detail: lastError ? `${detail}; failing: ${lastError}` : detail,
      };
    });
  };

  return {
    name: 'projector',
    health: async () =>
      healthReport('projector', [
        await check('mongo', () => db.admin().ping()),
        ...(await processorChecks()),
      ]),
    stop: async () => {
      // Processors first: each finishes its batch and saves its checkpoint before the connections go.
      await Promise.all(processors.map((processor) => processor.stop()));
      await source.close();
      await mongo.close();
    },
  };
};
