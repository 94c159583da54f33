import { z } from 'zod';
import { ERASED } from '../commands/personal-data';
import type { RecordedEvent } from '../contracts/events/envelope';
import { parseEvent } from './parse-event';

const Subscribed = z.object({
  type: z.literal('RecipientSubscribed'),
  data: z.object({ recipientId: z.number().int(), email: z.email(), name: z.string().min(1) }),
});
const types = new Set(['RecipientSubscribed']);
const recorded = (data: unknown): RecordedEvent => ({
  id: '6f1c2b1e-8f3a-4a51-9b7c-2f1e0a6d9c11',
  streamId: 'recipient-4',
  revision: 0,
  position: 17,
  type: 'RecipientSubscribed',
  schemaVersion: 1,
  data,
  metadata: {
    tenantId: 3,
    actor: 'user:7',
    ip: null,
    method: null,
    url: null,
    body: null,
    requestId: null,
    correlationId: 'c',
    causationId: null,
    time: '2025-05-01T09:00:00.000Z',
  },
  recordedAt: '2025-05-01T09:00:00.000Z',
});

describe('parseEvent', () => {
  it('types a valid event and ignores event types the caller does not read', () => {
    expect(
      parseEvent(Subscribed, types, recorded({ recipientId: 4, email: 'a@b.co', name: 'Ada' }))?.data.email,
    ).toBe('a@b.co');
    expect(parseEvent(Subscribed, new Set(['Other']), recorded({}))).toBeNull();
  });

  it('accepts an event whose only mismatches are erased personal data, so projections never stall on a purge', () => {
    const event = parseEvent(Subscribed, types, recorded({ recipientId: 4, email: ERASED, name: ERASED }));
    expect(event?.data).toEqual({ recipientId: 4, email: ERASED, name: ERASED });
  });

  it('still stops on any other mismatch, even beside erased fields', () => {
    expect(() =>
      parseEvent(Subscribed, types, recorded({ recipientId: 'four', email: ERASED, name: 'Ada' })),
    ).toThrow(/RecipientSubscribed at position 17 does not match its contract/);
  });
});
