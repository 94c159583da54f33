import { match } from 'ts-pattern';
import { AppError } from '../../contracts/errors';
import {
  crmProviders,
  defaultCrmSettings,
  type CrmSettings,
  type IntegrationAuthMethod,
  type IntegrationEvent,
  type IntegrationProduct,
  type IntegrationProvider,
} from '../../contracts/events/integration';
import { actsAsCompanyAdmin, type Actor } from '../actor';
import type { DomainCommand } from '../decider';
import type { IntegrationState, KnownIntegration } from './integration';

/**
 * Connects an account; on an account that exists it renews the credentials (a new authorisation).
 * Secrets never reach the decider: the command layer stores them encrypted and passes `credentialsRef`,
 * null when the caller supplied none (for ActiveCampaign: no API key).
 */
export type ConnectIntegration = DomainCommand<
  'ConnectIntegration',
  {
    integrationId: number;
    tenantId: number;
    provider: IntegrationProvider;
    productIdentifier: IntegrationProduct | null;
    authMethod: IntegrationAuthMethod;
    credentialsRef: string | null;
    credentialsOwner: string | null;
    /** ActiveCampaign's account URL. */
    url: string | null;
    actor: Actor;
    /** Facts from other streams, looked up by the command layer. */
    tenantIsDemo: boolean;
    planAllowsProvider: boolean;
  }
>;
export type MarkIntegrationCredentialsInvalid = DomainCommand<
  'MarkIntegrationCredentialsInvalid',
  { credentialsStatus: 'INVALID' | 'REVOKED'; reason: string }
>;
/** A worker renewed the OAuth tokens: the new vault entry, for the same account and owner. */
export type RenewIntegrationCredentials = DomainCommand<
  'RenewIntegrationCredentials',
  { credentialsRef: string }
>;
export type SetIntegrationActive = DomainCommand<'SetIntegrationActive', { active: boolean }>;
export type SetIntegrationLocked = DomainCommand<'SetIntegrationLocked', { locked: boolean }>;
export type UpdateIntegrationSettings = DomainCommand<
  'UpdateIntegrationSettings',
  { settings: Partial<CrmSettings>; actor: Actor }
>;
export type RequestIntegrationSync = DomainCommand<'RequestIntegrationSync', { jobId: number; actor: Actor }>;
export type CompleteIntegrationSync = DomainCommand<
  'CompleteIntegrationSync',
  { jobId: number; syncDate: Date }
>;
export type FailIntegrationSync = DomainCommand<'FailIntegrationSync', { jobId: number; reason: string }>;
export type PurgeIntegration = DomainCommand<'PurgeIntegration', { jobId: number; unlink: boolean }>;
export type UnlinkIntegration = DomainCommand<'UnlinkIntegration', { jobId: number }>;
export type DisconnectIntegration = DomainCommand<'DisconnectIntegration', Record<string, never>>;
export type DeleteIntegration = DomainCommand<'DeleteIntegration', Record<string, never>>;
/** The sync's matching: links made and dropped for one seller (an empty change records nothing). */
export type RecordCompanyMatches = DomainCommand<
  'RecordCompanyMatches',
  Omit<
    Extract<IntegrationEvent, { type: 'IntegrationCompaniesMatched' }>['data'],
    'integrationId' | 'matchedAt'
  >
>;
export type RecordCrmPushes = DomainCommand<
  'RecordCrmPushes',
  Omit<Extract<IntegrationEvent, { type: 'IntegrationPushesApplied' }>['data'], 'integrationId' | 'appliedAt'>
>;
export type RecordPurgedObjects = DomainCommand<
  'RecordPurgedObjects',
  Omit<Extract<IntegrationEvent, { type: 'IntegrationObjectsPurged' }>['data'], 'integrationId' | 'purgedAt'>
>;
export type FinishIntegrationJob = DomainCommand<
  'FinishIntegrationJob',
  Omit<Extract<IntegrationEvent, { type: 'IntegrationJobFinished' }>['data'], 'integrationId' | 'finishedAt'>
>;

export type IntegrationCommand =
  | ConnectIntegration
  | MarkIntegrationCredentialsInvalid
  | RenewIntegrationCredentials
  | SetIntegrationActive
  | SetIntegrationLocked
  | UpdateIntegrationSettings
  | RequestIntegrationSync
  | CompleteIntegrationSync
  | FailIntegrationSync
  | PurgeIntegration
  | UnlinkIntegration
  | DisconnectIntegration
  | DeleteIntegration
  | RecordCompanyMatches
  | RecordCrmPushes
  | RecordPurgedObjects
  | FinishIntegrationJob;

const conflict = (userMessage: string) => new AppError('conflict', userMessage);

const requireAccount = (state: IntegrationState): KnownIntegration => {
  if (state.status !== 'known') throw new AppError('not_found', 'Integration account not found.');
  return state;
};

const isCrm = (provider: IntegrationProvider) => (crmProviders as readonly string[]).includes(provider);

const isHttpUrl = (text: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
};

const validateConnection = (data: ConnectIntegration['data']) => {
  const properties: Record<string, string> = {};
  if (data.productIdentifier === 'REVOPS' && data.provider !== 'HUBSPOT')
    properties.productIdentifier = 'RevOps Pro exists only for HubSpot.';
  if (data.provider === 'ACTIVE_CAMPAIGN') {
    if (!data.url?.trim()) properties.url = 'The URL is required.';
    else if (!isHttpUrl(data.url.trim())) properties.url = 'The URL is not valid.';
    if (data.credentialsRef === null) properties.apiKey = 'The API key is required.';
  } else if (data.credentialsRef === null) properties.credentials = 'The credentials are required.';
  if (Object.keys(properties).length > 0)
    throw new AppError('validation', 'The connection details are not valid.', { properties });
};

const connect = (command: ConnectIntegration, state: IntegrationState): IntegrationEvent[] => {
  const { data } = command;
  if (state.status === 'deleted') throw new AppError('not_found', 'Integration account not found.');
  // Typed-in credentials (an ActiveCampaign URL and key) become the company's: an administrator's call.
  if (data.provider === 'ACTIVE_CAMPAIGN' && !actsAsCompanyAdmin(data.actor))
    throw new AppError('forbidden', 'Only a company administrator can change the connection details.');
  if (data.tenantIsDemo && !data.actor.isPlatformAdmin)
    throw new AppError('forbidden', 'Disabled for the demo client');
  if (!data.planAllowsProvider) throw new AppError('forbidden', 'Upgrade plan to access');
  validateConnection(data);
  // validateConnection guarantees credentials; the check narrows the type.
  if (data.credentialsRef === null) throw new AppError('validation', 'The connection details are not valid.');
  const credentials = {
    credentialsRef: data.credentialsRef,
    credentialsOwner: data.credentialsOwner,
    accountUrl: data.provider === 'ACTIVE_CAMPAIGN' ? (data.url?.trim() ?? null) : null,
  };
  const at = command.now.toISOString();
  if (state.status === 'known') {
    if (state.provider !== data.provider || state.productIdentifier !== data.productIdentifier)
      throw conflict('This account belongs to another provider; connect it as a new account.');
    return [
      {
        type: 'IntegrationCredentialsRenewed',
        data: { integrationId: state.integrationId, tenantId: state.tenantId, ...credentials, renewedAt: at },
      },
    ];
  }
  return [
    {
      type: 'IntegrationConnected',
      data: {
        integrationId: data.integrationId,
        tenantId: data.tenantId,
        provider: data.provider,
        productIdentifier: data.productIdentifier,
        authMethod: data.authMethod,
        ...credentials,
        settings: isCrm(data.provider) ? defaultCrmSettings : null,
        connectedAt: at,
      },
    },
  ];
};

const setActive = (command: SetIntegrationActive, account: KnownIntegration): IntegrationEvent[] => {
  const { active } = command.data;
  if (active === account.active) return [];
  if (account.credentialsStatus !== 'VALID')
    throw conflict(`Only an account with valid credentials can be ${active ? 'activated' : 'deactivated'}.`);
  const at = command.now.toISOString();
  return [
    active
      ? { type: 'IntegrationActivated', data: { integrationId: account.integrationId, activatedAt: at } }
      : { type: 'IntegrationDeactivated', data: { integrationId: account.integrationId, deactivatedAt: at } },
  ];
};

const setLocked = (command: SetIntegrationLocked, account: KnownIntegration): IntegrationEvent[] => {
  const { locked } = command.data;
  if (locked === account.locked) return [];
  if (account.active && account.settings !== null)
    throw conflict('The account can be locked or unlocked only while it is inactive.');
  const at = command.now.toISOString();
  return [
    locked
      ? { type: 'IntegrationLocked', data: { integrationId: account.integrationId, lockedAt: at } }
      : { type: 'IntegrationUnlocked', data: { integrationId: account.integrationId, unlockedAt: at } },
  ];
};

const updateSettings = (
  command: UpdateIntegrationSettings,
  account: KnownIntegration,
): IntegrationEvent[] => {
  if (!command.data.actor.isPlatformAdmin)
    throw new AppError('forbidden', 'Only a platform administrator can change the account settings.');
  if (!isCrm(account.provider)) throw conflict('Only CRM accounts have settings.');
  const settings: CrmSettings = { ...defaultCrmSettings, ...account.settings, ...command.data.settings };
  if (settings.AccountingIdentifier !== null && !settings.AccountingIdentifier.trim())
    throw new AppError('validation', 'The accounting identifier cannot be blank.', {
      properties: { AccountingIdentifier: 'Leave it empty or name a CRM property.' },
    });
  if (JSON.stringify(settings) === JSON.stringify(account.settings)) return [];
  return [
    {
      type: 'IntegrationSettingsUpdated',
      data: { integrationId: account.integrationId, settings, updatedAt: command.now.toISOString() },
    },
  ];
};

const requestSync = (command: RequestIntegrationSync, account: KnownIntegration): IntegrationEvent[] => {
  const { jobId, actor } = command.data;
  // CRM sync buttons are for platform admins (portal.md section 6); cloud accounts sync for their tenant.
  if (isCrm(account.provider) && !actor.isPlatformAdmin)
    throw new AppError('forbidden', 'Only a platform administrator can sync a CRM account.');
  if (account.runningSyncJobId === jobId || account.lastFinishedSyncJobId === jobId) return [];
  if (account.runningSyncJobId !== null)
    throw conflict('A sync is already running for this account. Wait for it to finish.');
  if (!account.active || account.credentialsStatus !== 'VALID')
    throw conflict('Only an active account with valid credentials can be synced.');
  return [
    {
      type: 'IntegrationSyncRequested',
      data: { integrationId: account.integrationId, jobId, requestedAt: command.now.toISOString() },
    },
  ];
};

/** A worker may retry its report of a finished sync: that retry changes nothing. */
const syncFinishedAlready = (account: KnownIntegration, jobId: number) => {
  if (account.runningSyncJobId === jobId) return false;
  if (account.lastFinishedSyncJobId === jobId) return true;
  throw conflict('That sync is not running for this account.');
};

/** Purge and unlink change the CRM: the account must be switched off, but still able to reach it. */
const requireInactiveAndValid = (account: KnownIntegration, action: 'purged' | 'unlinked') => {
  if (account.active || account.credentialsStatus !== 'VALID')
    throw conflict(`Only an inactive account with valid credentials can be ${action}.`);
  if (account.runningSyncJobId !== null)
    throw conflict('A sync is still running for this account. Wait for it to finish.');
};

export const decideIntegration = (command: IntegrationCommand, state: IntegrationState): IntegrationEvent[] =>
  match(command)
    .with({ type: 'ConnectIntegration' }, (c) => connect(c, state))
    .with({ type: 'MarkIntegrationCredentialsInvalid' }, (c): IntegrationEvent[] => {
      const account = requireAccount(state);
      if (account.credentialsStatus === c.data.credentialsStatus) return [];
      if (!c.data.reason.trim())
        throw new AppError('validation', 'A reason is required.', { properties: { reason: 'required' } });
      return [
        {
          type: 'IntegrationCredentialsInvalidated',
          data: {
            integrationId: account.integrationId,
            credentialsStatus: c.data.credentialsStatus,
            reason: c.data.reason,
            invalidatedAt: c.now.toISOString(),
          },
        },
      ];
    })
    .with({ type: 'RenewIntegrationCredentials' }, (c): IntegrationEvent[] => {
      const account = requireAccount(state);
      if (account.credentialsRef === c.data.credentialsRef) return [];
      // A renewal after a refusal or a disconnect would revive credentials the user withdrew.
      if (account.credentialsStatus !== 'VALID')
        throw conflict('Only valid credentials can be renewed; reconnect the account instead.');
      return [
        {
          type: 'IntegrationCredentialsRenewed',
          data: {
            integrationId: account.integrationId,
            tenantId: account.tenantId,
            credentialsRef: c.data.credentialsRef,
            credentialsOwner: account.credentialsOwner,
            accountUrl: account.accountUrl,
            renewedAt: c.now.toISOString(),
          },
        },
      ];
    })
    .with({ type: 'SetIntegrationActive' }, (c) => setActive(c, requireAccount(state)))
    .with({ type: 'SetIntegrationLocked' }, (c) => setLocked(c, requireAccount(state)))
    .with({ type: 'UpdateIntegrationSettings' }, (c) => updateSettings(c, requireAccount(state)))
    .with({ type: 'RequestIntegrationSync' }, (c) => requestSync(c, requireAccount(state)))
    .with({ type: 'CompleteIntegrationSync' }, (c): IntegrationEvent[] => {
      const account = requireAccount(state);
      if (syncFinishedAlready(account, c.data.jobId)) return [];
      return [
        {
          type: 'IntegrationSyncCompleted',
          data: {
            integrationId: account.integrationId,
            jobId: c.data.jobId,
            syncDate: c.data.syncDate.toISOString(),
          },
        },
      ];
    })
    .with({ type: 'FailIntegrationSync' }, (c): IntegrationEvent[] => {
      const account = requireAccount(state);
      if (syncFinishedAlready(account, c.data.jobId)) return [];
      if (!c.data.reason.trim())
        throw new AppError('validation', 'A reason is required.', { properties: { reason: 'required' } });
      return [
        {
          type: 'IntegrationSyncFailed',
          data: {
            integrationId: account.integrationId,
            jobId: c.data.jobId,
            reason: c.data.reason,
            failedAt: c.now.toISOString(),
          },
        },
      ];
    })
    .with({ type: 'PurgeIntegration' }, (c): IntegrationEvent[] => {
      const account = requireAccount(state);
      requireInactiveAndValid(account, 'purged');
      return [
        {
          type: 'IntegrationPurgeRequested',
          data: {
            integrationId: account.integrationId,
            jobId: c.data.jobId,
            unlink: c.data.unlink,
            requestedAt: c.now.toISOString(),
          },
        },
      ];
    })
    .with({ type: 'UnlinkIntegration' }, (c): IntegrationEvent[] => {
      const account = requireAccount(state);
      requireInactiveAndValid(account, 'unlinked');
      return [
        {
          type: 'IntegrationUnlinkRequested',
          data: {
            integrationId: account.integrationId,
            jobId: c.data.jobId,
            requestedAt: c.now.toISOString(),
          },
        },
      ];
    })
    .with({ type: 'DisconnectIntegration' }, (c): IntegrationEvent[] => {
      const account = requireAccount(state);
      if (account.credentialsStatus !== 'VALID')
        throw conflict('Only an account with valid credentials can be disconnected.');
      return [
        {
          type: 'IntegrationDisconnected',
          data: { integrationId: account.integrationId, disconnectedAt: c.now.toISOString() },
        },
      ];
    })
    .with({ type: 'RecordCompanyMatches' }, (c): IntegrationEvent[] => {
      const account = requireAccount(state);
      if (c.data.linked.length === 0 && c.data.unlinked.length === 0) return [];
      return [
        {
          type: 'IntegrationCompaniesMatched',
          data: { integrationId: account.integrationId, ...c.data, matchedAt: c.now.toISOString() },
        },
      ];
    })
    .with({ type: 'RecordCrmPushes' }, (c): IntegrationEvent[] => {
      const account = requireAccount(state);
      if (c.data.pushes.length === 0) return [];
      return [
        {
          type: 'IntegrationPushesApplied',
          data: { integrationId: account.integrationId, ...c.data, appliedAt: c.now.toISOString() },
        },
      ];
    })
    .with({ type: 'RecordPurgedObjects' }, (c): IntegrationEvent[] => {
      const account = requireAccount(state);
      if (c.data.objects.length === 0) return [];
      return [
        {
          type: 'IntegrationObjectsPurged',
          data: { integrationId: account.integrationId, ...c.data, purgedAt: c.now.toISOString() },
        },
      ];
    })
    .with({ type: 'FinishIntegrationJob' }, (c): IntegrationEvent[] => {
      const account = requireAccount(state);
      if (c.data.outcome === 'failed' && !c.data.reason?.trim())
        throw new AppError('validation', 'A reason is required.', { properties: { reason: 'required' } });
      return [
        {
          type: 'IntegrationJobFinished',
          data: { integrationId: account.integrationId, ...c.data, finishedAt: c.now.toISOString() },
        },
      ];
    })
    .with({ type: 'DeleteIntegration' }, (c): IntegrationEvent[] => {
      const account = requireAccount(state);
      if (account.active) throw conflict('Only an inactive account can be deleted.');
      return [
        {
          type: 'IntegrationDeleted',
          data: { integrationId: account.integrationId, deletedAt: c.now.toISOString() },
        },
      ];
    })
    .exhaustive();
