import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { Config } from '../../contracts/config';
import type { RecordedEvent } from '../../contracts/events/envelope';
import { SellerMetricsDateRecorded } from '../../contracts/events/seller';
import { sellerStream } from '../../contracts/stream-ids';
import { sellerDecider } from '../../domain/seller/seller-decider';
import { startCheckpointedReactor, type ReactorDeps } from '../checkpointed-reactor';
import { sellerSearchAttributes } from '../search-attributes';
import { readState } from '../sync/system-commands';
import { taskQueues } from '../task-queues';
import type { forecastJobWorkflow } from './workflows';

type ForecastReactorDeps = ReactorDeps & {
  client: Client;
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE_PREFIX'>;
};

/** One forecast per metrics run: the id names the event, so a redelivered event starts nothing. */
export const forecastAfterMetricsWorkflowId = (
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE_PREFIX'>,
  event: { sellerId: number; position: number },
) => `${config.TEMPORAL_TASK_QUEUE_PREFIX}-forecast-seller-${event.sellerId}-after-${event.position}`;

const startAfterMetrics = async (deps: ForecastReactorDeps, event: RecordedEvent) => {
  const { data } = SellerMetricsDateRecorded.parse({ type: event.type, data: event.data });
  const seller = await readState(deps.writeSide, sellerDecider, sellerStream(data.sellerId));
  if (seller.status !== 'known' || !seller.featureFlags['forecasts.Receivables.Enabled']) return;
  // Only the seller's latest metrics run: a reactor starting from an old checkpoint (or none, on its
  // first deployment) must not forecast once per past sync.
  if (seller.metricsDate !== data.metricsDate) return;
  const run = { sellerId: data.sellerId, tenantId: seller.tenantId };
  const workflowId = forecastAfterMetricsWorkflowId(deps.config, {
    sellerId: data.sellerId,
    position: event.position,
  });
  try {
    await deps.client.workflow.start<typeof forecastJobWorkflow>('forecastJobWorkflow', {
      taskQueue: taskQueues(deps.config).metrics,
      workflowId,
      workflowIdConflictPolicy: 'FAIL',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      typedSearchAttributes: sellerSearchAttributes(run),
      args: [{ ...run, jobId: null, jobType: 'afterMetrics', onlyMissing: false }],
    });
    deps.logger.info({ ...run, workflowId }, 'forecast after metrics requested');
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
};

/**
 * A forecast after every completed sync: each recorded MetricsDate (the sync's metrics, or the sellers
 * job) starts a forecast run for a seller whose forecasting is on, from its own checkpoint.
 */
export const startForecastAfterMetricsReactor = (
  deps: ForecastReactorDeps & { retryMs?: number },
): { stop: () => Promise<void> } =>
  startCheckpointedReactor(deps, {
    name: 'forecast-after-metrics',
    eventTypes: ['SellerMetricsDateRecorded'],
    handle: (event) => startAfterMetrics(deps, event),
  });
