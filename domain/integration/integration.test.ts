import { IntegrationEvent, defaultCrmSettings } from '../../contracts/events/integration';
import type { Actor } from '../actor';
import { deciderSpec } from '../decider-spec';
import type { ConnectIntegration, IntegrationCommand } from './decide';
import { integrationDecider } from './integration-decider';

const spec = deciderSpec(integrationDecider);
const now = new Date('2025-03-10T12:00:00.000Z');
const at = now.toISOString();
const earlier = '2025-03-01T09:00:00.000Z';

const platformAdmin: Actor = { userId: 1, isPlatformAdmin: true, tenantRole: null, isAdvisor: false };
const tenantAdmin: Actor = { userId: 7, isPlatformAdmin: false, tenantRole: 'ADMIN', isAdvisor: false };

const connectData: ConnectIntegration['data'] = {
  integrationId: 21,
  tenantId: 3,
  provider: 'HUBSPOT',
  productIdentifier: null,
  authMethod: 'oauth2',
  credentialsRef: 'secrets/integration-21',
  credentialsOwner: 'jane@acme.example',
  url: null,
  actor: tenantAdmin,
  tenantIsDemo: false,
  planAllowsProvider: true,
};
const connect = (overrides: Partial<ConnectIntegration['data']> = {}): IntegrationCommand => ({
  type: 'ConnectIntegration',
  now,
  data: { ...connectData, ...overrides },
});
const command = <C extends IntegrationCommand>(type: C['type'], data: C['data']) =>
  ({ type, data, now }) as IntegrationCommand;

type ConnectedData = Extract<IntegrationEvent, { type: 'IntegrationConnected' }>['data'];
const connectedData: ConnectedData = {
  integrationId: 21,
  tenantId: 3,
  provider: 'HUBSPOT',
  productIdentifier: null,
  authMethod: 'oauth2',
  credentialsRef: 'secrets/integration-21',
  credentialsOwner: 'jane@acme.example',
  accountUrl: null,
  settings: defaultCrmSettings,
  connectedAt: earlier,
};
const connected = (overrides: Partial<ConnectedData> = {}): IntegrationEvent => ({
  type: 'IntegrationConnected',
  data: { ...connectedData, ...overrides },
});
const googleConnected = connected({ provider: 'GOOGLE', settings: null });
const deactivated: IntegrationEvent = {
  type: 'IntegrationDeactivated',
  data: { integrationId: 21, deactivatedAt: earlier },
};
const invalidated: IntegrationEvent = {
  type: 'IntegrationCredentialsInvalidated',
  data: { integrationId: 21, credentialsStatus: 'INVALID', reason: 'invalid_grant', invalidatedAt: earlier },
};
const disconnected: IntegrationEvent = {
  type: 'IntegrationDisconnected',
  data: { integrationId: 21, disconnectedAt: earlier },
};
const syncRequested = (jobId: number): IntegrationEvent => ({
  type: 'IntegrationSyncRequested',
  data: { integrationId: 21, jobId, requestedAt: earlier },
});
const deleted: IntegrationEvent = {
  type: 'IntegrationDeleted',
  data: { integrationId: 21, deletedAt: earlier },
};

describe('connecting an account', () => {
  it('connects a CRM account active, with valid credentials and the default settings', () => {
    spec
      .given([])
      .when(connect())
      .then([connected({ connectedAt: at })]);
    expect(spec.stateAfter([connected()])).toMatchObject({
      active: true,
      credentialsStatus: 'VALID',
      locked: false,
      settings: { MatchUsingNames: true, AddMissingCustomers: false, AccountingIdentifier: null },
    });
  });

  it('gives cloud accounts no CRM settings', () => {
    spec
      .given([])
      .when(connect({ provider: 'MICROSOFT' }))
      .then([connected({ provider: 'MICROSOFT', settings: null, connectedAt: at })]);
  });

  it('connects HubSpot RevOps Pro, and refuses REVOPS for another provider', () => {
    spec
      .given([])
      .when(connect({ productIdentifier: 'REVOPS' }))
      .then([connected({ productIdentifier: 'REVOPS', connectedAt: at })]);
    const error = spec
      .given([])
      .when(connect({ provider: 'SALESFORCE', productIdentifier: 'REVOPS' }))
      .thenFails('validation', 'The connection details are not valid.');
    expect(error.properties).toEqual({ productIdentifier: 'RevOps Pro exists only for HubSpot.' });
  });

  it('connects ActiveCampaign with a URL and an API key, keeping only a reference to the key', () => {
    const event = integrationDecider.decide(
      connect({
        provider: 'ACTIVE_CAMPAIGN',
        authMethod: 'api_key',
        url: ' https://acme.api-us1.com ',
        credentialsRef: 'secrets/ac-21',
      }),
      spec.stateAfter([]),
    );
    expect(event).toEqual([
      connected({
        provider: 'ACTIVE_CAMPAIGN',
        authMethod: 'api_key',
        accountUrl: 'https://acme.api-us1.com',
        credentialsRef: 'secrets/ac-21',
        connectedAt: at,
      }),
    ]);
  });

  it('lets only a company administrator set the ActiveCampaign URL and key', () => {
    const standardUser: Actor = { userId: 8, isPlatformAdmin: false, tenantRole: 'USER', isAdvisor: false };
    spec
      .given([])
      .when(
        connect({
          provider: 'ACTIVE_CAMPAIGN',
          authMethod: 'api_key',
          url: 'https://acme.api-us1.com',
          actor: standardUser,
        }),
      )
      .thenFails('forbidden', 'Only a company administrator can change the connection details.');
  });

  it('requires the URL and the API key for ActiveCampaign', () => {
    const missing = spec
      .given([])
      .when(connect({ provider: 'ACTIVE_CAMPAIGN', authMethod: 'api_key', url: null, credentialsRef: null }))
      .thenFails('validation');
    expect(missing.properties).toEqual({ url: 'The URL is required.', apiKey: 'The API key is required.' });
    const bad = spec
      .given([])
      .when(
        connect({
          provider: 'ACTIVE_CAMPAIGN',
          authMethod: 'api_key',
          url: 'acme',
          credentialsRef: 'secrets/ac',
        }),
      )
      .thenFails('validation');
    expect(bad.properties).toEqual({ url: 'The URL is not valid.' });
  });

  it('requires credentials for an OAuth provider', () => {
    const error = spec
      .given([])
      .when(connect({ credentialsRef: null }))
      .thenFails('validation');
    expect(error.properties).toEqual({ credentials: 'The credentials are required.' });
  });

  it('disables connecting in a demo tenant and for a plan without the provider', () => {
    spec
      .given([])
      .when(connect({ tenantIsDemo: true }))
      .thenFails('forbidden', 'Disabled for the demo client');
    spec
      .given([])
      .when(connect({ planAllowsProvider: false }))
      .thenFails('forbidden', 'Upgrade plan to access');
  });

  it('renews the credentials of an existing account, which makes them valid again', () => {
    spec
      .given([connected(), invalidated])
      .when(connect({ credentialsRef: 'secrets/integration-21-v2' }))
      .then([
        {
          type: 'IntegrationCredentialsRenewed',
          data: {
            integrationId: 21,
            tenantId: 3,
            credentialsRef: 'secrets/integration-21-v2',
            credentialsOwner: 'jane@acme.example',
            accountUrl: null,
            renewedAt: at,
          },
        },
      ]);
    const renewed: IntegrationEvent = {
      type: 'IntegrationCredentialsRenewed',
      data: {
        integrationId: 21,
        tenantId: 3,
        credentialsRef: 'v2',
        credentialsOwner: null,
        accountUrl: null,
        renewedAt: at,
      },
    };
    expect(spec.stateAfter([connected(), invalidated, renewed])).toMatchObject({
      credentialsStatus: 'VALID',
    });
  });

  it('refuses to renew an account as another provider, and does not reconnect a deleted one', () => {
    spec
      .given([connected()])
      .when(connect({ provider: 'SALESFORCE' }))
      .thenFails('conflict', 'This account belongs to another provider; connect it as a new account.');
    spec
      .given([connected(), deactivated, deleted])
      .when(connect())
      .thenFails('not_found', 'Integration account not found.');
  });
});

describe('credentials status', () => {
  it('records invalid or revoked credentials once', () => {
    spec
      .given([connected()])
      .when(
        command('MarkIntegrationCredentialsInvalid', {
          credentialsStatus: 'INVALID',
          reason: 'invalid_grant',
        }),
      )
      .then([{ ...invalidated, data: { ...invalidated.data, invalidatedAt: at } }]);
    spec
      .given([connected(), invalidated])
      .when(command('MarkIntegrationCredentialsInvalid', { credentialsStatus: 'INVALID', reason: 'again' }))
      .then([]);
    spec
      .given([connected()])
      .when(command('MarkIntegrationCredentialsInvalid', { credentialsStatus: 'REVOKED', reason: '' }))
      .thenFails('validation', 'A reason is required.');
  });
});

describe('renewing tokens', () => {
  it('records the worker renewal under the new reference, keeping the owner, once', () => {
    spec
      .given([connected()])
      .when(command('RenewIntegrationCredentials', { credentialsRef: 'secrets/integration-21-r1' }))
      .then([
        {
          type: 'IntegrationCredentialsRenewed',
          data: {
            integrationId: 21,
            tenantId: 3,
            credentialsRef: 'secrets/integration-21-r1',
            credentialsOwner: 'jane@acme.example',
            accountUrl: null,
            renewedAt: at,
          },
        },
      ]);
    spec
      .given([connected()])
      .when(command('RenewIntegrationCredentials', { credentialsRef: 'secrets/integration-21' }))
      .then([]);
  });

  it('does not revive refused or disconnected credentials', () => {
    for (const given of [invalidated, disconnected])
      spec
        .given([connected(), given])
        .when(command('RenewIntegrationCredentials', { credentialsRef: 'late' }))
        .thenFails('conflict', 'Only valid credentials can be renewed; reconnect the account instead.');
  });
});

describe('Active state', () => {
  it('deactivates an active account with valid credentials and activates it again', () => {
    spec
      .given([connected()])
      .when(command('SetIntegrationActive', { active: false }))
      .then([{ type: 'IntegrationDeactivated', data: { integrationId: 21, deactivatedAt: at } }]);
    spec
      .given([connected(), deactivated])
      .when(command('SetIntegrationActive', { active: true }))
      .then([{ type: 'IntegrationActivated', data: { integrationId: 21, activatedAt: at } }]);
    spec
      .given([connected()])
      .when(command('SetIntegrationActive', { active: true }))
      .then([]);
  });

  it('needs valid credentials to change the Active state', () => {
    spec
      .given([connected(), invalidated])
      .when(command('SetIntegrationActive', { active: false }))
      .thenFails('conflict', 'Only an account with valid credentials can be deactivated.');
    spec
      .given([connected(), deactivated, invalidated])
      .when(command('SetIntegrationActive', { active: true }))
      .thenFails('conflict', 'Only an account with valid credentials can be activated.');
  });
});

describe('Lock', () => {
  it('toggles Lock while the account is inactive', () => {
    spec
      .given([connected(), deactivated])
      .when(command('SetIntegrationLocked', { locked: true }))
      .then([{ type: 'IntegrationLocked', data: { integrationId: 21, lockedAt: at } }]);
    const locked: IntegrationEvent = {
      type: 'IntegrationLocked',
      data: { integrationId: 21, lockedAt: earlier },
    };
    spec
      .given([connected(), deactivated, locked])
      .when(command('SetIntegrationLocked', { locked: false }))
      .then([{ type: 'IntegrationUnlocked', data: { integrationId: 21, unlockedAt: at } }]);
  });

  it('refuses Lock on an active account with settings', () => {
    spec
      .given([connected()])
      .when(command('SetIntegrationLocked', { locked: true }))
      .thenFails('conflict', 'The account can be locked or unlocked only while it is inactive.');
  });

  it('allows Lock on an active account that has no settings', () => {
    spec
      .given([googleConnected])
      .when(command('SetIntegrationLocked', { locked: true }))
      .then([{ type: 'IntegrationLocked', data: { integrationId: 21, lockedAt: at } }]);
  });
});

describe('CRM settings', () => {
  it('lets a platform admin change settings, keeping the others', () => {
    spec
      .given([connected()])
      .when(
        command('UpdateIntegrationSettings', {
          settings: { AddMissingContacts: true, AccountingIdentifier: 'qbo_id' },
          actor: platformAdmin,
        }),
      )
      .then([
        {
          type: 'IntegrationSettingsUpdated',
          data: {
            integrationId: 21,
            settings: { ...defaultCrmSettings, AddMissingContacts: true, AccountingIdentifier: 'qbo_id' },
            updatedAt: at,
          },
        },
      ]);
  });

  it('records nothing when the settings are unchanged', () => {
    spec
      .given([connected()])
      .when(
        command('UpdateIntegrationSettings', { settings: { MatchUsingNames: true }, actor: platformAdmin }),
      )
      .then([]);
  });

  it('refuses others than platform admins, cloud accounts and a blank accounting identifier', () => {
    spec
      .given([connected()])
      .when(command('UpdateIntegrationSettings', { settings: { DebugRequests: true }, actor: tenantAdmin }))
      .thenFails('forbidden', 'Only a platform administrator can change the account settings.');
    spec
      .given([googleConnected])
      .when(command('UpdateIntegrationSettings', { settings: { DebugRequests: true }, actor: platformAdmin }))
      .thenFails('conflict', 'Only CRM accounts have settings.');
    spec
      .given([connected()])
      .when(
        command('UpdateIntegrationSettings', {
          settings: { AccountingIdentifier: ' ' },
          actor: platformAdmin,
        }),
      )
      .thenFails('validation', 'The accounting identifier cannot be blank.');
  });
});

describe('sync', () => {
  const requestSync = (jobId: number, actor: Actor = platformAdmin) =>
    command('RequestIntegrationSync', { jobId, actor });

  it('syncs an active account with valid credentials and records the sync date', () => {
    spec
      .given([connected()])
      .when(requestSync(50))
      .then([{ type: 'IntegrationSyncRequested', data: { integrationId: 21, jobId: 50, requestedAt: at } }]);
    const syncDate = new Date('2025-03-10T11:59:00.000Z');
    spec
      .given([connected(), syncRequested(50)])
      .when(command('CompleteIntegrationSync', { jobId: 50, syncDate }))
      .then([
        {
          type: 'IntegrationSyncCompleted',
          data: { integrationId: 21, jobId: 50, syncDate: syncDate.toISOString() },
        },
      ]);
    const completed: IntegrationEvent = {
      type: 'IntegrationSyncCompleted',
      data: { integrationId: 21, jobId: 50, syncDate: at },
    };
    expect(spec.stateAfter([connected(), syncRequested(50), completed])).toMatchObject({
      syncDate: at,
      runningSyncJobId: null,
    });
    spec
      .given([connected(), syncRequested(50), completed])
      .when(command('CompleteIntegrationSync', { jobId: 50, syncDate }))
      .then([]);
  });

  it('refuses a sync of an inactive account or one with invalid credentials', () => {
    const message = 'Only an active account with valid credentials can be synced.';
    spec.given([connected(), deactivated]).when(requestSync(50)).thenFails('conflict', message);
    spec.given([connected(), invalidated]).when(requestSync(50)).thenFails('conflict', message);
  });

  it('refuses a second sync while one is running', () => {
    spec
      .given([connected(), syncRequested(50)])
      .when(requestSync(51))
      .thenFails('conflict', 'A sync is already running for this account. Wait for it to finish.');
    spec
      .given([connected(), syncRequested(50)])
      .when(requestSync(50))
      .then([]);
  });

  it('lets only platform admins sync CRM accounts, while cloud accounts sync for their tenant', () => {
    spec
      .given([connected()])
      .when(requestSync(50, tenantAdmin))
      .thenFails('forbidden', 'Only a platform administrator can sync a CRM account.');
    spec
      .given([googleConnected])
      .when(requestSync(50, tenantAdmin))
      .then([{ type: 'IntegrationSyncRequested', data: { integrationId: 21, jobId: 50, requestedAt: at } }]);
  });

  it('records a failed sync, freeing the account', () => {
    spec
      .given([connected(), syncRequested(50)])
      .when(command('FailIntegrationSync', { jobId: 50, reason: 'HubSpot answered 429' }))
      .then([
        {
          type: 'IntegrationSyncFailed',
          data: { integrationId: 21, jobId: 50, reason: 'HubSpot answered 429', failedAt: at },
        },
      ]);
    spec
      .given([connected(), syncRequested(50)])
      .when(command('FailIntegrationSync', { jobId: 50, reason: ' ' }))
      .thenFails('validation', 'A reason is required.');
    spec
      .given([connected()])
      .when(command('FailIntegrationSync', { jobId: 50, reason: 'x' }))
      .thenFails('conflict', 'That sync is not running for this account.');
  });
});

describe('purge and unlink', () => {
  it('purges an inactive account with valid credentials, optionally unlinking', () => {
    spec
      .given([connected(), deactivated])
      .when(command('PurgeIntegration', { jobId: 60, unlink: true }))
      .then([
        {
          type: 'IntegrationPurgeRequested',
          data: { integrationId: 21, jobId: 60, unlink: true, requestedAt: at },
        },
      ]);
    spec
      .given([connected(), deactivated])
      .when(command('UnlinkIntegration', { jobId: 61 }))
      .then([
        { type: 'IntegrationUnlinkRequested', data: { integrationId: 21, jobId: 61, requestedAt: at } },
      ]);
  });

  it('refuses to purge or unlink an active account or one with invalid credentials', () => {
    spec
      .given([connected()])
      .when(command('PurgeIntegration', { jobId: 60, unlink: false }))
      .thenFails('conflict', 'Only an inactive account with valid credentials can be purged.');
    spec
      .given([connected(), deactivated, invalidated])
      .when(command('UnlinkIntegration', { jobId: 60 }))
      .thenFails('conflict', 'Only an inactive account with valid credentials can be unlinked.');
  });

  it('refuses to purge while a sync still runs', () => {
    spec
      .given([connected(), syncRequested(50), deactivated])
      .when(command('PurgeIntegration', { jobId: 60, unlink: false }))
      .thenFails('conflict', 'A sync is still running for this account. Wait for it to finish.');
  });
});

describe('disconnect and delete', () => {
  it('disconnects an account with valid credentials, which revokes them and makes it inactive', () => {
    spec
      .given([connected()])
      .when(command('DisconnectIntegration', {}))
      .then([{ type: 'IntegrationDisconnected', data: { integrationId: 21, disconnectedAt: at } }]);
    expect(spec.stateAfter([connected(), disconnected])).toMatchObject({
      active: false,
      credentialsStatus: 'REVOKED',
      credentialsRef: null,
    });
  });

  it('refuses to disconnect without valid credentials', () => {
    spec
      .given([connected(), disconnected])
      .when(command('DisconnectIntegration', {}))
      .thenFails('conflict', 'Only an account with valid credentials can be disconnected.');
  });

  it('deletes only an inactive account; afterwards it is not found', () => {
    spec
      .given([connected()])
      .when(command('DeleteIntegration', {}))
      .thenFails('conflict', 'Only an inactive account can be deleted.');
    spec
      .given([connected(), disconnected])
      .when(command('DeleteIntegration', {}))
      .then([{ type: 'IntegrationDeleted', data: { integrationId: 21, deletedAt: at } }]);
    spec
      .given([connected(), deactivated, deleted])
      .when(command('SetIntegrationActive', { active: true }))
      .thenFails('not_found', 'Integration account not found.');
  });
});

describe('event contracts', () => {
  it('accepts every event the decider emits over an account lifetime', () => {
    const commands: IntegrationCommand[] = [
      connect({ provider: 'ACTIVE_CAMPAIGN', authMethod: 'api_key', url: 'https://acme.api-us1.com' }),
      command('UpdateIntegrationSettings', { settings: { SkipSalesData: true }, actor: platformAdmin }),
      command('RequestIntegrationSync', { jobId: 50, actor: platformAdmin }),
      command('CompleteIntegrationSync', { jobId: 50, syncDate: now }),
      command('MarkIntegrationCredentialsInvalid', { credentialsStatus: 'INVALID', reason: 'bad key' }),
      connect({ provider: 'ACTIVE_CAMPAIGN', authMethod: 'api_key', url: 'https://acme.api-us1.com' }),
      command('SetIntegrationActive', { active: false }),
      command('SetIntegrationLocked', { locked: true }),
      command('PurgeIntegration', { jobId: 60, unlink: true }),
      command('UnlinkIntegration', { jobId: 61 }),
      command('DisconnectIntegration', {}),
      command('DeleteIntegration', {}),
    ];
    let history: IntegrationEvent[] = [];
    for (const next of commands)
      history = [...history, ...integrationDecider.decide(next, spec.stateAfter(history))];
    expect(history).toHaveLength(commands.length);
    for (const event of history) expect(IntegrationEvent.parse(event)).toEqual(event);
  });
});
