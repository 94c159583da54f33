/**
 * A thread for thread-calls.test.ts: echoes, throws, exits or hangs as each call asks, and says which
 * thread answered (its threadId), so the test sees a new thread start after one ended.
 */
import { threadId } from 'node:worker_threads';
import { serveThreadCalls } from './thread-calls';

export type FixtureCall =
  { kind: 'echo'; bytes: Uint8Array } | { kind: 'throw' } | { kind: 'exit' } | { kind: 'hang' };

serveThreadCalls<FixtureCall, { threadId: number; sum: number }>(async (call) => {
  switch (call.kind) {
    case 'echo':
      return { threadId, sum: call.bytes.reduce((total, byte) => total + byte, 0) };
    case 'throw':
      throw new RangeError('the work failed');
    case 'exit':
      process.exit(3);
      break;
    case 'hang':
      await new Promise(() => undefined);
  }
  return { threadId, sum: -1 };
});
