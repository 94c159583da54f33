import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { Config } from '../../contracts/config';
import { sellerSearchAttributes } from '../search-attributes';
import { taskQueues } from '../task-queues';
import { metricsJobWorkflowId, type MetricsJobRun } from './metrics-jobs';
import type { customerMetricsWorkflow, forecastJobWorkflow, generateMetricsWorkflow } from './workflows';

/**
 * Starts a metrics job's run: GenerateMetrics for the sellers job, which then owns the job's lifecycle
 * (`finishJob`), or the customers job's workflow. Its id is the job's, and a closed run's id is never
 * reused, so a redelivered request starts nothing (`started` false) even after the run has finished.
 */
export const startMetricsJob = async (
  run: MetricsJobRun,
  temporal: { client: Client; config: Pick<Config, 'TEMPORAL_TASK_QUEUE_PREFIX'> },
): Promise<{ workflowId: string; started: boolean }> => {
  const { jobType, onlyMissing, ...input } = run;
  const workflowId = metricsJobWorkflowId(temporal.config, run);
  const options = {
    taskQueue: taskQueues(temporal.config).metrics,
    workflowId,
    workflowIdConflictPolicy: 'FAIL' as const,
    workflowIdReusePolicy: 'REJECT_DUPLICATE' as const,
    typedSearchAttributes: sellerSearchAttributes(input),
  };
  try {
    if (jobType === 'sellers')
      await temporal.client.workflow.start<typeof generateMetricsWorkflow>('generateMetricsWorkflow', {
        ...options,
        args: [{ ...input, finishJob: true }],
      });
    else if (jobType === 'customers')
      await temporal.client.workflow.start<typeof customerMetricsWorkflow>('customerMetricsWorkflow', {
        ...options,
        args: [input],
      });
    else
      await temporal.client.workflow.start<typeof forecastJobWorkflow>('forecastJobWorkflow', {
        ...options,
        args: [{ ...input, jobType, onlyMissing: onlyMissing ?? false }],
      });
    return { workflowId, started: true };
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return { workflowId, started: false };
    throw error;
  }
};
