import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Done, IdParam } from '../../../contracts/api/common';
import {
  CreateSubscriptionRequest,
  PatchSubscriptionRequest,
  RecipientResponse,
  RecipientsResponse,
  SubscriptionsQuery,
} from '../../../contracts/api/recipients';
import { AppError } from '../../../contracts/errors';
import type { RecipientCommand, Subscriber } from '../../../domain/recipient/decide';
import { recipientDecider } from '../../../domain/recipient/recipient-decider';
import { normaliseEmail } from '../../../domain/user/email';
import {
  listAdminRecipients,
  listSellerRecipients,
  listTenantRecipients,
} from '../../../projections/recipients/query-recipients';
import { getSeller } from '../../../projections/sellers/query-sellers';
import { membershipsCollection } from '../../../projections/users/membership-counts';
import { allocateIdFor, executeCommand } from '../../execute-command';
import { currentTenantOf, requireCaller } from '../../plugins/access';
import { findRecipient, recipientAfter } from '../../use-cases/recipients/find-recipient';
import { recipientStream } from '../../../contracts/stream-ids';

const tags = ['recipients'];

/** Splits the form's single name field into the contact's given and family names. */
const namesOf = (name: string | undefined) => {
  const [givenName = null, ...rest] = (name ?? '').trim().split(/\s+/).filter(Boolean);
  return { givenName, familyName: rest.join(' ') || null };
};

const invalid = (field: string, problem: string) =>
  new AppError('validation', 'The operation failed. Please validate your selection and try again.', {
    properties: { [field]: problem },
  });

/** Report recipients, the spec's report subscriptions (portal.md section 4, admin.md section 4). */
export const recipientRoutes: FastifyPluginAsyncZod = (app) => {
  const { services } = app;

  app.get(
    '/api/subscriptions',
    {
      config: { access: 'member' },
      schema: { tags, querystring: SubscriptionsQuery, response: { 200: RecipientsResponse } },
    },
    async (request) => {
      const { scope, sellerId, state, search } = request.query;
      if (scope === 'all') {
        if (!requireCaller(request).isPlatformAdmin)
          throw new AppError('forbidden', 'Access Denied', { message: 'scope=all is for platform admins' });
        const page = await listAdminRecipients(services.db, {
          sellerId,
          states: state ? [state] : undefined,
          search,
          readAfter: request.readAfter,
        });
        return { rows: page.rows, total: page.total, filtered: page.filtered };
      }
      const { recipients } = await listTenantRecipients(services.db, {
        tenantId: currentTenantOf(request),
        readAfter: request.readAfter,
      });
      const rows = recipients.filter(
        (row) => (sellerId === undefined || row.SellerId === sellerId) && (!state || row.STATE === state),
      );
      return { rows, total: recipients.length, filtered: rows.length };
    },
  );

  app.post(
    '/api/subscriptions',
    {
      config: { access: 'member' },
      schema: { tags, body: CreateSubscriptionRequest, response: { 200: RecipientResponse } },
    },
    async (request, reply) => {
      const caller = requireCaller(request);
      const tenantId = currentTenantOf(request);
      const body = request.body;
      const now = services.now();
      const seller = await getSeller(services.db, { sellerId: body.sellerId, tenantId, now });
      if (!seller) throw invalid('sellerId', 'No such seller in this company.');
      if (body.userId !== undefined) {
        const member = await (
          await membershipsCollection(services.db)
        ).findOne({ userId: body.userId, tenantId, userDeleted: false });
        if (!member) throw invalid('userId', 'Not a member of this company.');
      }
      const email = body.email === undefined ? null : normaliseEmail(body.email);
      const { recipients } = await listSellerRecipients(services.db, {
        sellerId: seller.Id,
        tenantId,
        readAfter: request.readAfter,
      });
      const taken = recipients.some((row) =>
        body.userId !== undefined
          ? row.SubscriberId === body.userId
          : email !== null && row.Subscriber.Email !== null && normaliseEmail(row.Subscriber.Email) === email,
      );
      const names = namesOf(body.name);
      const subscriber: Subscriber =
        body.userId !== undefined
          ? { userId: body.userId }
          : { email: email ?? '', ...names, jobTitle: body.jobTitle ?? null };
      const recipientId = await allocateIdFor(reply, 'recipient');
      const result = await executeCommand(reply, recipientDecider, {
        streamId: recipientStream(recipientId),
        tenantId,
        command: {
          type: 'SubscribeRecipient',
          data: {
            recipientId,
            tenantId,
            sellerId: seller.Id,
            subscriber,
            sendWeekly: body.SendWeekly,
            sendMonthly: body.SendMonthly,
            actor: caller.actor,
            subscriberAlreadySubscribed: taken,
          },
          now,
        },
      });
      return recipientAfter(request, {
        recipient: { recipientId, sellerId: seller.Id, tenantId },
        position: result.position,
      });
    },
  );

  app.patch(
    '/api/subscriptions/:id',
    {
      config: { access: 'member' },
      schema: { tags, params: IdParam, body: PatchSubscriptionRequest, response: { 200: RecipientResponse } },
    },
    async (request, reply) => {
      const { actor } = requireCaller(request);
      const recipient = await findRecipient(request, request.params.id);
      const { STATE, SendWeekly, SendMonthly } = request.body;
      const now = services.now();
      const command: RecipientCommand =
        STATE === 'ACTIVE'
          ? { type: 'ActivateRecipient', data: { actor }, now }
          : STATE === 'INACTIVE'
            ? { type: 'DeactivateRecipient', data: { actor, cause: 'requested' }, now }
            : {
                type: 'SetRecipientSendFlag',
                data: {
                  field: SendWeekly === undefined ? 'SendMonthly' : 'SendWeekly',
                  value: SendWeekly ?? SendMonthly ?? false,
                  actor,
                  ifMissing: null,
                },
                now,
              };
      const result = await executeCommand(reply, recipientDecider, {
        streamId: recipientStream(recipient.recipientId),
        tenantId: recipient.tenantId,
        command,
      });
      return recipientAfter(request, { recipient, position: result.position });
    },
  );

  // portal.md section 6: deleting a report recipient is for platform admins only.
  app.delete(
    '/api/subscriptions/:id',
    { config: { access: 'platformAdmin' }, schema: { tags, params: IdParam, response: { 200: Done } } },
    async (request, reply) => {
      const { actor } = requireCaller(request);
      const recipient = await findRecipient(request, request.params.id);
      await executeCommand(reply, recipientDecider, {
        streamId: recipientStream(recipient.recipientId),
        tenantId: recipient.tenantId,
        command: { type: 'DeleteRecipient', data: { actor }, now: services.now() },
      });
      return { ok: true as const };
    },
  );

  return Promise.resolve();
};
