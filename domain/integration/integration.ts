import { match } from 'ts-pattern';
import type {
  CredentialsStatus,
  CrmSettings,
  IntegrationEvent,
  IntegrationProduct,
  IntegrationProvider,
} from '../../contracts/events/integration';

export type KnownIntegration = {
  integrationId: number;
  tenantId: number;
  provider: IntegrationProvider;
  productIdentifier: IntegrationProduct | null;
  active: boolean;
  credentialsStatus: CredentialsStatus;
  credentialsRef: string | null;
  /** Who authorised the account and ActiveCampaign's URL: a renewal of the tokens repeats them. */
  credentialsOwner: string | null;
  accountUrl: string | null;
  /** Settings.Locked of the spec, kept apart because cloud accounts have no other settings. */
  locked: boolean;
  settings: CrmSettings | null;
  syncDate: string | null;
  /** The job of a sync that was requested and has not finished. */
  runningSyncJobId: number | null;
  lastFinishedSyncJobId: number | null;
};

export type IntegrationState =
  | { status: 'none' }
  | ({ status: 'known' } & KnownIntegration)
  | { status: 'deleted'; integrationId: number };

export const initialIntegrationState = (): IntegrationState => ({ status: 'none' });

const onKnown = (
  state: IntegrationState,
  change: (account: KnownIntegration) => Partial<KnownIntegration>,
): IntegrationState => (state.status === 'known' ? { ...state, ...change(state) } : state);

export const evolveIntegration = (state: IntegrationState, event: IntegrationEvent): IntegrationState =>
  match(event)
    .with({ type: 'IntegrationConnected' }, ({ data }): IntegrationState => ({
      status: 'known',
      integrationId: data.integrationId,
      tenantId: data.tenantId,
      provider: data.provider,
      productIdentifier: data.productIdentifier,
      active: true,
      credentialsStatus: 'VALID',
      credentialsRef: data.credentialsRef,
      credentialsOwner: data.credentialsOwner,
      accountUrl: data.accountUrl,
      locked: false,
      settings: data.settings,
      syncDate: null,
      runningSyncJobId: null,
      lastFinishedSyncJobId: null,
    }))
    .with({ type: 'IntegrationCredentialsRenewed' }, ({ data }) =>
      onKnown(state, () => ({
        credentialsStatus: 'VALID',
        credentialsRef: data.credentialsRef,
        credentialsOwner: data.credentialsOwner,
        accountUrl: data.accountUrl,
      })),
    )
    .with({ type: 'IntegrationCredentialsInvalidated' }, ({ data }) =>
      onKnown(state, () => ({ credentialsStatus: data.credentialsStatus })),
    )
    .with({ type: 'IntegrationActivated' }, () => onKnown(state, () => ({ active: true })))
    .with({ type: 'IntegrationDeactivated' }, () => onKnown(state, () => ({ active: false })))
    .with({ type: 'IntegrationLocked' }, () => onKnown(state, () => ({ locked: true })))
    .with({ type: 'IntegrationUnlocked' }, () => onKnown(state, () => ({ locked: false })))
    .with({ type: 'IntegrationSettingsUpdated' }, ({ data }) =>
      onKnown(state, () => ({ settings: data.settings })),
    )
    .with({ type: 'IntegrationSyncRequested' }, ({ data }) =>
      onKnown(state, () => ({ runningSyncJobId: data.jobId })),
    )
    .with({ type: 'IntegrationSyncCompleted' }, ({ data }) =>
      onKnown(state, () => ({
        runningSyncJobId: null,
        lastFinishedSyncJobId: data.jobId,
        syncDate: data.syncDate,
      })),
    )
    .with({ type: 'IntegrationSyncFailed' }, ({ data }) =>
      onKnown(state, () => ({ runningSyncJobId: null, lastFinishedSyncJobId: data.jobId })),
    )
    .with({ type: 'IntegrationPurgeRequested' }, { type: 'IntegrationUnlinkRequested' }, () => state)
    .with({ type: 'IntegrationDisconnected' }, () =>
      onKnown(state, () => ({ active: false, credentialsStatus: 'REVOKED', credentialsRef: null })),
    )
    // Matches, pushes and purged objects are read models' business: the decider needs none of them.
    .with(
      { type: 'IntegrationCompaniesMatched' },
      { type: 'IntegrationPushesApplied' },
      { type: 'IntegrationObjectsPurged' },
      { type: 'IntegrationJobFinished' },
      () => state,
    )
    .with({ type: 'IntegrationDeleted' }, ({ data }): IntegrationState => ({
      status: 'deleted',
      integrationId: data.integrationId,
    }))
    .exhaustive();
