import { WorkflowFailedError } from '@temporalio/client';
import { ActivityFailure } from '@temporalio/common';
import type { pingWorkflow } from '../../workflows/system/workflows';
import { activitiesCalling, useTimeSkippingWorkers } from '../harness/time-skipping';
import { keepHistory } from '../harness/workflow-histories';

/** The operators' ping with its activity mocked, on Temporal's time-skipping test server. */

const queue = 'test-system';
const describeWorker = jest.fn<Promise<string>, []>();
const environment = useTimeSkippingWorkers([
  {
    taskQueue: queue,
    workflowsPath: require.resolve('../../workflows/system/workflows'),
    activities: activitiesCalling(() => ({ describeWorker }), ['describeWorker']),
  },
]);
let runs = 0;

beforeEach(() => describeWorker.mockReset());

/** Starts a run; one whose history is recorded takes the history's name as its id. */
const ping = (message: string, workflowId = `ping-${++runs}`) =>
  environment().client.workflow.start<typeof pingWorkflow>('pingWorkflow', {
    taskQueue: queue,
    workflowId,
    args: [message],
  });

describe('pingWorkflow', () => {
  it('answers with the message and the worker that ran its activity', async () => {
    describeWorker.mockResolvedValue('worker-host:4242');
    const handle = await ping('hello', 'ping-answered');

    await expect(handle.result()).resolves.toBe('pong: hello (from worker-host:4242)');
    await keepHistory(handle);
  });

  it('retries a failing activity, and fails after its third attempt', async () => {
    describeWorker.mockRejectedValue(new Error('worker going away'));
    const handle = await ping('hello', 'ping-failed');

    const error = await handle.result().then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(WorkflowFailedError);
    expect((error as WorkflowFailedError).cause).toBeInstanceOf(ActivityFailure);
    expect(describeWorker).toHaveBeenCalledTimes(3);
    await keepHistory(handle);
  });
});
