import { z } from 'zod';
import { PaymentStatus } from '../events/billing';
import { SellerProvider } from '../events/seller';
import { TenantClassification, UsageType } from '../events/tenant';
import { MembershipStatus, TenantRole } from '../events/user';
import { QueryFlag, Text } from './common';

/** A row of the advisor's clients page (portal.md section 3, Client row). */
export const ClientRow = z.object({
  Id: z.number(),
  Name: z.string(),
  Role: z.enum(['Advisor', 'Administrator', 'Standard User']),
  Access: z.boolean(),
  Platforms: z.array(SellerProvider),
  Recipients: z.number(),
  Subscription: z.object({
    PlanIdentifier: z.string().nullable(),
    PlanName: z.string().nullable(),
    BillingTenantId: z.number().nullable(),
    PaymentStatus: PaymentStatus.nullable(),
  }),
  HasClientMatch: z.boolean(),
  Classification: TenantClassification,
  UsageType,
  isDemo: z.boolean(),
});
export type ClientRow = z.infer<typeof ClientRow>;

/** `plan` may repeat or be comma separated. */
const Plans = z
  .union([z.string(), z.array(z.string())])
  .transform((value) => (Array.isArray(value) ? value : [value]).flatMap((v) => v.split(',')).filter(Boolean))
  .pipe(z.array(Text(100).min(1)));

export const ClientsQuery = z
  .object({
    search: Text(200).optional(),
    hasPlatforms: QueryFlag.optional(),
    platform: SellerProvider.optional(),
    plan: Plans.optional(),
  })
  .strict();

/** GET /api/clients: by name with Demo Client last; empty is No Clients Connected (or Matched, when filtered). */
export const ClientsResponse = z.object({ clients: z.array(ClientRow) });

/** A row of Manage Users Across Your Clients. */
export const ClientUserRow = z.object({
  Client: z.object({ Id: z.number(), Name: z.string() }),
  User: z.object({ Id: z.number(), Name: z.string() }),
  Email: z.string(),
  JobTitle: z.string().nullable(),
  Role: z.enum(['Advisor', 'Admin', 'User']),
  TenantRole,
  Status: MembershipStatus,
});

export const ClientUsersResponse = z.object({ users: z.array(ClientUserRow) });
