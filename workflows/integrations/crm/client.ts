import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { Config } from '../../../contracts/config';
import { taskQueues } from '../../task-queues';
import type { IntegrationCleanupInput, IntegrationJobAction, IntegrationJobInput } from './job-input';
import type {
  cleanUpIntegrationWorkflow,
  purgeIntegrationWorkflow,
  syncIntegrationWorkflow,
  unlinkIntegrationWorkflow,
} from './workflows';

type Prefix = Pick<Config, 'TEMPORAL_TASK_QUEUE_PREFIX'>;

/**
 * The run of a recorded integration job: one per job however often it is started, qualified by the
 * deployment's prefix since ids restart at 1 in a fresh event store (as syncJobWorkflowId does).
 */
export const integrationWorkflowId = (
  config: Prefix,
  job: { integrationId: number; action: IntegrationJobAction; jobId: number },
): string =>
  `${config.TEMPORAL_TASK_QUEUE_PREFIX}-integration-${job.action}-${job.integrationId}-${job.jobId}`;

const workflowOf = {
  sync: 'syncIntegrationWorkflow',
  purge: 'purgeIntegrationWorkflow',
  unlink: 'unlinkIntegrationWorkflow',
} as const satisfies Record<IntegrationJobAction, string>;

type JobWorkflow =
  typeof syncIntegrationWorkflow | typeof purgeIntegrationWorkflow | typeof unlinkIntegrationWorkflow;

/** Starts a job's run; a run already there (a redelivered request), running or closed, starts nothing. */
export const startIntegrationJob = async (
  temporal: { client: Client; config: Prefix },
  input: IntegrationJobInput & { workflowId: string },
): Promise<{ workflowId: string; started: boolean }> => {
  const { workflowId, ...args } = input;
  try {
    await temporal.client.workflow.start<JobWorkflow>(workflowOf[input.action], {
      taskQueue: taskQueues(temporal.config).integrations,
      workflowId,
      workflowIdConflictPolicy: 'FAIL',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      args: [args],
    });
    return { workflowId, started: true };
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return { workflowId, started: false };
    throw error;
  }
};

/** The clean-up after a disconnect or a delete, one run per recorded change (its event's position). */
export const startIntegrationCleanUp = async (
  temporal: { client: Client; config: Prefix },
  input: IntegrationCleanupInput & { position: number },
): Promise<boolean> => {
  const { position, ...args } = input;
  try {
    await temporal.client.workflow.start<typeof cleanUpIntegrationWorkflow>('cleanUpIntegrationWorkflow', {
      taskQueue: taskQueues(temporal.config).integrations,
      workflowId: `${temporal.config.TEMPORAL_TASK_QUEUE_PREFIX}-integration-${input.change}-${input.integrationId}-${position}`,
      workflowIdConflictPolicy: 'FAIL',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      args: [args],
    });
    return true;
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw error;
  }
};
