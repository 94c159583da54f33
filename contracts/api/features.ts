import { z } from 'zod';

/** GET /api/tenants/{id}/features: the plan-gated features the company has ("Upgrade plan to access" otherwise). */
export const TenantFeaturesResponse = z.object({
  /** Product identifiers in group/feature form, e.g. platforms/sage. */
  Features: z.array(z.string()),
});
