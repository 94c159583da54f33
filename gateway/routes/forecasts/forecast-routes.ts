import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CustomerForecastResponse,
  ForecastCustomerParams,
  ForecastSellerParams,
  SellerForecastsResponse,
} from '../../../contracts/api/forecasts';
import {
  queryCollectionsForecast,
  queryCustomerForecast,
  queryRevenueForecast,
  querySellerValidation,
} from '../../../workflows/forecast/forecast-store';
import { findSeller } from '../../use-cases/sellers/find-seller';

/**
 * The latest forecasts of a seller of the caller's company (any seller for platform admins): revenue
 * weekly and monthly, collections, validation errors; and a customer's collections forecast.
 */
export const forecastRoutes: FastifyPluginAsyncZod = (app) => {
  const { services } = app;

  app.get(
    '/api/forecasts/sellers/:sellerId',
    {
      config: { access: 'member' },
      schema: {
        tags: ['forecasts'],
        params: ForecastSellerParams,
        response: { 200: SellerForecastsResponse },
      },
    },
    async (request) => {
      const seller = await findSeller(request, request.params.sellerId);
      const [weekly, monthly, collections, validation] = await Promise.all([
        queryRevenueForecast(services.db, seller.Id, 'WEEKLY'),
        queryRevenueForecast(services.db, seller.Id, 'MONTHLY'),
        queryCollectionsForecast(services.db, seller.Id),
        querySellerValidation(services.db, seller.Id),
      ]);
      return {
        sellerId: seller.Id,
        enabled: seller.Forecasting,
        revenue: { weekly, monthly },
        collections,
        validation,
      };
    },
  );

  app.get(
    '/api/forecasts/sellers/:sellerId/customers/:customerId',
    {
      config: { access: 'member' },
      schema: {
        tags: ['forecasts'],
        params: ForecastCustomerParams,
        response: { 200: CustomerForecastResponse },
      },
    },
    async (request) => {
      const seller = await findSeller(request, request.params.sellerId);
      const { customerId } = request.params;
      const forecast = await queryCustomerForecast(services.db, { sellerId: seller.Id, customerId });
      return { sellerId: seller.Id, customerId, enabled: seller.Forecasting, ...forecast };
    },
  );

  return Promise.resolve();
};
