import type { RecordedEvent } from '../contracts/events/envelope';
import type { DomainEvent } from '../domain/decider';
import { eventIdFor } from './event-id';
import { upcastPayload, validatedPayload, type EventRegistry } from './event-registry';
import type { EventToAppend } from './event-store/event-store';
import type { PersonalDataProtector } from './personal-data';
import { metadataFor } from './request-context';

/**
 * The way between a decider's events and the store's: on the way in, payloads are validated against
 * their contract, personal data is encrypted and the envelope (deterministic id, version, metadata)
 * is added; on the way out, personal data is decrypted and old versions are upcast.
 */
export type EventCodec = { registry: EventRegistry; personalData: PersonalDataProtector };

export type EncodedBatch = {
  /** The events as validated (what a caller is answered with). */
  events: DomainEvent[];
  /** The same events as they are stored. */
  toAppend: EventToAppend[];
};

export const encodeEvents = async (
  codec: EventCodec,
  batch: { streamId: string; commandId: string; now: Date; events: readonly DomainEvent[] },
): Promise<EncodedBatch> => {
  // Validate everything before encrypting anything, so one bad event fails the whole batch early.
  const validated = batch.events.map((event) => ({
    type: event.type,
    ...validatedPayload(codec.registry, event),
  }));
  const metadata = metadataFor(batch.commandId, batch.now);
  const toAppend = await Promise.all(
    validated.map(async (event, index): Promise<EventToAppend> => {
      const stored = await codec.personalData.protect({
        streamId: batch.streamId,
        type: event.type,
        data: event.data,
        metadata,
      });
      return {
        id: eventIdFor(batch.commandId, index),
        type: event.type,
        schemaVersion: event.schemaVersion,
        ...stored,
      };
    }),
  );
  return { events: validated.map(({ type, data }) => ({ type, data })), toAppend };
};

/**
 * Recorded events as the current code expects them: decrypted and at the current schema version.
 * Strict by default (the write side must not decide on an event it does not understand); `lenient`
 * passes unknown types, and versions newer than this program, through as stored, so a generic reader
 * such as the audit history never stalls on one.
 */
export const decodeEvents = async (
  codec: EventCodec,
  recorded: readonly RecordedEvent[],
  options: { lenient?: boolean } = {},
): Promise<RecordedEvent[]> => {
  const revealed = await codec.personalData.reveal(recorded);
  return revealed.map((event) => {
    const definition = codec.registry.definitionOf(event.type);
    if (options.lenient && (!definition || event.schemaVersion >= definition.schemaVersion)) return event;
    const schemaVersion = definition?.schemaVersion ?? event.schemaVersion;
    return { ...event, schemaVersion, data: upcastPayload(codec.registry, event) };
  });
};

export const toDomainEvent = (event: RecordedEvent): DomainEvent => ({ type: event.type, data: event.data });
