import { SellerEvent } from '../../contracts/events/seller';
import type { Actor } from '../actor';
import { deciderSpec } from '../decider-spec';
import type { ConnectSeller, SellerCommand } from './decide';
import { sellerProgress } from './seller';
import { sellerDecider } from './seller-decider';

const spec = deciderSpec(sellerDecider);
const now = new Date('2025-03-10T12:00:00.000Z');
const at = now.toISOString();
const earlier = '2025-03-01T09:00:00.000Z';

const tenantAdmin: Actor = { userId: 7, isPlatformAdmin: false, tenantRole: 'ADMIN', isAdvisor: false };
const platformAdmin: Actor = { userId: 1, isPlatformAdmin: true, tenantRole: null, isAdvisor: false };

const connectData: ConnectSeller['data'] = {
  sellerId: 11,
  tenantId: 3,
  provider: 'QBO',
  companyName: 'Acme Ltd',
  url: 'acme.example',
  authMethod: 'oauth2',
  authTokenOwner: 'jane@acme.example',
  credentialsRef: 'secrets/seller-11',
  companyFilePath: null,
  actor: tenantAdmin,
  tenantIsDemo: false,
  tenantHasConnectedSeller: false,
  planAllowsProvider: true,
};
const connect = (overrides: Partial<ConnectSeller['data']> = {}): SellerCommand => ({
  type: 'ConnectSeller',
  now,
  data: { ...connectData, ...overrides },
});
const command = <C extends SellerCommand>(type: C['type'], data: C['data']) =>
  ({ type, data, now }) as SellerCommand;

type SellerConnectedData = Extract<SellerEvent, { type: 'SellerConnected' }>['data'];
const connectedData: SellerConnectedData = {
  sellerId: 11,
  tenantId: 3,
  provider: 'QBO',
  companyName: 'Acme Ltd',
  url: 'acme.example',
  authMethod: 'oauth2',
  authTokenOwner: 'jane@acme.example',
  credentialsRef: 'secrets/seller-11',
  companyFilePath: null,
  connectedAt: earlier,
};
const connected = (overrides: Partial<SellerConnectedData> = {}): SellerEvent => ({
  type: 'SellerConnected',
  data: { ...connectedData, ...overrides },
});
const qbdConnected = connected({ provider: 'QBD', authMethod: 'web_connector', companyName: null });
const deactivated: SellerEvent = {
  type: 'SellerDeactivated',
  data: { sellerId: 11, deactivatedAt: earlier },
};
const disconnected: SellerEvent = {
  type: 'SellerDisconnected',
  data: { sellerId: 11, disconnectedAt: earlier },
};
const revoked: SellerEvent = { type: 'SellerAuthTokenRevoked', data: { sellerId: 11, revokedAt: earlier } };
const collected: SellerEvent = {
  type: 'SellerCollectionDateRecorded',
  data: { sellerId: 11, collectionDate: earlier },
};
const syncRequested = (
  syncId: number,
  mode: 'sync' | 'populate' | 'repopulate' = 'populate',
): SellerEvent => ({
  type: 'SellerSyncRequested',
  data: { sellerId: 11, syncId, mode, requestedAt: earlier },
});
const syncStarted = (syncId: number): SellerEvent => ({
  type: 'SellerSyncStarted',
  data: { sellerId: 11, syncId, startedAt: earlier },
});
const syncCompleted = (syncId: number): SellerEvent => ({
  type: 'SellerSyncCompleted',
  data: { sellerId: 11, syncId, mode: 'populate', collectionDate: earlier, completedAt: earlier },
});
const deleted: SellerEvent = { type: 'SellerDeleted', data: { sellerId: 11, deletedAt: earlier } };

describe('connecting a seller', () => {
  it('connects a platform as an active seller with a valid token, waiting for its first sync', () => {
    spec
      .given([])
      .when(connect())
      .then([connected({ connectedAt: at })]);
    const seller = spec.stateAfter([connected()]);
    expect(seller).toMatchObject({
      status: 'known',
      active: true,
      authTokenStatus: 'ACTIVE',
      connected: true,
    });
    expect(seller.status === 'known' && sellerProgress(seller)).toBe('syncing');
  });

  it('connects a QBD company before its name is known, with a .qbw company file in any case', () => {
    spec
      .given([])
      .when(
        connect({
          provider: 'QBD',
          authMethod: 'web_connector',
          companyName: null,
          companyFilePath: 'C:\\Books\\Acme.QBW',
        }),
      )
      .then([
        {
          type: 'SellerConnected',
          data: {
            ...connectedData,
            provider: 'QBD',
            authMethod: 'web_connector',
            companyName: null,
            companyFilePath: 'C:\\Books\\Acme.QBW',
            connectedAt: at,
          },
        },
      ]);
  });

  it('refuses a QBD company file that does not end in .qbw', () => {
    const error = spec
      .given([])
      .when(
        connect({
          provider: 'QBD',
          authMethod: 'web_connector',
          companyName: null,
          companyFilePath: 'C:\\Books\\Acme.qbb',
        }),
      )
      .thenFails('validation', 'The connection details are not valid.');
    expect(error.properties).toEqual({ companyFilename: 'The company file path must end in .qbw.' });
  });

  it('refuses a company file for a platform other than QBD', () => {
    const error = spec
      .given([])
      .when(connect({ companyFilePath: 'Acme.qbw' }))
      .thenFails('validation');
    expect(error.properties).toEqual({ companyFilename: 'Only QuickBooks Desktop has a company file.' });
  });

  it('requires a company name and credentials for a cloud platform', () => {
    const error = spec
      .given([])
      .when(connect({ companyName: '  ', credentialsRef: null }))
      .thenFails('validation');
    expect(error.properties).toEqual({
      companyName: 'The company name is required.',
      credentials: 'The credentials are required.',
    });
  });

  it('needs no credentials for the DEMO provider', () => {
    spec
      .given([])
      .when(
        connect({
          provider: 'DEMO',
          authMethod: 'none',
          credentialsRef: null,
          authTokenOwner: null,
          actor: platformAdmin,
        }),
      )
      .then([
        {
          type: 'SellerConnected',
          data: {
            ...connectedData,
            provider: 'DEMO',
            authMethod: 'none',
            credentialsRef: null,
            authTokenOwner: null,
            connectedAt: at,
          },
        },
      ]);
  });

  it('disables connecting in a demo tenant, except for a platform admin', () => {
    spec
      .given([])
      .when(connect({ tenantIsDemo: true }))
      .thenFails('forbidden', 'Disabled for the demo client');
    spec
      .given([])
      .when(connect({ tenantIsDemo: true, actor: platformAdmin }))
      .then([connected({ connectedAt: at })]);
  });

  it('lets only a platform admin connect Stripe', () => {
    spec
      .given([])
      .when(connect({ provider: 'STRIPE' }))
      .thenFails('forbidden', 'Only a platform administrator can connect Stripe.');
  });

  it('lets only a platform admin connect a second platform to a tenant', () => {
    spec
      .given([])
      .when(connect({ tenantHasConnectedSeller: true }))
      .thenFails('forbidden', 'A platform is already connected; contact Support to connect another.');
    spec
      .given([])
      .when(connect({ tenantHasConnectedSeller: true, actor: platformAdmin }))
      .then([connected({ connectedAt: at })]);
  });

  it.each(['SAGE', 'QBD'] as const)(
    'lets only a company administrator connect %s with typed-in credentials, first time or again',
    (provider) => {
      const standardUser: Actor = { userId: 8, isPlatformAdmin: false, tenantRole: 'USER', isAdvisor: false };
      const typedIn = { provider, authMethod: 'password' as const, companyFilePath: null, url: null };
      spec
        .given([])
        .when(connect({ ...typedIn, actor: standardUser }))
        .thenFails('forbidden', 'Only a company administrator can change the connection details.');
      spec
        .given([connected({ provider })])
        .when(connect({ ...typedIn, actor: standardUser }))
        .thenFails('forbidden', 'Only a company administrator can change the connection details.');
    },
  );

  it('refuses a platform the plan does not include', () => {
    spec
      .given([])
      .when(connect({ planAllowsProvider: false }))
      .thenFails('forbidden', 'Upgrade plan to access');
  });

  it('reconnects an existing seller, which restores a revoked token but not the Active flag', () => {
    spec
      .given([connected(), revoked])
      .when(connect({ credentialsRef: 'secrets/seller-11-v2' }))
      .then([
        {
          type: 'SellerReconnected',
          data: {
            sellerId: 11,
            tenantId: 3,
            companyName: 'Acme Ltd',
            url: 'acme.example',
            authMethod: 'oauth2',
            authTokenOwner: 'jane@acme.example',
            credentialsRef: 'secrets/seller-11-v2',
            companyFilePath: null,
            reconnectedAt: at,
          },
        },
      ]);
    const reconnected: SellerEvent = {
      type: 'SellerReconnected',
      data: { ...connectedData, companyName: null, url: null, reconnectedAt: at },
    };
    expect(spec.stateAfter([connected(), disconnected, reconnected])).toMatchObject({
      connected: true,
      active: false,
      authTokenStatus: 'ACTIVE',
      companyName: 'Acme Ltd',
    });
  });

  it('refuses to reconnect a seller as another platform', () => {
    spec
      .given([connected()])
      .when(connect({ provider: 'XERO' }))
      .thenFails(
        'conflict',
        'This seller belongs to another platform or company; connect it as a new seller.',
      );
  });

  it('does not reconnect a deleted seller', () => {
    spec
      .given([connected(), deactivated, deleted])
      .when(connect())
      .thenFails('not_found', 'Seller not found.');
  });
});

describe('company details', () => {
  it('records the company name and URL found by a sync', () => {
    spec
      .given([qbdConnected])
      .when(command('RecordSellerCompanyDetails', { companyName: ' Acme Books ', url: null }))
      .then([
        {
          type: 'SellerCompanyDetailsRecorded',
          data: { sellerId: 11, companyName: 'Acme Books', url: null },
        },
      ]);
  });

  it('records nothing when the details are unchanged, and refuses a blank name', () => {
    spec
      .given([connected()])
      .when(command('RecordSellerCompanyDetails', { companyName: 'Acme Ltd', url: 'acme.example' }))
      .then([]);
    spec
      .given([connected()])
      .when(command('RecordSellerCompanyDetails', { companyName: ' ', url: null }))
      .thenFails('validation', 'The company name is required.');
  });

  it('answers not found for a seller that was never connected', () => {
    spec
      .given([])
      .when(command('RecordSellerCompanyDetails', { companyName: 'Acme', url: null }))
      .thenFails('not_found', 'Seller not found.');
  });
});

describe('the Active toggle', () => {
  it('deactivates and activates a seller', () => {
    spec
      .given([connected()])
      .when(command('SetSellerActive', { active: false }))
      .then([{ type: 'SellerDeactivated', data: { sellerId: 11, deactivatedAt: at } }]);
    spec
      .given([connected(), deactivated])
      .when(command('SetSellerActive', { active: true }))
      .then([{ type: 'SellerActivated', data: { sellerId: 11, activatedAt: at } }]);
  });

  it('changes nothing when the seller already has that state', () => {
    spec
      .given([connected()])
      .when(command('SetSellerActive', { active: true }))
      .then([]);
  });

  it('refuses to activate a disconnected seller', () => {
    spec
      .given([connected(), disconnected])
      .when(command('SetSellerActive', { active: true }))
      .thenFails('conflict', 'The seller is disconnected; connect it again to activate it.');
  });
});

describe('deleting a seller', () => {
  it('refuses while the seller is active, with the reason the UI appends to its message', () => {
    spec
      .given([connected()])
      .when(command('DeleteSeller', {}))
      .thenFails('conflict', /^the seller must be inactive$/);
  });

  it('deletes an inactive seller, after which it is not found', () => {
    spec
      .given([connected(), deactivated])
      .when(command('DeleteSeller', {}))
      .then([{ type: 'SellerDeleted', data: { sellerId: 11, deletedAt: at } }]);
    spec
      .given([connected(), deactivated, deleted])
      .when(command('SetSellerActive', { active: true }))
      .thenFails('not_found');
  });

  it('refuses while a sync is running', () => {
    spec
      .given([connected(), syncRequested(40), deactivated])
      .when(command('DeleteSeller', {}))
      .thenFails('conflict', 'a sync is still running for the seller');
  });
});

describe('authorisation', () => {
  it('disconnects a seller, leaving it inactive; a second disconnect changes nothing', () => {
    spec
      .given([connected()])
      .when(command('DisconnectSeller', {}))
      .then([{ type: 'SellerDisconnected', data: { sellerId: 11, disconnectedAt: at } }]);
    expect(spec.stateAfter([connected(), disconnected])).toMatchObject({ connected: false, active: false });
    spec.given([connected(), disconnected]).when(command('DisconnectSeller', {})).then([]);
  });

  it('records a revoked token once', () => {
    spec
      .given([connected()])
      .when(command('RevokeSellerAuthToken', {}))
      .then([{ type: 'SellerAuthTokenRevoked', data: { sellerId: 11, revokedAt: at } }]);
    expect(spec.stateAfter([connected(), revoked])).toMatchObject({ authTokenStatus: 'REVOKED' });
    spec.given([connected(), revoked]).when(command('RevokeSellerAuthToken', {})).then([]);
  });

  it('records a refreshed token', () => {
    spec
      .given([connected()])
      .when(command('RefreshSellerAuthToken', { credentialsRef: 'secrets/seller-11-v3' }))
      .then([
        {
          type: 'SellerAuthTokenRefreshed',
          data: { sellerId: 11, credentialsRef: 'secrets/seller-11-v3', refreshedAt: at },
        },
      ]);
  });

  it('cannot refresh a revoked token or a disconnected seller', () => {
    spec
      .given([connected(), revoked])
      .when(command('RefreshSellerAuthToken', { credentialsRef: 'x' }))
      .thenFails('conflict', 'The authorisation of this seller was revoked; connect it again.');
    spec
      .given([connected(), disconnected])
      .when(command('RefreshSellerAuthToken', { credentialsRef: 'x' }))
      .thenFails('conflict', 'The seller is disconnected; connect it again.');
  });
});

describe('collection and metrics dates', () => {
  it('records a collection date as given, even one earlier than the current one', () => {
    const march5 = new Date('2025-03-05T00:00:00.000Z');
    spec
      .given([connected(), collected])
      .when(command('RecordSellerCollectionDate', { collectionDate: march5 }))
      .then([
        {
          type: 'SellerCollectionDateRecorded',
          data: { sellerId: 11, collectionDate: march5.toISOString() },
        },
      ]);
  });

  it('refuses a metrics date before the seller has synced', () => {
    spec
      .given([connected()])
      .when(command('RecordSellerMetricsDate', { metricsDate: now }))
      .thenFails('conflict', 'Metrics need synced data; the seller has not synced yet.');
  });

  it('moves the seller from generating to completed when metrics are recorded', () => {
    const history = [connected(), collected];
    const generating = spec.stateAfter(history);
    expect(generating.status === 'known' && sellerProgress(generating)).toBe('generating');
    spec
      .given(history)
      .when(command('RecordSellerMetricsDate', { metricsDate: now }))
      .then([{ type: 'SellerMetricsDateRecorded', data: { sellerId: 11, metricsDate: at } }]);
    const completed = spec.stateAfter([
      ...history,
      { type: 'SellerMetricsDateRecorded', data: { sellerId: 11, metricsDate: at } },
    ]);
    expect(completed.status === 'known' && sellerProgress(completed)).toBe('completed');
  });
});

describe('feature flags', () => {
  const flagSet = (
    setting: Extract<SellerEvent, { type: 'SellerFeatureFlagSet' }>['data']['setting'],
  ): SellerEvent => ({
    type: 'SellerFeatureFlagSet',
    data: { sellerId: 11, setting, setAt: at },
  });

  it('starts with every flag off and no exclusions', () => {
    expect(spec.stateAfter([connected()])).toMatchObject({
      featureFlags: {
        'customerSheet.showOtherCredits': false,
        'customerSheet.showSegmentation': false,
        'crm.PushSalesRep': false,
        'exclusions.CustomerIds': [],
        'exclusions.ProductIds': [],
        'forecasts.Receivables.Enabled': false,
      },
    });
  });

  it.each(['customerSheet.showOtherCredits', 'customerSheet.showSegmentation', 'crm.PushSalesRep'] as const)(
    'sets the boolean flag %s',
    (flag) => {
      spec
        .given([connected()])
        .when(command('SetSellerFeatureFlag', { flag, value: true }))
        .then([flagSet({ flag, value: true })]);
    },
  );

  it('changes nothing when a flag already has the value', () => {
    spec
      .given([connected(), flagSet({ flag: 'crm.PushSalesRep', value: true })])
      .when(command('SetSellerFeatureFlag', { flag: 'crm.PushSalesRep', value: true }))
      .then([]);
  });

  it('refuses a boolean flag set to something else', () => {
    const error = spec
      .given([connected()])
      .when(command('SetSellerFeatureFlag', { flag: 'crm.PushSalesRep', value: 'yes' }))
      .thenFails('validation', 'crm.PushSalesRep must be true or false.');
    expect(error.properties).toEqual({ 'crm.PushSalesRep': 'Must be true or false.' });
  });

  it('keeps exclusion ids as de-duplicated integers, accepting digits typed as text', () => {
    spec
      .given([connected()])
      .when(command('SetSellerFeatureFlag', { flag: 'exclusions.CustomerIds', value: [5, '7', 5, ' 9 ', 7] }))
      .then([flagSet({ flag: 'exclusions.CustomerIds', value: [5, 7, 9] })]);
  });

  it.each([[['abc']], [[2.5]], [[0]], [[-3]], [[null]], ['12']])(
    'refuses exclusions %j with a validation error',
    (value) => {
      const error = spec
        .given([connected()])
        .when(command('SetSellerFeatureFlag', { flag: 'exclusions.ProductIds', value }))
        .thenFails('validation', 'Exclusions accept integers only.');
      expect(error.properties).toEqual({ 'exclusions.ProductIds': 'Integers only.' });
    },
  );

  it('refuses an unknown flag', () => {
    spec
      .given([connected()])
      .when(command('SetSellerFeatureFlag', { flag: 'customerSheet.colour', value: true }))
      .thenFails('validation', 'Unknown feature flag: customerSheet.colour.');
  });

  it.each(['forecasts.Receivables.Enabled', 'crm.PushSalesRep'] as const)(
    'lets only a platform admin change %s, while a company administrator sets report choices',
    (flag) => {
      spec
        .given([connected()])
        .when(command('SetSellerFeatureFlag', { flag, value: true, actor: tenantAdmin }))
        .thenFails('forbidden', `Only a platform administrator can change ${flag}.`);
      spec
        .given([connected()])
        .when(command('SetSellerFeatureFlag', { flag, value: true, actor: platformAdmin }))
        .then([flagSet({ flag, value: true })]);
      spec
        .given([connected()])
        .when(
          command('SetSellerFeatureFlag', {
            flag: 'customerSheet.showOtherCredits',
            value: true,
            actor: tenantAdmin,
          }),
        )
        .then([flagSet({ flag: 'customerSheet.showOtherCredits', value: true })]);
    },
  );

  it('toggles forecasting through the forecasts.Receivables.Enabled flag', () => {
    spec
      .given([connected()])
      .when(command('SetSellerForecasting', { enabled: true }))
      .then([flagSet({ flag: 'forecasts.Receivables.Enabled', value: true })]);
    spec
      .given([connected(), flagSet({ flag: 'forecasts.Receivables.Enabled', value: true })])
      .when(command('SetSellerFeatureFlag', { flag: 'forecasts.Receivables.Enabled', value: false }))
      .then([flagSet({ flag: 'forecasts.Receivables.Enabled', value: false })]);
  });
});

describe('sync lifecycle', () => {
  const request = (syncId: number, mode: 'sync' | 'populate' | 'repopulate') =>
    command('RequestSellerSync', { syncId, mode });

  it('requests a populate for a seller never synced, which makes it syncing', () => {
    spec
      .given([connected()])
      .when(request(40, 'populate'))
      .then([
        {
          type: 'SellerSyncRequested',
          data: { sellerId: 11, syncId: 40, mode: 'populate', requestedAt: at },
        },
      ]);
    expect(spec.stateAfter([connected(), syncRequested(40)])).toMatchObject({
      runningSync: { syncId: 40, mode: 'populate', startedAt: null },
    });
  });

  it('refuses a second sync while one is running; a retried request for the same job changes nothing', () => {
    spec
      .given([connected(), syncRequested(40)])
      .when(request(41, 'populate'))
      .thenFails('conflict', 'A sync is already running for this seller. Wait for it to finish.');
    spec
      .given([connected(), syncRequested(40)])
      .when(request(40, 'populate'))
      .then([]);
  });

  it('offers Sync and Repopulate once populated, and Populate only before', () => {
    spec
      .given([connected(), collected])
      .when(request(41, 'sync'))
      .then([
        { type: 'SellerSyncRequested', data: { sellerId: 11, syncId: 41, mode: 'sync', requestedAt: at } },
      ]);
    spec
      .given([connected(), collected])
      .when(request(41, 'populate'))
      .thenFails('conflict', 'The seller is already populated; use Sync or Repopulate.');
    spec
      .given([connected()])
      .when(request(41, 'sync'))
      .thenFails('conflict', 'The seller has not been populated yet; use Populate.');
    spec.given([connected()]).when(request(41, 'repopulate')).thenFails('conflict', 'use Populate');
  });

  it('offers QBD sellers only Reset', () => {
    const message = 'QuickBooks Desktop sellers sync through the Web Connector; only Reset is available.';
    spec.given([qbdConnected, collected]).when(request(41, 'sync')).thenFails('conflict', message);
    spec.given([qbdConnected]).when(request(41, 'populate')).thenFails('conflict', message);
    spec
      .given([qbdConnected, collected])
      .when(request(41, 'repopulate'))
      .then([
        {
          type: 'SellerSyncRequested',
          data: { sellerId: 11, syncId: 41, mode: 'repopulate', requestedAt: at },
        },
      ]);
  });

  it('refuses to sync an inactive, revoked or disconnected seller', () => {
    spec
      .given([connected(), deactivated])
      .when(request(41, 'populate'))
      .thenFails('conflict', 'The seller is inactive; activate it before syncing.');
    spec
      .given([connected(), revoked])
      .when(request(41, 'populate'))
      .thenFails(
        'conflict',
        'The authorisation of this seller was revoked; connect it again before syncing.',
      );
    spec
      .given([connected(), disconnected])
      .when(request(41, 'populate'))
      .thenFails('conflict', 'The seller is disconnected; connect it again before syncing.');
  });

  it('records the start once', () => {
    spec
      .given([connected(), syncRequested(40)])
      .when(command('StartSellerSync', { syncId: 40 }))
      .then([{ type: 'SellerSyncStarted', data: { sellerId: 11, syncId: 40, startedAt: at } }]);
    spec
      .given([connected(), syncRequested(40), syncStarted(40)])
      .when(command('StartSellerSync', { syncId: 40 }))
      .then([]);
  });

  it('refuses to start a sync that is not running or already finished', () => {
    spec
      .given([connected(), syncRequested(40)])
      .when(command('StartSellerSync', { syncId: 39 }))
      .thenFails('conflict', 'That sync is not running for this seller.');
    spec
      .given([connected(), syncRequested(40), syncCompleted(40)])
      .when(command('StartSellerSync', { syncId: 40 }))
      .thenFails('conflict', 'That sync has already finished.');
  });

  it('completes a sync, setting the collection date and freeing the seller for the next sync', () => {
    const collectionDate = new Date('2025-03-10T11:58:00.000Z');
    spec
      .given([connected(), syncRequested(40), syncStarted(40)])
      .when(command('CompleteSellerSync', { syncId: 40, collectionDate }))
      .then([
        {
          type: 'SellerSyncCompleted',
          data: {
            sellerId: 11,
            syncId: 40,
            mode: 'populate',
            collectionDate: collectionDate.toISOString(),
            completedAt: at,
          },
        },
      ]);
    const history = [connected(), syncRequested(40), syncStarted(40), syncCompleted(40)];
    expect(spec.stateAfter(history)).toMatchObject({ runningSync: null, collectionDate: earlier });
    spec
      .given(history)
      .when(command('CompleteSellerSync', { syncId: 40, collectionDate }))
      .then([]);
    spec
      .given(history)
      .when(request(41, 'sync'))
      .then([
        { type: 'SellerSyncRequested', data: { sellerId: 11, syncId: 41, mode: 'sync', requestedAt: at } },
      ]);
  });

  it('refuses to complete a sync that is not running', () => {
    spec
      .given([connected()])
      .when(command('CompleteSellerSync', { syncId: 40, collectionDate: now }))
      .thenFails('conflict', 'That sync is not running for this seller.');
  });

  it('records a failed sync with its reason and frees the seller', () => {
    spec
      .given([connected(), syncRequested(40)])
      .when(command('FailSellerSync', { syncId: 40, reason: 'QBO answered 503' }))
      .then([
        {
          type: 'SellerSyncFailed',
          data: { sellerId: 11, syncId: 40, reason: 'QBO answered 503', failedAt: at },
        },
      ]);
    const failed: SellerEvent = {
      type: 'SellerSyncFailed',
      data: { sellerId: 11, syncId: 40, reason: 'QBO answered 503', failedAt: at },
    };
    expect(spec.stateAfter([connected(), syncRequested(40), failed])).toMatchObject({
      runningSync: null,
      collectionDate: null,
    });
    spec
      .given([connected(), syncRequested(40), failed])
      .when(command('FailSellerSync', { syncId: 40, reason: 'again' }))
      .then([]);
    spec
      .given([connected(), syncRequested(40)])
      .when(command('FailSellerSync', { syncId: 40, reason: ' ' }))
      .thenFails('validation', 'A reason is required.');
  });
});

describe('event contracts', () => {
  it('accepts every event the decider emits over a seller lifetime', () => {
    const commands: SellerCommand[] = [
      connect({
        provider: 'QBD',
        authMethod: 'web_connector',
        companyName: null,
        companyFilePath: 'C:\\a.qbw',
      }),
      command('RecordSellerCompanyDetails', { companyName: 'Acme', url: 'https://acme.example' }),
      command('RecordSellerCollectionDate', { collectionDate: now }),
      command('RequestSellerSync', { syncId: 40, mode: 'repopulate' }),
      command('StartSellerSync', { syncId: 40 }),
      command('CompleteSellerSync', { syncId: 40, collectionDate: now }),
      command('RecordSellerMetricsDate', { metricsDate: now }),
      command('SetSellerFeatureFlag', { flag: 'exclusions.CustomerIds', value: ['3', 4] }),
      command('RevokeSellerAuthToken', {}),
      connect({ provider: 'QBD', authMethod: 'web_connector', companyName: null }),
      command('RefreshSellerAuthToken', { credentialsRef: 'secrets/v2' }),
      command('DisconnectSeller', {}),
      command('DeleteSeller', {}),
    ];
    let history: SellerEvent[] = [];
    for (const next of commands)
      history = [...history, ...sellerDecider.decide(next, spec.stateAfter(history))];
    expect(history).toHaveLength(commands.length);
    for (const event of history) expect(SellerEvent.parse(event)).toEqual(event);
  });
});
