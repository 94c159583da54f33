import { createCredentialVault } from '../../commands/credential-vault';
import { sellerStream } from '../../contracts/stream-ids';
import { sellerStatus } from '../../projections/sellers/seller-status';
import { LedgerFeedRecord } from '../../contracts/kafka/ledger-records';
import type { LedgerPage } from '../../contracts/ledger';
import {
  applyFacts,
  SELLER_ANALYTICS_TOTALS,
  type SellerTotalsDoc,
} from '../../projections/analytics/analytics-store';
import { recomputeSeller } from '../../workflows/analytics/analytics-recompute';
import { factOf } from '../../workflows/analytics/ledger-facts-consumer';
import { ledgerIdOf } from '../../workflows/connectors/shared/ledger-ids';
import { useLedgerWorld } from '../workflows/ledger-world';
import {
  materializedCompany,
  startQuickBooksOnlineFake,
  touched,
  type MaterializedCompany,
} from '../fakes/quickbooks-online-fake';
import {
  qboCreditApplicationPayment,
  qboCreditMemoOf,
  qboInvoiceFigures,
  type QboCompanyShape,
} from '../fakes/quickbooks-online-fixtures';
import {
  connectOAuthSeller,
  runSync,
  sellerState,
  storedLedger,
  sumOf,
  usePlatformFake,
} from './connector-world';
import { bookFigures, cents, ledgerFigures, outboxLines } from './qbo-ledger-figures';

jest.setTimeout(180_000);

const world = useLedgerWorld(__filename);
const { fake, workers } = usePlatformFake(world, startQuickBooksOnlineFake, {
  settings: { CONNECTOR_MAX_RETRY_WAIT_SECONDS: 120 },
});

/** Books and ledger counted as a user sees them: voided invoices (zero amounts) are not invoices. */
const figuresOf = (company: MaterializedCompany, skip?: Set<string>) =>
  bookFigures(company, { voided: 'drop' }, skip);
const storedFigures = (sellerId: number) => ledgerFigures(world.db(), sellerId, { voided: 'drop' });

describe('QuickBooks Online sync through the fake', () => {
  const tenantId = 31;
  const sellerId = 301;
  const realmId = '9130355021';
  let company: MaterializedCompany;

  beforeAll(async () => {
    company = materializedCompany(realmId, { customers: 30, items: 6, invoices: 420, creditMemos: 9 });
    // A record QBO would never send whole: no customer. It is counted, logged and skipped.
    company.tables.Invoice.put({ Id: '5000', TxnDate: '2024-01-02', TotalAmt: 10, Balance: 10, Line: [] });
    fake().addCompany(company);
    const tokens = fake().issueTokens(realmId);
    await connectOAuthSeller(world, {
      sellerId,
      tenantId,
      provider: 'QBO',
      companyName: 'Craig’s Design and Landscaping',
      secret: { ...tokens, expiresIn: '3600', tokenType: 'bearer', accountId: realmId },
    });
  });

  it('populates the ledger with the books’ figures through throttling, 5xx bursts and records deleted between pages', async () => {
    fake().throttle(2, 1);
    fake().failNext(2, 503);
    let pages = 0;
    const deletedMidway: string[] = [];
    fake().beforeAnswer((request) => {
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
    fake().beforeAnswer(null);
    expect(outcome).toMatchObject({ ok: true });

    const expected = figuresOf(company, new Set(['5000']));
    const stored = await storedFigures(sellerId);
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
    expect(fake().requests.some((r) => r.status === 429)).toBe(true);
    expect(fake().requests.some((r) => r.status === 503)).toBe(true);
    expect(fake().requests.every((r) => r.query.minorversion === '75')).toBe(true);
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
    fake().expireAccessTokens();

    const outcome = await runSync(world, workers, { sellerId, tenantId, mode: 'sync', jobId: 3002 });
    expect(outcome).toMatchObject({ ok: true });
    expect(fake().refreshes()).toBe(1);
    expect(fake().requests.filter((r) => r.path === 'cdc').length).toBeGreaterThanOrEqual(5);

    const expected = figuresOf(company, new Set(['5000']));
    const stored = await storedFigures(sellerId);
    expect(stored.invoiceIds).toEqual(expected.invoiceIds);
    expect(stored.sales).toBe(expected.sales);
    expect(stored.open).toBe(expected.open);
    expect(stored.paid).toBe(expected.paid);
    // Deleted invoices and the deleted payment leave no row; the feed carries their tombstones.
    expect(stored.ledger.invoices.filter((r) => ['10', '11'].includes(r.providerId))).toEqual([]);
    expect(stored.ledger.payments.some((r) => r.providerId === '3')).toBe(false);
    const lines = await outboxLines(world.db(), sellerId);
    const tombstones = lines.filter((line) => (JSON.parse(line) as LedgerFeedRecord).deleted);
    expect(tombstones.map((line) => (JSON.parse(line) as LedgerFeedRecord).recordId).sort()).toEqual(
      // 5 and 17 went while the populate read past them; CDC lists them deleted now.
      ['5', '17', '10', '11']
        .map((id) => `invoices:${sellerId}:${id}:3001:deleted`)
        .concat(`payments:${sellerId}:3:3001:deleted`)
        .sort(),
    );
    for (const line of tombstones) LedgerFeedRecord.parse(JSON.parse(line));

    // The analytics consumer applies the feed in order: the deleted invoices leave its figures, and a
    // redelivered tombstone, or an older version arriving late, changes nothing.
    const facts = lines.map((line, offset) => factOf(line, offset)!);
    await applyFacts(world.db(), facts);
    await recomputeSeller(world.db(), sellerId, new Date());
    const totalsOf = () =>
      world.db().collection<SellerTotalsDoc>(SELLER_ANALYTICS_TOTALS).findOne({ _id: sellerId });
    const ledgerSales = sumOf(stored.ledger.invoices, (r) => r.amount);
    expect(await totalsOf()).toMatchObject({ invoices: stored.ledger.invoices.length, sales: ledgerSales });
    const olderTen = facts.find((f) => f._id === `invoices:${sellerId}:10` && !f.deleted)!;
    const tombstoneTen = facts.find((f) => f._id === `invoices:${sellerId}:10` && f.deleted)!;
    await applyFacts(world.db(), [tombstoneTen, olderTen]);
    await recomputeSeller(world.db(), sellerId, new Date());
    expect(await totalsOf()).toMatchObject({ invoices: stored.ledger.invoices.length, sales: ledgerSales });

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
    fake().expireAccessTokens();
    fake().refuseRefresh();
    const outcome = await runSync(world, workers, { sellerId, tenantId, mode: 'sync', jobId: 3003 });
    fake().refuseRefresh(false);
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

describe('QuickBooks Online credit memos applied on payments', () => {
  const tenantId = 32;
  const sellerId = 302;
  const realmId = '9130355022';
  const shape: QboCompanyShape = { customers: 5, items: 3, invoices: 20, paidShare: 0.6 };
  // Invoices 7, 8 and 9 are unpaid in the fixtures (six in ten are paid, in order).
  const total = (id: string) => qboInvoiceFigures(shape, Number(id) - 1).total;
  const customerOf = (id: string) => String(1 + (((Number(id) - 1) * 7) % shape.customers));
  let company: MaterializedCompany;

  /** The ledger agrees with QBO when every invoice's amount less what is applied to it is its Balance. */
  const expectBalancesAgree = async () => {
    const ledger = await storedLedger(world.db(), sellerId);
    const applied = new Map<string, number>();
    for (const settlement of [...ledger.payments, ...ledger.creditMemos])
      for (const a of settlement.applications)
        applied.set(a.invoiceProviderId, (applied.get(a.invoiceProviderId) ?? 0) + a.amount);
    const rows = ledger.invoices.map((invoice) => ({
      id: invoice.providerId,
      qbo: cents(company.tables.Invoice.records.get(invoice.providerId)!.Balance),
      balance: invoice.balance,
      unapplied: invoice.amount - (applied.get(invoice.providerId) ?? 0),
    }));
    expect(rows.filter((r) => r.balance !== r.qbo || r.unapplied !== r.qbo)).toEqual([]);
    return ledger;
  };
  const memo = (ledger: LedgerPage, id: string) => ledger.creditMemos.find((m) => m.providerId === id)!;
  const payment = (ledger: LedgerPage, id: string) => ledger.payments.find((p) => p.providerId === id)!;

  beforeAll(async () => {
    company = materializedCompany(realmId, { ...shape, creditMemos: 0 });
    const invoices = company.tables.Invoice;
    // Memo 101 (20.00) pays part of invoice 7 by itself: a payment of TotalAmt 0.
    company.tables.CreditMemo.put(
      qboCreditMemoOf({ id: '101', customer: customerOf('7'), txnDate: '2023-02-01', cents: 2000 }),
    );
    company.tables.Payment.put(
      qboCreditApplicationPayment({
        id: '201',
        customer: customerOf('7'),
        txnDate: '2023-02-10',
        invoices: [{ id: '7', cents: 2000 }],
        memos: [{ id: '101', cents: 2000 }],
      }),
    );
    invoices.put(touched(invoices.records.get('7')!, { Balance: (total('7') - 2000) / 100 }));
    // Memo 102 (25.00) and cash settle invoice 8 together.
    company.tables.CreditMemo.put(
      qboCreditMemoOf({ id: '102', customer: customerOf('8'), txnDate: '2023-02-01', cents: 2500 }),
    );
    company.tables.Payment.put(
      qboCreditApplicationPayment({
        id: '202',
        customer: customerOf('8'),
        txnDate: '2023-02-12',
        invoices: [{ id: '8', cents: total('8') }],
        memos: [{ id: '102', cents: 2500 }],
      }),
    );
    invoices.put(touched(invoices.records.get('8')!, { Balance: 0 }));
    // Memo 103 (15.00) is not applied yet.
    company.tables.CreditMemo.put(
      qboCreditMemoOf({
        id: '103',
        customer: customerOf('9'),
        txnDate: '2023-02-01',
        cents: 1500,
        remainingCents: 1500,
      }),
    );
    fake().addCompany(company);
    await connectOAuthSeller(world, {
      sellerId,
      tenantId,
      provider: 'QBO',
      companyName: 'Applied Credits Inc',
      secret: { ...fake().issueTokens(realmId), expiresIn: '3600', tokenType: 'bearer', accountId: realmId },
    });
  });

  it('populates each memo with the invoices it was applied to, and payments with their cash only', async () => {
    const outcome = await runSync(world, workers, { sellerId, tenantId, mode: 'populate', jobId: 3201 });
    expect(outcome).toMatchObject({ ok: true });
    const ledger = await expectBalancesAgree();
    expect(memo(ledger, '101')).toMatchObject({
      amount: 2000,
      applications: [{ invoiceProviderId: '7', amount: 2000 }],
    });
    expect(memo(ledger, '102')).toMatchObject({
      amount: 2500,
      applications: [{ invoiceProviderId: '8', amount: 2500 }],
    });
    expect(memo(ledger, '103')).toMatchObject({ amount: 1500, applications: [] });
    expect(payment(ledger, '201')).toMatchObject({ amount: 0, applications: [] });
    expect(payment(ledger, '202')).toMatchObject({
      amount: total('8') - 2500,
      applications: [{ invoiceProviderId: '8', amount: total('8') - 2500 }],
    });
    expect(ledger.invoices.find((i) => i.providerId === '7')).toMatchObject({ balance: total('7') - 2000 });
  });

  it('follows a credit unapplied (its payment deleted) and one applied since, by CDC', async () => {
    // QBO's times have whole seconds: changes in the second the populate ended would read as older.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const invoices = company.tables.Invoice;
    // The credit-only payment is deleted: invoice 7 is owed in full again. Memo 101 itself is not
    // changed: only the payment tells the sync.
    company.tables.Payment.remove('201');
    invoices.put(touched(invoices.records.get('7')!, { Balance: total('7') / 100 }));
    // Memo 103 and cash pay invoice 9.
    company.tables.Payment.put(
      qboCreditApplicationPayment({
        id: '203',
        customer: customerOf('9'),
        txnDate: '2023-03-01',
        invoices: [{ id: '9', cents: total('9') }],
        memos: [{ id: '103', cents: 1500 }],
      }),
    );
    invoices.put(touched(invoices.records.get('9')!, { Balance: 0 }));
    company.tables.CreditMemo.put(
      touched(company.tables.CreditMemo.records.get('103')!, { Balance: 0, RemainingCredit: 0 }),
    );

    const outcome = await runSync(world, workers, { sellerId, tenantId, mode: 'sync', jobId: 3202 });
    expect(outcome).toMatchObject({ ok: true });
    const ledger = await expectBalancesAgree();
    expect(memo(ledger, '101')).toMatchObject({ amount: 2000, applications: [] });
    expect(memo(ledger, '102').applications).toEqual([{ invoiceProviderId: '8', amount: 2500 }]);
    expect(memo(ledger, '103').applications).toEqual([{ invoiceProviderId: '9', amount: 1500 }]);
    expect(payment(ledger, '203')).toMatchObject({
      amount: total('9') - 1500,
      applications: [{ invoiceProviderId: '9', amount: total('9') - 1500 }],
    });
    expect(ledger.invoices.find((i) => i.providerId === '7')).toMatchObject({ balance: total('7') });
  });
});
