import type { z } from 'zod';
import type { RecordedEvent } from '../contracts/events/envelope';

/**
 * A recorded event as its contract's typed union, or null when it is not one of the union's types.
 * Events were validated when appended; a known type that no longer parses is a bug worth stopping
 * for, so it throws (the processor retries and reports it) instead of being skipped silently.
 */
export const parseEvent = <Schema extends z.ZodType<{ type: string }>>(
  schema: Schema,
  types: ReadonlySet<string>,
  event: RecordedEvent,
): z.infer<Schema> | null => {
  if (!types.has(event.type)) return null;
  const parsed = schema.safeParse({ type: event.type, data: event.data });
  if (!parsed.success) {
    throw new Error(`${event.type} at position ${event.position} does not match its contract`, {
      cause: parsed.error,
    });
  }
  return parsed.data;
};
