import { claimStreamOf, idStreamOf } from '../../../commands/id-allocator';
import { eventIdFor } from '../../../commands/event-id';
import { WrongExpectedRevisionError, type EventStore } from '../../../commands/event-store/event-store';
import { metadataFor } from '../../../commands/request-context';
import { retry, versionConflict } from '../../../commands/retry';
import { AppError } from '../../../contracts/errors';
import { IdAllocated, IdClaimed } from '../../../contracts/events/id-allocation';

/**
 * A block of job ids for one scheduled send (docs/adr/0038, the scheduled send in batches): one append
 * of an IdAllocated per key to `ids-job`, at the revisions the one-at-a-time allocator would use (id n
 * at revision n - 1, so it and the gateway's allocations interleave safely), and one IdClaimed of the
 * block (its first id) under `idclaim-job-<commandId>/block`. A retried call finds the claim and reads
 * the block's keys back from `ids-job`, so every key gets the id it got the first time, whatever the
 * retry was given; a key the first call did not have gets none (the caller records no job for it).
 * A thousand sellers' ids cost two appends instead of two thousand, and no version-conflict retries
 * between the send's own allocations.
 */
const blockKeyOf = (commandId: string) => `${commandId}/block`;

/** The keys the block at `firstId` holds, in order, with their ids. */
const readBlock = async (
  store: EventStore,
  block: { firstId: number; claimPrefix: string; maxCount: number },
): Promise<Map<string, number>> => {
  const { firstId, claimPrefix, maxCount } = block;
  const events = await store.readStream(idStreamOf('job'), { fromRevision: firstId - 1, maxCount });
  const ids = new Map<string, number>();
  for (const event of events) {
    const data = IdAllocated.shape.data.parse(event.data);
    if (!data.claimKey.startsWith(claimPrefix)) break;
    ids.set(data.claimKey, data.id);
  }
  return ids;
};

export const allocateJobIdBlock = async (
  store: EventStore,
  request: {
    /** The scheduled run's id: its retries get the same block. */
    commandId: string;
    /** One claim key per job, each starting with `${commandId}:` (`<run id>:seller-<id>`). */
    keys: readonly string[];
    now: Date;
  },
): Promise<Map<string, number>> => {
  const { commandId, keys, now } = request;
  const claimPrefix = `${commandId}:`;
  if (keys.some((key) => !key.startsWith(claimPrefix)))
    throw new Error(`every key of the block must start with ${claimPrefix}`);
  const claimKey = blockKeyOf(commandId);
  const claimStream = claimStreamOf('job', claimKey);
  const claimed = async () => {
    const [first] = await store.readStream(claimStream, { maxCount: 1 });
    return first ? IdClaimed.shape.data.parse(first.data).id : null;
  };
  const before = await claimed();
  if (before !== null) return readBlock(store, { firstId: before, claimPrefix, maxCount: keys.length + 1 });
  if (keys.length === 0) return new Map();

  const metadata = { ...metadataFor(commandId, now), ip: null, body: null };
  const stream = idStreamOf('job');
  const firstId = await retry(
    versionConflict({ maxAttempts: 100 }),
    async () => {
      const [last] = await store.readStream(stream, { direction: 'backwards', maxCount: 1 });
      const revision = last?.revision ?? -1;
      await store.append(
        stream,
        keys.map((key, index) => ({
          id: eventIdFor(`ids:job:${key}`, revision + 1 + index),
          type: 'IdAllocated',
          schemaVersion: 1,
          data: IdAllocated.shape.data.parse({ category: 'job', id: revision + 2 + index, claimKey: key }),
          metadata,
        })),
        revision < 0 ? { kind: 'no_stream' } : { kind: 'exact', revision },
      );
      return revision + 2;
    },
    {
      giveUp: (_error, attempts) =>
        new AppError('unavailable', 'The operation failed. Please try again.', {
          message: `No block of job ids after ${attempts} attempts: too many concurrent allocations`,
        }),
    },
  );
  try {
    await store.append(
      claimStream,
      [
        {
          id: eventIdFor(`idclaim:job:${claimKey}`, firstId),
          type: 'IdClaimed',
          schemaVersion: 1,
          data: IdClaimed.shape.data.parse({ category: 'job', id: firstId, claimKey }),
          metadata,
        },
      ],
      { kind: 'no_stream' },
    );
  } catch (error) {
    if (!(error instanceof WrongExpectedRevisionError)) throw error;
  }
  // Whoever claimed first decides: a concurrent attempt's block stays unused (gaps, never duplicates).
  const winner = await claimed();
  if (winner === null) throw new Error(`Claim stream ${claimStream} is empty after claiming`);
  return readBlock(store, { firstId: winner, claimPrefix, maxCount: keys.length + 1 });
};
