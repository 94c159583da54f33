import { heartbeat } from '@temporalio/activity';
import type { JobKind } from '../../contracts/events/job';
import { AppError } from '../../contracts/errors';
import { jobStream, sellerStream } from '../../contracts/stream-ids';
import { isFinished } from '../../domain/job/job';
import { jobDecider } from '../../domain/job/job-decider';
import { notSyncedYetMessage } from '../../domain/seller/decide';
import { sellerDecider } from '../../domain/seller/seller-decider';
import type { MetricsDeps } from '../metrics/activities';
import { queryMetricRows } from '../metrics/metric-store';
import { readMetricsScope } from '../metrics/metrics-scope';
import {
  nonRetryableFrom,
  readState,
  runSystemCommand,
  type SystemCommandContext,
} from '../sync/system-commands';
import { throttledProgress } from '../sync/throttled-progress';
import type { ForecastJobResult, ForecastJobStep, ForecastJobType } from './forecast-job-input';
import { historicalAsOfs, runSellerForecasts, type ForecastScope } from './run-forecasts';

export const forecastingOffMessage = 'Forecasting is off for this seller.';

const commandContext = (deps: MetricsDeps, step: ForecastJobStep): SystemCommandContext => ({
  writeSide: deps.writeSide,
  workflowId: step.workflowId,
  tenantId: step.tenantId,
  process: 'forecasts',
});

const scopeOf: Record<ForecastJobStep['jobType'], ForecastScope> = {
  forecasts: 'seller',
  forecastByCustomer: 'customers',
  historical: 'both',
  afterMetrics: 'both',
};

const kindOf: Record<ForecastJobType, JobKind> = {
  forecasts: 'forecast',
  forecastByCustomer: 'forecast',
  historical: 'metrics',
};

/**
 * The forecast jobs (F S, F C and historical in the admin sellers table) and the forecast after each
 * metrics run: revenue and collections forecasts as issued, and the validation of earlier ones.
 * Nothing is issued while the seller's forecasts.Receivables.Enabled flag is off.
 */
export const createForecastActivities = (deps: MetricsDeps) => ({
  /** Marks the job started, creating it when a caller started the run without recording one. */
  async beginForecastJob(step: ForecastJobStep) {
    if (step.jobId === null || step.jobType === 'afterMetrics') return;
    const context = commandContext(deps, step);
    const now = deps.now();
    const job = await readState(deps.writeSide, jobDecider, jobStream(step.jobId));
    if (job.status === 'none')
      await runSystemCommand(context, jobDecider, {
        streamId: jobStream(step.jobId),
        step: 'create-job',
        command: {
          type: 'CreateJob',
          now,
          data: {
            jobId: step.jobId,
            kind: kindOf[step.jobType],
            tenantId: step.tenantId,
            sellerId: step.sellerId,
            parameters: { sellerId: step.sellerId, onlyMissing: step.onlyMissing, type: step.jobType },
            workflowId: step.workflowId,
          },
        },
      });
    await runSystemCommand(context, jobDecider, {
      streamId: jobStream(step.jobId),
      step: 'start-job',
      command: { type: 'StartJob', now, data: {} },
    });
  },

  /** Issues the forecasts; progress is customers read of the seller's customers. */
  async runForecasts(step: ForecastJobStep): Promise<ForecastJobResult> {
    const seller = await readState(deps.writeSide, sellerDecider, sellerStream(step.sellerId));
    const empty = {
      issued: 0,
      skippedAsOfs: 0,
      customerForecasts: 0,
      validatedSteps: 0,
      validatedCustomers: 0,
    };
    if (seller.status !== 'known' || !seller.featureFlags['forecasts.Receivables.Enabled'])
      return { skipped: forecastingOffMessage, ...empty };
    const scope = await readMetricsScope(deps, step);
    if (!scope.synced) throw nonRetryableFrom(new AppError('conflict', notSyncedYetMessage));
    const progress =
      step.jobId === null
        ? null
        : throttledProgress(commandContext(deps, step), { jobId: step.jobId, now: deps.now });
    await progress?.record({ stage: 'forecasts', done: 0, total: null });
    let asOfs = [scope.asOf];
    if (step.jobType === 'historical') {
      const weeks = await queryMetricRows(deps.db, {
        sellerId: step.sellerId,
        type: 'TOTAL_REVENUE',
        frequency: 'WEEKLY',
      });
      const first = weeks[0];
      asOfs = historicalAsOfs(scope.asOf, first ? new Date(first.StartDate) : null);
    }
    const result = await runSellerForecasts(deps.db, {
      sellerId: step.sellerId,
      scope: scopeOf[step.jobType],
      asOfs,
      knownThrough: scope.asOf,
      issuedAtAsOf: step.jobType === 'historical',
      onlyMissing: step.onlyMissing,
      excludedCustomerIds: scope.exclusions.customerIds,
      now: deps.now,
      onProgress: async (done, total) => {
        heartbeat(done);
        // The bar fills once the forecasts are stored, below.
        if (done < total) await progress?.record({ stage: 'forecasts', done, total });
      },
    });
    await progress?.record({ stage: 'forecasts', done: 1, total: 1 });
    return { skipped: null, ...result };
  },

  /** Ends the job; a job already ended (cancelled meanwhile, or a retried ending) is left as it is. */
  async finishForecastJob(
    step: ForecastJobStep & { failure: string | null; result: ForecastJobResult | null },
  ) {
    if (step.jobId === null || step.jobType === 'afterMetrics') return;
    const job = await readState(deps.writeSide, jobDecider, jobStream(step.jobId));
    if (job.status === 'none' || isFinished(job.status)) return;
    const now = deps.now();
    await runSystemCommand(commandContext(deps, step), jobDecider, {
      streamId: jobStream(step.jobId),
      step: step.failure === null ? 'complete-job' : 'fail-job',
      command:
        step.failure === null
          ? { type: 'CompleteJob', now, data: { result: step.result } }
          : { type: 'FailJob', now, data: { reason: step.failure } },
    });
  },
});

export type ForecastActivities = ReturnType<typeof createForecastActivities>;
