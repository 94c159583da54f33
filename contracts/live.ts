import { z } from 'zod';
import { JobKind } from './events/job';
import { EntityId } from './events/values';

/**
 * The live websocket `/api/live` (architecture.md, live dashboard; docs/adr/0015-live-notices.md).
 * The server sends small notices that tell the browser which react-query keys to invalidate, never the
 * data itself: the browser refetches through the API, so access checks and read-your-writes stay in
 * one place. Every notice is sent only after the read models that the event changes have it.
 */

/** A global event position: notices carry it so a reconnecting client can say what it last saw. */
export const LivePosition = z.int().min(-1);
export type LivePosition = z.infer<typeof LivePosition>;

/** What a notice is about; the browser maps each to the query keys that show it. */
export const LiveEntity = z.enum([
  'tenant',
  'user',
  /** A user's standing in one tenant (role, status, job title...); `id` is the user's id. */
  'membership',
  'invite',
  'seller',
  'integration',
  'recipient',
  'partner',
  'plan',
  'billing',
  'job',
]);
export type LiveEntity = z.infer<typeof LiveEntity>;

/** Invitations have uuid ids; every other entity a positive integer. */
export const LiveEntityId = z.union([EntityId, z.string().min(1)]);
export type LiveEntityId = z.infer<typeof LiveEntityId>;

/** Refetch queries showing this entity. `tenantId` is null for platform entities (plans), sent to platform admins. */
export const InvalidateNotice = z
  .object({
    type: z.literal('invalidate'),
    entity: LiveEntity,
    id: LiveEntityId,
    tenantId: EntityId.nullable(),
    position: LivePosition,
  })
  .strict();
export type InvalidateNotice = z.infer<typeof InvalidateNotice>;

export const JobStatus = z.enum(['queued', 'running', 'completed', 'failed', 'cancelled']);
export type JobStatus = z.infer<typeof JobStatus>;

/** A job's coarse progress; a client that connects late reads the current state through the API first. */
export const JobProgressNotice = z
  .object({
    type: z.literal('job-progress'),
    jobId: EntityId,
    kind: JobKind,
    tenantId: EntityId,
    sellerId: EntityId.nullable(),
    /** The last stage recorded; null before the first progress. */
    stage: z.string().nullable(),
    done: z.int().nonnegative(),
    /** Null while unknown. */
    total: z.int().nonnegative().nullable(),
    status: JobStatus,
    position: LivePosition,
  })
  .strict();
export type JobProgressNotice = z.infer<typeof JobProgressNotice>;

/** The notices the notifier publishes to a tenant's channel. */
export const LiveNotice = z.discriminatedUnion('type', [InvalidateNotice, JobProgressNotice]);
export type LiveNotice = z.infer<typeof LiveNotice>;

/**
 * Sent on connect and after each `subscribe`: the tenant whose notices follow (null: none), and the
 * position every notice up to which has been delivered (or was of no concern to this client).
 */
export const HelloMessage = z
  .object({ type: z.literal('hello'), tenantId: EntityId.nullable(), position: LivePosition })
  .strict();
export type HelloMessage = z.infer<typeof HelloMessage>;

/** Sent every heartbeat interval; the position moves the client's cursor while nothing concerns it. */
export const HeartbeatMessage = z.object({ type: z.literal('heartbeat'), position: LivePosition }).strict();
export type HeartbeatMessage = z.infer<typeof HeartbeatMessage>;

/** The client may have missed notices (a reconnect after changes, another tenant): refetch everything shown. */
export const RefetchMessage = z.object({ type: z.literal('refetch') }).strict();
export type RefetchMessage = z.infer<typeof RefetchMessage>;

/** A client message was refused; the connection stays open. */
export const LiveErrorMessage = z
  .object({ type: z.literal('error'), code: z.enum(['validation', 'forbidden']), message: z.string() })
  .strict();
export type LiveErrorMessage = z.infer<typeof LiveErrorMessage>;

export const ServerMessage = z.discriminatedUnion('type', [
  InvalidateNotice,
  JobProgressNotice,
  HelloMessage,
  HeartbeatMessage,
  RefetchMessage,
  LiveErrorMessage,
]);
export type ServerMessage = z.infer<typeof ServerMessage>;

/**
 * Watch a tenant's notices instead of the current one. Users may watch only their session's current
 * tenant (after switchTenant); platform admins any tenant.
 */
export const SubscribeMessage = z.object({ type: z.literal('subscribe'), tenantId: EntityId }).strict();
export type SubscribeMessage = z.infer<typeof SubscribeMessage>;

/** Answered with a heartbeat (an application-level liveness check for clients that cannot see pongs). */
export const PingMessage = z.object({ type: z.literal('ping') }).strict();
export type PingMessage = z.infer<typeof PingMessage>;

export const ClientMessage = z.discriminatedUnion('type', [SubscribeMessage, PingMessage]);
export type ClientMessage = z.infer<typeof ClientMessage>;

/** GET /api/live: `after` is the position of the last message a reconnecting client received. */
export const LiveQuery = z.object({ after: z.coerce.number().pipe(LivePosition).optional() }).strict();
export type LiveQuery = z.infer<typeof LiveQuery>;

/** Close codes of the live socket (4000-4999 are the application's). */
export const liveCloseCodes = {
  /** The session ended (logout, idle, revoked): sign in again. */
  sessionEnded: 4401,
  /** The client read too slowly and its send buffer filled: reconnect (with `after`) and refetch. */
  tooSlow: 4008,
  /** The server is shutting down: reconnect. */
  goingAway: 1001,
} as const;
