import type { RecordedEvent } from '../../contracts/events/envelope';

/** A processor's way from stored events to what projections read (ProcessorOptions.decode). */
export type Decode = (events: readonly RecordedEvent[]) => Promise<RecordedEvent[]>;

type Shared = { byPosition: Map<number, { id: string; decoded: Promise<RecordedEvent> }>; clearing: boolean };

/** Per decode function: only processors that decode the same way share what it revealed. */
const sharedOf = new WeakMap<Decode, Shared>();

/** Tests freeze what is shared, so a projection that changed an event in place fails loudly there. */
const freezeInTests = (value: unknown): void => {
  if (process.env.NODE_ENV !== 'test' || value === null || typeof value !== 'object') return;
  if (Object.isFrozen(value) || ArrayBuffer.isView(value)) return;
  Object.freeze(value);
  for (const item of Object.values(value)) freezeInTests(item);
};

/**
 * `decode(events)`, sharing the decoded (decrypted) events between the live projectors of a process
 * for one turn of the event loop (docs/adr/0054). The feed wakes every projector in the same turn,
 * and the users and audit-history projectors each decrypted the very same events: a PUT paid for
 * its personal data twice. A projector is given exactly the events its own read returned (same
 * position, same id), decoded once by whichever asked first.
 *
 * What is shared lives only until the next turn (setImmediate), never in a cache that could keep
 * personal data past its key's erasure (ADR 5): a projector that asks later decodes again, as it
 * always did. A decode that fails is not kept. Decoded events are read-only to projections.
 */
export const decodeShared = async (
  decode: Decode,
  events: readonly RecordedEvent[],
): Promise<RecordedEvent[]> => {
  if (events.length === 0) return [];
  let shared = sharedOf.get(decode);
  if (!shared) sharedOf.set(decode, (shared = { byPosition: new Map(), clearing: false }));
  const { byPosition } = shared;
  const found = events.map((event) => {
    const hit = byPosition.get(event.position);
    return hit?.id === event.id ? hit.decoded : undefined;
  });
  const missing = events.filter((_, index) => found[index] === undefined);
  if (missing.length > 0) {
    const decoding = decode(missing).then((decoded) => {
      // Decoders map one to one; one that does not is not shared (NOT_SHARED sends callers to decode).
      if (decoded.length !== missing.length) return null;
      for (const event of decoded) freezeInTests(event);
      return decoded;
    });
    let next = 0;
    for (const [index, slot] of found.entries()) {
      if (slot !== undefined) continue;
      const at = next;
      next += 1;
      const event = events[index]!;
      const decoded = decoding.then((all) => all?.[at] ?? Promise.reject(NOT_SHARED));
      decoded.catch(() => undefined); // a projector that never asks for it must not leave it unhandled
      found[index] = decoded;
      byPosition.set(event.position, { id: event.id, decoded });
    }
    decoding.then(
      (all) => {
        if (all === null) forget(byPosition, missing);
      },
      () => forget(byPosition, missing),
    );
    if (!shared.clearing) {
      shared.clearing = true;
      const cleared = shared;
      setImmediate(() => {
        cleared.byPosition.clear();
        cleared.clearing = false;
      });
    }
  }
  try {
    return await Promise.all(found as Promise<RecordedEvent>[]);
  } catch (error) {
    if (error === NOT_SHARED) return decode(events);
    throw error;
  }
};

const NOT_SHARED = new Error('decode did not return one event per event');

const forget = (byPosition: Shared['byPosition'], events: readonly RecordedEvent[]): void => {
  for (const event of events) {
    if (byPosition.get(event.position)?.id === event.id) byPosition.delete(event.position);
  }
};
