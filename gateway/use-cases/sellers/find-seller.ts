import type { FastifyRequest } from 'fastify';
import type { SellerResponse } from '../../../contracts/api/sellers';
import { AppError } from '../../../contracts/errors';
import { waitUntilRead } from '../../../projections/read-after';
import { getSeller, type SellerView } from '../../../projections/sellers/query-sellers';
import { SELLERS } from '../../../projections/sellers/sellers-projection';
import { visibleToCaller } from '../visible-to-caller';
import { withProgressBadge } from './seller-response';

/** A seller named by id: 404 when unknown or deleted, and 404 to callers of another tenant. */
export const findSeller = async (
  request: FastifyRequest,
  sellerId: number,
): Promise<SellerView & Pick<SellerResponse, 'ProgressBadge'>> => {
  const { db, now } = request.server.services;
  await waitUntilRead(db, SELLERS, request.readAfter);
  const seller = await getSeller(db, { sellerId, now: now() });
  if (!seller || !visibleToCaller(request, seller.TenantId))
    throw new AppError('not_found', 'Seller not found.');
  return withProgressBadge(seller);
};

/** The seller as it reads after the caller's own change (the position of their last command). */
export const sellerAfter = async (
  request: FastifyRequest,
  query: { sellerId: number; position: number },
): Promise<SellerView & Pick<SellerResponse, 'ProgressBadge'>> => {
  const { db, now } = request.server.services;
  await waitUntilRead(db, SELLERS, { afterPosition: query.position });
  const seller = await getSeller(db, { sellerId: query.sellerId, now: now() });
  if (!seller) throw new AppError('not_found', 'Seller not found.');
  return withProgressBadge(seller);
};
