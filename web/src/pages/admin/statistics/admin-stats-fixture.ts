import type { AnalyticsStats } from '../../../../../contracts/api/analytics';

/** GET /api/stats as the admin overview and statistics screen tests answer it. */
export const adminStatsFixture: AnalyticsStats = {
  partners: 3,
  activeSellers: 41,
  inactiveSellers: 5,
  customers: 12_345,
  invoices: 678_901,
  invoiceRevenue: 123_456_789,
  businesses: 30,
  firms: 4,
  directSubscriptions: 20,
  channelSubscriptions: 6,
  trialSubscriptions: 2,
  salesAllTime: 987_654_321,
};
