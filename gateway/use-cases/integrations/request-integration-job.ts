import type { FastifyReply } from 'fastify';
import { jobDecider } from '../../../domain/job/job-decider';
import { integrationDecider } from '../../../domain/integration/integration-decider';
import { allocateIdFor, executeCommand } from '../../execute-command';
import { requireCaller } from '../../plugins/access';
import { integrationStream, jobStream } from '../../../contracts/stream-ids';
import { integrationWorkflowId } from '../../../workflows/integrations/crm/client';

export type IntegrationJobRequest = {
  integrationId: number;
  tenantId: number;
  action: { kind: 'sync' } | { kind: 'purge'; unlink: boolean } | { kind: 'unlink' };
};

/**
 * Records a sync, purge or unlink of an integration account as a job: the account's stream takes it first
 * (refusing a second sync while one runs, or a purge of an active account), then the job stream
 * describes it. The worker's integration-job reactor starts the run (workflows/integrations/crm), as
 * the sync-request reactor does for sellers: a request made while Temporal is down still runs later.
 */
export const requestIntegrationJob = async (
  reply: FastifyReply,
  request: IntegrationJobRequest,
): Promise<{ jobId: number; workflowId: string; position: number }> => {
  const { now, config } = reply.request.server.services;
  const caller = requireCaller(reply.request);
  const { integrationId, tenantId, action } = request;
  const jobId = await allocateIdFor(reply, 'job', `${action.kind}-${integrationId}`);
  const workflowId = integrationWorkflowId(config, { integrationId, action: action.kind, jobId });
  await executeCommand(reply, integrationDecider, {
    streamId: integrationStream(integrationId),
    tenantId,
    command:
      action.kind === 'sync'
        ? { type: 'RequestIntegrationSync', data: { jobId, actor: caller.actor }, now: now() }
        : action.kind === 'unlink'
          ? { type: 'UnlinkIntegration', data: { jobId }, now: now() }
          : { type: 'PurgeIntegration', data: { jobId, unlink: action.unlink }, now: now() },
  });
  const created = await executeCommand(reply, jobDecider, {
    streamId: jobStream(jobId),
    tenantId,
    command: {
      type: 'CreateJob',
      data: {
        jobId,
        kind: 'sync',
        tenantId,
        sellerId: null,
        parameters: {
          target: 'integration',
          integrationId,
          action: action.kind,
          ...(action.kind === 'purge' ? { unlink: action.unlink } : {}),
        },
        workflowId,
      },
      now: now(),
    },
  });
  return { jobId, workflowId, position: created.position };
};
