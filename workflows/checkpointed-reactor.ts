import type { Db } from 'mongodb';
import type { Logger } from 'pino';
import type { CommandHandlerDeps } from '../commands/command-handler';
import type { Subscription } from '../commands/event-store/event-store';
import { brokerReconnect, keepRunning } from '../commands/retry';
import type { RecordedEvent } from '../contracts/events/envelope';

/** Where each reactor stopped, by name, so a restarted worker neither misses nor replays a request. */
const REACTOR_CHECKPOINTS = 'reactor_checkpoints';

type Checkpoint = { _id: string; position: number };

export type ReactorDeps = { writeSide: CommandHandlerDeps; db: Db; logger: Logger };

export type Reaction = {
  /** Names the checkpoint: two reactors never share one. */
  name: string;
  eventTypes: readonly string[];
  /** Must be idempotent: after a crash the last event may be delivered again. */
  handle: (event: RecordedEvent) => Promise<void>;
};

const subscribeFromCheckpoint = async (deps: ReactorDeps, reaction: Reaction): Promise<Subscription> => {
  const checkpoints = deps.db.collection<Checkpoint>(REACTOR_CHECKPOINTS);
  const saved = await checkpoints.findOne({ _id: reaction.name });
  return deps.writeSide.store.subscribe(
    async (event) => {
      await reaction.handle(event);
      await checkpoints.updateOne(
        { _id: reaction.name },
        { $set: { position: event.position } },
        { upsert: true },
      );
    },
    { after: saved?.position ?? -1, filter: { eventTypes: reaction.eventTypes } },
  );
};

/**
 * Follows the event store from a checkpoint kept in Mongo (docs/adr/0018-pipeline-start.md). After a
 * failure (Temporal unreachable) it waits, then starts again from its checkpoint.
 */
export const startCheckpointedReactor = (
  deps: ReactorDeps & { retryMs?: number },
  reaction: Reaction,
): { stop: () => Promise<void> } => {
  const stopping = new AbortController();
  let current: Subscription | null = null;
  const running = keepRunning(
    brokerReconnect({ delayMs: deps.retryMs }),
    async () => {
      current = await subscribeFromCheckpoint(deps, reaction);
      await current.done;
    },
    {
      signal: stopping.signal,
      onFailure: (error) =>
        deps.logger.warn(
          { err: error, reactor: reaction.name },
          'a reactor failed; starting again from its checkpoint',
        ),
    },
  );
  return {
    stop: async () => {
      stopping.abort();
      await current?.stop();
      await running;
    },
  };
};
