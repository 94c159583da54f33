import { z } from 'zod';
import { SellerAuthMethod, SellerAuthTokenStatus, SellerProvider, SellerSyncMode } from '../events/seller';
import { QueryFlag, Text } from './common';

/** `include=Subscriptions,FeatureFlags` (comma-separated, any order). */
const SellerInclude = z
  .string()
  .trim()
  .transform((value) => value.split(',').map((part) => part.trim()))
  .pipe(z.array(z.enum(['Subscriptions', 'FeatureFlags'])));

/** `a,b,c` in a query string. */
const commaList = () =>
  z
    .string()
    .trim()
    .transform((value) => value.split(',').map((part) => part.trim()));

export const SellerSortField = z.enum([
  'Id',
  'TenantId',
  'CompanyName',
  'Provider',
  'Active',
  'createdAt',
  'CollectionDate',
  'MetricsDate',
]);
export type SellerSortField = z.infer<typeof SellerSortField>;

/**
 * GET /api/sellers: the current tenant's sellers (`Active=true`); `scope=all` is the platform admin's
 * table with its provider, recency and partner filters, search, sort and paging.
 */
export const SellersQuery = z
  .object({
    Active: QueryFlag.optional(),
    include: SellerInclude.optional(),
    scope: z.enum(['all']).optional(),
    provider: commaList().pipe(z.array(SellerProvider).min(1)).optional(),
    collection: z.enum(['recent', 'stale']).optional(),
    metrics: z.enum(['recent', 'stale']).optional(),
    partnerId: commaList()
      .pipe(z.array(z.string().regex(/^\d{1,10}$/, 'must be partner ids')).min(1))
      .transform((ids) => ids.map(Number))
      .optional(),
    search: Text(200).optional(),
    sort: SellerSortField.optional(),
    direction: z.enum(['asc', 'desc']).optional(),
    offset: z.coerce.number().int().min(0).optional(),
    limit: z.coerce.number().int().min(1).max(1000).optional(),
  })
  .strict();
export type SellersQuery = z.infer<typeof SellersQuery>;

export const sageConnectFailure =
  'There was an error while connecting to Sage Intacct with those credentials.';

/**
 * POST /api/sellers. SAGE needs its Web Services credentials; DEMO makes a demo seller; the OAuth
 * platforms connect through their browser redirects (/api/connect/...), QBD through /api/qbd/config.
 */
export const CreateSellerRequest = z
  .object({
    provider: SellerProvider,
    companyId: Text(100).optional(),
    userId: Text(100).optional(),
    password: z.string().max(200).optional(),
  })
  .strict();
export type CreateSellerRequest = z.infer<typeof CreateSellerRequest>;

export const FeatureFlagSetting = z.object({ Flag: z.string().min(1).max(100), Value: z.unknown() }).strict();

/** PUT /api/sellers/:id: what the seller edit form sends (admin.md section 5). */
export const UpdateSellerRequest = z
  .object({
    Active: z.boolean().optional(),
    FeatureFlags: z.array(FeatureFlagSetting).max(20).optional(),
  })
  .strict();
export type UpdateSellerRequest = z.infer<typeof UpdateSellerRequest>;

export const SellerFlagParams = z
  .object({
    id: z.coerce
      .number()
      .int()
      .positive()
      .max(2 ** 31),
    flag: z.string().min(1).max(100),
  })
  .strict();

/** POST /api/sellers/:id/flags/:flag: `section` names the flag within its group (forecasts + Receivables). */
export const SetSellerFlagRequest = z
  .object({ state: z.unknown(), section: Text(100).optional() })
  .strict()
  .refine((body) => body.state !== undefined, { message: 'state is required', path: ['state'] });

export const SellerSyncQuery = z.object({ reset: z.enum(['1', '0', 'true', 'false']).optional() }).strict();

/** POST /api/sellers/sync: sync every seller of a provider (platform admin). */
export const BulkSellerSyncRequest = z
  .object({ provider: SellerProvider, active: z.boolean().optional() })
  .strict();

export const SellerSyncJob = z.object({ sellerId: z.number(), jobId: z.number(), mode: SellerSyncMode });
export const SellerSyncResponse = z.object({ job: SellerSyncJob, message: z.string() });
export const BulkSellerSyncResponse = z.object({
  jobs: z.array(SellerSyncJob),
  skipped: z.array(z.object({ sellerId: z.number(), reason: z.string() })),
  message: z.string(),
});

const RecipientSummary = z.object({
  Id: z.number(),
  SubscriberId: z.number().nullable(),
  STATE: z.string(),
  SendWeekly: z.boolean(),
  SendMonthly: z.boolean(),
});

/**
 * The status of a connected platform (portal.md section 2.3), computed by the server at query time
 * (projections/sellers/seller-status.ts): the web shows `text`, or the day of `lastSync` in the user's
 * own format.
 */
export const SellerStatus = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('revoked'), text: z.string() }),
  z.object({ kind: z.literal('synced'), text: z.string(), lastSync: z.string() }),
  z.object({ kind: z.literal('pending_installation'), text: z.string() }),
  z.object({ kind: z.literal('pending_sync'), text: z.string() }),
]);
export type SellerStatus = z.infer<typeof SellerStatus>;

export const SellerProgress = z.enum(['syncing', 'generating', 'completed']);

/**
 * The badge beside the status (portal.md section 4): Syncing..., Generating metrics... or Completed;
 * null while the platform's authentication is revoked, when no progress is being made.
 */
export const SellerProgressBadge = z.object({ stage: SellerProgress, text: z.string() }).nullable();
export type SellerProgressBadge = z.infer<typeof SellerProgressBadge>;

export const SellerResponse = z.object({
  Id: z.number(),
  TenantId: z.number(),
  CompanyName: z.string().nullable(),
  URL: z.string().nullable(),
  Provider: SellerProvider,
  Active: z.boolean(),
  AuthMethod: SellerAuthMethod,
  AuthToken: z.object({
    Owner: z.string().nullable(),
    RefreshedAt: z.string().nullable(),
    Status: SellerAuthTokenStatus,
  }),
  CompanyFilePath: z.string().nullable(),
  CollectionDate: z.string().nullable(),
  MetricsDate: z.string().nullable(),
  FeatureFlags: z.array(z.object({ Id: z.string(), Flag: z.string(), Value: z.unknown() })).optional(),
  Forecasting: z.boolean(),
  Sync: z.object({
    running: z
      .object({
        syncId: z.number(),
        mode: z.string(),
        requestedAt: z.string(),
        startedAt: z.string().nullable(),
      })
      .nullable(),
    last: z
      .object({
        syncId: z.number(),
        outcome: z.enum(['completed', 'failed']),
        finishedAt: z.string(),
        failure: z.string().nullable(),
      })
      .nullable(),
  }),
  createdAt: z.string(),
  disconnected: z.boolean(),
  Status: SellerStatus,
  /** A QuickBooks Desktop seller not synced for more than 10 days (portal.md section 9). */
  QbdSyncWarning: z.boolean(),
  Progress: SellerProgress,
  ProgressBadge: SellerProgressBadge,
  CollectionRecency: z.enum(['recent', 'stale']),
  MetricsRecency: z.enum(['recent', 'stale']),
  SyncActions: z.array(SellerSyncMode),
  Deletable: z.boolean(),
  Subscriptions: z.array(RecipientSummary).optional(),
  Tenant: z
    .object({ Id: z.number(), Name: z.string().nullable(), PartnerId: z.number().nullable() })
    .optional(),
});
export type SellerResponse = z.infer<typeof SellerResponse>;

export const SellersResponse = z.object({
  rows: z.array(SellerResponse),
  progress: z.enum(['pending', 'syncing', 'generating', 'completed']).optional(),
  total: z.number(),
  filtered: z.number(),
});
export type SellersResponse = z.infer<typeof SellersResponse>;
