import { z } from 'zod';
import { CrmSettings, IntegrationProduct, IntegrationProvider } from '../events/integration';
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
});
export type IntegrationResponse = z.infer<typeof IntegrationResponse>;

export const IntegrationsResponse = z.object({
  rows: z.array(IntegrationResponse),
  total: z.number(),
  filtered: z.number(),
});
