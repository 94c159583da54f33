import type { KafkaMessage } from 'kafkajs';
import { buildBatch } from './ledger-facts-lines';
import { startFactsThread, type FactsThread } from './ledger-facts-thread-client';
import { feedLine } from './testing/feed-line';

const line = feedLine;

const messagesOf = (values: (string | null)[], firstOffset: number): KafkaMessage[] =>
  values.map((value, i) => ({
    key: null,
    value: value === null ? null : Buffer.from(value),
    offset: String(firstOffset + i),
    timestamp: '0',
    attributes: 0,
    headers: {},
  }));

describe('the analytics consumer facts thread', () => {
  let thread: FactsThread;
  beforeAll(() => {
    thread = startFactsThread();
  });
  afterAll(() => thread.close());

  it('builds the fact groups the consumer would build on its own thread, batch after batch in order', async () => {
    const first = messagesOf(
      [
        line(12, 'I1'),
        null,
        'not json',
        line(13, 'I2'),
        line(12, 'I1', { deleted: true, record: {}, epoch: 4 }),
        line(12, 'I3', { entity: 'bills' }),
      ],
      9_007_199_254_000,
    );
    const second = messagesOf([line(14, 'I9'), line(12, 'I4')], 41);
    const inline = (messages: KafkaMessage[]) =>
      buildBatch(
        messages.length,
        (i) => messages[i]!.value,
        (i) => Number(messages[i]!.offset),
      );
    const [built, builtAfter] = await Promise.all([thread.build(first), thread.build(second)]);
    expect(built).toEqual(inline(first));
    expect(builtAfter).toEqual(inline(second));
    // Three keyable lines of the six, in two sellers' groups, the tombstone kept as a version.
    expect(built.records).toBe(3);
    expect(built.groups.map((group) => group.sellerId).sort()).toEqual([12, 13]);
    expect(built.groups.find((group) => group.sellerId === 12)?.facts).toContain('"I1",4');
  });

  it('reads the values wherever kafkajs left them: slices of one response buffer, or buffers of their own', async () => {
    const values = [line(21, 'I1'), null, line(22, 'I2'), '', line(21, 'I3', { deleted: true, record: {} })];
    // As kafkajs decodes a response: slices of one buffer, with each record's key and headers between.
    const response = Buffer.from(values.map((value) => `<key and headers>${value ?? ''}`).join(''));
    let at = 0;
    const slices = messagesOf(values, 500).map((message, i) => {
      at += '<key and headers>'.length;
      const length = Buffer.byteLength(values[i] ?? '');
      const value = values[i] === null ? null : response.subarray(at, at + length);
      at += length;
      return { ...message, value };
    });
    // Each value a buffer of its own (not from the shared pool).
    const separate = messagesOf(values, 500).map((message) => {
      if (!message.value) return message;
      const value = Buffer.alloc(message.value.length);
      message.value.copy(value);
      return { ...message, value };
    });
    const expected = buildBatch(
      values.length,
      (i) => values[i] ?? null,
      (i) => 500 + i,
    );
    expect(expected.records).toBe(3);
    expect(await thread.build(slices)).toEqual(expected);
    expect(await thread.build(separate)).toEqual(expected);
  });

  it('answers a batch of nothing keyable with no groups', async () => {
    expect(await thread.build(messagesOf([null, '[]'], 0))).toEqual({ groups: [], records: 0 });
  });
});
