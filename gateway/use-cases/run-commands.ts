import type { FastifyReply } from 'fastify';
import type { CommandResult } from '../../commands/command-handler';
import { AppError } from '../../contracts/errors';
import type { Decider, DomainEvent } from '../../domain/decider';
import { executeCommand, loadAggregate } from '../execute-command';

const staleText = 'Someone else changed this since you opened it. Reload to see the latest version.';

/** Decides the commands in order against the state each leaves, appending nothing; throws the first refusal. */
export const checkCommands = <State, Command, Event>(
  decider: Decider<State, Command, Event>,
  state: State,
  commands: readonly Command[],
): State => {
  let checked = state;
  for (const command of commands) checked = decider.decide(command, checked).reduce(decider.evolve, checked);
  return checked;
};

/**
 * One form save that maps to several commands on one stream (a tenant's Company and Reporting tabs, a
 * user's account and membership fields). Every command is decided first against the state the previous
 * ones leave, without appending, so a refused field fails the whole save and nothing is half applied;
 * then they run in order, each expecting the revision the previous one left (If-Match for the first).
 */
export const runCommands = async <
  State,
  Command extends { now: Date; type: string },
  Event extends DomainEvent,
>(
  reply: FastifyReply,
  decider: Decider<State, Command, Event>,
  input: { streamId: string; commands: readonly Command[]; ifMatch?: number; tenantId?: number | null },
): Promise<{ revision: number; position: number | null }> => {
  const { state, revision } = await loadAggregate(reply.request, decider, input.streamId);
  if (input.ifMatch !== undefined && input.ifMatch !== revision)
    throw new AppError('stale', staleText, {
      message: `${input.streamId}: If-Match ${input.ifMatch}, current revision ${revision}`,
    });
  checkCommands(decider, state, input.commands);

  let expected = revision;
  let last: CommandResult<Event> | null = null;
  for (const [index, command] of input.commands.entries()) {
    last = await executeCommand(reply, decider, {
      streamId: input.streamId,
      command,
      tenantId: input.tenantId,
      ifMatch: expected < 0 ? undefined : expected,
      part: String(index),
    });
    expected = last.nextRevision;
  }
  return { revision: expected, position: last?.position ?? null };
};
