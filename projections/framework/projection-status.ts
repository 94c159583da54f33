import type { Db } from 'mongodb';
import type { EventStore } from '../../commands/event-store/event-store';
import type { Projection } from './projection';
import { checkpointSignal } from './checkpoint-signal';
import { currentVersion, listCheckpoints } from './read-model-versions';

export type ProjectionLag = {
  name: string;
  /** The version queries read. */
  version: number;
  /** -1 when nothing has been processed. */
  checkpoint: number;
  head: number;
  /** Head position minus checkpoint: events (SQLite) or log bytes (EventStoreDB) still to process. */
  lag: number;
  /** Versions being rebuilt (newer than `version`) and their checkpoints. */
  rebuilding: { version: number; checkpoint: number }[];
};

export const projectionStatus = async (
  db: Db,
  store: EventStore,
  projections: readonly Projection[],
): Promise<ProjectionLag[]> => {
  const head = await store.headPosition();
  return Promise.all(
    projections.map(async ({ name }) => {
      const version = await currentVersion(db, name);
      const checkpoints = await listCheckpoints(db, name);
      // A projector of this process may have written further than its last saved checkpoint (ADR 52).
      const checkpoint = Math.max(
        checkpoints.find((c) => c.version === version)?.position ?? -1,
        checkpointSignal.announcedHere(db.databaseName, name, version),
      );
      const rebuilding = checkpoints
        .filter((c) => c.version > version)
        .map((c) => ({ version: c.version, checkpoint: c.position }));
      return { name, version, checkpoint, head, lag: Math.max(0, head - checkpoint), rebuilding };
    }),
  );
};
