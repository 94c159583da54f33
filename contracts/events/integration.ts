import { z } from 'zod';
import { EntityId, IsoDateTime, type PersonalDataFields } from './values';

/** CRM and cloud platforms (portal.md section 1). */
export const IntegrationProvider = z.enum([
  'HUBSPOT',
  'SALESFORCE',
  'ACTIVE_CAMPAIGN',
  'GOOGLE',
  'MICROSOFT',
  'WORKSPACE',
]);
export type IntegrationProvider = z.infer<typeof IntegrationProvider>;

/** REVOPS marks the HubSpot RevOps Pro variant; it exists only for HUBSPOT. */
export const IntegrationProduct = z.enum(['REVOPS']);
export type IntegrationProduct = z.infer<typeof IntegrationProduct>;

export const IntegrationAuthMethod = z.enum(['oauth2', 'api_key']);
export type IntegrationAuthMethod = z.infer<typeof IntegrationAuthMethod>;

/** VALID until the provider refuses the credentials (INVALID) or they are withdrawn (REVOKED). */
export const CredentialsStatus = z.enum(['VALID', 'INVALID', 'REVOKED']);
export type CredentialsStatus = z.infer<typeof CredentialsStatus>;

/** The CRM providers, whose accounts carry CrmSettings. */
export const crmProviders = [
  'HUBSPOT',
  'SALESFORCE',
  'ACTIVE_CAMPAIGN',
] as const satisfies readonly IntegrationProvider[];

/** CRM account settings (admin.md section 3), named as the admin settings card shows them. */
export const CrmSettings = z.object({
  AddMissingCustomers: z.boolean(),
  AddMissingContacts: z.boolean(),
  UseContactForOwner: z.boolean(),
  MatchUsingNames: z.boolean(),
  MatchUsingNamesExact: z.boolean(),
  MatchUsingNamesCleaned: z.boolean(),
  MatchUsingNamesApprox: z.boolean(),
  DebugCompanies: z.boolean(),
  DebugContacts: z.boolean(),
  DebugAccountingIdentifier: z.boolean(),
  DebugRequests: z.boolean(),
  SkipSalesData: z.boolean(),
  /** The CRM property that holds the accounting customer id; null to match by name only. */
  AccountingIdentifier: z.string().min(1).nullable(),
  DisableSegmentChangeEvents: z.boolean(),
  DisableOverdueInvoiceEvents: z.boolean(),
  DisableCreatingTasks: z.boolean(),
});
export type CrmSettings = z.infer<typeof CrmSettings>;

/** Spec defaults: only MatchUsingNames starts true (portal.md section 3). */
export const defaultCrmSettings: CrmSettings = {
  AddMissingCustomers: false,
  AddMissingContacts: false,
  UseContactForOwner: false,
  MatchUsingNames: true,
  MatchUsingNamesExact: false,
  MatchUsingNamesCleaned: false,
  MatchUsingNamesApprox: false,
  DebugCompanies: false,
  DebugContacts: false,
  DebugAccountingIdentifier: false,
  DebugRequests: false,
  SkipSalesData: false,
  AccountingIdentifier: null,
  DisableSegmentChangeEvents: false,
  DisableOverdueInvoiceEvents: false,
  DisableCreatingTasks: false,
};

const credentials = {
  /** Where the command layer keeps the encrypted credentials (tokens, API key); never the secret itself. */
  credentialsRef: z.string().min(1),
  /** Who authorised the account (usually an email): personal data. */
  credentialsOwner: z.string().nullable(),
  /** The ActiveCampaign account URL (not a secret: the API key is); null for OAuth providers. */
  accountUrl: z.string().nullable(),
};

export const IntegrationConnected = z.object({
  type: z.literal('IntegrationConnected'),
  data: z.object({
    integrationId: EntityId,
    tenantId: EntityId,
    provider: IntegrationProvider,
    productIdentifier: IntegrationProduct.nullable(),
    authMethod: IntegrationAuthMethod,
    ...credentials,
    /** Null for cloud accounts (Google, Microsoft, Workspace), which have no CRM settings. */
    settings: CrmSettings.nullable(),
    connectedAt: IsoDateTime,
  }),
});

export const IntegrationCredentialsRenewed = z.object({
  type: z.literal('IntegrationCredentialsRenewed'),
  // The tenantId owns the key that encrypts credentialsOwner.
  data: z.object({ integrationId: EntityId, tenantId: EntityId, ...credentials, renewedAt: IsoDateTime }),
});

export const IntegrationCredentialsInvalidated = z.object({
  type: z.literal('IntegrationCredentialsInvalidated'),
  data: z.object({
    integrationId: EntityId,
    credentialsStatus: CredentialsStatus.exclude(['VALID']),
    reason: z.string().min(1),
    invalidatedAt: IsoDateTime,
  }),
});

export const IntegrationActivated = z.object({
  type: z.literal('IntegrationActivated'),
  data: z.object({ integrationId: EntityId, activatedAt: IsoDateTime }),
});
export const IntegrationDeactivated = z.object({
  type: z.literal('IntegrationDeactivated'),
  data: z.object({ integrationId: EntityId, deactivatedAt: IsoDateTime }),
});
export const IntegrationLocked = z.object({
  type: z.literal('IntegrationLocked'),
  data: z.object({ integrationId: EntityId, lockedAt: IsoDateTime }),
});
export const IntegrationUnlocked = z.object({
  type: z.literal('IntegrationUnlocked'),
  data: z.object({ integrationId: EntityId, unlockedAt: IsoDateTime }),
});

export const IntegrationSettingsUpdated = z.object({
  type: z.literal('IntegrationSettingsUpdated'),
  data: z.object({ integrationId: EntityId, settings: CrmSettings, updatedAt: IsoDateTime }),
});

/** `jobId` is the job (job- stream) that runs the work. */
export const IntegrationSyncRequested = z.object({
  type: z.literal('IntegrationSyncRequested'),
  data: z.object({ integrationId: EntityId, jobId: EntityId, requestedAt: IsoDateTime }),
});
export const IntegrationSyncCompleted = z.object({
  type: z.literal('IntegrationSyncCompleted'),
  data: z.object({ integrationId: EntityId, jobId: EntityId, syncDate: IsoDateTime }),
});
export const IntegrationSyncFailed = z.object({
  type: z.literal('IntegrationSyncFailed'),
  data: z.object({
    integrationId: EntityId,
    jobId: EntityId,
    reason: z.string().min(1),
    failedAt: IsoDateTime,
  }),
});

/** Purge removes what we wrote to the CRM; with `unlink` it also drops the links to accounting customers. */
export const IntegrationPurgeRequested = z.object({
  type: z.literal('IntegrationPurgeRequested'),
  data: z.object({ integrationId: EntityId, jobId: EntityId, unlink: z.boolean(), requestedAt: IsoDateTime }),
});
export const IntegrationUnlinkRequested = z.object({
  type: z.literal('IntegrationUnlinkRequested'),
  data: z.object({ integrationId: EntityId, jobId: EntityId, requestedAt: IsoDateTime }),
});

export const IntegrationDisconnected = z.object({
  type: z.literal('IntegrationDisconnected'),
  data: z.object({ integrationId: EntityId, disconnectedAt: IsoDateTime }),
});
export const IntegrationDeleted = z.object({
  type: z.literal('IntegrationDeleted'),
  data: z.object({ integrationId: EntityId, deletedAt: IsoDateTime }),
});

/** How a CRM company was matched to an accounting customer (settings MatchUsingNames*). */
export const CrmMatchMethod = z.enum(['accountingId', 'exact', 'cleaned', 'approx', 'created']);
export type CrmMatchMethod = z.infer<typeof CrmMatchMethod>;

/**
 * The links a sync found between a seller's customers and CRM companies, as a change against the
 * links already recorded: one event per seller and sync page of changes, never one per company.
 */
export const IntegrationCompaniesMatched = z.object({
  type: z.literal('IntegrationCompaniesMatched'),
  data: z.object({
    integrationId: EntityId,
    sellerId: EntityId,
    jobId: EntityId,
    linked: z.array(
      z.object({ customerId: z.string().min(1), crmId: z.string().min(1), method: CrmMatchMethod }),
    ),
    /** Customers whose link went away (the company was deleted in the CRM, or Unlink). */
    unlinked: z.array(z.string().min(1)),
    matchedAt: IsoDateTime,
  }),
});

export const CrmObjectType = z.enum(['company', 'contact', 'event', 'task', 'note', 'property']);
export type CrmObjectType = z.infer<typeof CrmObjectType>;

/**
 * What a push run wrote to the CRM. `created` objects are Ledgerwise's own (a purge deletes exactly
 * these); the others changed an object the customer owns (a property, a link). Keys make a retried
 * push recognisable; the connector itself guarantees the CRM holds one object per key.
 */
export const IntegrationPushesApplied = z.object({
  type: z.literal('IntegrationPushesApplied'),
  data: z.object({
    integrationId: EntityId,
    jobId: EntityId,
    pushes: z.array(
      z.object({
        key: z.string().min(1),
        kind: z.string().min(1),
        objectType: CrmObjectType,
        crmId: z.string().min(1),
        created: z.boolean(),
        sellerId: EntityId.nullable(),
        customerId: z.string().nullable(),
      }),
    ),
    appliedAt: IsoDateTime,
  }),
});

/** Objects a purge deleted from the CRM (they were in an IntegrationPushesApplied as created). */
export const IntegrationObjectsPurged = z.object({
  type: z.literal('IntegrationObjectsPurged'),
  data: z.object({
    integrationId: EntityId,
    jobId: EntityId,
    objects: z.array(z.object({ objectType: CrmObjectType, crmId: z.string().min(1) })),
    purgedAt: IsoDateTime,
  }),
});

/** A purge or unlink job finished (the job stream carries its progress). */
export const IntegrationJobFinished = z.object({
  type: z.literal('IntegrationJobFinished'),
  data: z.object({
    integrationId: EntityId,
    jobId: EntityId,
    action: z.enum(['purge', 'unlink']),
    outcome: z.enum(['completed', 'failed']),
    reason: z.string().nullable(),
    finishedAt: IsoDateTime,
  }),
});

export const IntegrationEvent = z.discriminatedUnion('type', [
  IntegrationConnected,
  IntegrationCredentialsRenewed,
  IntegrationCredentialsInvalidated,
  IntegrationActivated,
  IntegrationDeactivated,
  IntegrationLocked,
  IntegrationUnlocked,
  IntegrationSettingsUpdated,
  IntegrationSyncRequested,
  IntegrationSyncCompleted,
  IntegrationSyncFailed,
  IntegrationPurgeRequested,
  IntegrationUnlinkRequested,
  IntegrationDisconnected,
  IntegrationDeleted,
  IntegrationCompaniesMatched,
  IntegrationPushesApplied,
  IntegrationObjectsPurged,
  IntegrationJobFinished,
]);
export type IntegrationEvent = z.infer<typeof IntegrationEvent>;
export type IntegrationEventType = IntegrationEvent['type'];

export const integrationEventVersions = {
  IntegrationConnected: 1,
  IntegrationCredentialsRenewed: 1,
  IntegrationCredentialsInvalidated: 1,
  IntegrationActivated: 1,
  IntegrationDeactivated: 1,
  IntegrationLocked: 1,
  IntegrationUnlocked: 1,
  IntegrationSettingsUpdated: 1,
  IntegrationSyncRequested: 1,
  IntegrationSyncCompleted: 1,
  IntegrationSyncFailed: 1,
  IntegrationPurgeRequested: 1,
  IntegrationUnlinkRequested: 1,
  IntegrationDisconnected: 1,
  IntegrationDeleted: 1,
  IntegrationCompaniesMatched: 1,
  IntegrationPushesApplied: 1,
  IntegrationObjectsPurged: 1,
  IntegrationJobFinished: 1,
} satisfies Record<IntegrationEventType, number>;

export const integrationPersonalDataFields = {
  IntegrationConnected: ['credentialsOwner'],
  IntegrationCredentialsRenewed: ['credentialsOwner'],
  IntegrationCredentialsInvalidated: [],
  IntegrationActivated: [],
  IntegrationDeactivated: [],
  IntegrationLocked: [],
  IntegrationUnlocked: [],
  IntegrationSettingsUpdated: [],
  IntegrationSyncRequested: [],
  IntegrationSyncCompleted: [],
  IntegrationSyncFailed: [],
  IntegrationPurgeRequested: [],
  IntegrationUnlinkRequested: [],
  IntegrationDisconnected: [],
  IntegrationDeleted: [],
  IntegrationCompaniesMatched: [],
  IntegrationPushesApplied: [],
  IntegrationObjectsPurged: [],
  IntegrationJobFinished: [],
} satisfies PersonalDataFields<IntegrationEvent>;
