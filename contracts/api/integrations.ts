import { z } from 'zod';
import { CrmMatchMethod, CrmSettings, IntegrationProduct, IntegrationProvider } from '../events/integration';
import { Text } from './common';

export const activeCampaignConnectFailure =
  'There was an error while connecting to ActiveCampaign with those credentials.';

/** GET /api/integrations: the tenant's accounts; `scope=all` is the admin table with its filters. */
export const IntegrationsQuery = z
  .object({
    scope: z.enum(['all']).optional(),
    provider: z
      .string()
      .trim()
      .transform((value) => value.split(',').map((part) => part.trim()))
      .pipe(z.array(IntegrationProvider).min(1))
      .optional(),
    /** RevOps Pro, or accounts without a product. */
    product: z.enum([...IntegrationProduct.options, 'none']).optional(),
    search: Text(200).optional(),
  })
  .strict();
export type IntegrationsQuery = z.infer<typeof IntegrationsQuery>;

/** POST /api/integrations: ActiveCampaign connects with its account URL and API key. */
export const CreateIntegrationRequest = z
  .object({
    Provider: IntegrationProvider,
    ProductIdentifier: IntegrationProduct.nullable().optional(),
    Credentials: z
      .object({ URL: Text(500).optional(), ApiKey: z.string().trim().max(500).optional() })
      .strict()
      .optional(),
  })
  .strict();
export type CreateIntegrationRequest = z.infer<typeof CreateIntegrationRequest>;

/** PUT or PATCH /api/integrations/:id: the admin toggles and the CRM settings card. */
export const UpdateIntegrationRequest = z
  .object({
    Active: z.boolean().optional(),
    Locked: z.boolean().optional(),
    Settings: CrmSettings.partial().extend({ Locked: z.boolean().optional() }).strict().optional(),
  })
  .strict();
export type UpdateIntegrationRequest = z.infer<typeof UpdateIntegrationRequest>;

export const PurgeIntegrationRequest = z.object({ unlink: z.boolean().optional() }).strict();

export const IntegrationJobResponse = z.object({
  integrationId: z.number(),
  jobId: z.number(),
  action: z.enum(['sync', 'purge', 'unlink']),
  message: z.string(),
});

export const IntegrationResponse = z.object({
  Id: z.number(),
  TenantId: z.number(),
  Provider: IntegrationProvider,
  ProductIdentifier: IntegrationProduct.nullable(),
  AuthMethod: z.string(),
  Active: z.boolean(),
  CredentialsStatus: z.string(),
  CredentialsProblem: z.string().nullable(),
  CredentialsOwner: z.string().nullable(),
  URL: z.string().nullable(),
  SyncDate: z.string().nullable(),
  Settings: z.record(z.string(), z.union([z.boolean(), z.string(), z.null()])),
  Sync: z.object({
    runningJobId: z.number().nullable(),
    last: z
      .object({ jobId: z.number(), outcome: z.enum(['completed', 'failed']), failure: z.string().nullable() })
      .nullable(),
  }),
  Purge: z.object({ jobId: z.number(), unlink: z.boolean(), requestedAt: z.string() }).nullable(),
  createdAt: z.string(),
  disconnectedAt: z.string().nullable(),
  Tenant: z.object({ Id: z.number(), Name: z.string().nullable() }).optional(),
  Actions: z.array(z.string()).optional(),
  /** Admin table's Customers: the accounting customers a CRM account's syncs linked; null for cloud accounts. */
  CustomerCount: z.number().nullable().optional(),
});
export type IntegrationResponse = z.infer<typeof IntegrationResponse>;

export const IntegrationsResponse = z.object({
  rows: z.array(IntegrationResponse),
  total: z.number(),
  filtered: z.number(),
});

/**
 * GET /api/integrations/:id/companies (platform admin): the CRM companies a sync mirrored, with the
 * customers each is linked to. `filter` keeps the linked or the unlinked ones; `method` the links made
 * one way (accountingId, exact, cleaned, approx, created); `search` looks in the company's name.
 */
export const IntegrationCompaniesQuery = z
  .object({
    search: Text(200).optional(),
    filter: z.enum(['all', 'matched', 'unmatched']).optional(),
    method: CrmMatchMethod.optional(),
    offset: z.coerce.number().int().min(0).max(10_000_000).optional(),
    limit: z.coerce.number().int().min(1).max(500).optional(),
  })
  .strict();
export type IntegrationCompaniesQuery = z.infer<typeof IntegrationCompaniesQuery>;

export const IntegrationCompanyLink = z.object({
  SellerId: z.number(),
  CustomerId: z.string(),
  /** The accounting customer's name; null when the seller's ledger no longer has it. */
  CustomerName: z.string().nullable(),
  Method: CrmMatchMethod,
});

export const IntegrationCompanyRow = z.object({
  CrmId: z.string(),
  Name: z.string(),
  AccountingId: z.string().nullable(),
  Domain: z.string().nullable(),
  OwnerCrmId: z.string().nullable(),
  /** One per seller at most: a customer id is a seller's, a company may stand for each seller's customer. */
  Links: z.array(IntegrationCompanyLink),
});
export type IntegrationCompanyRow = z.infer<typeof IntegrationCompanyRow>;

/** What the mirror holds, for the admin integrations table's expanded row. */
export const IntegrationMirrorSummary = z.object({
  Companies: z.number(),
  Contacts: z.number(),
  Owners: z.number(),
  /** Companies linked to at least one customer. */
  MatchedCompanies: z.number(),
  LinkedCustomers: z.number(),
});
export type IntegrationMirrorSummary = z.infer<typeof IntegrationMirrorSummary>;

export const IntegrationCompaniesResponse = z.object({
  rows: z.array(IntegrationCompanyRow),
  total: z.number(),
  filtered: z.number(),
  Summary: IntegrationMirrorSummary,
});
export type IntegrationCompaniesResponse = z.infer<typeof IntegrationCompaniesResponse>;
