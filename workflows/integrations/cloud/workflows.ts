import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import { failureReasonOf } from '../../failure-reason';
import type { LiveReportsActivities } from './live-reports-activities';
import type { LiveReportsInput, LiveReportsResult } from './live-reports-input';

const refusals = ['AppError:conflict', 'AppError:not_found', 'AppError:validation'];

const jobSteps = proxyActivities<LiveReportsActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumAttempts: 8, nonRetryableErrorTypes: refusals },
});

const { awaitForecast } = proxyActivities<LiveReportsActivities>({
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', maximumAttempts: 3 },
});

const { writeLiveReport } = proxyActivities<LiveReportsActivities>({
  startToCloseTimeout: '20 minutes',
  heartbeatTimeout: '2 minutes',
  retry: {
    initialInterval: '2 seconds',
    backoffCoefficient: 2,
    maximumAttempts: 6,
    nonRetryableErrorTypes: refusals,
  },
});

/**
 * Refreshes an integration's Live Reports of one seller after its sync and metrics
 * (docs/adr/0049-live-reports.md): begin the job, wait for the forecast of the same metrics run, write
 * each report into its file in place, end the job with the links or the reason (a refused token asks
 * to reconnect; the activity has marked the integration INVALID).
 */
export async function liveReportsWorkflow(input: LiveReportsInput): Promise<LiveReportsResult> {
  const step = { ...input, workflowId: workflowInfo().workflowId };
  try {
    await jobSteps.beginLiveReports(step);
    if (input.types.includes('AR_FORECAST_SHEET')) await awaitForecast(step);
    const result: LiveReportsResult = { written: [], skipped: [] };
    for (const [index, type] of input.types.entries()) {
      const written = await writeLiveReport({ ...step, type, index });
      if (written) result.written.push({ type, storageUrl: written.storageUrl });
      else result.skipped.push(type);
    }
    await jobSteps.finishLiveReports({ ...step, failure: null, result });
    return result;
  } catch (error) {
    await jobSteps.finishLiveReports({
      ...step,
      failure: failureReasonOf(error, 'The live reports could not be refreshed.'),
      result: null,
    });
    throw error;
  }
}
