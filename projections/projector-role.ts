import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { Config } from '../contracts/config';
import { check, healthReport, type HealthCheck, type RunningProcess } from '../contracts/health';
import { LeasedProjection, projectionLeaseMs } from './framework/leased-projection';
import { mongoLease } from './framework/mongo-lease';
import { ProjectionProcessor } from './framework/projection-processor';
import { openEventSource } from '../commands/open-event-source';
import { projections } from './registry';
import { openReadStore } from './read-store/open-read-store';

/**
 * How often at most the projectors wake while events stream in (docs/adr/0054, 31st session): the
 * gateway sees their checkpoints by polling every 20 ms (read-your-writes.ts), so batching the same
 * 20 ms of events costs its readers little, and a scheduled send's stream of appends is projected in
 * fewer batches (3.1 to 3.8 cpu s for a 1,000-seller tick, against 4.5 to 5.8 without).
 */
const PROJECTOR_WAKE_SPACING_MS = 20;

/** The projector process: one processor per read model, each from its own checkpoint. */
export const startProjectorRole = async (config: Config, logger: Logger): Promise<RunningProcess> => {
  const readStore = await openReadStore(config, {
    onDamaged: (message, aside) =>
      logger.warn(
        { message, aside },
        'the read store was damaged; set aside, read models rebuild from the event store',
      ),
  });
  const source = await openEventSource(config).catch(async (error: unknown) => {
    await readStore.close();
    throw error;
  });
  const { store, decode } = source;
  const { db } = readStore;
  logger.debug({ database: db.databaseName, kind: readStore.kind }, 'opened the read store');
  // Several projector processes may run (docs/DEPLOY.md): each projection is processed by the one
  // holding its lease, the others stand by to take over.
  const holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const leased = projections.map(
    (projection) =>
      new LeasedProjection({
        name: projection.name,
        lease: mongoLease(db, {
          collection: 'projection_leases',
          name: projection.name,
          holder,
          ttlMs: projectionLeaseMs,
        }),
        createProcessor: () =>
          new ProjectionProcessor({
            db,
            store,
            decode,
            projection,
            logger,
            wakeSpacingMs: PROJECTOR_WAKE_SPACING_MS,
          }),
        renewEveryMs: projectionLeaseMs / 3,
        logger,
      }),
  );
  for (const projection of leased) projection.start();

  /** An active processor is healthy while it runs without a failing batch; its lag is reported either way. */
  const processorChecks = async (): Promise<HealthCheck[]> => {
    const head = await store.headPosition();
    return Promise.all(
      leased.map(async (projection, index): Promise<HealthCheck> => {
        const name = `projection:${projections[index]!.name}`;
        const status = await projection.status();
        if (status.role === 'standby') {
          return { name, ok: true, detail: `standby, active in ${status.activeIn ?? 'no process yet'}` };
        }
        const { version, checkpoint, running, lastError } = status.processor;
        const lag = Math.max(0, head - checkpoint);
        const detail = `active in ${holder}, version ${version ?? '-'}, checkpoint ${checkpoint}, head ${head}, lag ${lag}`;
        return {
          name,
          ok: running && lastError === null,
          detail: lastError ? `${detail}; failing: ${lastError}` : detail,
        };
      }),
    );
  };

  return {
    name: 'projector',
    health: async () =>
      healthReport('projector', [await check('read store', readStore.ping), ...(await processorChecks())]),
    stop: async () => {
      // Processors first: each finishes its batch and saves its checkpoint before the connections go.
      await Promise.all(leased.map((projection) => projection.stop()));
      await source.close();
      await readStore.close();
    },
  };
};
