import { sellerStream } from '../../contracts/stream-ids';
import { ledgerIdOf } from '../../workflows/connectors/shared/ledger-ids';
import { useLedgerWorld } from '../workflows/ledger-world';
import { startXeroFake, xeroOrganisation, xeroTouched, type XeroOrganisation } from '../fakes/xero-fake';
import {
  connectOAuthSeller,
  runSync,
  sellerState,
  storedLedger,
  sumOf,
  usePlatformFake,
} from './connector-world';

jest.setTimeout(180_000);

const world = useLedgerWorld(__filename);
const { fake, workers } = usePlatformFake(world, startXeroFake, {
  settings: { CONNECTOR_MAX_RETRY_WAIT_SECONDS: 120 },
});

const cents = (value: unknown) => Math.round(Number(value) * 100);
/** Base currency cents of a Xero amount: divided by the document's CurrencyRate. */
const base = (record: Record<string, unknown>, field: string) =>
  Math.round(cents(record[field]) / Number(record.CurrencyRate ?? 1));

const live = (record: Record<string, unknown>) => !['DELETED', 'VOIDED'].includes(String(record.Status));

const figuresOf = (organisation: XeroOrganisation, skip = new Set<string>()) => {
  const invoices = [...organisation.records.Invoices.values()].filter(
    (r) => live(r) && !skip.has(String(r.InvoiceID)),
  );
  const payments = [...organisation.records.Payments.values()].filter(live);
  return {
    invoiceIds: invoices.map((r) => String(r.InvoiceID)).sort(),
    sales: sumOf(invoices, (r) => base(r, 'Total')),
    open: sumOf(invoices, (r) => base(r, 'AmountDue')),
    paid: sumOf(payments, (r) => base(r, 'Amount')),
    customers: organisation.records.Contacts.size,
  };
};

const ledgerFigures = async (sellerId: number) => {
  const ledger = await storedLedger(world.db(), sellerId);
  const invoices = ledger.invoices.filter((r) => r.amount !== 0);
  return {
    ledger,
    invoiceIds: invoices.map((r) => r.providerId).sort(),
    sales: sumOf(ledger.invoices, (r) => r.amount),
    open: sumOf(ledger.invoices, (r) => r.balance),
    paid: sumOf(ledger.payments, (r) => r.amount),
    customers: ledger.customers.length,
  };
};

describe('Xero sync through the fake', () => {
  const tenantId = 41;
  const sellerId = 401;
  let organisation: XeroOrganisation;

  beforeAll(async () => {
    organisation = xeroOrganisation('Demo Company (NZ)', {
      contacts: 25,
      items: 5,
      invoices: 260,
      creditNotes: 6,
    });
    organisation.records.Invoices.set('broken', {
      Type: 'ACCREC',
      InvoiceID: 'broken',
      Status: 'AUTHORISED',
      Date: 'yesterday',
      Contact: { ContactID: 'x' },
      Total: 5,
      AmountDue: 5,
      UpdatedDateUTC: '/Date(1717200000000+0000)/',
    });
    fake().addOrganisation(organisation);
    const other = xeroOrganisation('Another Org', { contacts: 1, items: 1, invoices: 1, creditNotes: 0 });
    fake().addOrganisation(other);
    // The user granted two organisations; the seller's is the one its connection named.
    const tokens = fake().issueTokens([other.tenantId, organisation.tenantId]);
    await connectOAuthSeller(world, {
      sellerId,
      tenantId,
      provider: 'XERO',
      companyName: 'Demo Company (NZ)',
      secret: { ...tokens, expiresIn: '1800', accountId: organisation.tenantId },
    });
  });

  it('populates the ledger with the organisation’s figures in its base currency, through minute limits and 5xx', async () => {
    fake().throttle(2, 1, 'minute');
    fake().failNext(1, 500);
    const outcome = await runSync(world, workers, {
      sellerId,
      tenantId,
      mode: 'populate',
      jobId: 4001,
      pageSize: 50,
    });
    expect(outcome).toMatchObject({ ok: true });
    const expected = figuresOf(organisation, new Set(['broken']));
    const stored = await ledgerFigures(sellerId);
    expect(stored.invoiceIds).toEqual(expected.invoiceIds);
    expect(stored.sales).toBe(expected.sales);
    expect(stored.open).toBe(expected.open);
    expect(stored.paid).toBe(expected.paid);
    expect(stored.customers).toBe(expected.customers);
    // A EUR invoice at rate 0.5 is twice as many base-currency cents; tax goes on the adjustments line.
    const euro = [...organisation.records.Invoices.values()].find((r) => r.CurrencyCode === 'EUR')!;
    const row = stored.ledger.invoices.find((r) => r.providerId === euro.InvoiceID)!;
    expect(row.amount).toBe(cents(euro.Total) * 2);
    expect(sumOf(row.lines, (l) => l.amount)).toBe(row.amount);
    expect(row.lines.at(-1)?.productId).toBe(ledgerIdOf('ledgerwise:adjustments'));
    const tenants = new Set(fake().requests.map((r) => r.headers['xero-tenant-id']));
    expect(tenants).toEqual(new Set([organisation.tenantId]));
    expect(fake().requests.filter((r) => r.path === 'Invoices' && r.status === 200).length).toBeGreaterThan(
      5,
    );
  });

  it('syncs what changed since the CollectionDate with If-Modified-Since: payments, voids, deletes, new invoices', async () => {
    const invoices = organisation.records.Invoices;
    const ids = [...invoices.keys()].filter((id) => id !== 'broken');
    const open = ids.filter((id) => invoices.get(id)!.Status === 'AUTHORISED');
    invoices.set(open[0]!, xeroTouched(invoices.get(open[0]!)!, { Status: 'PAID', AmountDue: 0 }));
    invoices.set(open[1]!, xeroTouched(invoices.get(open[1]!)!, { Status: 'VOIDED', AmountDue: 0 }));
    invoices.set(ids[0]!, xeroTouched(invoices.get(ids[0]!)!, { Status: 'DELETED' }));
    invoices.set(
      'new-1',
      xeroTouched(invoices.get(ids[2]!)!, { InvoiceID: 'new-1', InvoiceNumber: 'INV-NEW' }),
    );
    fake().expireAccessTokens();
    const before = fake().requests.length;

    const outcome = await runSync(world, workers, { sellerId, tenantId, mode: 'sync', jobId: 4002 });
    expect(outcome).toMatchObject({ ok: true });
    expect(fake().refreshes()).toBe(1);
    const syncCalls = fake()
      .requests.slice(before)
      .filter((r) => r.status === 200);
    expect(syncCalls.every((r) => r.headers['if-modified-since'])).toBe(true);

    const expected = figuresOf(organisation, new Set(['broken']));
    const stored = await ledgerFigures(sellerId);
    expect(stored.invoiceIds).toEqual(expected.invoiceIds);
    expect(stored.sales).toBe(expected.sales);
    expect(stored.open).toBe(expected.open);
    expect(stored.paid).toBe(expected.paid);
    // The voided and the deleted invoice leave no row (the feed carries their tombstones).
    const rows = await storedLedger(world.db(), sellerId);
    expect(rows.invoices.filter((r) => [open[1], ids[0]].includes(r.providerId))).toEqual([]);
  });

  it('stops with the daily limit in words when Xero asks to wait for hours', async () => {
    fake().throttle(1, 6 * 3600, 'day');
    const outcome = await runSync(world, workers, { sellerId, tenantId, mode: 'sync', jobId: 4003 });
    expect(outcome.ok).toBe(false);
    const events = await world.events().writeSide.store.readStream(sellerStream(sellerId));
    const failed = events.filter((e) => e.type === 'SellerSyncFailed').at(-1);
    expect((failed?.data as { reason: string }).reason).toBe(
      'Xero is limiting how often we may call it (its daily limit) and asks us to wait 6 hours. The sync stopped; run it again after that.',
    );
    expect((await sellerState(world, sellerId)).authTokenStatus).toBe('ACTIVE');
  });

  it('marks the token REVOKED when Xero refuses the renewal', async () => {
    fake().expireAccessTokens();
    fake().refuseRefresh();
    const outcome = await runSync(world, workers, { sellerId, tenantId, mode: 'sync', jobId: 4004 });
    fake().refuseRefresh(false);
    expect(outcome.ok).toBe(false);
    expect((await sellerState(world, sellerId)).authTokenStatus).toBe('REVOKED');
  });
});
