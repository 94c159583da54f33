import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { DatasetActivities } from './dataset-activities';
import type { DatasetJobInput, DatasetJobResult } from './dataset-job-input';
import { failureReasonOf } from '../../failure-reason';

const refusals = ['AppError:conflict', 'AppError:not_found', 'AppError:validation'];

const jobSteps = proxyActivities<DatasetActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumAttempts: 8, nonRetryableErrorTypes: refusals },
});

const { buildDataset } = proxyActivities<DatasetActivities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '2 minutes',
  retry: {
    initialInterval: '2 seconds',
    backoffCoefficient: 2,
    maximumAttempts: 5,
    nonRetryableErrorTypes: refusals,
  },
});

const reasonOf = (error: unknown): string => failureReasonOf(error, 'Generating the data set failed.');

/**
 * A data-set job (POST /api/datasets, one per seller): begin, build the file and store it in the
 * object store, end with where it is (docs/analytics.md). Its id is the job's workflowId.
 */
export async function datasetJobWorkflow(input: DatasetJobInput): Promise<DatasetJobResult> {
  const step = { ...input, workflowId: workflowInfo().workflowId };
  try {
    await jobSteps.beginDatasetJob(step);
    const result = await buildDataset(step);
    await jobSteps.finishDatasetJob({ ...step, failure: null, result });
    return result;
  } catch (error) {
    await jobSteps.finishDatasetJob({ ...step, failure: reasonOf(error), result: null });
    throw error;
  }
}
