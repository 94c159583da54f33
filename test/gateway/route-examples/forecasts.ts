import type { Db } from 'mongodb';
import {
  ensureForecastIndexes,
  storeCustomerForecasts,
  storeSellerForecast,
} from '../../../workflows/forecast/forecast-store';
import { sellerOfA } from './sellers';
import type { Cast, RouteExample } from './types';

const asOf = new Date('2024-06-30T00:00:00.000Z');
const week = { mean: 1000, lower80: 500, upper80: 1500, lower95: 200, upper95: 1800 };

/** A seller of tenant A with a stored forecast, so the reads find documents through their indexes. */
const sellerWithForecasts = async (cast: Cast): Promise<number> => {
  const sellerId = await sellerOfA(cast);
  const db: Db = cast.world.services.db;
  await ensureForecastIndexes(db);
  await storeSellerForecast(db, {
    sellerId,
    kind: 'collections',
    issuedAt: asOf,
    asOf,
    method: 'example',
    history: [],
    points: [{ startDate: new Date('2024-07-01T00:00:00.000Z'), ...week }],
    scale: null,
    baseline: [900],
    openInvoices: 1,
    openBalance: 2000,
    beyondHorizon: 1000,
  });
  await storeCustomerForecasts(db, { sellerId, issuedAt: asOf, asOf }, [
    {
      customerId: 1,
      openBalance: 2000,
      weeks: [{ startDay: 19905, ...week }],
      invoices: [],
      baseline: [900],
      actual: [0],
    },
  ]);
  return sellerId;
};

export const examples: RouteExample[] = [
  {
    method: 'GET',
    route: '/api/forecasts/sellers/:sellerId',
    access: 'member',
    happy: async (cast) => ({ url: `/api/forecasts/sellers/${await sellerWithForecasts(cast)}` }),
    badInput: () => Promise.resolve({ url: '/api/forecasts/sellers/first' }),
  },
  {
    method: 'GET',
    route: '/api/forecasts/sellers/:sellerId/customers/:customerId',
    access: 'member',
    happy: async (cast) => ({
      url: `/api/forecasts/sellers/${await sellerWithForecasts(cast)}/customers/1`,
    }),
    badInput: async (cast) => ({
      url: `/api/forecasts/sellers/${await sellerOfA(cast)}/customers/first`,
    }),
  },
];
