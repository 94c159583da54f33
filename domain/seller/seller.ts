import { match } from 'ts-pattern';
import type {
  SellerAuthMethod,
  SellerAuthTokenStatus,
  SellerEvent,
  SellerFeatureFlag,
  SellerProvider,
  SellerSyncMode,
} from '../../contracts/events/seller';

/** The feature flags of a seller, each with its value; a flag never set has its default. */
export type SellerFeatureFlags = { [F in SellerFeatureFlag as F['flag']]: F['value'] };

export const defaultSellerFeatureFlags: SellerFeatureFlags = {
  'customerSheet.showOtherCredits': false,
  'customerSheet.showSegmentation': false,
  'crm.PushSalesRep': false,
  'exclusions.CustomerIds': [],
  'exclusions.ProductIds': [],
  'forecasts.Receivables.Enabled': false,
};

/** A sync that was requested and has not finished: while it exists the seller is "syncing". */
export type RunningSellerSync = {
  syncId: number;
  mode: SellerSyncMode;
  requestedAt: string;
  startedAt: string | null;
};

export type KnownSeller = {
  sellerId: number;
  tenantId: number;
  provider: SellerProvider;
  companyName: string | null;
  url: string | null;
  authMethod: SellerAuthMethod;
  authTokenStatus: SellerAuthTokenStatus;
  authTokenRefreshedAt: string | null;
  /** Disconnected sellers hold no credentials and stay inactive until connected again. */
  connected: boolean;
  active: boolean;
  collectionDate: string | null;
  metricsDate: string | null;
  featureFlags: SellerFeatureFlags;
  runningSync: RunningSellerSync | null;
  /** The last finished sync, so that a retried completion or failure is recognised. */
  lastFinishedSyncId: number | null;
};

export type SellerState =
  { status: 'none' } | ({ status: 'known' } & KnownSeller) | { status: 'deleted'; sellerId: number };

export const initialSellerState = (): SellerState => ({ status: 'none' });

/** Progress as the dashboard shows it (portal.md section 4): syncing, generating metrics, or completed. */
export const sellerProgress = (seller: Pick<KnownSeller, 'collectionDate' | 'metricsDate'>) =>
  seller.collectionDate === null ? 'syncing' : seller.metricsDate === null ? 'generating' : 'completed';

const onKnown = (state: SellerState, change: (seller: KnownSeller) => Partial<KnownSeller>): SellerState =>
  state.status === 'known' ? { ...state, ...change(state) } : state;

export const evolveSeller = (state: SellerState, event: SellerEvent): SellerState =>
  match(event)
    .with({ type: 'SellerConnected' }, ({ data }): SellerState => ({
      status: 'known',
      sellerId: data.sellerId,
      tenantId: data.tenantId,
      provider: data.provider,
      companyName: data.companyName,
      url: data.url,
      authMethod: data.authMethod,
      authTokenStatus: 'ACTIVE',
      authTokenRefreshedAt: data.connectedAt,
      connected: true,
      active: true,
      collectionDate: null,
      metricsDate: null,
      featureFlags: defaultSellerFeatureFlags,
      runningSync: null,
      lastFinishedSyncId: null,
    }))
    .with({ type: 'SellerReconnected' }, ({ data }) =>
      onKnown(state, (seller) => ({
        companyName: data.companyName ?? seller.companyName,
        url: data.url ?? seller.url,
        authMethod: data.authMethod,
        authTokenStatus: 'ACTIVE',
        authTokenRefreshedAt: data.reconnectedAt,
        connected: true,
      })),
    )
    .with({ type: 'SellerCompanyDetailsRecorded' }, ({ data }) =>
      onKnown(state, () => ({ companyName: data.companyName, url: data.url })),
    )
    .with({ type: 'SellerActivated' }, () => onKnown(state, () => ({ active: true })))
    .with({ type: 'SellerDeactivated' }, () => onKnown(state, () => ({ active: false })))
    .with({ type: 'SellerDeleted' }, ({ data }): SellerState => ({
      status: 'deleted',
      sellerId: data.sellerId,
    }))
    .with({ type: 'SellerDisconnected' }, () => onKnown(state, () => ({ connected: false, active: false })))
    .with({ type: 'SellerAuthTokenRevoked' }, () => onKnown(state, () => ({ authTokenStatus: 'REVOKED' })))
    .with({ type: 'SellerAuthTokenRefreshed' }, ({ data }) =>
      onKnown(state, () => ({ authTokenStatus: 'ACTIVE', authTokenRefreshedAt: data.refreshedAt })),
    )
    // Taken as given, even if earlier: an operator may move it back so the next QBD session refetches from there.
    .with({ type: 'SellerCollectionDateRecorded' }, ({ data }) =>
      onKnown(state, () => ({ collectionDate: data.collectionDate })),
    )
    .with({ type: 'SellerMetricsDateRecorded' }, ({ data }) =>
      onKnown(state, () => ({ metricsDate: data.metricsDate })),
    )
    .with({ type: 'SellerFeatureFlagSet' }, ({ data }) =>
      onKnown(state, (seller) => ({
        featureFlags: { ...seller.featureFlags, [data.setting.flag]: data.setting.value },
      })),
    )
    .with({ type: 'SellerSyncRequested' }, ({ data }) =>
      onKnown(state, () => ({
        runningSync: { syncId: data.syncId, mode: data.mode, requestedAt: data.requestedAt, startedAt: null },
      })),
    )
    .with({ type: 'SellerSyncStarted' }, ({ data }) =>
      onKnown(state, (seller) => ({
        runningSync: seller.runningSync && { ...seller.runningSync, startedAt: data.startedAt },
      })),
    )
    .with({ type: 'SellerSyncCompleted' }, ({ data }) =>
      onKnown(state, () => ({
        runningSync: null,
        lastFinishedSyncId: data.syncId,
        collectionDate: data.collectionDate,
      })),
    )
    .with({ type: 'SellerSyncFailed' }, ({ data }) =>
      onKnown(state, () => ({ runningSync: null, lastFinishedSyncId: data.syncId })),
    )
    .exhaustive();
