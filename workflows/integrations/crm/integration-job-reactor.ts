import type { Client } from '@temporalio/client';
import type { Config } from '../../../contracts/config';
import type { RecordedEvent } from '../../../contracts/events/envelope';
import {
  IntegrationDeleted,
  IntegrationDisconnected,
  IntegrationPurgeRequested,
  IntegrationSyncRequested,
  IntegrationUnlinkRequested,
} from '../../../contracts/events/integration';
import { JobCreated } from '../../../contracts/events/job';
import { TenantPurged } from '../../../contracts/events/tenant';
import { integrationStream, jobStream } from '../../../contracts/stream-ids';
import { integrationDecider } from '../../../domain/integration/integration-decider';
import { isFinished } from '../../../domain/job/job';
import { jobDecider } from '../../../domain/job/job-decider';
import { startCheckpointedReactor, type ReactorDeps } from '../../checkpointed-reactor';
import { readState } from '../../sync/system-commands';
import { integrationWorkflowId, startIntegrationCleanUp, startIntegrationJob } from './client';
import { deleteMirror } from './crm-mirror';
import type { IntegrationJobAction } from './job-input';

type IntegrationReactorDeps = ReactorDeps & {
  client: Client;
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE_PREFIX'>;
  /** Records per CRM read; the benchmark raises it. */
  pageSize?: number;
};

const requestOf = (
  event: RecordedEvent,
): { integrationId: number; jobId: number; action: IntegrationJobAction; unlink: boolean } | null => {
  const raw = { type: event.type, data: event.data };
  if (event.type === 'IntegrationSyncRequested') {
    const { data } = IntegrationSyncRequested.parse(raw);
    return { integrationId: data.integrationId, jobId: data.jobId, action: 'sync', unlink: false };
  }
  if (event.type === 'IntegrationPurgeRequested') {
    const { data } = IntegrationPurgeRequested.parse(raw);
    return { integrationId: data.integrationId, jobId: data.jobId, action: 'purge', unlink: data.unlink };
  }
  if (event.type === 'IntegrationUnlinkRequested') {
    const { data } = IntegrationUnlinkRequested.parse(raw);
    return { integrationId: data.integrationId, jobId: data.jobId, action: 'unlink', unlink: true };
  }
  return null;
};

/**
 * A recorded sync, purge or unlink becomes its job's run (the pattern of sync-request-reactor.ts): the
 * reactor follows the event store from a checkpoint, so a request made while the worker or Temporal
 * was down still starts; the run's id is the job's, so a redelivered event starts nothing twice.
 */
const startRequested = async (deps: IntegrationReactorDeps, event: RecordedEvent) => {
  const request = requestOf(event);
  if (!request) return;
  const job = await readState(deps.writeSide, jobDecider, jobStream(request.jobId));
  if (job.status !== 'none' && isFinished(job.status)) return;
  const account = await readState(
    deps.writeSide,
    integrationDecider,
    integrationStream(request.integrationId),
  );
  if (account.status !== 'known') return;
  // The gateway names the run in the job; a job recorded without one gets the deployment's name.
  const [created] = await deps.writeSide.store.readStream(jobStream(request.jobId), { maxCount: 1 });
  const parsed = created ? JobCreated.safeParse({ type: created.type, data: created.data }) : null;
  const workflowId =
    parsed?.success === true ? parsed.data.data.workflowId : integrationWorkflowId(deps.config, request);
  const run = await startIntegrationJob(
    { client: deps.client, config: deps.config },
    { ...request, tenantId: account.tenantId, pageSize: deps.pageSize ?? 100, workflowId },
  );
  deps.logger.info(
    { ...request, started: run.started },
    run.started ? 'integration job started' : 'integration job already started',
  );
};

const cleanUp = async (deps: IntegrationReactorDeps, event: RecordedEvent) => {
  const raw = { type: event.type, data: event.data };
  if (event.type === 'TenantPurged') {
    // A purged tenant's keys are gone: its mirror holds customers' names and emails in the clear.
    await deleteMirror(deps.db, { tenantId: TenantPurged.parse(raw).data.TenantId });
    return;
  }
  const integrationId =
    event.type === 'IntegrationDeleted'
      ? IntegrationDeleted.parse(raw).data.integrationId
      : IntegrationDisconnected.parse(raw).data.integrationId;
  const tenantId = event.metadata.tenantId;
  if (tenantId === null) return;
  await startIntegrationCleanUp(
    { client: deps.client, config: deps.config },
    {
      integrationId,
      tenantId,
      change: event.type === 'IntegrationDeleted' ? 'deleted' : 'disconnected',
      position: event.position,
    },
  );
};

export const startIntegrationJobReactor = (
  deps: IntegrationReactorDeps & { retryMs?: number },
): { stop: () => Promise<void> } =>
  startCheckpointedReactor(deps, {
    name: 'integration-jobs',
    eventTypes: [
      'IntegrationSyncRequested',
      'IntegrationPurgeRequested',
      'IntegrationUnlinkRequested',
      'IntegrationDisconnected',
      'IntegrationDeleted',
      'TenantPurged',
    ],
    handle: (event) => (requestOf(event) ? startRequested(deps, event) : cleanUp(deps, event)),
  });
