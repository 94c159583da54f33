import { RecordedEvent } from '../contracts/events/envelope';
import { EVENT_ID_NAMESPACE, eventIdFor, uuidV5 } from './event-id';

const DNS_NAMESPACE = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';
const URL_NAMESPACE = '6ba7b811-9dad-11d1-80b4-00c04fd430c8';

describe('uuidV5', () => {
  it('matches the reference implementation (Python uuid.uuid5) for the DNS namespace', () => {
    expect(uuidV5('www.example.com', DNS_NAMESPACE)).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });

  it('derives our namespace from the URL namespace as documented', () => {
    expect(uuidV5('https://ledgerwise.example/events', URL_NAMESPACE)).toBe(EVENT_ID_NAMESPACE);
  });

  it('rejects a namespace that is not a UUID', () => {
    expect(() => uuidV5('x', 'not-a-uuid')).toThrow('Not a UUID');
  });
});

describe('eventIdFor', () => {
  it('gives the same id for the same command and index, so a retried command appends duplicates', () => {
    expect(eventIdFor('cmd-7f3a', 0)).toBe(eventIdFor('cmd-7f3a', 0));
  });

  it('gives different ids for different indexes and different commands', () => {
    const ids = new Set([
      eventIdFor('cmd-1', 0),
      eventIdFor('cmd-1', 1),
      eventIdFor('cmd-2', 0),
      eventIdFor('cmd-2', 1),
    ]);
    expect(ids.size).toBe(4);
  });

  it('keeps the command id and index apart (no collision between "a1"#2 and "a"#12)', () => {
    expect(eventIdFor('a1', 2)).not.toBe(eventIdFor('a', 12));
  });

  it('produces a version 5 RFC variant UUID that the event envelope accepts', () => {
    const id = eventIdFor('cmd-1', 3);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(RecordedEvent.shape.id.safeParse(id).success).toBe(true);
  });

  it('rejects an empty command id and a negative or fractional index', () => {
    expect(() => eventIdFor('', 0)).toThrow('command id');
    expect(() => eventIdFor('cmd', -1)).toThrow('non-negative integer');
    expect(() => eventIdFor('cmd', 1.5)).toThrow('non-negative integer');
  });
});
