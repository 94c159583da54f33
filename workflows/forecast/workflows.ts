import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { ForecastActivities } from './activities';
import type { ForecastJobInput, ForecastJobResult } from './forecast-job-input';
import { failureReasonOf } from '../failure-reason';

const refusals = ['AppError:conflict', 'AppError:not_found', 'AppError:validation'];

const jobSteps = proxyActivities<ForecastActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumAttempts: 8, nonRetryableErrorTypes: refusals },
});

const { runForecasts } = proxyActivities<ForecastActivities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '2 minutes',
  retry: {
    initialInterval: '2 seconds',
    backoffCoefficient: 2,
    maximumAttempts: 5,
    nonRetryableErrorTypes: refusals,
  },
});

const reasonOf = (error: unknown): string => failureReasonOf(error, 'Forecasting failed.');

/**
 * The forecast jobs (POST /api/metrics/sellers?jobType=forecasts|forecastByCustomer|historical) and
 * the forecast after every metrics run, on the metrics queue: begin the job, issue and validate the
 * forecasts, end the job with their counts or the reason it failed.
 */
export async function forecastJobWorkflow(input: ForecastJobInput): Promise<ForecastJobResult> {
  const step = { ...input, workflowId: workflowInfo().workflowId };
  try {
    await jobSteps.beginForecastJob(step);
    const result = await runForecasts(step);
    await jobSteps.finishForecastJob({ ...step, failure: null, result });
    return result;
  } catch (error) {
    await jobSteps.finishForecastJob({ ...step, failure: reasonOf(error), result: null });
    throw error;
  }
}
