import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { Config } from '../../contracts/config';
import { sellerSearchAttributes } from '../search-attributes';
import { taskQueues } from '../task-queues';
import type { CustomerMetricsInput } from './customer-metrics-input';
import { customerMetricsWorkflowId } from './metrics-jobs';
import type { customerMetricsWorkflow } from './workflows';

/**
 * Starts the customers job's run. Its id is the job's, and a closed run's id is never reused, so a
 * redelivered request starts nothing (`started` false) even after the first run has finished.
 */
export const startCustomerMetrics = async (
  input: CustomerMetricsInput,
  temporal: { client: Client; config: Pick<Config, 'TEMPORAL_TASK_QUEUE_PREFIX'> },
): Promise<{ workflowId: string; started: boolean }> => {
  const workflowId = customerMetricsWorkflowId(temporal.config, input);
  try {
    await temporal.client.workflow.start<typeof customerMetricsWorkflow>('customerMetricsWorkflow', {
      taskQueue: taskQueues(temporal.config).metrics,
      workflowId,
      workflowIdConflictPolicy: 'FAIL',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      args: [input],
      typedSearchAttributes: sellerSearchAttributes(input),
    });
    return { workflowId, started: true };
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return { workflowId, started: false };
    throw error;
  }
};
