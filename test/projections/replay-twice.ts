import type { Db } from 'mongodb';
import type { RecordedEvent } from '../../contracts/events/envelope';
import type { EventStore, ReadAllOptions } from '../../commands/event-store/event-store';
import type { Projection } from '../../projections/framework/projection';
import { ProjectionProcessor } from '../../projections/framework/projection-processor';
import { PROJECTION_CHECKPOINTS, currentVersion } from '../../projections/framework/read-model-versions';
import { versionChecksums } from './read-model-checksum';

/** A store that hands every event over twice, as an at-least-once transport may. */
const deliveringTwice = (store: EventStore): EventStore =>
  Object.assign(Object.create(store) as EventStore, {
    readAll: async (options?: ReadAllOptions): Promise<RecordedEvent[]> =>
      (await store.readAll(options)).flatMap((event) => [event, event]),
  });

let spareVersion = 900;

/**
 * Builds a spare version of the read model with every event delivered twice (small batches), then
 * replays the whole history over it once more; returns the checksums of the version queries read and
 * of the spare one after each pass. Idempotent writes make all three equal.
 */
export const replayTwice = async (
  context: {
    db: Db;
    store: EventStore;
    decode: (events: readonly RecordedEvent[]) => Promise<RecordedEvent[]>;
  },
  projection: Projection,
) => {
  const { db, store, decode } = context;
  const live = await versionChecksums(db, projection, await currentVersion(db, projection.name));
  const version = (spareVersion += 1);
  await new ProjectionProcessor({
    db,
    store: deliveringTwice(store),
    decode,
    projection,
    version,
    batchSize: 5,
  }).catchUp();
  const twice = await versionChecksums(db, projection, version);
  await db.collection(PROJECTION_CHECKPOINTS).deleteOne({ _id: `${projection.name}@${version}` as never });
  await new ProjectionProcessor({ db, store, decode, projection, version, batchSize: 7 }).catchUp();
  const replayed = await versionChecksums(db, projection, version);
  return { live, twice, replayed };
};
