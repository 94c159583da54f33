import { ApplicationFailure } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import type { Config } from '../../contracts/config';
import type { RecordedEvent } from '../../contracts/events/envelope';
import { JobCreated } from '../../contracts/events/job';
import { SellerConnected, SellerSyncRequested } from '../../contracts/events/seller';
import { allocateId } from '../../commands/id-allocator';
import { runWithRequestContext, systemActorId } from '../../commands/request-context';
import { isFinished } from '../../domain/job/job';
import { jobDecider } from '../../domain/job/job-decider';
import { sellerDecider } from '../../domain/seller/seller-decider';
import { startCheckpointedReactor, type ReactorDeps } from '../checkpointed-reactor';
import { startSellerSync, syncJobWorkflowId } from './client';
import { readState, runSystemCommand } from './system-commands';
import { jobStream, sellerStream } from '../../contracts/stream-ids';

/**
 * Turns every SellerSyncRequested event (a connect, POST /api/sellers/{id}/sync, the admin bulk sync)
 * into a SyncSeller run. It follows the event store from a checkpoint in Mongo, so a request made while
 * the worker or Temporal was down still starts when they are back; the run's id is the job's, so a
 * redelivered event never starts a second run.
 */
type SyncReactorDeps = ReactorDeps & {
  client: Client;
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE_PREFIX'>;
};

/**
 * A newly connected seller is populated at once (issue 5: "started by connecting a seller"), except
 * QuickBooks Desktop, whose data arrives through the Web Connector. The request is recorded as the
 * gateway records one (the seller's RequestSellerSync and a sync job), with ids derived from the
 * connect event, so a redelivery records nothing twice.
 */
const populateConnected = async (deps: SyncReactorDeps, event: RecordedEvent) => {
  const { data } = SellerConnected.parse({ type: event.type, data: event.data });
  if (data.provider === 'QBD') return;
  const now = new Date();
  const jobId = await runWithRequestContext({ actor: systemActorId('sync-requests') }, () =>
    allocateId(deps.writeSide.store, { category: 'job', commandId: `populate-on-connect:${event.id}`, now }),
  );
  const context = {
    writeSide: deps.writeSide,
    workflowId: syncJobWorkflowId(deps.config, { sellerId: data.sellerId, jobId }),
    tenantId: data.tenantId,
    process: 'sync-requests',
  };
  try {
    await runSystemCommand(context, jobDecider, {
      streamId: jobStream(jobId),
      step: 'create-job',
      command: {
        type: 'CreateJob',
        now,
        data: {
          jobId,
          kind: 'sync',
          tenantId: data.tenantId,
          sellerId: data.sellerId,
          parameters: { target: 'seller', sellerId: data.sellerId, mode: 'populate' },
          workflowId: context.workflowId,
        },
      },
    });
    await runSystemCommand(context, sellerDecider, {
      streamId: sellerStream(data.sellerId),
      step: 'request-populate',
      command: { type: 'RequestSellerSync', now, data: { syncId: jobId, mode: 'populate' } },
    });
  } catch (error) {
    // A decider's refusal (already populated, disconnected, a sync running): nothing to start.
    if (!(error instanceof ApplicationFailure && error.nonRetryable)) throw error;
    deps.logger.info({ err: error, sellerId: data.sellerId }, 'no populate after connecting');
  }
};

/**
 * A recorded sync request becomes a run; one run per job, however often the event is delivered. A job
 * already ended (cancelled while the worker was down, or run before a lost checkpoint) starts nothing.
 */
const startRequested = async (deps: SyncReactorDeps, event: RecordedEvent) => {
  const { data } = SellerSyncRequested.parse({ type: event.type, data: event.data });
  const seller = await readState(deps.writeSide, sellerDecider, sellerStream(data.sellerId));
  if (seller.status !== 'known') return;
  const state = await readState(deps.writeSide, jobDecider, jobStream(data.syncId));
  if (state.status !== 'none' && isFinished(state.status)) return;
  // Update Demo Seller's only-fetch travels in the job's parameters (jobs hold no personal data).
  const [created] = await deps.writeSide.store.readStream(jobStream(data.syncId), { maxCount: 1 });
  const job = created ? JobCreated.safeParse({ type: created.type, data: created.data }) : null;
  const onlyFetch = job?.success === true && job.data.data.parameters.onlyFetch === true;
  const run = await startSellerSync(
    {
      sellerId: data.sellerId,
      tenantId: seller.tenantId,
      mode: data.mode,
      jobId: data.syncId,
      onlyFetch,
      workflowId: syncJobWorkflowId(deps.config, { sellerId: data.sellerId, jobId: data.syncId }),
      accepted: true,
    },
    { client: deps.client, config: deps.config },
  );
  // Not started: the job's run is already there (a redelivery), running or finished. Done either way.
  deps.logger.info(
    { sellerId: data.sellerId, jobId: data.syncId, mode: data.mode, started: run.started },
    run.started ? 'sync started' : 'sync already started',
  );
};

/** Keeps the reactor running: after a failure (Temporal unreachable) it starts again from its checkpoint. */
export const startSyncRequestReactor = (
  deps: SyncReactorDeps & { retryMs?: number },
): { stop: () => Promise<void> } =>
  startCheckpointedReactor(deps, {
    name: 'sync-requests',
    eventTypes: ['SellerConnected', 'SellerSyncRequested'],
    handle: (event) =>
      event.type === 'SellerConnected' ? populateConnected(deps, event) : startRequested(deps, event),
  });
