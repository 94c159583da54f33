import { match } from 'ts-pattern';
import { AppError } from '../../contracts/errors';
import type {
  SellerAuthMethod,
  SellerEvent,
  SellerFeatureFlag,
  SellerProvider,
  SellerSyncMode,
} from '../../contracts/events/seller';
import { actsAsCompanyAdmin, type Actor } from '../actor';
import type { DomainCommand } from '../decider';
import type { KnownSeller, SellerState } from './seller';
import { parseSellerFeatureFlag, platformAdminFlags } from './feature-flags';

type SellerConnection = {
  companyName: string | null;
  url: string | null;
  authMethod: SellerAuthMethod;
  authTokenOwner: string | null;
  /** Reference to the secret the command layer stored encrypted (OAuth tokens, Sage password). */
  credentialsRef: string | null;
  /** QBD only: the company file path, needed when several companies are on the computer. */
  companyFilePath: string | null;
};

/**
 * Connects a platform. On a seller that exists it is a reconnection (a new authorisation), which keeps
 * the seller's id, dates and flags; the command layer decides which seller a connection belongs to.
 */
export type ConnectSeller = DomainCommand<
  'ConnectSeller',
  SellerConnection & {
    sellerId: number;
    tenantId: number;
    provider: SellerProvider;
    actor: Actor;
    /** Facts from other streams, looked up by the command layer. */
    tenantIsDemo: boolean;
    tenantHasConnectedSeller: boolean;
    planAllowsProvider: boolean;
  }
>;
export type RecordSellerCompanyDetails = DomainCommand<
  'RecordSellerCompanyDetails',
  { companyName: string; url: string | null }
>;
export type SetSellerActive = DomainCommand<'SetSellerActive', { active: boolean }>;
export type DeleteSeller = DomainCommand<'DeleteSeller', Record<string, never>>;
export type DisconnectSeller = DomainCommand<'DisconnectSeller', Record<string, never>>;
export type RevokeSellerAuthToken = DomainCommand<'RevokeSellerAuthToken', Record<string, never>>;
export type RefreshSellerAuthToken = DomainCommand<'RefreshSellerAuthToken', { credentialsRef: string }>;
export type RecordSellerCollectionDate = DomainCommand<
  'RecordSellerCollectionDate',
  { collectionDate: Date }
>;
export type RecordSellerMetricsDate = DomainCommand<'RecordSellerMetricsDate', { metricsDate: Date }>;
/** `value` arrives as the caller sent it (tag inputs send text); the decider validates it per flag. */
export type SetSellerFeatureFlag = DomainCommand<
  'SetSellerFeatureFlag',
  /** `actor` is absent for system work (workflows, fixtures), which may set any flag. */
  { flag: string; value: unknown; actor?: Actor }
>;
/** The admin table's forecasting toggle: the forecasts.Receivables.Enabled flag. */
export type SetSellerForecasting = DomainCommand<'SetSellerForecasting', { enabled: boolean }>;
/** `syncId` is the id of the job that will run the sync. */
export type RequestSellerSync = DomainCommand<'RequestSellerSync', { syncId: number; mode: SellerSyncMode }>;
export type StartSellerSync = DomainCommand<'StartSellerSync', { syncId: number }>;
export type CompleteSellerSync = DomainCommand<
  'CompleteSellerSync',
  { syncId: number; collectionDate: Date }
>;
export type FailSellerSync = DomainCommand<'FailSellerSync', { syncId: number; reason: string }>;

export type SellerCommand =
  | ConnectSeller
  | RecordSellerCompanyDetails
  | SetSellerActive
  | DeleteSeller
  | DisconnectSeller
  | RevokeSellerAuthToken
  | RefreshSellerAuthToken
  | RecordSellerCollectionDate
  | RecordSellerMetricsDate
  | SetSellerFeatureFlag
  | SetSellerForecasting
  | RequestSellerSync
  | StartSellerSync
  | CompleteSellerSync
  | FailSellerSync;

const conflict = (userMessage: string) => new AppError('conflict', userMessage);

/** Providers whose credentials a person types in (not an authorisation page of the provider). */
const credentialsTypedIn = new Set<SellerProvider>(['SAGE', 'QBD']);

/** Also said by a metrics run that refuses to start before the seller's first collection. */
export const notSyncedYetMessage = 'Metrics need synced data; the seller has not synced yet.';

const requireSeller = (state: SellerState): KnownSeller => {
  if (state.status !== 'known') throw new AppError('not_found', 'Seller not found.');
  return state;
};

const validateConnection = (provider: SellerProvider, connection: SellerConnection) => {
  const properties: Record<string, string> = {};
  // A QBD company is named by its first Web Connector session; every other platform names it on connect.
  if (provider !== 'QBD' && !connection.companyName?.trim())
    properties.companyName = 'The company name is required.';
  if (connection.authMethod !== 'none' && connection.credentialsRef === null)
    properties.credentials = 'The credentials are required.';
  const path = connection.companyFilePath;
  if (path !== null && provider !== 'QBD')
    properties.companyFilename = 'Only QuickBooks Desktop has a company file.';
  if (path !== null && provider === 'QBD' && !/\.qbw$/i.test(path.trim()))
    properties.companyFilename = 'The company file path must end in .qbw.';
  if (Object.keys(properties).length > 0)
    throw new AppError('validation', 'The connection details are not valid.', { properties });
};

const connect = (command: ConnectSeller, state: SellerState): SellerEvent[] => {
  const { data } = command;
  const connection: SellerConnection = {
    companyName: data.companyName,
    url: data.url,
    authMethod: data.authMethod,
    authTokenOwner: data.authTokenOwner,
    credentialsRef: data.credentialsRef,
    companyFilePath: data.companyFilePath,
  };
  if (state.status === 'deleted') throw new AppError('not_found', 'Seller not found.');
  // Typed-in credentials (Sage's login, a QBD Web Connector password) become the company's, on a first
  // connection as on a reinstall: an administrator's call.
  if (credentialsTypedIn.has(data.provider) && !actsAsCompanyAdmin(data.actor))
    throw new AppError('forbidden', 'Only a company administrator can change the connection details.');
  if (state.status === 'known') {
    if (state.provider !== data.provider || state.tenantId !== data.tenantId)
      throw conflict('This seller belongs to another platform or company; connect it as a new seller.');
    validateConnection(state.provider, connection);
    return [
      {
        type: 'SellerReconnected',
        data: {
          sellerId: state.sellerId,
          tenantId: state.tenantId,
          ...connection,
          reconnectedAt: command.now.toISOString(),
        },
      },
    ];
  }
  const { actor } = data;
  if (data.tenantIsDemo && !actor.isPlatformAdmin)
    throw new AppError('forbidden', 'Disabled for the demo client');
  if (data.provider === 'STRIPE' && !actor.isPlatformAdmin)
    throw new AppError('forbidden', 'Only a platform administrator can connect Stripe.');
  if (data.tenantHasConnectedSeller && !actor.isPlatformAdmin)
    throw new AppError('forbidden', 'A platform is already connected; contact Support to connect another.');
  if (!data.planAllowsProvider) throw new AppError('forbidden', 'Upgrade plan to access');
  validateConnection(data.provider, connection);
  return [
    {
      type: 'SellerConnected',
      data: {
        sellerId: data.sellerId,
        tenantId: data.tenantId,
        provider: data.provider,
        ...connection,
        connectedAt: command.now.toISOString(),
      },
    },
  ];
};

const setActive = (command: SetSellerActive, seller: KnownSeller): SellerEvent[] => {
  const at = command.now.toISOString();
  if (command.data.active === seller.active) return [];
  if (!command.data.active)
    return [{ type: 'SellerDeactivated', data: { sellerId: seller.sellerId, deactivatedAt: at } }];
  if (!seller.connected) throw conflict('The seller is disconnected; connect it again to activate it.');
  return [{ type: 'SellerActivated', data: { sellerId: seller.sellerId, activatedAt: at } }];
};

/** Reasons complete the UI's text "There was an error while deleting the seller: " (portal.md section 8). */
const deleteSeller = (command: DeleteSeller, seller: KnownSeller): SellerEvent[] => {
  if (seller.active) throw conflict('the seller must be inactive');
  if (seller.runningSync) throw conflict('a sync is still running for the seller');
  return [
    { type: 'SellerDeleted', data: { sellerId: seller.sellerId, deletedAt: command.now.toISOString() } },
  ];
};

const setFlag = (command: { now: Date }, seller: KnownSeller, setting: SellerFeatureFlag): SellerEvent[] => {
  const current = seller.featureFlags[setting.flag];
  if (JSON.stringify(current) === JSON.stringify(setting.value)) return [];
  return [
    {
      type: 'SellerFeatureFlagSet',
      data: { sellerId: seller.sellerId, setting, setAt: command.now.toISOString() },
    },
  ];
};

const requestSync = (command: RequestSellerSync, seller: KnownSeller): SellerEvent[] => {
  const { syncId, mode } = command.data;
  // A retried request for the same job changes nothing.
  if (seller.runningSync?.syncId === syncId || seller.lastFinishedSyncId === syncId) return [];
  if (seller.runningSync) throw conflict('A sync is already running for this seller. Wait for it to finish.');
  if (!seller.connected) throw conflict('The seller is disconnected; connect it again before syncing.');
  if (seller.authTokenStatus === 'REVOKED')
    throw conflict('The authorisation of this seller was revoked; connect it again before syncing.');
  if (!seller.active) throw conflict('The seller is inactive; activate it before syncing.');
  if (seller.provider === 'QBD' && mode !== 'repopulate')
    throw conflict('QuickBooks Desktop sellers sync through the Web Connector; only Reset is available.');
  if (mode === 'populate' && seller.collectionDate !== null)
    throw conflict('The seller is already populated; use Sync or Repopulate.');
  if (mode !== 'populate' && seller.collectionDate === null)
    throw conflict('The seller has not been populated yet; use Populate.');
  return [
    {
      type: 'SellerSyncRequested',
      data: { sellerId: seller.sellerId, syncId, mode, requestedAt: command.now.toISOString() },
    },
  ];
};

/** A worker may retry its report of a finished sync: that retry changes nothing. */
const finishedAlready = (seller: KnownSeller, syncId: number) => {
  if (seller.runningSync?.syncId === syncId) return false;
  if (seller.lastFinishedSyncId === syncId) return true;
  throw conflict('That sync is not running for this seller.');
};

const startSync = (command: StartSellerSync, seller: KnownSeller): SellerEvent[] => {
  const { syncId } = command.data;
  if (finishedAlready(seller, syncId)) throw conflict('That sync has already finished.');
  if (seller.runningSync?.startedAt) return [];
  return [
    {
      type: 'SellerSyncStarted',
      data: { sellerId: seller.sellerId, syncId, startedAt: command.now.toISOString() },
    },
  ];
};

const completeSync = (command: CompleteSellerSync, seller: KnownSeller): SellerEvent[] => {
  const { syncId, collectionDate } = command.data;
  if (finishedAlready(seller, syncId) || !seller.runningSync) return [];
  return [
    {
      type: 'SellerSyncCompleted',
      data: {
        sellerId: seller.sellerId,
        syncId,
        mode: seller.runningSync.mode,
        collectionDate: collectionDate.toISOString(),
        completedAt: command.now.toISOString(),
      },
    },
  ];
};

const failSync = (command: FailSellerSync, seller: KnownSeller): SellerEvent[] => {
  const { syncId, reason } = command.data;
  if (finishedAlready(seller, syncId)) return [];
  if (!reason.trim())
    throw new AppError('validation', 'A reason is required.', { properties: { reason: 'required' } });
  return [
    {
      type: 'SellerSyncFailed',
      data: { sellerId: seller.sellerId, syncId, reason, failedAt: command.now.toISOString() },
    },
  ];
};

export const decideSeller = (command: SellerCommand, state: SellerState): SellerEvent[] =>
  match(command)
    .with({ type: 'ConnectSeller' }, (c) => connect(c, state))
    .with({ type: 'RecordSellerCompanyDetails' }, (c): SellerEvent[] => {
      const seller = requireSeller(state);
      const companyName = c.data.companyName.trim();
      if (!companyName)
        throw new AppError('validation', 'The company name is required.', {
          properties: { companyName: 'required' },
        });
      if (companyName === seller.companyName && c.data.url === seller.url) return [];
      return [
        {
          type: 'SellerCompanyDetailsRecorded',
          data: { sellerId: seller.sellerId, companyName, url: c.data.url },
        },
      ];
    })
    .with({ type: 'SetSellerActive' }, (c) => setActive(c, requireSeller(state)))
    .with({ type: 'DeleteSeller' }, (c) => deleteSeller(c, requireSeller(state)))
    .with({ type: 'DisconnectSeller' }, (c): SellerEvent[] => {
      const seller = requireSeller(state);
      if (!seller.connected) return [];
      return [
        {
          type: 'SellerDisconnected',
          data: { sellerId: seller.sellerId, disconnectedAt: c.now.toISOString() },
        },
      ];
    })
    .with({ type: 'RevokeSellerAuthToken' }, (c): SellerEvent[] => {
      const seller = requireSeller(state);
      if (seller.authTokenStatus === 'REVOKED' || !seller.connected) return [];
      return [
        {
          type: 'SellerAuthTokenRevoked',
          data: { sellerId: seller.sellerId, revokedAt: c.now.toISOString() },
        },
      ];
    })
    .with({ type: 'RefreshSellerAuthToken' }, (c): SellerEvent[] => {
      const seller = requireSeller(state);
      if (!seller.connected) throw conflict('The seller is disconnected; connect it again.');
      if (seller.authTokenStatus === 'REVOKED')
        throw conflict('The authorisation of this seller was revoked; connect it again.');
      return [
        {
          type: 'SellerAuthTokenRefreshed',
          data: {
            sellerId: seller.sellerId,
            credentialsRef: c.data.credentialsRef,
            refreshedAt: c.now.toISOString(),
          },
        },
      ];
    })
    .with({ type: 'RecordSellerCollectionDate' }, (c): SellerEvent[] => {
      const seller = requireSeller(state);
      return [
        {
          type: 'SellerCollectionDateRecorded',
          data: { sellerId: seller.sellerId, collectionDate: c.data.collectionDate.toISOString() },
        },
      ];
    })
    .with({ type: 'RecordSellerMetricsDate' }, (c): SellerEvent[] => {
      const seller = requireSeller(state);
      if (seller.collectionDate === null) throw conflict(notSyncedYetMessage);
      return [
        {
          type: 'SellerMetricsDateRecorded',
          data: { sellerId: seller.sellerId, metricsDate: c.data.metricsDate.toISOString() },
        },
      ];
    })
    .with({ type: 'SetSellerFeatureFlag' }, (c) => {
      const setting = parseSellerFeatureFlag(c.data.flag, c.data.value);
      if (platformAdminFlags.has(setting.flag) && c.data.actor && !c.data.actor.isPlatformAdmin)
        throw new AppError('forbidden', `Only a platform administrator can change ${setting.flag}.`);
      return setFlag(c, requireSeller(state), setting);
    })
    .with({ type: 'SetSellerForecasting' }, (c) =>
      setFlag(c, requireSeller(state), { flag: 'forecasts.Receivables.Enabled', value: c.data.enabled }),
    )
    .with({ type: 'RequestSellerSync' }, (c) => requestSync(c, requireSeller(state)))
    .with({ type: 'StartSellerSync' }, (c) => startSync(c, requireSeller(state)))
    .with({ type: 'CompleteSellerSync' }, (c) => completeSync(c, requireSeller(state)))
    .with({ type: 'FailSellerSync' }, (c) => failSync(c, requireSeller(state)))
    .exhaustive();
