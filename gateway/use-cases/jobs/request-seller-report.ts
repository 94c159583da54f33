import type { FastifyReply } from 'fastify';
import type { Job, SellerReportType } from '../../../contracts/api/jobs';
import { AppError } from '../../../contracts/errors';
import { isActiveState } from '../../../domain/recipient/recipient';
import { listSellerRecipients } from '../../../projections/recipients/query-recipients';
import { recordJob } from './record-job';
import { unlessReportProcessing } from './report-in-progress';

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
      }),
    ],
  );
};
