import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import * as activities from '../../workflows/system/activities';
import type { pingWorkflow } from '../../workflows/system/workflows';
import { taskQueues } from '../../workflows/task-queues';
import { isolatedNames, testConfig } from '../harness/isolation';

const names = isolatedNames(__filename);
const config = testConfig(names);

describe('Temporal dev server', () => {
  it('runs a workflow with one activity on a worker; the client sees it completed and lists it', async () => {
    const taskQueue = taskQueues(config).system;
    const workerConnection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
    const worker = await Worker.create({
      connection: workerConnection,
      namespace: config.TEMPORAL_NAMESPACE,
      taskQueue,
      workflowsPath: require.resolve('../../workflows/system/workflows'),
      activities,
    });
    const connection = await Connection.connect({ address: config.TEMPORAL_ADDRESS });
    const client = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE });
    const workflowId = `smoke-ping-${names.runId}`;

    try {
      const result = await worker.runUntil(
        client.workflow.execute<typeof pingWorkflow>('pingWorkflow', {
          taskQueue,
          workflowId,
          args: ['hello'],
        }),
      );
      expect(result).toMatch(/^pong: hello \(from .+:\d+\)$/);

      const description = await client.workflow.getHandle(workflowId).describe();
      expect(description.status.name).toBe('COMPLETED');

      // Visibility is eventually consistent: poll until the list shows the run.
      let listed: string[] = [];
      for (let attempt = 0; attempt < 50 && listed.length === 0; attempt += 1) {
        listed = [];
        for await (const execution of client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) {
          listed.push(execution.status.name);
        }
        if (listed.length === 0) await new Promise((r) => setTimeout(r, 200));
      }
      expect(listed).toEqual(['COMPLETED']);
    } finally {
      await connection.close();
      await workerConnection.close();
    }
  });
});
