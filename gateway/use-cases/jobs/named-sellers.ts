import type { FastifyRequest } from 'fastify';
import { AppError } from '../../../contracts/errors';
import { getSeller, type SellerView } from '../../../projections/sellers/query-sellers';
import { waitUntilRead } from '../../../projections/read-after';
import { SELLERS } from '../../../projections/sellers/sellers-projection';

/**
 * The sellers a platform admin selected, in the order given (duplicates once); an unknown or deleted
 * one is a field error on `sellerIds`, so nothing is recorded for a selection that is partly wrong.
 */
export const namedSellers = async (
  request: FastifyRequest,
  sellerIds: readonly number[],
): Promise<SellerView[]> => {
  const { db, now } = request.server.services;
  await waitUntilRead(db, SELLERS, request.readAfter);
  const ids = [...new Set(sellerIds)];
  const found = await Promise.all(ids.map((sellerId) => getSeller(db, { sellerId, now: now() })));
  const missing = ids.filter((_, index) => !found[index]);
  if (missing.length > 0)
    throw new AppError('validation', `Seller not found: ${missing.join(', ')}.`, {
      properties: { sellerIds: `Unknown seller: ${missing.join(', ')}` },
    });
  return found.filter((seller): seller is SellerView => seller !== null);
};
