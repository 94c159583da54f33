import { proxyActivities } from '@temporalio/workflow';
import type * as activities from './activities';

const { describeWorker } = proxyActivities<typeof activities>({
  startToCloseTimeout: '10 seconds',
  retry: { maximumAttempts: 3 },
});

/** A round trip through the worker: operators (and the smoke tests) use it to prove the worker is live. */
export async function pingWorkflow(message: string): Promise<string> {
  const worker = await describeWorker();
  return `pong: ${message} (from ${worker})`;
}
