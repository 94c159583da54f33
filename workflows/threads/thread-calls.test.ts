import { join } from 'node:path';
import type { FixtureCall } from './thread-calls-fixture';
import { inThreadOrHere, ThreadCallError, threadCalls, ThreadUnavailableError } from './thread-calls';

const fixture = (timeoutMs = 10_000) =>
  threadCalls<FixtureCall, { threadId: number; sum: number }>({
    file: join(__dirname, 'thread-calls-fixture.ts'),
    name: 'fixture',
    timeoutMs,
  });

const echo = (values: number[]) => {
  const bytes = new Uint8Array(values);
  return { call: { kind: 'echo' as const, bytes }, transfer: [bytes.buffer] };
};

describe('threadCalls (docs/adr/0058)', () => {
  it('answers calls side by side from one thread, with the bytes handed over', async () => {
    const calls = fixture();
    try {
      const first = echo([1, 2, 3]);
      const second = echo([10, 20]);
      const answers = await Promise.all([
        calls.call(first.call, first.transfer),
        calls.call(second.call, second.transfer),
      ]);
      expect(answers.map((answer) => answer.sum)).toEqual([6, 30]);
      expect(answers[0].threadId).toBe(answers[1].threadId);
      // Handed over, not copied: the caller's buffer is detached.
      expect(first.call.bytes.byteLength).toBe(0);
    } finally {
      await calls.close();
    }
  });

  it("gives the work's error back with its name and message, and the thread goes on", async () => {
    const calls = fixture();
    try {
      const failed = await calls.call({ kind: 'throw' }).catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(ThreadCallError);
      expect((failed as ThreadCallError).threadErrorName).toBe('RangeError');
      expect((failed as Error).message).toBe('the work failed');
      // Not the fallback's cue: inThreadOrHere throws it as it came.
      await expect(
        inThreadOrHere(
          () => calls.call({ kind: 'throw' }),
          () => Promise.resolve({ threadId: -1, sum: 0 }),
        ),
      ).rejects.toBeInstanceOf(ThreadCallError);
      const { call, transfer } = echo([5]);
      expect((await calls.call(call, transfer)).sum).toBe(5);
    } finally {
      await calls.close();
    }
  });

  it('falls back on the caller when the thread dies, and starts a new thread for the next call', async () => {
    const calls = fixture();
    try {
      const { call, transfer } = echo([1]);
      const before = await calls.call(call, transfer);
      await expect(calls.call({ kind: 'exit' })).rejects.toBeInstanceOf(ThreadUnavailableError);
      const here = await inThreadOrHere(
        () => calls.call({ kind: 'exit' }),
        () => Promise.resolve({ threadId: -1, sum: 42 }),
      );
      expect(here).toEqual({ threadId: -1, sum: 42 });
      const again = echo([2, 2]);
      const after = await calls.call(again.call, again.transfer);
      expect(after.sum).toBe(4);
      expect(after.threadId).not.toBe(before.threadId);
    } finally {
      await calls.close();
    }
  });

  it('takes a thread that does not answer in time as stuck: the call falls back, a new thread answers', async () => {
    const calls = fixture(1_000);
    try {
      const started = Date.now();
      const here = await inThreadOrHere(
        () => calls.call({ kind: 'hang' }),
        () => Promise.resolve({ threadId: -1, sum: 7 }),
      );
      expect(here.sum).toBe(7);
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
      const { call, transfer } = echo([3]);
      expect((await calls.call(call, transfer)).sum).toBe(3);
    } finally {
      await calls.close();
    }
  });
});
