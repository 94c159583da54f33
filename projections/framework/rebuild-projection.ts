import type { Db } from 'mongodb';
import type { EventStore } from '../../commands/event-store/event-store';
import type { Projection } from './projection';
import { ProjectionProcessor, type ProcessorOptions } from './projection-processor';
import { allocateVersion, currentVersion, dropVersions, switchVersion } from './read-model-versions';

export type RebuildResult = {
  name: string;
  /** The version that was built; queries read it when `switched`. */
  version: number;
  previousVersion: number;
  /** False when another rebuild switched to a newer version first; this one was then dropped. */
  switched: boolean;
  position: number;
};

/**
 * Replays every event into a new version of the read model (`<base>_v<n>`), then points queries at it
 * and drops the old version. Queries keep reading the old version, and a running live processor keeps
 * it current, until the switch; the live processor then follows the pointer from the new version's
 * checkpoint, so no event is missed or applied twice.
 */
export const rebuildProjection = async (
  context: { db: Db; store: EventStore } & Pick<ProcessorOptions, 'logger' | 'decode'>,
  projection: Projection,
  options: { batchSize?: number } = {},
): Promise<RebuildResult> => {
  const { db, logger } = context;
  const version = await allocateVersion(db, projection.name);
  // A crashed earlier rebuild may have left this number's collections behind: start clean.
  await dropVersions(db, projection, (v) => v === version);
  const processor = new ProjectionProcessor({ ...context, projection, version, ...options });
  const position = await processor.catchUp();
  const previousVersion = await currentVersion(db, projection.name);
  const switched = await switchVersion(db, projection.name, version);
  await dropVersions(db, projection, switched ? (v) => v < version : (v) => v === version);
  logger?.info({ projection: projection.name, version, previousVersion, switched, position }, 'rebuilt');
  return { name: projection.name, version, previousVersion, switched, position };
};
