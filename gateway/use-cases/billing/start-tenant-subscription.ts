import type { FastifyReply } from 'fastify';
import { runWithRequestContext, userActorId } from '../../../commands/request-context';
import {
  ensureTenantSubscription,
  type EnsureSubscriptionResult,
} from '../../../workflows/billing/tenant-subscription';
import { redactUrl } from '../../plugins/log-redaction';
import { answerWithPosition } from '../../plugins/read-your-writes';

/**
 * The tenant creation hook (portal.md section 9): the new company's billing subscription starts in
 * the same request, so the dashboard's trial card and the gated connectors are right at once. The
 * worker's reactor would start it too; both ask for the same subscription id, so only one starts.
 */
export const startTenantSubscription = async (
  reply: FastifyReply,
  tenantId: number,
  advisorFirmId: number | null = null,
): Promise<EnsureSubscriptionResult> => {
  const { request } = reply;
  const { services } = request.server;
  const result = await runWithRequestContext(
    {
      actor: request.caller ? userActorId(request.caller.userId) : 'anonymous',
      tenantId,
      ip: request.ip,
      method: request.method,
      url: redactUrl(request.url),
      body: request.body,
      requestId: request.id,
    },
    () => ensureTenantSubscription(services, { tenantId, now: services.now(), advisorFirmId }),
  );
  if (result.outcome === 'started') answerWithPosition(reply, result.position);
  else if (result.reason === 'no_plan')
    request.log.warn({ tenantId }, 'no plan to start the subscription on: is the plan catalogue applied?');
  return result;
};
