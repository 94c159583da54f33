import type { z } from 'zod';
import { ERASED } from '../commands/personal-data';
import type { RecordedEvent } from '../contracts/events/envelope';

const valueAt = (root: unknown, path: readonly PropertyKey[]): unknown =>
  path.reduce<unknown>(
    (value, key) =>
      value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined,
    root,
  );

/**
 * A recorded event as its contract's typed union, or null when it is not one of the union's types.
 * Events were validated when appended; a known type that no longer parses is a bug worth stopping
 * for, so it throws (the processor retries and reports it) instead of being skipped silently.
 * The one expected mismatch is personal data erased by a purge or a user deletion: an email that now
 * reads "[erased]" no longer looks like an email, and must not stall every projection behind it.
 */
export const parseEvent = <Schema extends z.ZodType<{ type: string }>>(
  schema: Schema,
  types: ReadonlySet<string>,
  event: RecordedEvent,
): z.infer<Schema> | null => {
  if (!types.has(event.type)) return null;
  const candidate = { type: event.type, data: event.data };
  const parsed = schema.safeParse(candidate);
  if (parsed.success) return parsed.data;
  if (parsed.error.issues.every((issue) => valueAt(candidate, issue.path) === ERASED)) {
    return candidate as z.infer<Schema>;
  }
  throw new Error(`${event.type} at position ${event.position} does not match its contract`, {
    cause: parsed.error,
  });
};
