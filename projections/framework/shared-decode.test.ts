import type { RecordedEvent } from '../../contracts/events/envelope';
import { decodeShared, type Decode } from './shared-decode';

const event = (position: number, streamId = 'user-1', id = position): RecordedEvent => ({
  id: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
  streamId,
  revision: position,
  position,
  type: 'UserRenamed',
  schemaVersion: 1,
  data: { name: 'sealed' },
  metadata: {
    tenantId: 1,
    actor: 'user:1',
    ip: null,
    method: null,
    url: null,
    body: null,
    requestId: null,
    correlationId: 'c',
    causationId: null,
    time: '2026-01-01T00:00:00.000Z',
  },
  recordedAt: '2026-01-01T00:00:00.000Z',
});

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A decoder that reveals `Ada` while the key exists, `[erased]` after, and counts what it decodes. */
const keyedDecoder = () => {
  const state = { erased: false, decoded: [] as number[], failNext: false };
  const decode: Decode = (events) => {
    if (state.failNext) {
      state.failNext = false;
      return Promise.reject(new Error('key store unreachable'));
    }
    state.decoded.push(...events.map((e) => e.position));
    return Promise.resolve(events.map((e) => ({ ...e, data: { name: state.erased ? '[erased]' : 'Ada' } })));
  };
  return { state, decode };
};

describe('decodeShared', () => {
  it('decodes an event once for the projectors that read it in the same turn', async () => {
    const { state, decode } = keyedDecoder();
    const all = [event(1), event(2, 'tenant-1'), event(3)];
    const users = [event(1), event(3)];

    const [audit, usersDecoded] = await Promise.all([decodeShared(decode, all), decodeShared(decode, users)]);

    expect(state.decoded).toEqual([1, 2, 3]);
    expect(audit.map((e) => [e.position, e.data])).toEqual([
      [1, { name: 'Ada' }],
      [2, { name: 'Ada' }],
      [3, { name: 'Ada' }],
    ]);
    expect(usersDecoded.map((e) => e.position)).toEqual([1, 3]);
    expect(usersDecoded.map((e) => e.data)).toEqual([{ name: 'Ada' }, { name: 'Ada' }]);
  });

  it('keeps nothing past the turn: after a key is erased, the next read is decoded again', async () => {
    const { state, decode } = keyedDecoder();
    await decodeShared(decode, [event(1)]);
    await nextTurn();
    state.erased = true;

    const later = await decodeShared(decode, [event(1)]);

    expect(state.decoded).toEqual([1, 1]);
    expect(later[0]?.data).toEqual({ name: '[erased]' });
  });

  it('shares only the same event: another id at a position is decoded on its own', async () => {
    const { state, decode } = keyedDecoder();
    await decodeShared(decode, [event(1)]);
    const other = await decodeShared(decode, [event(1, 'user-2', 99)]);

    expect(state.decoded).toEqual([1, 1]);
    expect(other[0]?.id).toBe(event(1, 'user-2', 99).id);
  });

  it('keeps no failed decode: the next read decodes again', async () => {
    const { state, decode } = keyedDecoder();
    state.failNext = true;
    await expect(decodeShared(decode, [event(1)])).rejects.toThrow('key store unreachable');

    const retried = await decodeShared(decode, [event(1)]);

    expect(retried[0]?.data).toEqual({ name: 'Ada' });
  });

  it('decodes alone with a decoder that does not answer one event per event', async () => {
    let calls = 0;
    const dropsOdd: Decode = (events) => {
      calls += 1;
      return Promise.resolve(events.filter((e) => e.position % 2 === 0));
    };

    const decoded = await decodeShared(dropsOdd, [event(1), event(2)]);

    expect(decoded.map((e) => e.position)).toEqual([2]);
    expect(calls).toBe(2);
  });

  it('hands out events no projection can change in place (frozen under test)', async () => {
    const { decode } = keyedDecoder();
    const [decoded] = await decodeShared(decode, [event(1)]);

    expect(() => {
      (decoded!.data as { name: string }).name = 'changed';
    }).toThrow(TypeError);
  });
});
