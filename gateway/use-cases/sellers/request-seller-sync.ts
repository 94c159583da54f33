import type { FastifyReply } from 'fastify';
import type { Job } from '../../../contracts/api/jobs';
import type { SellerSyncMode } from '../../../contracts/events/seller';
import { jobDecider } from '../../../domain/job/job-decider';
import { sellerDecider } from '../../../domain/seller/seller-decider';
import { syncJobWorkflowId } from '../../../workflows/sync/client';
import { allocateIdFor, executeCommand } from '../../execute-command';
import { createdJob } from '../jobs/job-view';
import { jobStream, sellerStream } from '../../../contracts/stream-ids';

export type SellerSyncRequest = {
  sellerId: number;
  tenantId: number;
  mode: SellerSyncMode;
  /** Update Demo Seller's only-fetch: bring the ledger up to date without generating metrics. */
  onlyFetch?: boolean;
  /** Shown in the jobs table (default: the mode). */
  type?: string;
};
export type RecordedSellerSync = SellerSyncRequest & {
  jobId: number;
  workflowId: string;
  position: number;
  /** The job as the jobs table will show it. */
  job: Job;
};

/**
 * Records a sync request: the seller's stream takes the sync (refusing a second one while one runs,
 * 409) and a job stream describes it. The seller goes first, so a refused sync leaves no job behind.
 * This is the one place a sync is requested; the worker's sync-request reactor starts the workflow
 * from the SellerSyncRequested event (workflows/sync/sync-request-reactor.ts).
 */
export const requestSellerSync = async (
  reply: FastifyReply,
  request: SellerSyncRequest,
): Promise<RecordedSellerSync> => {
  const { now } = reply.request.server.services;
  const part = `sync-${request.sellerId}`;
  const jobId = await allocateIdFor(reply, 'job', part);
  const workflowId = syncJobWorkflowId(reply.server.services.config, { sellerId: request.sellerId, jobId });
  await executeCommand(reply, sellerDecider, {
    streamId: sellerStream(request.sellerId),
    tenantId: request.tenantId,
    part,
    command: { type: 'RequestSellerSync', data: { syncId: jobId, mode: request.mode }, now: now() },
  });
  const created = await executeCommand(reply, jobDecider, {
    streamId: jobStream(jobId),
    tenantId: request.tenantId,
    part,
    command: {
      type: 'CreateJob',
      data: {
        jobId,
        kind: 'sync',
        tenantId: request.tenantId,
        sellerId: request.sellerId,
        parameters: {
          target: 'seller',
          sellerId: request.sellerId,
          mode: request.mode,
          onlyFetch: request.onlyFetch ?? false,
          ...(request.type ? { type: request.type } : {}),
        },
        workflowId,
      },
      now: now(),
    },
  });
  const recorded = created.events.find((event) => event.type === 'JobCreated');
  if (recorded?.type !== 'JobCreated') throw new Error(`job ${jobId}: CreateJob recorded no JobCreated`);
  return { ...request, jobId, workflowId, position: created.position, job: createdJob(recorded.data) };
};
