import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AssetParams,
  AssetQuery,
  AssetResponse,
  SellerAgingQuery,
  SellerAgingResponse,
  SellerCustomersQuery,
  SellerCustomersResponse,
  SellerParams,
} from '../../../contracts/api/receivables';
import { AppError } from '../../../contracts/errors';
import type { SellerView } from '../../../projections/sellers/query-sellers';
import { querySellerCustomers, querySellerMetricSummary } from '../../../workflows/metrics/metric-store';
import { queryAgingAsOf, queryCustomerAssets } from '../../../workflows/metrics/receivables-queries';
import { findSeller } from '../../use-cases/sellers/find-seller';

const idsOf = (value: unknown): number[] =>
  Array.isArray(value) ? value.filter((id): id is number => typeof id === 'number') : [];

/** The seller's exclusion flags, as its metrics runs read them (workflows/metrics/metrics-scope.ts). */
export const exclusionsOf = (seller: Pick<SellerView, 'FeatureFlags'>) => ({
  customerIds: idsOf(seller.FeatureFlags.find((f) => f.Flag === 'exclusions.CustomerIds')?.Value),
  productIds: idsOf(seller.FeatureFlags.find((f) => f.Flag === 'exclusions.ProductIds')?.Value),
});

/**
 * The receivables of a seller (issue 15, ADR 30): its customers table, its aging as of a date and a
 * customer's invoices. Every route names a seller that must belong to the caller's tenant
 * (platform admins see any); another tenant's seller answers 404 as an unknown one does.
 */
export const receivablesRoutes: FastifyPluginAsyncZod = (app) => {
  const { services } = app;

  app.get(
    '/api/sellers/:sellerId/customers',
    {
      config: { access: 'member' },
      schema: {
        tags: ['metrics'],
        params: SellerParams,
        querystring: SellerCustomersQuery,
        response: { 200: SellerCustomersResponse },
      },
    },
    async (request) => {
      const seller = await findSeller(request, request.params.sellerId);
      const { page, pageSize, sort, order, search } = request.query;
      const [summary, table] = await Promise.all([
        querySellerMetricSummary(services.db, seller.Id),
        querySellerCustomers(services.db, { sellerId: seller.Id, page, pageSize, sort, order, search }),
      ]);
      return { sellerId: seller.Id, asOf: summary?.asOf ?? null, page, pageSize, ...table };
    },
  );

  app.get(
    '/api/sellers/:sellerId/aging',
    {
      config: { access: 'member' },
      schema: {
        tags: ['metrics'],
        params: SellerParams,
        querystring: SellerAgingQuery,
        response: { 200: SellerAgingResponse },
      },
    },
    async (request) => {
      const seller = await findSeller(request, request.params.sellerId);
      const asOf =
        request.query.asOf ?? (seller.CollectionDate ? new Date(seller.CollectionDate) : services.now());
      const aging = await queryAgingAsOf(services.db, {
        sellerId: seller.Id,
        asOf,
        customerId: request.query.customerId,
        exclusions: exclusionsOf(seller),
      });
      return { sellerId: seller.Id, ...aging };
    },
  );

  // admin.md section 7: `id` is the customer's ledger id within the seller named by `sellerId`.
  app.get(
    '/api/assets/:id',
    {
      config: { access: 'member' },
      schema: {
        tags: ['metrics'],
        params: AssetParams,
        querystring: AssetQuery,
        response: { 200: AssetResponse },
      },
    },
    async (request) => {
      const seller = await findSeller(request, request.query.sellerId);
      const customerId = request.params.id;
      const assets = await queryCustomerAssets(services.db, {
        sellerId: seller.Id,
        customerId,
        start: request.query.startDate,
        end: request.query.endDate,
      });
      if (!assets) throw new AppError('not_found', 'Customer not found.');
      return {
        sellerId: seller.Id,
        customerId,
        ...assets,
        excluded: exclusionsOf(seller).customerIds.includes(customerId),
      };
    },
  );

  return Promise.resolve();
};
