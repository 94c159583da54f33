import { createCredentialVault } from '../../commands/credential-vault';
import type { Config } from '../../contracts/config';
import { sellerStream } from '../../contracts/stream-ids';
import { sellerStatus } from '../../projections/sellers/seller-status';
import { ledgerIdOf } from '../../workflows/connectors/shared/ledger-ids';
import { useLedgerWorld } from '../workflows/ledger-world';
import {
  materializedCompany,
  startQuickBooksOnlineFake,
  touched,
  type MaterializedCompany,
  type QuickBooksOnlineFake,
} from '../fakes/quickbooks-online-fake';
import {
  connectOAuthSeller,
  connectorWorkers,
  runSync,
  sellerState,
  storedLedger,
  sumOf,
} from './connector-world';

jest.setTimeout(180_000);

const world = useLedgerWorld(__filename);
let fake: QuickBooksOnlineFake;
let config: Config;
const workers = connectorWorkers(world, () => config);

beforeAll(async () => {
  fake = await startQuickBooksOnlineFake();
  config = { ...world.config, ...fake.configValues, CONNECTOR_MAX_RETRY_WAIT_SECONDS: 120 };
});

afterAll(async () => {
  await workers.close();
  await fake.close();
});

const cents = (value: unknown) => Math.round(Number(value) * 100);

/** What the company's books say, straight from the fixtures' QBO JSON. */
const figuresOf = (company: MaterializedCompany, skip: Set<string> = new Set()) => {
  const invoices = [...company.tables.Invoice.records.values()].filter((r) => !skip.has(String(r.Id)));
  const payments = [...company.tables.Payment.records.values()];
  return {
    invoiceIds: invoices
      .filter((r) => cents(r.TotalAmt) !== 0)
      .map((r) => String(r.Id))
      .sort(),
    sales: sumOf(invoices, (r) => cents(r.TotalAmt)),
    open: sumOf(invoices, (r) => cents(r.Balance)),
    paid: sumOf(payments, (r) => cents(r.TotalAmt)),
    customers: company.tables.Customer.records.size,
    credits: sumOf([...company.tables.CreditMemo.records.values()], (r) => cents(r.TotalAmt)),
  };
};

const ledgerFigures = async (sellerId: number) => {
  const ledger = await storedLedger(world.db(), sellerId);
  return {
    ledger,
    invoiceIds: ledger.invoices
      .filter((r) => r.amount !== 0)
      .map((r) => r.providerId)
      .sort(),
    sales: sumOf(ledger.invoices, (r) => r.amount),
    open: sumOf(ledger.invoices, (r) => r.balance),
    paid: sumOf(ledger.payments, (r) => r.amount),
    customers: ledger.customers.length,
    credits: sumOf(ledger.creditMemos, (r) => r.amount),
  };
};

describe('QuickBooks Online sync through the fake', () => {
  const tenantId = 31;
  const sellerId = 301;
  const realmId = '9130355021';
  let company: MaterializedCompany;

  beforeAll(async () => {
    company = materializedCompany(realmId, { customers: 30, items: 6, invoices: 420, creditMemos: 9 });
    // A record QBO would never send whole: no customer. It is counted, logged and skipped.
    company.tables.Invoice.put({ Id: '5000', TxnDate: '2024-01-02', TotalAmt: 10, Balance: 10, Line: [] });
    fake.addCompany(company);
    const tokens = fake.issueTokens(realmId);
    await connectOAuthSeller(world, {
      sellerId,
      tenantId,
      provider: 'QBO',
      companyName: 'Craig’s Design and Landscaping',
      secret: { ...tokens, expiresIn: '3600', tokenType: 'bearer', accountId: realmId },
    });
  });

  it('populates the ledger with the books’ figures through throttling, 5xx bursts and records deleted between pages', async () => {
    fake.throttle(2, 1);
    fake.failNext(2, 503);
    let pages = 0;
    const deletedMidway: string[] = [];
    fake.beforeAnswer((request) => {
      if (request.path !== 'query' || !String(request.query.query).includes('FROM Invoice')) return;
      pages += 1;
      // Between the second and third invoice page, three invoices of the pages already read and
      // one ahead go, and one ahead changes: positions shift under the paging.
      if (pages === 3) {
        for (const id of ['5', '17', '150', '390']) {
          company.tables.Invoice.remove(id);
          deletedMidway.push(id);
        }
        const changed = company.tables.Invoice.records.get('300')!;
        company.tables.Invoice.put(touched(changed, { Balance: 0 }));
      }
    });
    const outcome = await runSync(world, workers, {
      sellerId,
      tenantId,
      mode: 'populate',
      jobId: 3001,
      pageSize: 100,
    });
    fake.beforeAnswer(null);
    expect(outcome).toMatchObject({ ok: true });

    const expected = figuresOf(company, new Set(['5000']));
    const stored = await ledgerFigures(sellerId);
    // Every invoice still in the books is in the ledger; the ones deleted after being read wait for the next sync.
    const storedIds = new Set(stored.invoiceIds);
    expect(expected.invoiceIds.filter((id) => !storedIds.has(id))).toEqual([]);
    expect(stored.invoiceIds.filter((id) => !expected.invoiceIds.includes(id)).sort()).toEqual(
      ['17', '5'].filter((id) => storedIds.has(id)),
    );
    expect(stored.ledger.invoices.some((r) => r.providerId === '5000')).toBe(false);
    expect(stored.paid).toBe(expected.paid);
    expect(stored.customers).toBe(expected.customers);
    expect(stored.credits).toBe(expected.credits);
    // Ids are unique: the overlapping pages wrote nothing twice.
    expect(new Set(stored.ledger.invoices.map((r) => r.providerId)).size).toBe(stored.ledger.invoices.length);

    // An invoice as QBO gives it: 8.25% tax beyond the item lines goes on the adjustments line.
    const invoice = stored.ledger.invoices.find((r) => r.providerId === '2')!;
    const source = company.tables.Invoice.records.get('2')!;
    expect(invoice).toMatchObject({
      docNumber: String(source.DocNumber),
      amount: cents(source.TotalAmt),
      customerId: Number((source.CustomerRef as { value: string }).value),
    });
    expect(sumOf(invoice.lines, (l) => l.amount)).toBe(invoice.amount);
    expect(invoice.lines.at(-1)).toMatchObject({ productId: ledgerIdOf('ledgerwise:adjustments') });
    expect(fake.requests.some((r) => r.status === 429)).toBe(true);
    expect(fake.requests.some((r) => r.status === 503)).toBe(true);
    expect(fake.requests.every((r) => r.query.minorversion === '75')).toBe(true);
  });

  it('syncs changes, voids and deletes since the last sync by CDC, renewing the token that expired meanwhile', async () => {
    const before = await sellerState(world, sellerId);
    const invoices = company.tables.Invoice;
    // Paid, voided (QBO zeroes the amounts), deleted, created, and a payment deleted.
    invoices.put(touched(invoices.records.get('8')!, { Balance: 0 }));
    invoices.put(touched(invoices.records.get('9')!, { TotalAmt: 0, Balance: 0, PrivateNote: 'Voided' }));
    invoices.remove('10');
    invoices.remove('11');
    invoices.put(touched(invoices.records.get('12')!, { Id: '9001', DocNumber: 'NEW-1' }));
    company.tables.Payment.remove('3');
    fake.expireAccessTokens();

    const outcome = await runSync(world, workers, { sellerId, tenantId, mode: 'sync', jobId: 3002 });
    expect(outcome).toMatchObject({ ok: true });
    expect(fake.refreshes()).toBe(1);
    expect(fake.requests.filter((r) => r.path === 'cdc').length).toBeGreaterThanOrEqual(5);

    const expected = figuresOf(company, new Set(['5000']));
    const stored = await ledgerFigures(sellerId);
    expect(stored.invoiceIds).toEqual(expected.invoiceIds);
    expect(stored.sales).toBe(expected.sales);
    expect(stored.open).toBe(expected.open);
    expect(stored.paid).toBe(expected.paid);
    expect(stored.ledger.invoices.find((r) => r.providerId === '10')).toMatchObject({
      amount: 0,
      balance: 0,
    });

    // The renewed tokens are sealed under a new reference named by an event; the old entry is gone.
    const after = await sellerState(world, sellerId);
    expect(after.authTokenStatus).toBe('ACTIVE');
    expect(after.authTokenRefreshedAt).not.toBe(before.authTokenRefreshedAt);
    const events = await world.events().writeSide.store.readStream(sellerStream(sellerId));
    const refreshed = events.filter((e) => e.type === 'SellerAuthTokenRefreshed');
    expect(refreshed).toHaveLength(1);
    const vault = createCredentialVault({ db: world.db(), masterSecret: world.config.SESSION_SECRET });
    const ref = (refreshed[0]!.data as { credentialsRef: string }).credentialsRef;
    expect((await vault.read(ref))?.secret).toMatchObject({ accountId: realmId });
    const firstRef = (events.find((e) => e.type === 'SellerConnected')!.data as { credentialsRef: string })
      .credentialsRef;
    expect(await vault.read(firstRef)).toBeNull();
  });

  it('marks the token REVOKED when QBO refuses the renewal, and says so in words', async () => {
    fake.expireAccessTokens();
    fake.refuseRefresh();
    const outcome = await runSync(world, workers, { sellerId, tenantId, mode: 'sync', jobId: 3003 });
    fake.refuseRefresh(false);
    expect(outcome.ok).toBe(false);
    const seller = await sellerState(world, sellerId);
    expect(seller.authTokenStatus).toBe('REVOKED');
    expect(
      sellerStatus({ provider: 'QBO', authTokenStatus: seller.authTokenStatus, collectionDate: null }).text,
    ).toBe('Authentication Revoked');
    const events = await world.events().writeSide.store.readStream(sellerStream(sellerId));
    const failed = events.filter((e) => e.type === 'SellerSyncFailed').at(-1);
    expect((failed?.data as { reason: string }).reason).toMatch(
      /QuickBooks Online refused to renew our access to .*\(invalid_grant\)\. Reconnect it on the Platforms page/,
    );
    expect((failed?.data as { reason: string }).reason).not.toMatch(/at .*\.ts|Error:/);
  });
});
