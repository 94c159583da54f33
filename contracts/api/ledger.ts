import { z } from 'zod';
import { MetricFrequency, MetricRow, MetricType, metricTypeCodes } from '../ledger';

const codeToType = new Map(Object.entries(metricTypeCodes).map(([type, code]) => [String(code), type]));

/**
 * GET /api/metrics/sellers/{sellerId}?type=&frequency=&customerId=: the type by name or by its code
 * (admin.md section 3). With customerId, one customer's rows, computed from its ledger on request.
 */
export const MetricRowsQuery = z
  .object({
    type: z.preprocess((value) => codeToType.get(String(value)) ?? value, MetricType),
    frequency: MetricFrequency,
    customerId: z.coerce
      .number()
      .int()
      .positive()
      .max(2 ** 31)
      .optional(),
  })
  .strict();

export const MetricRowsParams = z.object({ sellerId: z.coerce.number().int().positive() }).strict();

export const MetricRowsResponse = z.object({
  sellerId: z.number(),
  type: MetricType,
  frequency: MetricFrequency,
  /** The customer the rows are of; null for the seller's. */
  customerId: z.number().nullable().optional(),
  /** Null until the seller's metrics were first generated. */
  MetricsDate: z.string().nullable(),
  rows: z.array(MetricRow),
});

/** GET /api/tenants/{id}/customers */
export const TenantCustomersResponse = z.object({
  rows: z.array(
    z.object({
      Id: z.number(),
      SellerId: z.number(),
      Name: z.string(),
      Email: z.string().nullable(),
      createdAt: z.string(),
    }),
  ),
  total: z.number(),
});
