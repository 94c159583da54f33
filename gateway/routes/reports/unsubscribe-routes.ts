import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply } from 'fastify';
import {
  OneClickUnsubscribeBody,
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
import {
  readUnsubscribeToken,
  sendFlagOf,
  unsubscribeLink,
} from '../../../workflows/reports/email/unsubscribe-token';
import { executeCommand, loadAggregate } from '../../execute-command';
import { rateLimits } from '../../plugins/security';

const sensitive = { max: rateLimits.sensitive, timeWindow: '1 minute' };

/** Turns off the frequency the signed token names; null for a token that is not genuine. */
const unsubscribeByToken = async (
  reply: FastifyReply,
  token: string,
): Promise<UnsubscribeResponse | null> => {
  const { services } = reply.server;
  const claim = readUnsubscribeToken(services.config.SESSION_SECRET, token);
  if (!claim) return null;
  const { state } = await loadAggregate(reply.request, recipientDecider, recipientStream(claim.recipientId));
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
};

const invalidLink = {
  message: invalidUnsubscribeLinkMessage,
  code: 'validation' as const,
  properties: { token: 'invalid' },
};

/**
 * POST /api/subscriptions/unsubscribe: the report email's stop link (docs/adr/0037). Public: the
 * person following it may have no account (a contact recipient) or no session in that browser, and
 * the signed token proves they received that subscription's email. Like every write it needs the
 * anti-forgery header, which the web page /unsubscribe fetches first.
 *
 * /api/subscriptions/unsubscribe/one-click: the List-Unsubscribe header's address (RFC 8058). The mail
 * client POSTs `List-Unsubscribe=One-Click` to it, with no cookies and no anti-forgery token (hence
 * csrfExempt: the signed token in the address is the credential); a GET, which some clients and link
 * scanners send, changes nothing and goes to the confirming web page.
 */
export const unsubscribeRoutes: FastifyPluginAsyncZod = (app) => {
  // Mail clients send the one-click body as a form; this plugin's own scope alone parses forms.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

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
    async (request, reply) =>
      (await unsubscribeByToken(reply, request.body.token)) ?? reply.code(400).send(invalidLink),
  );

  app.post(
    '/api/subscriptions/unsubscribe/one-click',
    {
      config: { access: 'public', csrfExempt: true, rateLimit: sensitive },
      schema: {
        tags: ['recipients'],
        querystring: UnsubscribeRequest,
        body: OneClickUnsubscribeBody,
        response: { 200: UnsubscribeResponse, 400: ErrorResponse },
      },
    },
    async (request, reply) =>
      (await unsubscribeByToken(reply, request.query.token)) ?? reply.code(400).send(invalidLink),
  );
  app.get(
    '/api/subscriptions/unsubscribe/one-click',
    {
      config: { access: 'public', rateLimit: sensitive },
      schema: { tags: ['recipients'], querystring: UnsubscribeRequest },
    },
    (request, reply) =>
      reply.redirect(unsubscribeLink(app.services.config.PUBLIC_URL, request.query.token), 303),
  );
  return Promise.resolve();
};
