import type { FastifyReply } from 'fastify';
import type { Job, SellerReportType } from '../../../contracts/api/jobs';
import { AppError } from '../../../contracts/errors';
import { isActiveState } from '../../../domain/recipient/recipient';
import { listSellerRecipients } from '../../../projections/recipients/query-recipients';
import { requireCaller } from '../../plugins/access';
import { reportJobWorkflowId } from '../../../workflows/reports/report-job';
import { recordJob } from './record-job';
import { unlessReportProcessing } from './report-in-progress';

/** portal.md section 5, Request report. */
export const requestReportRule = 'At least one recipient, including the current user.';

/**
 * POST /api/sellers/{id}/reports/{type}: a report of the caller's seller sent now to some of its
 * active recipients; refused (409) while the previous request of that report is still processing.
 */
export const requestSellerReport = async (
  reply: FastifyReply,
  request: { tenantId: number; sellerId: number; type: SellerReportType; recipientIds: readonly number[] },
): Promise<Job[]> => {
  const { db } = reply.request.server.services;
  const { recipients } = await listSellerRecipients(db, {
    sellerId: request.sellerId,
    tenantId: request.tenantId,
    readAfter: reply.request.readAfter,
  });
  const active = new Set(recipients.filter((r) => isActiveState(r.STATE)).map((r) => r.Id));
  const unknown = [...new Set(request.recipientIds)].filter((id) => !active.has(id));
  if (unknown.length > 0)
    throw new AppError('validation', 'Select active recipients of this platform.', {
      properties: { recipientIds: `Not an active recipient of this platform: ${unknown.join(', ')}` },
    });
  // portal.md section 5 (Request report): the browser's rule, enforced here for every caller.
  const caller = requireCaller(reply.request);
  const callerEmail = caller.facts.email?.trim().toLowerCase() ?? null;
  const chosen = recipients.filter((r) => request.recipientIds.includes(r.Id));
  const includesCaller = chosen.some(
    (r) =>
      r.SubscriberId === caller.userId ||
      (callerEmail !== null && r.Subscriber.Email?.trim().toLowerCase() === callerEmail),
  );
  if (!includesCaller)
    throw new AppError('validation', requestReportRule, {
      properties: { recipientIds: requestReportRule },
    });
  return unlessReportProcessing(
    reply.request,
    { type: request.type, sellerIds: [request.sellerId] },
    async () => [
      await recordJob(reply, {
        kind: 'report',
        type: request.type,
        tenantId: request.tenantId,
        sellerId: request.sellerId,
        parameters: { recipientIds: [...new Set(request.recipientIds)] },
        // The run the worker's report-job reactor starts, under the deployment's prefix.
        workflowIdOf: (jobId: number) =>
          reportJobWorkflowId(reply.request.server.services.config, { sellerId: request.sellerId, jobId }),
      }),
    ],
  );
};
