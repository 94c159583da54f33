import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { EventMetadata } from '../contracts/events/envelope';

/**
 * Who and what caused the current unit of work (an HTTP request, a workflow activity, a reactor's
 * handling of one event). The gateway enters it once per request; everything below reads it through
 * AsyncLocalStorage, so audit metadata never has to be passed by hand.
 */

/** `user:<id>`, `system:<workflow or process>` or `anonymous`. */
export type ActorId = `user:${number}` | `system:${string}` | 'anonymous';

export const userActorId = (userId: number): ActorId => `user:${userId}`;
export const systemActorId = (process: string): ActorId => `system:${process}`;

export type RequestContext = {
  tenantId: number | null;
  actor: ActorId;
  ip: string | null;
  method: string | null;
  url: string | null;
  /** The request body with secrets removed (see sanitiseBody). */
  body: unknown;
  requestId: string | null;
  /** Shared by everything one user action set off, across processes. */
  correlationId: string;
  /** The message that started this unit of work (an event id when a reactor runs), if any. */
  causationId: string | null;
};

/** What the gateway (or a worker) knows; the body may still hold secrets, it is sanitised on entry. */
export type RequestContextInput = Partial<RequestContext> & Pick<RequestContext, 'actor'>;

const storage = new AsyncLocalStorage<RequestContext>();

/**
 * Keys never kept in the audit copy of a body, compared without case, dashes or underscores. The
 * fragments catch the variants (`newPassword`, `stripeSecretKey`, `x-api-key`); removing a harmless
 * key from an audit copy costs nothing, keeping a secret costs a lot.
 */
const secretKeys = new Set([
  'password',
  'currentpassword',
  'token',
  'apikey',
  'secret',
  'credentials',
  'authorization',
  'refreshtoken',
  'accesstoken',
  'clientsecret',
  'cookie',
]);
const secretFragments = [
  'password',
  'passwd',
  'passphrase',
  'secret',
  'token',
  'apikey',
  'credential',
  'authorization',
  'cookie',
  'privatekey',
];

const isSecretKey = (key: string): boolean => {
  const normalised = key.toLowerCase().replace(/[-_\s]/g, '');
  return secretKeys.has(normalised) || secretFragments.some((fragment) => normalised.includes(fragment));
};

const sanitiseValue = (value: unknown, seen: WeakSet<object>): unknown => {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Date) return value.toISOString();
  // A body is parsed JSON; anything else (a Buffer, a stream) is not worth auditing.
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return '[binary]';
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => sanitiseValue(item, seen));
  const kept: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (!isSecretKey(key)) kept[key] = sanitiseValue(item, seen);
  }
  return kept;
};

/** A copy of a request body without passwords, tokens, keys and credentials, at any depth. */
export const sanitiseBody = (body: unknown): unknown =>
  body === undefined ? null : sanitiseValue(body, new WeakSet());

/** Runs `work` with the context; the body is sanitised here so no caller can forget to. */
export const runWithRequestContext = <T>(input: RequestContextInput, work: () => T): T =>
  storage.run(
    {
      tenantId: input.tenantId ?? null,
      actor: input.actor,
      ip: input.ip ?? null,
      method: input.method ?? null,
      url: input.url ?? null,
      body: sanitiseBody(input.body),
      requestId: input.requestId ?? null,
      correlationId: input.correlationId ?? input.requestId ?? randomUUID(),
      causationId: input.causationId ?? null,
    },
    work,
  );

export const currentRequestContext = (): RequestContext | undefined => storage.getStore();

/**
 * Runs `work` in a context taken earlier with currentRequestContext (or in none when it was
 * undefined): work queued by one request and run by another's continuation keeps its own metadata.
 */
export const runInCapturedContext = <T>(context: RequestContext | undefined, work: () => T): T => {
  if (storage.getStore() === context) return work();
  return context ? storage.run(context, work) : storage.exit(work);
};

/**
 * The metadata of the events a command appends. `causationId` is the command id, which is how a
 * retried command finds its own events. Outside any context the system is the actor.
 */
export const metadataFor = (commandId: string, now: Date): EventMetadata => {
  const context = storage.getStore();
  return {
    tenantId: context?.tenantId ?? null,
    actor: context?.actor ?? systemActorId('unknown'),
    ip: context?.ip ?? null,
    method: context?.method ?? null,
    url: context?.url ?? null,
    body: context?.body ?? null,
    requestId: context?.requestId ?? null,
    correlationId: context?.correlationId ?? commandId,
    causationId: commandId,
    time: now.toISOString(),
  };
};
