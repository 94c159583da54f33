import { z } from 'zod';

const Count = z.int().nonnegative();

/**
 * GET /api/stats (admin.md section 3, Stats response). Customers, invoices and invoice revenue come
 * from the ledger and are 0 until it is built; the dashboard's other cards ride along.
 */
export const AdminStats = z.object({
  partners: Count,
  activeSellers: Count,
  inactiveSellers: Count,
  customers: Count,
  invoices: Count,
  /** In cents, as invoice amounts are stored. */
  invoiceRevenue: Count,
  businesses: Count,
  firms: Count,
  directSubscriptions: Count,
  channelSubscriptions: Count,
  trialSubscriptions: Count,
});
export type AdminStats = z.infer<typeof AdminStats>;

export const StatsResponse = z.object({ stats: AdminStats });
export type StatsResponse = z.infer<typeof StatsResponse>;
