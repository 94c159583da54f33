import { MockActivityEnvironment } from '@temporalio/testing';
import type { CommandHandlerDeps } from '../../../commands/command-handler';
import { decodeEvents } from '../../../commands/event-codec';
import { eventRegistry } from '../../../commands/event-registry';
import { createPersonalDataProtector } from '../../../commands/personal-data';
import type { IntegrationEvent } from '../../../contracts/events/integration';
import type { LedgerCustomer, LedgerInvoice } from '../../../contracts/ledger';
import { integrationStream, sellerStream } from '../../../contracts/stream-ids';
import type { IntegrationCommand } from '../../../domain/integration/decide';
import { integrationDecider } from '../../../domain/integration/integration-decider';
import type { SellerCommand } from '../../../domain/seller/decide';
import { sellerDecider } from '../../../domain/seller/seller-decider';
import {
  countCrmPushes,
  crmPushesProjection,
  queryCrmPushedObjects,
} from '../../../projections/integrations/crm-pushes-projection';
import type {
  CrmConnector,
  CrmPush,
  CrmPushKind,
  CrmPushResult,
} from '../../../workflows/integrations/crm/crm-connector';
import {
  createCrmPushActivities,
  type CrmPushDeps,
  type CrmPushJobInput,
} from '../../../workflows/integrations/crm/push/push-activities';
import { crmMirrorCollections, crmMirrorDocId } from '../../../workflows/integrations/crm/crm-mirror';
import { ledgerCollections, ledgerDocId } from '../../../workflows/ledger/ledger-collections';
import type { CustomerReceivablesDoc } from '../../../workflows/metrics/customer-receivables';
import { storeCustomerReceivables } from '../../../workflows/metrics/metric-store';
import { createHubSpotConnector } from '../../../workflows/integrations/hubspot/hubspot-connector';
import { startHubSpotFake, type HubSpotFake } from '../../fakes/hubspot-fake';
import { platformAdmin, useReadModelKit } from '../../projections/read-model-kit';

/**
 * Issue 17, helper push: the push, purge and unlink activities against the real event store and read
 * store, with a CRM that keeps one object per key as the connector contract promises and counts what
 * it was asked to make. A retried push creates nothing twice, a second run with the same facts pushes
 * nothing, and a purge removes exactly what Ledgerwise created.
 */
const kit = useReadModelKit(__filename, crmPushesProjection);
const { context } = kit;

const tenantId = 1;
const sellerId = 11;
const integrationId = 5;
const collectedAt = new Date('2026-03-31T18:00:00.000Z');
const DAY = 86_400_000;
const daysBefore = (days: number) => new Date(Date.UTC(2026, 2, 31) - days * DAY);

type StoredObject = {
  crmId: string;
  key: string;
  kind: CrmPushKind;
  push: CrmPush;
  owner: 'ledgerwise' | 'someone';
};

/** A CRM as the connector contract sees it: a push by key upserts; remove and unlink count. */
class KeyedCrm implements CrmConnector {
  readonly supports: ReadonlySet<CrmPushKind>;
  objects = new Map<string, StoredObject>();
  /** Companies' accounting identifier property, by company id. */
  accountingIds = new Map<string, string | null>([
    ['co-acme', null],
    ['co-globex', null],
    ['co-initech', 'CUST-3'],
  ]);
  properties = new Map<string, Record<string, string | number | null>>();
  pushCalls = 0;
  creations = new Map<string, number>();
  removed: string[] = [];
  /** Fails the n-th push after applying it, as a timeout that hides a success does. */
  failAfterApplying: number | null = null;
  /** Shared by every instance: CRM ids stay unique across the CRMs of these tests, as in one CRM. */
  private static next = 0;

  constructor(kinds: CrmPushKind[]) {
    this.supports = new Set(kinds);
    this.objects.set('their-own-task', {
      crmId: 'task-theirs',
      key: 'their-own-task',
      kind: 'collectionTask',
      push: {
        kind: 'collectionTask',
        key: 'their-own-task',
        companyCrmId: 'co-acme',
        subject: 'Call',
        body: '',
        dueAt: '',
        ownerCrmId: null,
      },
      owner: 'someone',
    });
    this.objects.set('their-own-company', {
      crmId: 'co-acme',
      key: 'their-own-company',
      kind: 'createCompany',
      push: {
        kind: 'createCompany',
        key: 'their-own-company',
        name: 'Acme Ltd',
        accountingId: '1',
        accountingIdentifier: null,
        ownerCrmId: null,
      },
      owner: 'someone',
    });
  }

  check = () => Promise.resolve({ accountName: 'Test CRM' });
  readCompanies = () => Promise.resolve({ records: [], nextCursor: null, total: 0 });
  readContacts = () => Promise.resolve({ records: [], nextCursor: null, total: 0 });
  readOwners = () => Promise.resolve([]);

  push = (push: CrmPush): Promise<CrmPushResult> => {
    this.pushCalls += 1;
    let result: CrmPushResult;
    if (push.kind === 'salesRep' || push.kind === 'revopsProperties' || push.kind === 'linkCompany') {
      const values =
        push.kind === 'salesRep'
          ? { sales_rep: push.salesRep }
          : push.kind === 'linkCompany'
            ? { [push.accountingIdentifier]: push.accountingId }
            : push.properties;
      if (push.kind === 'linkCompany') this.accountingIds.set(push.companyCrmId, push.accountingId);
      this.properties.set(push.companyCrmId, { ...this.properties.get(push.companyCrmId), ...values });
      result = {
        objectType: push.kind === 'linkCompany' ? 'company' : 'property',
        crmId: push.companyCrmId,
        created: false,
      };
    } else {
      let stored = this.objects.get(push.key);
      // Found by its key, as real connectors answer a second push: not made now (created: false).
      const made = !stored;
      if (!stored) {
        stored = {
          crmId: `crm-${(KeyedCrm.next += 1)}`,
          key: push.key,
          kind: push.kind,
          push,
          owner: 'ledgerwise',
        };
        this.objects.set(push.key, stored);
        this.creations.set(push.key, (this.creations.get(push.key) ?? 0) + 1);
      }
      result = {
        objectType: push.kind === 'collectionTask' ? 'task' : 'event',
        crmId: stored.crmId,
        created: made,
      };
    }
    if (this.failAfterApplying !== null && this.pushCalls === this.failAfterApplying)
      return Promise.reject(new Error('socket hang up after the CRM answered'));
    return Promise.resolve(result);
  };

  remove = (object: { crmId: string }) => {
    for (const [key, stored] of this.objects)
      if (stored.crmId === object.crmId) {
        if (stored.owner !== 'ledgerwise')
          throw new Error('asked to delete an object Ledgerwise did not make');
        this.objects.delete(key);
        this.removed.push(object.crmId);
      }
    return Promise.resolve();
  };

  unlinkCompany = (companyCrmId: string) => {
    this.accountingIds.set(companyCrmId, null);
    return Promise.resolve();
  };

  ledgerwiseObjects = () => [...this.objects.values()].filter((o) => o.owner === 'ledgerwise');
}

let writeSide: CommandHandlerDeps;

const integrationCommand = (command: Omit<IntegrationCommand, 'now'>) =>
  kit.run(integrationDecider, integrationStream(integrationId), {
    ...command,
    now: collectedAt,
  } as IntegrationCommand);
const sellerCommand = <T extends SellerCommand['type']>(
  type: T,
  data: Extract<SellerCommand, { type: T }>['data'],
) => kit.run(sellerDecider, sellerStream(sellerId), { type, data, now: collectedAt } as SellerCommand);

const customer = (customerId: number, name: string): LedgerCustomer & { _id: string } => ({
  _id: ledgerDocId(sellerId, `c${customerId}`),
  sellerId,
  providerId: `c${customerId}`,
  customerId,
  name,
  email: null,
  createdAt: daysBefore(400),
  habit: null,
});

const invoice = (
  providerId: string,
  customerId: number,
  dueDaysAgo: number,
  balance: number,
): LedgerInvoice & { _id: string } => ({
  _id: ledgerDocId(sellerId, providerId),
  sellerId,
  providerId,
  customerId,
  docNumber: providerId.toUpperCase(),
  transactionDate: daysBefore(dueDaysAgo + 30),
  dueDate: daysBefore(dueDaysAgo),
  amount: balance,
  balance,
  lines: [{ productId: 1, quantity: 1, amount: balance }],
});

const receivables = (
  customerId: number,
  name: string,
  risk: 'low' | 'medium' | 'high',
  overdue: number,
): CustomerReceivablesDoc => ({
  customerId,
  name,
  nameKey: name.toLowerCase(),
  email: null,
  salesT36M: 500_000,
  invoicesT36M: 12,
  openBalance: overdue + 10_000,
  overdue,
  aging: { current: 10_000, days1To30: overdue, days31To60: 0, days61To90: 0, over90: 0 },
  dsoDays: 40,
  movingAvgDbtDays: null,
  lastPurchase: daysBefore(20),
  averageDaysLate: overdue > 0 ? 20 : null,
  risk,
  riskRank: { low: 0, medium: 1, high: 2 }[risk],
  salesT12M: 200_000,
  lastPayment: daysBefore(15),
  otherCredits: 0,
});

const storeRun = (
  generation: string,
  risks: { acme: 'low' | 'medium' | 'high'; globex: 'low' | 'medium' | 'high' },
) =>
  storeCustomerReceivables(context.db, { sellerId, generation }, [
    receivables(1, 'Acme Ltd', risks.acme, 150_000),
    receivables(2, 'Globex', risks.globex, 0),
    receivables(3, 'Initech', 'low', 0),
  ]);

const allKinds: CrmPushKind[] = [
  'segmentChange',
  'overdueInvoice',
  'collectionTask',
  'salesRep',
  'revopsProperties',
  'linkCompany',
];

const depsWith = (crm: KeyedCrm): CrmPushDeps => ({
  writeSide,
  db: context.db,
  now: () => collectedAt,
  connectorFor: () => Promise.resolve(crm),
  companyOwners: (_id, companies) => Promise.resolve(new Map(companies.map((c) => [c, `owner-of-${c}`]))),
  salesReps: () => Promise.resolve(new Map([['1', 'Dana Rep']])),
  batchSize: 4,
});

const job = (jobId: number): CrmPushJobInput => ({ integrationId, tenantId, jobId });

const run = <R>(work: () => Promise<R>): Promise<R> => new MockActivityEnvironment().run(work);

const integrationEvents = async (id = integrationId) =>
  (await decodeEvents(writeSide, await writeSide.store.readStream(integrationStream(id)))).map(
    (event) => ({ type: event.type, data: event.data }) as IntegrationEvent,
  );

const recordedKeys = async () =>
  (await integrationEvents()).flatMap((event) =>
    event.type === 'IntegrationPushesApplied' ? event.data.pushes.map((p) => p.key) : [],
  );

beforeAll(async () => {
  writeSide = {
    store: kit.store(),
    registry: eventRegistry,
    personalData: createPersonalDataProtector({ keys: context.keys, registry: eventRegistry }),
  };
  await kit.tenant(tenantId, 'CreateTenant', { tenantId, name: 'Acme Holdings', classification: 'BUSINESS' });
  await sellerCommand('ConnectSeller', {
    sellerId,
    tenantId,
    provider: 'QBO',
    companyName: 'Acme Holdings',
    url: null,
    authMethod: 'oauth2',
    authTokenOwner: 'owner@acme.example',
    credentialsRef: 'secrets/seller-11',
    companyFilePath: null,
    actor: platformAdmin,
    tenantIsDemo: false,
    tenantHasConnectedSeller: false,
    planAllowsProvider: true,
  });
  await sellerCommand('RequestSellerSync', { syncId: 100, mode: 'populate' });
  await sellerCommand('StartSellerSync', { syncId: 100 });
  await sellerCommand('CompleteSellerSync', { syncId: 100, collectionDate: collectedAt });
  await sellerCommand('SetSellerFeatureFlag', { flag: 'crm.PushSalesRep', value: true });
  await integrationCommand({
    type: 'ConnectIntegration',
    data: {
      integrationId,
      tenantId,
      provider: 'HUBSPOT',
      productIdentifier: 'REVOPS',
      authMethod: 'oauth2',
      credentialsRef: 'secrets/integration-5',
      credentialsOwner: 'crm@acme.example',
      url: null,
      actor: platformAdmin,
      tenantIsDemo: false,
      planAllowsProvider: true,
    },
  });
  await integrationCommand({
    type: 'UpdateIntegrationSettings',
    data: { settings: { AccountingIdentifier: 'accounting_id' }, actor: platformAdmin },
  });
  await integrationCommand({
    type: 'RecordCompanyMatches',
    data: {
      sellerId,
      jobId: 1,
      linked: [
        { customerId: '1', crmId: 'co-acme', method: 'exact' },
        { customerId: '2', crmId: 'co-globex', method: 'cleaned' },
        { customerId: '3', crmId: 'co-initech', method: 'accountingId' },
      ],
      unlinked: [],
    },
  });
  await context.db
    .collection<LedgerCustomer & { _id: string }>(ledgerCollections.customers)
    .insertMany([
      customer(1, 'Acme Ltd'),
      customer(2, 'Globex'),
      customer(3, 'Initech'),
      customer(4, 'Unlinked Co'),
    ]);
  await context.db
    .collection<LedgerInvoice & { _id: string }>(ledgerCollections.invoices)
    .insertMany([
      invoice('inv-a1', 1, 95, 100_000),
      invoice('inv-a2', 1, 3, 50_000),
      invoice('inv-g1', 2, -10, 30_000),
      invoice('inv-u1', 4, 40, 80_000),
    ]);
  await storeRun('run-1', { acme: 'high', globex: 'low' });
});

describe('pushing to a CRM', () => {
  it('a push that fails after the CRM applied it is retried without creating anything twice', async () => {
    const crm = new KeyedCrm(allKinds);
    const activities = createCrmPushActivities(depsWith(crm));
    crm.failAfterApplying = 5;
    await expect(run(() => activities.pushToCrm(job(2)))).rejects.toThrow('socket hang up');
    // The first batch of four was recorded; the fifth push made its object, unrecorded.
    expect(await recordedKeys()).toHaveLength(4);
    crm.failAfterApplying = null;
    const retried = await run(() => activities.pushToCrm(job(2)));
    expect(retried.skipped).toBe(4);

    const keys = await recordedKeys();
    expect(new Set(keys).size).toBe(keys.length);
    expect([...crm.creations.values()].every((count) => count === 1)).toBe(true);
    // Acme: segment, overdue 90 and overdue 1, two tasks, sales rep, RevOps; Globex and Initech: segment, RevOps.
    expect(keys.map((key) => key.split(':')[2]?.split('#')[0]).sort()).toEqual(
      [
        'overdue',
        'overdue',
        'revops',
        'revops',
        'revops',
        'salesRep',
        'segment',
        'segment',
        'segment',
        'task',
        'task',
      ].sort(),
    );
    expect(crm.ledgerwiseObjects()).toHaveLength(7);
    const task = [...crm.objects.values()].find((o) => o.key === `lw:5:task:11:1:inv-a1`)?.push;
    expect(task).toMatchObject({
      subject: 'Collect invoice INV-A1 from Acme Ltd',
      ownerCrmId: 'owner-of-co-acme',
    });
    expect(crm.properties.get('co-acme')).toMatchObject({
      sales_rep: 'Dana Rep',
      ledgerwise_open_receivables: 1600,
      ledgerwise_payment_segment: 'High risk',
    });
    // Nothing about the customer with no CRM company.
    expect(JSON.stringify([...crm.objects.values()])).not.toContain('INV-U1');
  });

  it('a second run with unchanged facts pushes nothing; a changed segment pushes one event and the figures', async () => {
    const crm = new KeyedCrm(allKinds);
    const activities = createCrmPushActivities(depsWith(crm));
    expect(await run(() => activities.pushToCrm(job(3)))).toEqual({ pushed: 0, skipped: 11 });
    expect(crm.pushCalls).toBe(0);

    await storeRun('run-2', { acme: 'high', globex: 'medium' });
    expect(await run(() => activities.pushToCrm(job(4)))).toEqual({ pushed: 2, skipped: 9 });
    expect([...crm.objects.values()].filter((o) => o.owner === 'ledgerwise').map((o) => o.push)).toEqual([
      expect.objectContaining({
        kind: 'segmentChange',
        companyCrmId: 'co-globex',
        from: 'Low risk',
        to: 'Medium risk',
      }),
    ]);
    expect(crm.properties.get('co-globex')).toMatchObject({ ledgerwise_payment_segment: 'Medium risk' });
  });

  it('honours a Disable setting switched on since: no task for a newly overdue invoice', async () => {
    await integrationCommand({
      type: 'UpdateIntegrationSettings',
      data: { settings: { DisableCreatingTasks: true }, actor: platformAdmin },
    });
    await context.db
      .collection<LedgerInvoice & { _id: string }>(ledgerCollections.invoices)
      .insertOne(invoice('inv-g2', 2, 5, 20_000));
    const crm = new KeyedCrm(allKinds);
    await run(() => createCrmPushActivities(depsWith(crm)).pushToCrm(job(5)));
    expect(crm.ledgerwiseObjects().map((o) => o.key)).toEqual(['lw:5:overdue:11:2:inv-g2:d1']);
    await integrationCommand({
      type: 'UpdateIntegrationSettings',
      data: { settings: { DisableCreatingTasks: false }, actor: platformAdmin },
    });
  });

  it('the read model lists what was pushed, by customer, with the CRM ids', async () => {
    await kit.catchUp();
    const acme = await queryCrmPushedObjects(context.db, { integrationId, sellerId, customerId: '1' });
    expect(acme.map((doc) => doc.kind).sort()).toEqual(
      [
        'collectionTask',
        'collectionTask',
        'overdueInvoice',
        'overdueInvoice',
        'revopsProperties',
        'salesRep',
        'segmentChange',
      ].sort(),
    );
    expect(await countCrmPushes(context.db, integrationId)).toEqual([
      { kind: 'collectionTask', applied: 2, inCrm: 2 },
      { kind: 'overdueInvoice', applied: 3, inCrm: 3 },
      { kind: 'revopsProperties', applied: 4, inCrm: 0 },
      { kind: 'salesRep', applied: 1, inCrm: 0 },
      { kind: 'segmentChange', applied: 4, inCrm: 4 },
    ]);
  });
  it('without a sales rep source, pushes the name of the CRM owner the sync resolved; a task held back follows', async () => {
    await context.db
      .collection<{ _id: string; [field: string]: unknown }>(crmMirrorCollections.owners)
      .insertOne({
        _id: crmMirrorDocId(integrationId, 'owner-of-co-acme'),
        tenantId,
        integrationId,
        crmId: 'owner-of-co-acme',
        name: 'Olivia Owner',
        email: 'olivia@acme.example',
        seenBy: 1,
        readAt: collectedAt,
      });
    const crm = new KeyedCrm(allKinds);
    const { salesReps: _none, ...deps } = depsWith(crm);
    expect(await run(() => createCrmPushActivities(deps).pushToCrm(job(12)))).toMatchObject({ pushed: 2 });
    expect(crm.properties.get('co-acme')).toEqual({ sales_rep: 'Olivia Owner' });
    // DisableCreatingTasks is off again: the task it held back for INV-G2 is made now.
    expect(crm.ledgerwiseObjects().map((o) => o.key)).toEqual(['lw:5:task:11:2:inv-g2']);
  });
});

describe('purging and unlinking', () => {
  it('a purge removes exactly the objects Ledgerwise created, once, and leaves the rest alone', async () => {
    // One CRM that saw every run: its objects are the ones the stream records as created.
    const crm = new KeyedCrm(allKinds);
    const created = (await integrationEvents()).flatMap((event) =>
      event.type === 'IntegrationPushesApplied' ? event.data.pushes.filter((p) => p.created) : [],
    );
    for (const push of created)
      crm.objects.set(push.key, {
        crmId: push.crmId,
        key: push.key,
        kind: push.kind as CrmPushKind,
        push: {
          kind: 'segmentChange',
          key: push.key,
          companyCrmId: '',
          customerName: '',
          from: null,
          to: '',
          changedAt: '',
        },
        owner: 'ledgerwise',
      });
    const activities = createCrmPushActivities(depsWith(crm));
    expect(await run(() => activities.purgeCrm(job(6)))).toEqual({ removed: 10 });
    expect(crm.removed.sort()).toEqual(created.map((p) => p.crmId).sort());
    expect([...crm.objects.keys()].sort()).toEqual(['their-own-company', 'their-own-task']);
    expect(crm.accountingIds.get('co-initech')).toBe('CUST-3');

    expect(await run(() => activities.purgeCrm(job(7)))).toEqual({ removed: 0 });
    await kit.catchUp();
    expect(await queryCrmPushedObjects(context.db, { integrationId, createdOnly: true })).toEqual([]);
    // Redelivered or rebuilt, the read model says the same.
    await kit.expectStableUnderRedeliveryAndRebuild();
  });

  it('unlink clears only the accounting ids Ledgerwise wrote and drops those links', async () => {
    const crm = new KeyedCrm(allKinds);
    const activities = createCrmPushActivities(depsWith(crm));
    // As the sync does for a company matched by name: Ledgerwise writes the accounting id onto it.
    const linkPush: CrmPush = {
      kind: 'linkCompany',
      key: 'lw:5:link:11:1',
      companyCrmId: 'co-acme',
      accountingIdentifier: 'accounting_id',
      accountingId: '1',
    };
    const result = await crm.push(linkPush);
    await integrationCommand({
      type: 'RecordCrmPushes',
      data: {
        jobId: 8,
        pushes: [{ key: linkPush.key, kind: 'linkCompany', ...result, sellerId, customerId: '1' }],
      },
    });
    expect(crm.accountingIds.get('co-acme')).toBe('1');

    expect(await run(() => activities.unlinkCrm(job(9)))).toEqual({ unlinked: 1 });
    expect(crm.accountingIds.get('co-acme')).toBeNull();
    expect(crm.accountingIds.get('co-initech')).toBe('CUST-3');
    const matches = (await integrationEvents()).filter(
      (event) => event.type === 'IntegrationCompaniesMatched',
    );
    expect(matches.at(-1)?.data).toMatchObject({ sellerId, jobId: 9, linked: [], unlinked: ['1'] });

    expect(await run(() => activities.unlinkCrm(job(10)))).toEqual({ unlinked: 0 });
  });
});

describe('pushing to the HubSpot fake (RevOps Pro)', () => {
  const hubIntegrationId = 6;
  let fake: HubSpotFake;
  let hub: CrmConnector;
  const companies: Record<string, string> = {};
  const hubJob = (jobId: number): CrmPushJobInput => ({ integrationId: hubIntegrationId, tenantId, jobId });
  const hubCommand = (command: Omit<IntegrationCommand, 'now'>) =>
    kit.run(integrationDecider, integrationStream(hubIntegrationId), {
      ...command,
      now: collectedAt,
    } as IntegrationCommand);

  beforeAll(async () => {
    fake = await startHubSpotFake();
    fake.setRateLimit(null);
    const { accessToken } = fake.issueTokens({ clientId: 'revops-fake-client' });
    hub = createHubSpotConnector({
      http: { platform: 'HubSpot', maxRetryWaitMs: 120_000, inlineWaitMs: 5_000 },
      apiBaseUrl: fake.url,
      tokens: {
        current: () => Promise.resolve({ accessToken, instanceUrl: null }),
        renewAfterRejection: () => Promise.reject(new Error('the token lasts the whole test')),
      },
      revops: true,
    });
    for (const name of ['Acme Ltd', 'Globex', 'Initech']) companies[name] = fake.addCompany({ name });
    await hubCommand({
      type: 'ConnectIntegration',
      data: {
        integrationId: hubIntegrationId,
        tenantId,
        provider: 'HUBSPOT',
        productIdentifier: 'REVOPS',
        authMethod: 'oauth2',
        credentialsRef: 'secrets/integration-6',
        credentialsOwner: 'crm@acme.example',
        url: null,
        actor: platformAdmin,
        tenantIsDemo: false,
        planAllowsProvider: true,
      },
    });
    await hubCommand({
      type: 'RecordCompanyMatches',
      data: {
        sellerId,
        jobId: 20,
        linked: [
          { customerId: '1', crmId: companies['Acme Ltd'] ?? '', method: 'exact' },
          { customerId: '2', crmId: companies.Globex ?? '', method: 'exact' },
          { customerId: '3', crmId: companies.Initech ?? '', method: 'exact' },
        ],
        unlinked: [],
      },
    });
  });

  afterAll(async () => {
    await fake.close();
  });

  it('a lost answer, a retry and a second sync leave one event, task and value per fact; purge takes them back', async () => {
    const tasksBefore = fake.stored('tasks').map((task) => task.id);
    const companiesBefore = fake.stored('companies').length;
    let calls = 0;
    const lossy: CrmConnector = {
      ...hub,
      push: async (push) => {
        const result = await hub.push(push);
        calls += 1;
        if (calls === 5) throw new Error('connection reset after HubSpot answered');
        return result;
      },
    };
    const activities = createCrmPushActivities({
      ...depsWith(new KeyedCrm([])),
      connectorFor: () => Promise.resolve(lossy),
    });
    await expect(run(() => activities.pushToCrm(hubJob(21)))).rejects.toThrow('connection reset');
    const first = await run(() => activities.pushToCrm(hubJob(21)));
    expect(first.pushed + first.skipped).toBe(13);

    // Segments of Acme, Globex and Initech; overdue INV-A1 (90), INV-A2 and INV-G2 (first day late).
    expect(fake.timelineEvents()).toHaveLength(6);
    expect(
      fake
        .created('tasks')
        .map((task) => task.properties.hs_task_subject)
        .sort(),
    ).toEqual([
      'Collect invoice INV-A1 from Acme Ltd',
      'Collect invoice INV-A2 from Acme Ltd',
      'Collect invoice INV-G2 from Globex',
    ]);
    const acme = fake.object('companies', companies['Acme Ltd'] ?? '');
    expect(acme?.properties).toMatchObject({
      ledgerwise_sales_rep: 'Dana Rep',
      ledgerwise_open_receivables: '1600',
      ledgerwise_payment_segment: 'High risk',
    });

    const counters = fake.counters();
    expect(await run(() => activities.pushToCrm(hubJob(22)))).toEqual({ pushed: 0, skipped: 13 });
    expect(fake.counters()).toMatchObject({
      creates: counters.creates,
      updates: counters.updates,
      timelineEvents: counters.timelineEvents,
    });

    // What the stream records as made by Ledgerwise goes (HubSpot keeps timeline events: ADR 47).
    const recorded = (await integrationEvents(hubIntegrationId))
      .flatMap((event) => (event.type === 'IntegrationPushesApplied' ? event.data.pushes : []))
      .filter((push) => push.created);
    // Six timeline events and three tasks at least (property pushes change values, they make nothing).
    expect(new Set(recorded.map((push) => push.crmId)).size).toBeGreaterThanOrEqual(9);
    expect(await run(() => activities.purgeCrm(hubJob(23)))).toEqual({ removed: recorded.length });
    expect(fake.created('tasks')).toEqual([]);
    expect(fake.stored('tasks').map((task) => task.id)).toEqual(tasksBefore);
    expect(fake.stored('companies')).toHaveLength(companiesBefore);
    expect(await run(() => activities.purgeCrm(hubJob(24)))).toEqual({ removed: 0 });
  });
});
