import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { Db } from 'mongodb';
import { allocateId } from '../../../commands/id-allocator';
import { runWithRequestContext, systemActorId } from '../../../commands/request-context';
import type { Config } from '../../../contracts/config';
import type { RecordedEvent } from '../../../contracts/events/envelope';
import { ManagedReportProvider, type ManagedReportType } from '../../../contracts/events/job';
import { IntegrationConnected } from '../../../contracts/events/integration';
import { SellerMetricsDateRecorded } from '../../../contracts/events/seller';
import { integrationStream, jobStream, sellerStream } from '../../../contracts/stream-ids';
import { integrationDecider } from '../../../domain/integration/integration-decider';
import { jobDecider } from '../../../domain/job/job-decider';
import { sellerDecider } from '../../../domain/seller/seller-decider';
import { currentCollection } from '../../../projections/framework/read-model-versions';
import {
  integrationsProjection,
  type IntegrationDoc,
} from '../../../projections/integrations/integrations-projection';
import {
  sellersProjection,
  type SellerCollections,
  type SellerDoc,
} from '../../../projections/sellers/sellers-projection';
import { startCheckpointedReactor, type ReactorDeps } from '../../checkpointed-reactor';
import { forecastAfterMetricsWorkflowId } from '../../forecast/forecast-after-metrics-reactor';
import { sellerSearchAttributes } from '../../search-attributes';
import { readState, runSystemCommand } from '../../sync/system-commands';
import { liveReportsTaskQueue, liveReportsWorkflowId, type LiveReportsInput } from './live-reports-input';
import { liveReportTypesAllowed } from './live-reports-plan';
import type { liveReportsWorkflow } from './workflows';

type LiveReportsReactorDeps = ReactorDeps & {
  client: Client;
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE_PREFIX'>;
  now?: () => Date;
};

/** The cloud accounts of a tenant that can be written with: connected, active, credentials VALID. */
export const writableCloudIntegrations = async (db: Db, tenantId: number) => {
  const integrations = await currentCollection<'integrations', IntegrationDoc>(
    db,
    integrationsProjection,
    'integrations',
  );
  return integrations
    .find({
      tenantId,
      provider: { $in: [...ManagedReportProvider.options] },
      active: true,
      credentialsStatus: 'VALID',
      deleted: { $ne: true },
      disconnectedAt: null,
    })
    .sort({ _id: 1 })
    .toArray();
};

/**
 * Records the refresh as a job (kind sync, target live-reports: the seller's jobs table shows it with
 * its progress) under an id keyed by the request, and starts its run; a redelivered event finds both.
 */
export const startLiveReportsJob = async (
  deps: LiveReportsReactorDeps,
  request: { requestId: string; run: Omit<LiveReportsInput, 'jobId'>; now: Date },
): Promise<{ jobId: number; workflowId: string; started: boolean }> => {
  const { run } = request;
  const jobId = await runWithRequestContext(
    { actor: systemActorId('live-reports'), tenantId: run.tenantId },
    () =>
      allocateId(deps.writeSide.store, { category: 'job', commandId: request.requestId, now: request.now }),
  );
  const workflowId = liveReportsWorkflowId(deps.config, { ...run, jobId });
  const job = await readState(deps.writeSide, jobDecider, jobStream(jobId));
  if (job.status === 'none')
    await runSystemCommand(
      { writeSide: deps.writeSide, workflowId, tenantId: run.tenantId, process: 'live-reports' },
      jobDecider,
      {
        streamId: jobStream(jobId),
        step: 'create-job',
        command: {
          type: 'CreateJob',
          now: request.now,
          data: {
            jobId,
            kind: 'sync',
            tenantId: run.tenantId,
            sellerId: run.sellerId,
            // `type` names the job in the jobs tables (a seller sync names its mode there).
            parameters: {
              type: 'live-reports',
              target: 'live-reports',
              integrationId: run.integrationId,
              provider: run.provider,
              types: run.types,
            },
            workflowId,
          },
        },
      },
    );
  try {
    await deps.client.workflow.start<typeof liveReportsWorkflow>('liveReportsWorkflow', {
      taskQueue: liveReportsTaskQueue(deps.config),
      workflowId,
      workflowIdConflictPolicy: 'FAIL',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      typedSearchAttributes: sellerSearchAttributes(run),
      args: [{ ...run, jobId }],
    });
    return { jobId, workflowId, started: true };
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return { jobId, workflowId, started: false };
    throw error;
  }
};

const refreshAfterMetrics = async (deps: LiveReportsReactorDeps, event: RecordedEvent) => {
  const { data } = SellerMetricsDateRecorded.parse({ type: event.type, data: event.data });
  const seller = await readState(deps.writeSide, sellerDecider, sellerStream(data.sellerId));
  if (seller.status !== 'known') return;
  // Only the seller's latest metrics run: a reactor starting from an old checkpoint writes nothing twice.
  if (seller.metricsDate !== data.metricsDate) return;
  const { tenantId } = seller;
  const accounts = await writableCloudIntegrations(deps.db, tenantId);
  if (accounts.length === 0) return;
  const now = deps.now?.() ?? new Date();
  const types: ManagedReportType[] = await liveReportTypesAllowed(deps.db, { tenantId, now });
  if (types.length === 0) return;
  const forecastWorkflowId = seller.featureFlags['forecasts.Receivables.Enabled']
    ? forecastAfterMetricsWorkflowId(deps.config, { sellerId: data.sellerId, position: event.position })
    : null;
  for (const account of accounts) {
    const provider = ManagedReportProvider.parse(account.provider);
    const started = await startLiveReportsJob(deps, {
      requestId: `live-reports:${account.integrationId}:${data.sellerId}:after-${event.position}`,
      run: {
        tenantId,
        sellerId: data.sellerId,
        integrationId: account.integrationId,
        provider,
        types,
        forecastWorkflowId,
      },
      now,
    });
    deps.logger.info(
      { sellerId: data.sellerId, integrationId: account.integrationId, ...started },
      'live reports refresh requested',
    );
  }
};

/**
 * A Google or Microsoft account just connected: its live reports are written at once for every seller
 * of the tenant that has metrics, not only after the next sync. A reconnect (IntegrationCredentialsRenewed)
 * is not a new account: its files come back with the next sync.
 */
const writeAfterConnect = async (deps: LiveReportsReactorDeps, event: RecordedEvent) => {
  const { data } = IntegrationConnected.parse({ type: event.type, data: event.data });
  const provider = ManagedReportProvider.safeParse(data.provider);
  if (!provider.success) return;
  // The write side, not the read model, which may not hold the account yet. Already disconnected,
  // inactive or invalid by the time the reactor reads it (a replay): nothing to write.
  const account = await readState(deps.writeSide, integrationDecider, integrationStream(data.integrationId));
  if (
    account.status !== 'known' ||
    !account.active ||
    account.credentialsStatus !== 'VALID' ||
    account.credentialsRef === null
  )
    return;
  const now = deps.now?.() ?? new Date();
  const types = await liveReportTypesAllowed(deps.db, { tenantId: data.tenantId, now });
  if (types.length === 0) return;
  const sellers = await currentCollection<SellerCollections, SellerDoc>(
    deps.db,
    sellersProjection,
    'sellers',
  );
  const synced = await sellers
    .find({ tenantId: data.tenantId, deleted: false, metricsDate: { $ne: null } }, { projection: { _id: 1 } })
    .sort({ _id: 1 })
    .toArray();
  for (const seller of synced) {
    const started = await startLiveReportsJob(deps, {
      requestId: `live-reports:${data.integrationId}:${seller._id}:connected`,
      run: {
        tenantId: data.tenantId,
        sellerId: seller._id,
        integrationId: data.integrationId,
        provider: provider.data,
        types,
        forecastWorkflowId: null,
      },
      now,
    });
    deps.logger.info(
      { sellerId: seller._id, integrationId: data.integrationId, ...started },
      'live reports of a new account requested',
    );
  }
};

/**
 * Live Reports refreshed after every sync (docs/adr/0049-live-reports.md): each recorded MetricsDate of
 * a seller (the sync's metrics run) starts one refresh per Google or Microsoft integration of its
 * tenant that can be written with, when the tenant's plan has sync-to-cloud; a newly connected account
 * writes them at once (writeAfterConnect). From its own checkpoint.
 */
export const startLiveReportsReactor = (
  deps: LiveReportsReactorDeps & { retryMs?: number },
): { stop: () => Promise<void> } =>
  startCheckpointedReactor(deps, {
    name: 'live-reports-after-metrics',
    eventTypes: ['SellerMetricsDateRecorded', 'IntegrationConnected'],
    handle: (event) =>
      event.type === 'IntegrationConnected'
        ? writeAfterConnect(deps, event)
        : refreshAfterMetrics(deps, event),
  });
