import { ApplicationFailure } from '@temporalio/activity';
import { AppError } from '../../contracts/errors';
import type { RecordedEvent } from '../../contracts/events/envelope';
import { handleCommand, type CommandHandlerDeps } from '../../commands/command-handler';
import { decodeEvents, toDomainEvent } from '../../commands/event-codec';
import { runWithRequestContext, systemActorId } from '../../commands/request-context';
import { foldEvents, type Decider, type DomainEvent } from '../../domain/decider';

/**
 * Commands a workflow's activities issue as the system. The command id is derived from the workflow
 * id and the step, so an activity retried after a crash appends nothing twice.
 */
export type SystemCommandContext = {
  writeSide: CommandHandlerDeps;
  workflowId: string;
  tenantId: number;
  /** The pipeline, for the audit actor: `system:<process>`. */
  process: string;
};

/** A refusal from a decider will not change on retry: it fails the activity for good, keeping its text. */
export const nonRetryableFrom = (error: unknown): unknown =>
  error instanceof AppError && error.code !== 'unavailable' && error.code !== 'internal'
    ? ApplicationFailure.nonRetryable(error.userMessage, `AppError:${error.code}`)
    : error;

export const runSystemCommand = async <State, Command extends { now: Date }, Event extends DomainEvent>(
  context: SystemCommandContext,
  decider: Decider<State, Command, Event>,
  request: { streamId: string; step: string; command: Command },
) => {
  try {
    return await runWithRequestContext(
      {
        actor: systemActorId(context.process),
        tenantId: context.tenantId,
        correlationId: context.workflowId,
        requestId: context.workflowId,
      },
      () =>
        handleCommand(
          decider,
          {
            streamId: request.streamId,
            commandId: `${context.workflowId}:${request.step}`,
            command: request.command,
          },
          context.writeSide,
        ),
    );
  } catch (error) {
    throw nonRetryableFrom(error);
  }
};

/** The state an aggregate's recorded events fold into, decoded as its command handler decodes them. */
export const stateOfRecorded = async <State, Event extends DomainEvent>(
  writeSide: CommandHandlerDeps,
  decider: Pick<Decider<State, never, Event>, 'evolve' | 'initialState'>,
  recorded: RecordedEvent[],
): Promise<State> => {
  const decoded = await decodeEvents(writeSide, recorded);
  return foldEvents(decider, decoded.map(toDomainEvent) as Event[]);
};

/** The current state of an aggregate, as its command handler would see it. */
export const readState = async <State, Event extends DomainEvent>(
  writeSide: CommandHandlerDeps,
  decider: Pick<Decider<State, never, Event>, 'evolve' | 'initialState'>,
  streamId: string,
): Promise<State> => stateOfRecorded(writeSide, decider, await writeSide.store.readStream(streamId));
