import type { FastifyRequest } from 'fastify';
import { AppError } from '../../../contracts/errors';
import { recipientDecider } from '../../../domain/recipient/recipient-decider';
import type { KnownRecipient } from '../../../domain/recipient/recipient';
import { findSellerRecipient, type RecipientView } from '../../../projections/recipients/query-recipients';
import { loadAggregate } from '../../execute-command';
import { visibleToCaller } from '../visible-to-caller';
import { recipientStream } from '../../../contracts/stream-ids';

/** A subscription named by id, from its stream: 404 when unknown or deleted, and to other tenants. */
export const findRecipient = async (
  request: FastifyRequest,
  recipientId: number,
): Promise<KnownRecipient> => {
  const { state } = await loadAggregate(request, recipientDecider, recipientStream(recipientId));
  if (state.status !== 'known' || !visibleToCaller(request, state.tenantId))
    throw new AppError('not_found', 'Subscription not found.');
  return state;
};

/** The subscription as the tables show it, after the caller's own change. */
export const recipientAfter = async (
  request: FastifyRequest,
  query: { recipient: Pick<KnownRecipient, 'recipientId' | 'sellerId' | 'tenantId'>; position: number },
): Promise<RecipientView> => {
  const { recipient: view } = await findSellerRecipient(request.server.services.db, {
    recipientId: query.recipient.recipientId,
    sellerId: query.recipient.sellerId,
    tenantId: query.recipient.tenantId,
    readAfter: { afterPosition: query.position },
  });
  if (!view) throw new AppError('not_found', 'Subscription not found.');
  return view;
};
