import type { CommandHandlerDeps } from '../../commands/command-handler';
import { loadStreamState } from '../../commands/stream-state';
import type { Decider, DomainEvent } from '../../domain/decider';

/**
 * An aggregate's current state for the report steps, through the per-process stream cache the
 * command handler uses (docs/adr/0031): a job's stream is read about ten times in its run (begin,
 * archive, send, finish), and each read then decodes only the events appended since the last one
 * instead of the whole stream. The cache checks the stream's last event on every load, so a state
 * written by another worker is never answered stale.
 */
export const currentState = async <State, Event extends DomainEvent>(
  writeSide: CommandHandlerDeps,
  decider: Pick<Decider<State, never, Event>, 'evolve' | 'initialState'>,
  streamId: string,
): Promise<State> => (await loadStreamState(writeSide, decider, streamId)).state;
