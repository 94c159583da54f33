import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { MetricsActivities } from './activities';
import type { CustomerMetricsActivities } from './customer-metrics-activities';
import type { CustomerMetricsInput, CustomerMetricsResult } from './customer-metrics-input';
import type { GenerateMetricsInput, GenerateMetricsResult } from './metrics-input';
import { failureReasonOf } from '../failure-reason';

// The forecast jobs run on the metrics queue's worker, which loads this one workflows file.
export { forecastJobWorkflow } from '../forecast/workflows';

const refusals = ['AppError:conflict', 'AppError:not_found', 'AppError:validation'];

const { generateSellerMetrics } = proxyActivities<MetricsActivities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '2 minutes',
  retry: {
    initialInterval: '2 seconds',
    backoffCoefficient: 2,
    maximumAttempts: 5,
    nonRetryableErrorTypes: refusals,
  },
});

const { finishMetricsJob } = proxyActivities<MetricsActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumAttempts: 8, nonRetryableErrorTypes: refusals },
});

const reasonOf = (error: unknown): string => failureReasonOf(error, 'Generating the metrics failed.');

/**
 * GenerateMetrics: every metric of one seller from its ledger; records the MetricsDate. It runs after
 * each sync (which passes its job) and as the sellers job (S in the admin sellers table); with
 * `finishJob` it starts and ends the job it reports.
 */
export async function generateMetricsWorkflow(input: GenerateMetricsInput): Promise<GenerateMetricsResult> {
  const { workflowId } = workflowInfo();
  try {
    const result = await generateSellerMetrics({ ...input, workflowId });
    if (input.finishJob) await finishMetricsJob({ ...input, workflowId, failure: null, result });
    return result;
  } catch (error) {
    if (input.finishJob)
      await finishMetricsJob({ ...input, workflowId, failure: reasonOf(error), result: null });
    throw error;
  }
}

const customerActivities = proxyActivities<CustomerMetricsActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumAttempts: 8, nonRetryableErrorTypes: refusals },
});

/** Waits for the seller's lease while another run holds it, heartbeating meanwhile. */
const { generateCustomerMetrics } = proxyActivities<CustomerMetricsActivities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '2 minutes',
  retry: {
    initialInterval: '2 seconds',
    backoffCoefficient: 2,
    maximumAttempts: 5,
    nonRetryableErrorTypes: refusals,
  },
});

/** The customers job (POST /api/metrics/sellers?jobType=customers): one seller's customer metrics. */
export async function customerMetricsWorkflow(input: CustomerMetricsInput): Promise<CustomerMetricsResult> {
  const step = { ...input, workflowId: workflowInfo().workflowId };
  try {
    await customerActivities.beginCustomerMetrics(step);
    const result = await generateCustomerMetrics(step);
    await customerActivities.finishCustomerMetrics({ ...step, failure: null, result });
    return result;
  } catch (error) {
    await customerActivities.finishCustomerMetrics({ ...step, failure: reasonOf(error), result: null });
    throw error;
  }
}
