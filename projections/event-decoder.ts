import type { RecordedEvent } from '../contracts/events/envelope';
import { upcastPayload, type EventRegistry } from '../commands/event-registry';
import type { PersonalDataKeyStore } from '../commands/personal-data-key-store';
import { createPersonalDataProtector } from '../commands/personal-data';

/**
 * Events as projections read them: personal data decrypted (or the erased marker where the subject's
 * key is gone) and payloads upcast to the current schema version. Types the registry does not know
 * pass through as stored, so a generic read model (the audit history) never stalls on one.
 */
export const createEventDecoder = (deps: { keys: PersonalDataKeyStore; registry: EventRegistry }) => {
  const protector = createPersonalDataProtector(deps);
  return async (events: readonly RecordedEvent[]): Promise<RecordedEvent[]> => {
    const revealed = await protector.reveal(events);
    return revealed.map((event) => {
      const definition = deps.registry.definitionOf(event.type);
      if (!definition || event.schemaVersion >= definition.schemaVersion) return event;
      return { ...event, schemaVersion: definition.schemaVersion, data: upcastPayload(deps.registry, event) };
    });
  };
};
