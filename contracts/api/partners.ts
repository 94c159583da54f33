import { z } from 'zod';
import { EntityId } from '../events/values';
import { Text } from './common';

const Id = EntityId.max(2 ** 31);
const PlanIdentifier = Text(100);
const LogoUrl = Text(2000).nullable();

/** GET /api/partners: the admin partners table's search box. */
export const PartnersQuery = z.object({ search: Text(200).optional() }).strict();
export type PartnersQuery = z.infer<typeof PartnersQuery>;

/** A row of the admin partners table (admin.md sections 2 and 3). */
export const Partner = z.object({
  Id,
  TenantId: Id,
  Tenant: z.object({ Id, Name: z.string().nullable() }),
  Name: z.string(),
  ClientPlanIdentifier: z.string(),
  LogoURL: z.string().nullable(),
  WeeklyDay: z.int().nullable(),
  MonthlyDay: z.int().nullable(),
  /** Tenants linked to the partner; the Client report download shows when above 0. */
  Clients: z.int().nonnegative(),
  createdAt: z.string(),
});
export type Partner = z.infer<typeof Partner>;

export const PartnersResponse = z.object({
  rows: z.array(Partner),
  total: z.int().nonnegative(),
  filtered: z.int().nonnegative(),
});
export type PartnersResponse = z.infer<typeof PartnersResponse>;

/**
 * POST /api/partners: the partner form. Blank or missing fields reach the domain, which answers
 * each with its field error (Name, ClientPlanIdentifier and, when creating, TenantId are required).
 */
export const CreatePartnerRequest = z
  .object({
    Name: Text(200).default(''),
    ClientPlanIdentifier: PlanIdentifier.default(''),
    TenantId: Id.nullable().default(null),
    LogoURL: LogoUrl.optional(),
  })
  .strict();
export type CreatePartnerRequest = z.infer<typeof CreatePartnerRequest>;

/** PATCH /api/partners/{TenantId}: absent fields are unchanged; null clears the logo or report days. */
export const UpdatePartnerRequest = z
  .object({
    /** Which of the tenant's partners, when it has more than one. */
    Id: Id.optional(),
    Name: Text(200).optional(),
    ClientPlanIdentifier: PlanIdentifier.optional(),
    LogoURL: LogoUrl.optional(),
    WeeklyDay: z.int().min(0).max(6).nullable().optional(),
    MonthlyDay: z.int().min(1).max(28).nullable().optional(),
  })
  .strict();
export type UpdatePartnerRequest = z.infer<typeof UpdatePartnerRequest>;

export const PartnerTenantParam = z.object({ TenantId: z.coerce.number().pipe(Id) }).strict();
export type PartnerTenantParam = z.infer<typeof PartnerTenantParam>;
