import type { FastifyReply, FastifyRequest } from 'fastify';
import { redactUrl } from './plugins/log-redaction';
import { handleCommand, type CommandResult } from '../commands/command-handler';
import { allocateId } from '../commands/id-allocator';
import { loadStreamState } from '../commands/stream-state';
import { runWithRequestContext, userActorId } from '../commands/request-context';
import type { IdCategory } from '../contracts/events/id-allocation';
import { AppError } from '../contracts/errors';
import type { Decider, DomainEvent } from '../domain/decider';
import { answerWithPosition } from './plugins/read-your-writes';

/**
 * The gateway's one way into the write side: every command of every route goes through here, so each
 * carries the request's audit metadata, a command id that makes a retried request harmless, and
 * answers with the position the browser's next reads must include.
 */

/**
 * A browser retry of the same action sends the same Idempotency-Key; without one every request is
 * new. `part` tells apart the several commands one request may issue.
 */
const commandIdOf = (request: FastifyRequest, part: string): string => {
  const key = request.headers['idempotency-key'];
  const base = typeof key === 'string' && /^[\w.:-]{8,128}$/.test(key) ? `key:${key}` : `req:${request.id}`;
  return `${base}/${part}`;
};

/** The revision the browser saw, from `If-Match: "3"` (weak tags and bare numbers accepted). */
export const ifMatchOf = (request: FastifyRequest): number | undefined => {
  const header = request.headers['if-match'];
  if (header === undefined) return undefined;
  const match = /^(?:W\/)?"?(\d{1,12})"?$/.exec(String(header).trim());
  if (!match?.[1]) {
    throw new AppError('validation', 'The operation failed. Please validate your selection and try again.', {
      properties: { 'If-Match': 'must be a revision such as "3"' },
    });
  }
  return Number(match[1]);
};

const withRequestContext = <T>(
  request: FastifyRequest,
  tenantId: number | null | undefined,
  work: () => Promise<T>,
): Promise<T> =>
  runWithRequestContext(
    {
      actor: request.caller ? userActorId(request.caller.userId) : 'anonymous',
      tenantId: tenantId ?? request.caller?.tenantId ?? null,
      ip: request.ip,
      method: request.method,
      // The audit trail keeps which link was followed, never a usable token from it.
      url: redactUrl(request.url),
      body: request.body,
      requestId: request.id,
    },
    work,
  );

export type CommandInput<Command> = {
  streamId: string;
  command: Command;
  /** The tenant the command concerns, for the audit trail; defaults to the caller's current tenant. */
  tenantId?: number | null;
  /** Checked against the stream's revision (412 when stale); defaults to the request's If-Match header. */
  ifMatch?: number;
  /** Tells apart several commands of the same type on one stream within a request. */
  part?: string;
};

/** Runs a command on behalf of the request; sets ETag (the stream's new revision) and the read position. */
export const executeCommand = async <State, Command extends { now: Date }, Event extends DomainEvent>(
  reply: FastifyReply,
  decider: Decider<State, Command, Event>,
  input: CommandInput<Command>,
): Promise<CommandResult<Event>> => {
  const { request } = reply;
  const result = await withRequestContext(request, input.tenantId, () =>
    handleCommand(
      decider,
      {
        streamId: input.streamId,
        commandId: commandIdOf(
          request,
          `${input.streamId}/${(input.command as { type?: string }).type ?? ''}/${input.part ?? ''}`,
        ),
        command: input.command,
        ifMatch: input.ifMatch,
      },
      request.server.services.writeSide,
    ),
  );
  void reply.header('etag', `"${result.nextRevision}"`);
  answerWithPosition(reply, result.position);
  return result;
};

/** A new user-visible id for an entity the request creates; the same id when the request is retried. */
export const allocateIdFor = (
  reply: FastifyReply,
  category: IdCategory,
  part: string = category,
): Promise<number> => {
  const { request } = reply;
  return withRequestContext(request, undefined, () =>
    allocateId(request.server.services.writeSide.store, {
      category,
      commandId: commandIdOf(request, `id:${part}`),
      now: request.server.services.now(),
    }),
  );
};

/** An aggregate's current state and revision, for checks the gateway makes before a command (login). */
export const loadAggregate = async <State, Event extends DomainEvent>(
  request: FastifyRequest,
  decider: Pick<Decider<State, unknown, Event>, 'evolve' | 'initialState'>,
  streamId: string,
): Promise<{ state: State; revision: number }> => {
  const { state, revision } = await loadStreamState(request.server.services.writeSide, decider, streamId);
  return { state, revision };
};
