import type { Config } from '../../contracts/config';
import type { RecordedEvent } from '../../contracts/events/envelope';
import { SellerMetricsDateRecorded } from '../../contracts/events/seller';
import { sellerStream } from '../../contracts/stream-ids';
import { sellerDecider } from '../../domain/seller/seller-decider';
import { startCheckpointedReactor, type ReactorDeps } from '../checkpointed-reactor';
import { stateOfRecorded } from '../sync/system-commands';
import { recordReportJob } from './record-report-job';

type WelcomeReactorDeps = ReactorDeps & { config: Pick<Config, 'TEMPORAL_TASK_QUEUE_PREFIX'> };

/** The welcome report's request: one per seller, ever. */
export const welcomeRequestId = (sellerId: number) => `welcome-report:seller-${sellerId}`;

/**
 * The WELCOME report (issue 14): when a seller's first sync and metrics complete, i.e. on the first
 * MetricsDate ever recorded in its stream, a welcome job is recorded for its subscriptions; the job
 * reactor runs it like any report job. A later metrics run, a replay from an old checkpoint, or the
 * first deployment of this reactor over sellers that synced long ago records nothing.
 */
const recordWelcome = async (deps: WelcomeReactorDeps, event: RecordedEvent) => {
  const { data } = SellerMetricsDateRecorded.parse({ type: event.type, data: event.data });
  const stream = await deps.writeSide.store.readStream(sellerStream(data.sellerId));
  const first = stream.find((recorded) => recorded.type === 'SellerMetricsDateRecorded');
  if (first?.id !== event.id) return;
  // The stream just read is the seller's state too: no second read of it.
  const seller = await stateOfRecorded(deps.writeSide, sellerDecider, stream);
  if (seller.status !== 'known') return;
  const { tenantId } = seller;
  const { jobId, created } = await recordReportJob(deps, {
    requestId: welcomeRequestId(data.sellerId),
    process: 'welcome-report',
    tenantId,
    sellerId: data.sellerId,
    parameters: { type: 'welcome' },
    now: new Date(),
  });
  if (created) deps.logger.info({ sellerId: data.sellerId, jobId }, 'welcome report requested');
};

export const startWelcomeReportReactor = (
  deps: WelcomeReactorDeps & { retryMs?: number },
): { stop: () => Promise<void> } =>
  startCheckpointedReactor(deps, {
    name: 'welcome-report',
    eventTypes: ['SellerMetricsDateRecorded'],
    handle: (event) => recordWelcome(deps, event),
  });
