import { z } from 'zod';
import { AdminStats } from './stats';

/**
 * GET /api/stats as the analytics feed answers it: the Stats response of admin.md section 3 with the
 * ledger's figures filled in (customers, invoices and invoiceRevenue over the trailing 36 months) and
 * the overview's Sales (All Time) card, all in cents.
 */
export const AnalyticsStats = AdminStats.extend({ salesAllTime: z.int().nonnegative() });
export type AnalyticsStats = z.infer<typeof AnalyticsStats>;

export const AnalyticsStatsResponse = z.object({ stats: AnalyticsStats });
export type AnalyticsStatsResponse = z.infer<typeof AnalyticsStatsResponse>;
