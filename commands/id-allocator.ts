import { IdAllocated, IdClaimed, type IdCategory } from '../contracts/events/id-allocation';
import { AppError } from '../contracts/errors';
import { eventIdFor } from './event-id';
import { WrongExpectedRevisionError, type EventStore, type EventToAppend } from './event-store/event-store';
import { metadataFor } from './request-context';
import { retry, versionConflict } from './retry';

/**
 * User-visible ids (TenantId, UserId...) are positive integers per category, allocated through the
 * event store itself so that it works on every adapter (docs/adr/0006-id-allocation.md):
 *
 * 1. `idclaim-<category>-<key>` answers a retried command with the id it got before.
 * 2. Otherwise the next id is appended to `ids-<category>` with the exact expected revision (id n sits
 *    at revision n - 1); a conflict means another allocation won that id, so read again and retry.
 * 3. The id is claimed for the command with expected `no_stream`. If a concurrent delivery of the
 *    same command claimed first, its id is the answer and ours stays unused: gaps, never duplicates.
 */

export type AllocateIdRequest = {
  category: IdCategory;
  /** The command that needs the id; its retries get the same id. */
  commandId: string;
  /** Tells apart several ids of one category for one command (`owner`, `client`). */
  purpose?: string;
  now?: Date;
};

export type AllocateIdOptions = { maxAttempts?: number };

/** Enough for every one of a burst of concurrent allocations to win a round. */
const DEFAULT_MAX_ATTEMPTS = 100;

export const idStreamOf = (category: IdCategory): string => `ids-${category}`;

const claimKeyOf = (request: AllocateIdRequest): string =>
  request.purpose ? `${request.commandId}/${request.purpose}` : request.commandId;

export const claimStreamOf = (category: IdCategory, claimKey: string): string =>
  `idclaim-${category}-${claimKey}`;

const claimedId = async (store: EventStore, stream: string): Promise<number | null> => {
  const [first] = await store.readStream(stream, { maxCount: 1 });
  return first ? IdClaimed.shape.data.parse(first.data).id : null;
};

export const allocateId = async (
  store: EventStore,
  request: AllocateIdRequest,
  options: AllocateIdOptions = {},
): Promise<number> => {
  const { category, commandId } = request;
  const claimKey = claimKeyOf(request);
  const claimStream = claimStreamOf(category, claimKey);
  const before = await claimedId(store, claimStream);
  if (before !== null) return before;

  // Ids are not tenant data: the request's ip and body (maybe personal) stay out of these streams.
  const metadata = { ...metadataFor(commandId, request.now ?? new Date()), ip: null, body: null };
  const stream = idStreamOf(category);
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const id = await retry(
    versionConflict({ maxAttempts }),
    async () => {
      const [last] = await store.readStream(stream, { direction: 'backwards', maxCount: 1 });
      const revision = last?.revision ?? -1;
      const next = revision + 2;
      const event: EventToAppend = {
        // Keyed by the revision too: a repeated append of this very attempt is a duplicate, not a second id.
        id: eventIdFor(`ids:${category}:${claimKey}`, revision + 1),
        type: 'IdAllocated',
        schemaVersion: 1,
        data: IdAllocated.shape.data.parse({ category, id: next, claimKey }),
        metadata,
      };
      await store.append(stream, [event], revision < 0 ? { kind: 'no_stream' } : { kind: 'exact', revision });
      return next;
    },
    {
      giveUp: (_error, attempts) =>
        new AppError('unavailable', 'The operation failed. Please try again.', {
          message: `No ${category} id after ${attempts} attempts: too many concurrent allocations`,
        }),
    },
  );

  try {
    await store.append(
      claimStream,
      [
        {
          id: eventIdFor(`idclaim:${category}:${claimKey}`, id),
          type: 'IdClaimed',
          schemaVersion: 1,
          data: IdClaimed.shape.data.parse({ category, id, claimKey }),
          metadata,
        },
      ],
      { kind: 'no_stream' },
    );
  } catch (error) {
    if (!(error instanceof WrongExpectedRevisionError)) throw error;
  }
  // Whoever claimed first decides, so every delivery of the command answers the same id.
  const claimed = await claimedId(store, claimStream);
  if (claimed === null) throw new Error(`Claim stream ${claimStream} is empty after claiming`);
  return claimed;
};
