import { claimStreamOf, idStreamOf } from '../../../commands/id-allocator';
import { eventIdFor } from '../../../commands/event-id';
import { WrongExpectedRevisionError, type EventStore } from '../../../commands/event-store/event-store';
import { metadataFor } from '../../../commands/request-context';
import { retry, versionConflict } from '../../../commands/retry';
import { AppError } from '../../../contracts/errors';
import { IdAllocated, IdClaimed } from '../../../contracts/events/id-allocation';

/**
 * Job ids for one scheduled send as blocks (docs/adr/0038, the scheduled send in batches): one append
 * of an IdAllocated per key to `ids-job`, at the revisions the one-at-a-time allocator would use (id n
 * at revision n - 1, so it and the gateway's allocations interleave safely), and one IdClaimed per
 * block under `idclaim-job-<commandId>/block-<n>`, naming the block's first id and, in its claim key,
 * its length. A retried call reads the claimed blocks back by their keys, so every key gets the id it
 * got the first time; keys no block holds yet (none, unless the sellers changed between attempts)
 * get a new block. A thousand sellers' ids cost two appends instead of two thousand, and no
 * version-conflict retries between the send's own allocations. A block holds at most `blockSize`
 * ids (1,000: about 450 KB of events, within EventStoreDB's 1 MiB append limit).
 */
const DEFAULT_BLOCK_SIZE = 1000;

const claimKeyOf = (commandId: string, block: number, length: number) =>
  `${commandId}/block-${block}/${length}`;

/** The block's keys with their ids, read from `ids-job`. */
const readBlock = async (
  store: EventStore,
  claim: { firstId: number; claimKey: string },
): Promise<[string, number][]> => {
  const length = Number(claim.claimKey.slice(claim.claimKey.lastIndexOf('/') + 1));
  const events = await store.readStream(idStreamOf('job'), {
    fromRevision: claim.firstId - 1,
    maxCount: length,
  });
  return events.map((event) => {
    const data = IdAllocated.shape.data.parse(event.data);
    return [data.claimKey, data.id];
  });
};

/** The claim of block `block`, if any attempt made one. */
const claimOf = async (store: EventStore, commandId: string, block: number) => {
  const events = await store.readStream(claimStreamOf('job', `${commandId}/block-${block}`), {
    maxCount: 1,
  });
  const first = events[0];
  if (!first) return null;
  const data = IdClaimed.shape.data.parse(first.data);
  return { firstId: data.id, claimKey: data.claimKey };
};

export const allocateJobIdBlock = async (
  store: EventStore,
  request: {
    /** The scheduled run's id: its retries get the same ids. */
    commandId: string;
    /** One claim key per job (`<run id>:seller-<id>`). */
    keys: readonly string[];
    now: Date;
    blockSize?: number;
  },
): Promise<Map<string, number>> => {
  const { commandId, keys, now } = request;
  const blockSize = request.blockSize ?? DEFAULT_BLOCK_SIZE;
  const metadata = { ...metadataFor(commandId, now), ip: null, body: null };
  const stream = idStreamOf('job');
  const ids = new Map<string, number>();
  for (let block = 0; ; block += 1) {
    let claim = await claimOf(store, commandId, block);
    if (claim === null) {
      const chunk = keys.filter((key) => !ids.has(key)).slice(0, blockSize);
      if (chunk.length === 0) break;
      const firstId = await retry(
        versionConflict({ maxAttempts: 100 }),
        async () => {
          const [last] = await store.readStream(stream, { direction: 'backwards', maxCount: 1 });
          const revision = last?.revision ?? -1;
          await store.append(
            stream,
            chunk.map((key, index) => ({
              id: eventIdFor(`ids:job:${key}`, revision + 1 + index),
              type: 'IdAllocated',
              schemaVersion: 1,
              data: IdAllocated.shape.data.parse({
                category: 'job',
                id: revision + 2 + index,
                claimKey: key,
              }),
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
      const claimKey = claimKeyOf(commandId, block, chunk.length);
      try {
        await store.append(
          claimStreamOf('job', `${commandId}/block-${block}`),
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
      claim = await claimOf(store, commandId, block);
      if (claim === null) throw new Error(`block ${block} of ${commandId} is unclaimed after claiming`);
    }
    for (const [key, id] of await readBlock(store, claim)) if (!ids.has(key)) ids.set(key, id);
  }
  return ids;
};
