import type { RecordedEvent } from '../contracts/events/envelope';
import { decodeEvents } from '../commands/event-codec';
import type { EventRegistry } from '../commands/event-registry';
import type { PersonalDataKeyStore } from '../commands/personal-data-key-store';
import { createPersonalDataProtector } from '../commands/personal-data';

/**
 * Events as projections read them: the write side's decoding (personal data decrypted or shown
 * erased, payloads upcast), lenient about types the registry does not know.
 */
export const createEventDecoder = (deps: { keys: PersonalDataKeyStore; registry: EventRegistry }) => {
  const codec = { registry: deps.registry, personalData: createPersonalDataProtector(deps) };
  return (events: readonly RecordedEvent[]): Promise<RecordedEvent[]> =>
    decodeEvents(codec, events, { lenient: true });
};
