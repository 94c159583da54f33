import { z } from 'zod';
import { EntityId } from './values';

/**
 * Metadata recorded with every event (architecture.md, write side). The request body is sanitised
 * before it gets here: passwords, tokens and credentials are removed.
 */
export const EventMetadata = z.object({
  tenantId: EntityId.nullable(),
  /** `user:<id>`, `system:<workflow or process>` or `anonymous`. */
  actor: z.string().min(1),
  ip: z.string().nullable(),
  method: z.string().nullable(),
  url: z.string().nullable(),
  body: z.unknown().nullable(),
  requestId: z.string().nullable(),
  correlationId: z.string(),
  causationId: z.string().nullable(),
  /** ISO-8601 time at which the command was issued. */
  time: z.string(),
});
export type EventMetadata = z.infer<typeof EventMetadata>;

/** An event as stored and read back from the event store, whichever adapter holds it. */
export const RecordedEvent = z.object({
  /** Deterministic from the command id and the event's index, so a retried append is recognised. */
  id: z.string().uuid(),
  streamId: z.string(),
  /** 0-based position of the event in its stream. */
  revision: z.number().int().nonnegative(),
  /** Position in the store's global order; strictly increasing, not necessarily contiguous. */
  position: z.number().int().nonnegative(),
  type: z.string(),
  schemaVersion: z.number().int().positive(),
  data: z.unknown(),
  metadata: EventMetadata,
  /** When the store recorded it (ISO-8601). */
  recordedAt: z.string(),
});
export type RecordedEvent = z.infer<typeof RecordedEvent>;
