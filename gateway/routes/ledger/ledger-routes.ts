import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParam } from '../../../contracts/api/common';
import {
  MetricRowsParams,
  MetricRowsQuery,
  MetricRowsResponse,
  TenantCustomersResponse,
} from '../../../contracts/api/ledger';
import { queryTenantCustomers } from '../../../workflows/ledger/query-customers';
import { AppError } from '../../../contracts/errors';
import { queryMetricRows, querySellerMetricSummary } from '../../../workflows/metrics/metric-store';
import { queryCustomerMetricRows } from '../../../workflows/metrics/receivables-queries';
import { exclusionsOf } from './receivables-routes';
import { requireTenantAccess } from '../../plugins/access';
import { findSeller } from '../../use-cases/sellers/find-seller';

/** What the sync and metrics pipelines produced: metric rows to chart and a company's customers. */
export const ledgerRoutes: FastifyPluginAsyncZod = (app) => {
  const { services } = app;

  // The admin metrics chart and the dashboard's charts: a seller of the caller's company, any for admins.
  app.get(
    '/api/metrics/sellers/:sellerId',
    {
      config: { access: 'member' },
      schema: {
        tags: ['metrics'],
        params: MetricRowsParams,
        querystring: MetricRowsQuery,
        response: { 200: MetricRowsResponse },
      },
    },
    async (request) => {
      const seller = await findSeller(request, request.params.sellerId);
      const { type, frequency, customerId } = request.query;
      if (customerId === undefined) {
        const rows = await queryMetricRows(services.db, { sellerId: seller.Id, type, frequency });
        return {
          sellerId: seller.Id,
          type,
          frequency,
          customerId: null,
          MetricsDate: seller.MetricsDate,
          rows,
        };
      }
      // One customer's rows are computed on request from its ledger (docs/adr/0030-receivables-metrics.md),
      // as of the date of the seller's last metrics run so they line up with the seller's rows.
      const summary = await querySellerMetricSummary(services.db, seller.Id);
      const asOf = summary
        ? new Date(summary.asOf)
        : seller.CollectionDate
          ? new Date(seller.CollectionDate)
          : services.now();
      const rows = await queryCustomerMetricRows(services.db, {
        sellerId: seller.Id,
        customerId,
        type,
        frequency,
        asOf,
        exclusions: exclusionsOf(seller),
      });
      if (rows === null) throw new AppError('not_found', 'Customer not found.');
      return { sellerId: seller.Id, type, frequency, customerId, MetricsDate: seller.MetricsDate, rows };
    },
  );

  app.get(
    '/api/tenants/:id/customers',
    {
      config: { access: 'member' },
      schema: { tags: ['tenants'], params: IdParam, response: { 200: TenantCustomersResponse } },
    },
    async (request) => {
      await requireTenantAccess(request, request.params.id);
      const { customers, total } = await queryTenantCustomers(services.db, { tenantId: request.params.id });
      return {
        rows: customers.map((customer) => ({
          Id: customer.customerId,
          SellerId: customer.sellerId,
          Name: customer.name,
          Email: customer.email,
          createdAt: customer.createdAt.toISOString(),
        })),
        total,
      };
    },
  );

  return Promise.resolve();
};
