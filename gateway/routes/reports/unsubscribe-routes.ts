import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  UnsubscribeRequest,
  UnsubscribeResponse,
  invalidUnsubscribeLinkMessage,
  unsubscribedMessage,
} from '../../../contracts/api/report-unsubscribe';
import { ErrorResponse } from '../../../contracts/errors';
import { recipientStream } from '../../../contracts/stream-ids';
import { systemActor, type Actor } from '../../../domain/actor';
import { recipientDecider } from '../../../domain/recipient/recipient-decider';
import { getSeller } from '../../../projections/sellers/query-sellers';
import { readUnsubscribeToken, sendFlagOf } from '../../../workflows/reports/email/unsubscribe-token';
import { executeCommand, loadAggregate } from '../../execute-command';
import { rateLimits } from '../../plugins/security';

const sensitive = { max: rateLimits.sensitive, timeWindow: '1 minute' };

/**
 * POST /api/subscriptions/unsubscribe: the report email's stop link (docs/adr/0037). Public: the
 * person following it may have no account (a contact recipient) or no session in that browser, and
 * the signed token proves they received that subscription's email. Like every write it needs the
 * anti-forgery header, which the web page /unsubscribe fetches first.
 */
export const unsubscribeRoutes: FastifyPluginAsyncZod = (app) => {
  const { services } = app;

  app.post(
    '/api/subscriptions/unsubscribe',
    {
      config: { access: 'public', rateLimit: sensitive },
      schema: {
        tags: ['recipients'],
        body: UnsubscribeRequest,
        response: { 200: UnsubscribeResponse, 400: ErrorResponse },
      },
    },
    async (request, reply) => {
      const claim = readUnsubscribeToken(services.config.SESSION_SECRET, request.body.token);
      if (!claim)
        return reply.code(400).send({
          message: invalidUnsubscribeLinkMessage,
          code: 'validation',
          properties: { token: 'invalid' },
        });
      const { state } = await loadAggregate(request, recipientDecider, recipientStream(claim.recipientId));
      // A deleted subscription sends nothing already: say so rather than fail the click.
      if (state.status !== 'known')
        return {
          frequency: claim.frequency,
          companyName: null,
          message: 'This subscription no longer exists: no reports are sent to it.',
        };
      // The token stands for the subscriber: a user acts as themselves; a contact, who has no account,
      // through the system's authority over this one subscription.
      const actor: Actor =
        state.subscriberUserId === null
          ? systemActor
          : { userId: state.subscriberUserId, isPlatformAdmin: false, tenantRole: null, isAdvisor: false };
      await executeCommand(reply, recipientDecider, {
        streamId: recipientStream(claim.recipientId),
        tenantId: state.tenantId,
        command: {
          type: 'SetRecipientSendFlag',
          data: { field: sendFlagOf[claim.frequency], value: false, actor, ifMissing: null },
          now: services.now(),
        },
      });
      const seller = await getSeller(services.db, { sellerId: state.sellerId, now: services.now() });
      const companyName = seller?.CompanyName ?? null;
      return {
        frequency: claim.frequency,
        companyName,
        message: unsubscribedMessage(claim.frequency, companyName),
      };
    },
  );

  return Promise.resolve();
};
