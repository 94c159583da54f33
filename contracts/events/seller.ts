import { z } from 'zod';
import { EntityId, IsoDateTime, type PersonalDataFields } from './values';

/** Accounting and payment platforms a seller connects to (portal.md section 1). */
export const SellerProvider = z.enum(['QBO', 'QBD', 'XERO', 'SAGE', 'STRIPE', 'AUTOFY', 'DEMO']);
export type SellerProvider = z.infer<typeof SellerProvider>;

/** How the platform authorises us: OAuth for the cloud platforms, a password for Sage, the Web Connector for QBD. */
export const SellerAuthMethod = z.enum(['oauth2', 'password', 'web_connector', 'none']);
export type SellerAuthMethod = z.infer<typeof SellerAuthMethod>;

export const SellerAuthTokenStatus = z.enum(['ACTIVE', 'REVOKED']);
export type SellerAuthTokenStatus = z.infer<typeof SellerAuthTokenStatus>;

/** Populate fetches everything for a seller never synced; sync fetches changes; repopulate (Reset for QBD) refetches all. */
export const SellerSyncMode = z.enum(['sync', 'populate', 'repopulate']);
export type SellerSyncMode = z.infer<typeof SellerSyncMode>;

const PositiveIdList = z.array(EntityId);

/** One feature flag and its value; each flag has its own value type (admin.md section 3). */
export const SellerFeatureFlag = z.discriminatedUnion('flag', [
  z.object({ flag: z.literal('customerSheet.showOtherCredits'), value: z.boolean() }),
  z.object({ flag: z.literal('customerSheet.showSegmentation'), value: z.boolean() }),
  z.object({ flag: z.literal('crm.PushSalesRep'), value: z.boolean() }),
  z.object({ flag: z.literal('exclusions.CustomerIds'), value: PositiveIdList }),
  z.object({ flag: z.literal('exclusions.ProductIds'), value: PositiveIdList }),
  z.object({ flag: z.literal('forecasts.Receivables.Enabled'), value: z.boolean() }),
]);
export type SellerFeatureFlag = z.infer<typeof SellerFeatureFlag>;
export type SellerFeatureFlagName = SellerFeatureFlag['flag'];

const connectionData = {
  companyName: z.string().min(1).nullable(),
  url: z.string().nullable(),
  authMethod: SellerAuthMethod,
  /** Who authorised the connection (often an email): personal data. */
  authTokenOwner: z.string().nullable(),
  /** Where the command layer keeps the encrypted secret (Sage password, OAuth tokens); never the secret. */
  credentialsRef: z.string().min(1).nullable(),
  /** QBD company file path; Windows paths often hold a user name, so personal data. */
  companyFilePath: z.string().nullable(),
};

export const SellerConnected = z.object({
  type: z.literal('SellerConnected'),
  data: z.object({
    sellerId: EntityId,
    tenantId: EntityId,
    provider: SellerProvider,
    ...connectionData,
    connectedAt: IsoDateTime,
  }),
});

/**
 * A seller connected again (new authorisation) keeps its id, dates and flags. Events with personal data
 * carry the tenantId, which owns the encryption key.
 */
export const SellerReconnected = z.object({
  type: z.literal('SellerReconnected'),
  data: z.object({ sellerId: EntityId, tenantId: EntityId, ...connectionData, reconnectedAt: IsoDateTime }),
});

export const SellerCompanyDetailsRecorded = z.object({
  type: z.literal('SellerCompanyDetailsRecorded'),
  data: z.object({ sellerId: EntityId, companyName: z.string().min(1), url: z.string().nullable() }),
});

export const SellerActivated = z.object({
  type: z.literal('SellerActivated'),
  data: z.object({ sellerId: EntityId, activatedAt: IsoDateTime }),
});

export const SellerDeactivated = z.object({
  type: z.literal('SellerDeactivated'),
  data: z.object({ sellerId: EntityId, deactivatedAt: IsoDateTime }),
});

export const SellerDeleted = z.object({
  type: z.literal('SellerDeleted'),
  data: z.object({ sellerId: EntityId, deletedAt: IsoDateTime }),
});

export const SellerDisconnected = z.object({
  type: z.literal('SellerDisconnected'),
  data: z.object({ sellerId: EntityId, disconnectedAt: IsoDateTime }),
});

export const SellerAuthTokenRevoked = z.object({
  type: z.literal('SellerAuthTokenRevoked'),
  data: z.object({ sellerId: EntityId, revokedAt: IsoDateTime }),
});

export const SellerAuthTokenRefreshed = z.object({
  type: z.literal('SellerAuthTokenRefreshed'),
  data: z.object({ sellerId: EntityId, credentialsRef: z.string().min(1), refreshedAt: IsoDateTime }),
});

export const SellerCollectionDateRecorded = z.object({
  type: z.literal('SellerCollectionDateRecorded'),
  data: z.object({ sellerId: EntityId, collectionDate: IsoDateTime }),
});

export const SellerMetricsDateRecorded = z.object({
  type: z.literal('SellerMetricsDateRecorded'),
  data: z.object({ sellerId: EntityId, metricsDate: IsoDateTime }),
});

export const SellerFeatureFlagSet = z.object({
  type: z.literal('SellerFeatureFlagSet'),
  data: z.object({ sellerId: EntityId, setting: SellerFeatureFlag, setAt: IsoDateTime }),
});

/** `syncId` is the id of the job (job- stream) that runs the sync. */
export const SellerSyncRequested = z.object({
  type: z.literal('SellerSyncRequested'),
  data: z.object({ sellerId: EntityId, syncId: EntityId, mode: SellerSyncMode, requestedAt: IsoDateTime }),
});

export const SellerSyncStarted = z.object({
  type: z.literal('SellerSyncStarted'),
  data: z.object({ sellerId: EntityId, syncId: EntityId, startedAt: IsoDateTime }),
});

export const SellerSyncCompleted = z.object({
  type: z.literal('SellerSyncCompleted'),
  data: z.object({
    sellerId: EntityId,
    syncId: EntityId,
    mode: SellerSyncMode,
    /** The data is complete up to this time; it becomes the seller's CollectionDate. */
    collectionDate: IsoDateTime,
    completedAt: IsoDateTime,
  }),
});

export const SellerSyncFailed = z.object({
  type: z.literal('SellerSyncFailed'),
  data: z.object({ sellerId: EntityId, syncId: EntityId, reason: z.string().min(1), failedAt: IsoDateTime }),
});

export const SellerEvent = z.discriminatedUnion('type', [
  SellerConnected,
  SellerReconnected,
  SellerCompanyDetailsRecorded,
  SellerActivated,
  SellerDeactivated,
  SellerDeleted,
  SellerDisconnected,
  SellerAuthTokenRevoked,
  SellerAuthTokenRefreshed,
  SellerCollectionDateRecorded,
  SellerMetricsDateRecorded,
  SellerFeatureFlagSet,
  SellerSyncRequested,
  SellerSyncStarted,
  SellerSyncCompleted,
  SellerSyncFailed,
]);
export type SellerEvent = z.infer<typeof SellerEvent>;
export type SellerEventType = SellerEvent['type'];

export const sellerEventVersions = {
  SellerConnected: 1,
  SellerReconnected: 1,
  SellerCompanyDetailsRecorded: 1,
  SellerActivated: 1,
  SellerDeactivated: 1,
  SellerDeleted: 1,
  SellerDisconnected: 1,
  SellerAuthTokenRevoked: 1,
  SellerAuthTokenRefreshed: 1,
  SellerCollectionDateRecorded: 1,
  SellerMetricsDateRecorded: 1,
  SellerFeatureFlagSet: 1,
  SellerSyncRequested: 1,
  SellerSyncStarted: 1,
  SellerSyncCompleted: 1,
  SellerSyncFailed: 1,
} satisfies Record<SellerEventType, number>;

/** Data fields holding personal data, encrypted per subject so that a tenant purge can erase them. */
export const sellerPersonalDataFields = {
  SellerConnected: ['authTokenOwner', 'companyFilePath'],
  SellerReconnected: ['authTokenOwner', 'companyFilePath'],
  SellerCompanyDetailsRecorded: [],
  SellerActivated: [],
  SellerDeactivated: [],
  SellerDeleted: [],
  SellerDisconnected: [],
  SellerAuthTokenRevoked: [],
  SellerAuthTokenRefreshed: [],
  SellerCollectionDateRecorded: [],
  SellerMetricsDateRecorded: [],
  SellerFeatureFlagSet: [],
  SellerSyncRequested: [],
  SellerSyncStarted: [],
  SellerSyncCompleted: [],
  SellerSyncFailed: [],
} satisfies PersonalDataFields<SellerEvent>;
