import type { Config } from '../../../contracts/config';
import type { LedgerCustomer, LedgerInvoice } from '../../../contracts/ledger';
import { integrationStream, sellerStream } from '../../../contracts/stream-ids';
import { integrationDecider } from '../../../domain/integration/integration-decider';
import type { SellerCommand } from '../../../domain/seller/decide';
import { sellerDecider } from '../../../domain/seller/seller-decider';
import { ledgerCollections, ledgerDocId } from '../../../workflows/ledger/ledger-collections';
import type { CustomerReceivablesDoc } from '../../../workflows/metrics/customer-receivables';
import { storeCustomerReceivables } from '../../../workflows/metrics/metric-store';
import { startHubSpotFake, type HubSpotFake } from '../../fakes/hubspot-fake';
import { companyFor, signUp } from '../../gateway/fixtures';
import { useGatewayWorld } from '../../gateway/gateway-world';
import { useIntegrationJobRuntime } from '../../integrations/integration-job-world';

/**
 * Issue 17, helper push, end to end: the integration jobs on the real Temporal server, started from
 * the gateway, with the real push activities, the real HubSpot connector and the local HubSpot fake.
 * A sync links the seller's customers and tells HubSpot about them (notes and tasks); the next sync
 * tells it nothing new; a purge takes back exactly what Ledgerwise made.
 */
jest.setTimeout(180_000);

const world = useGatewayWorld(__filename);
let fake: HubSpotFake;
let config: Config;

const sellerId = 730_001;
const integrationId = 730_101;
const collectedAt = new Date('2026-03-31T18:00:00.000Z');
const DAY = 86_400_000;
const daysBefore = (days: number) => new Date(Date.UTC(2026, 2, 31) - days * DAY);

beforeAll(async () => {
  fake = await startHubSpotFake();
  fake.setRateLimit(null);
  config = { ...world.config, ...fake.configValues };
});

const runtime = useIntegrationJobRuntime(world, () => config);

beforeAll(async () => {
  const { services } = world;
  const owner = await signUp(world, { name: 'push-owner' });
  const tenantId = await companyFor(world, owner, { name: 'Push Journey Co' });
  const seller = <T extends SellerCommand['type']>(
    type: T,
    data: Extract<SellerCommand, { type: T }>['data'],
  ) => world.run(sellerDecider, sellerStream(sellerId), { type, data, now: collectedAt } as SellerCommand);
  await seller('ConnectSeller', {
    sellerId,
    tenantId,
    provider: 'QBO',
    companyName: 'Push Journey Co',
    url: null,
    authMethod: 'oauth2',
    authTokenOwner: 'books@push.example',
    credentialsRef: 'secrets/none',
    companyFilePath: null,
    actor: { userId: 1, isPlatformAdmin: true, tenantRole: null, isAdvisor: false },
    tenantIsDemo: false,
    tenantHasConnectedSeller: false,
    planAllowsProvider: true,
  });
  await seller('RequestSellerSync', { syncId: 730_201, mode: 'populate' });
  await seller('StartSellerSync', { syncId: 730_201 });
  await seller('CompleteSellerSync', { syncId: 730_201, collectionDate: collectedAt });
  await seller('SetSellerFeatureFlag', { flag: 'crm.PushSalesRep', value: true });

  const customers = [
    [1, 'Zephyr Logistics'],
    [2, 'Quill & Barrow'],
    [3, 'Tamarind Foods'],
  ] as const;
  // As a sync writes them: the ledger's customers carry their tenant, which the matching reads by.
  await services.db
    .collection<LedgerCustomer & { _id: string; tenantId: number }>(ledgerCollections.customers)
    .insertMany(
      customers.map(([customerId, name]) => ({
        _id: ledgerDocId(sellerId, `c${customerId}`),
        tenantId,
        sellerId,
        providerId: `c${customerId}`,
        customerId,
        name,
        email: null,
        createdAt: daysBefore(400),
        habit: null,
      })),
    );
  const invoice = (providerId: string, customerId: number, dueDaysAgo: number, balance: number) => ({
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
  await services.db
    .collection<LedgerInvoice & { _id: string }>(ledgerCollections.invoices)
    .insertMany([
      invoice('z-1', 1, 95, 100_000),
      invoice('z-2', 1, 3, 20_000),
      invoice('t-1', 3, 40, 60_000),
    ]);
  const figures = (
    customerId: number,
    name: string,
    risk: 'low' | 'medium' | 'high',
  ): CustomerReceivablesDoc => ({
    customerId,
    name,
    nameKey: name.toLowerCase(),
    email: null,
    salesT36M: 400_000,
    invoicesT36M: 10,
    openBalance: 120_000,
    overdue: 60_000,
    aging: { current: 60_000, days1To30: 60_000, days31To60: 0, days61To90: 0, over90: 0 },
    dsoDays: 45,
    movingAvgDbtDays: null,
    lastPurchase: daysBefore(10),
    averageDaysLate: 20,
    risk,
    riskRank: { low: 0, medium: 1, high: 2 }[risk],
  });
  await storeCustomerReceivables(services.db, { sellerId, generation: 'journey-1' }, [
    figures(1, 'Zephyr Logistics', 'high'),
    figures(2, 'Quill & Barrow', 'low'),
    figures(3, 'Tamarind Foods', 'medium'),
  ]);

  fake.addCompany({ name: 'Zephyr Logistics', hubspot_owner_id: '41629779' });
  fake.addCompany({ name: 'Quill & Barrow' });
  fake.addCompany({ name: 'Tamarind Foods' });

  const tokens = fake.issueTokens();
  const credentialsRef = await runtime.vault().store({
    tenantId,
    kind: 'oauth',
    secret: {
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken,
      expiresIn: String(tokens.expiresIn),
      obtainedAt: new Date().toISOString(),
    },
  });
  await world.run(integrationDecider, integrationStream(integrationId), {
    type: 'ConnectIntegration',
    now: new Date(),
    data: {
      integrationId,
      tenantId,
      provider: 'HUBSPOT',
      productIdentifier: null,
      authMethod: 'oauth2',
      credentialsRef,
      credentialsOwner: 'crm@push.example',
      url: null,
      actor: { userId: 1, isPlatformAdmin: true, tenantRole: null, isAdvisor: false },
      tenantIsDemo: false,
      planAllowsProvider: true,
    },
  });
  await world.settle();
  const settings = await runtime.admin().patch(`/api/integrations/${integrationId}`, {
    Settings: { MatchUsingNamesExact: true },
  });
  expect(settings.statusCode).toBe(200);
});

afterAll(async () => {
  await fake?.close();
});

const runJob = (action: 'sync' | 'purge', body?: unknown) => runtime.runJob(action, integrationId, body);

const ours = () => ({
  notes: fake.created('notes').map((note) => note.properties.hs_note_body ?? ''),
  tasks: fake.created('tasks').map((task) => task.properties.hs_task_subject),
});

describe('a HubSpot sync that pushes, a second that does not, and a purge', () => {
  it('the first sync writes a note per segment and overdue stage, a task per invoice to chase, the sales rep', async () => {
    const job = await runJob('sync');
    expect(job.Failure).toBeNull();
    expect(job.Result).toMatchObject({ pushed: 10, skipped: 0 });
    const { notes, tasks } = ours();
    expect(notes).toHaveLength(6);
    expect(notes.filter((note) => note.includes('Payment segment changed'))).toHaveLength(3);
    expect(notes.filter((note) => note.includes('days overdue'))).toHaveLength(3);
    expect(tasks.sort()).toEqual([
      'Collect invoice T-1 from Tamarind Foods',
      'Collect invoice Z-1 from Zephyr Logistics',
      'Collect invoice Z-2 from Zephyr Logistics',
    ]);
    const zephyrTask = fake.created('tasks').find((task) => task.properties.hs_task_subject?.includes('Z-1'));
    expect(zephyrTask?.properties.hubspot_owner_id).toBe('41629779');
    const zephyr = fake.stored('companies').find((company) => company.properties.name === 'Zephyr Logistics');
    expect(zephyr?.properties.ledgerwise_sales_rep).toMatch(/López/);
  });

  it('a second sync with the same facts creates and changes nothing in HubSpot', async () => {
    const before = fake.counters();
    const job = await runJob('sync');
    expect(job.Result).toMatchObject({ pushed: 0, skipped: 10 });
    expect(fake.counters()).toMatchObject({ creates: before.creates, updates: before.updates });
    expect(ours().notes).toHaveLength(6);
  });

  it('a purge deletes the notes and tasks Ledgerwise made and leaves the companies', async () => {
    const companies = fake.stored('companies').length;
    expect(
      (await runtime.admin().patch(`/api/integrations/${integrationId}`, { Active: false })).statusCode,
    ).toBe(200);
    const job = await runJob('purge', { unlink: false });
    expect(job.Status).toBe('completed');
    expect(job.Result).toMatchObject({ removed: 9 });
    expect(ours()).toEqual({ notes: [], tasks: [] });
    expect(fake.stored('companies')).toHaveLength(companies);
  });
});
