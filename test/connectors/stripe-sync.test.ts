import type { Config } from '../../contracts/config';
import { LedgerFeedRecord } from '../../contracts/kafka/ledger-records';
import { LEDGER_OUTBOX, outboxValuesOf, type LedgerOutboxEntry } from '../../workflows/ledger/ledger-outbox';
import { ledgerIdOf } from '../../workflows/connectors/shared/ledger-ids';
import { useLedgerWorld } from '../workflows/ledger-world';
import { connectOAuthSeller, connectorWorkers, runSync, storedLedger, sumOf } from './connector-world';
import { startStripeMock, type StripeMockServer } from './stripe-mock-server';

jest.setTimeout(120_000);

const world = useLedgerWorld(__filename);
let mock: StripeMockServer;
let config: Config;
const workers = connectorWorkers(world, () => config);

// Stripe's own fixture ids, made into small books that agree: an open invoice of 10.00 for Rocket
// Rides' customer, 6.00 paid by a charge through an invoice payment (the current API's link), 1.50
// credited by a credit note, 2.50 still owed.
const CUSTOMER = 'cus_QXg1o8vcGmoR32';
const PRODUCT = 'prod_QXg1hqf4jFNsqG';
const INVOICE = 'in_1Pgc6tB7WZ01zgkWu9fdqL6I';
const CHARGE = 'ch_1PgafuB7WZ01zgkWXYmPNZs8';
const INTENT = 'pi_1PgafyB7WZ01zgkWSjxsAJo3';
const INVOICE_PAYMENT = 'inpay_1PgaggB7WZ01zgkWLedger01';
const PAID = 600;
const CREDITED = 150;
const TOTAL = 1000;

const invoicePayment = {
  id: INVOICE_PAYMENT,
  object: 'invoice_payment',
  amount_paid: PAID,
  amount_requested: TOTAL,
  created: 1721954100,
  currency: 'usd',
  invoice: INVOICE,
  is_default: true,
  livemode: false,
  payment: { type: 'payment_intent', payment_intent: INTENT },
  status: 'paid',
  status_transitions: { canceled_at: null, paid_at: 1721954100 },
};

beforeAll(async () => {
  mock = await startStripeMock({
    invoice: (bundled) => ({
      ...bundled,
      status: 'open',
      number: 'RR-0001',
      amount_due: TOTAL,
      amount_paid: PAID,
      amount_remaining: TOTAL - PAID - CREDITED,
      lines: {
        ...(bundled.lines as object),
        data: ((bundled.lines as { data: object[] }).data ?? []).map((line) => ({
          ...line,
          amount: TOTAL,
          quantity: 1,
          pricing: { type: 'price_details', price_details: { price: 'price_1', product: PRODUCT } },
        })),
      },
    }),
    line_item: (bundled) => ({
      ...bundled,
      amount: TOTAL,
      quantity: 1,
      pricing: { type: 'price_details', price_details: { price: 'price_1', product: PRODUCT } },
    }),
    charge: (bundled) => ({
      ...bundled,
      amount: PAID,
      amount_captured: PAID,
      amount_refunded: 0,
      status: 'succeeded',
      customer: CUSTOMER,
      payment_intent: INTENT,
    }),
    payment_intent: (bundled) => ({
      ...bundled,
      amount: PAID,
      amount_received: PAID,
      status: 'succeeded',
      customer: CUSTOMER,
      latest_charge: CHARGE,
    }),
    invoice_payment: () => invoicePayment,
    credit_note: (bundled) => ({ ...bundled, invoice: INVOICE, amount: CREDITED, total: CREDITED }),
    event: (bundled) => ({
      ...bundled,
      type: 'invoice_payment.paid',
      created: Math.floor(Date.now() / 1000),
      data: { object: invoicePayment },
    }),
  });
  config = { ...world.config, STRIPE_API_URL: mock.url };
});

afterAll(async () => {
  await workers.close();
  await mock.close();
});

type Listed = { data: Record<string, unknown>[] };

/** What stripe-mock answers, read without the connector. */
const fixtures = async (path: string): Promise<Record<string, unknown>[]> => {
  const response = await fetch(`${mock.url}/v1/${path}?limit=100`, {
    headers: {
      authorization: `Bearer ${config.STRIPE_SECRET_KEY}`,
      'stripe-account': 'acct_1LedgerwiseTest',
    },
  });
  return ((await response.json()) as Listed).data;
};

describe('Stripe sync against stripe-mock', () => {
  const tenantId = 51;
  const sellerId = 501;

  beforeAll(async () => {
    await connectOAuthSeller(world, {
      sellerId,
      tenantId,
      provider: 'STRIPE',
      companyName: 'Rocket Rides',
      secret: { accessToken: 'sk_test_connected', tokenType: 'bearer', accountId: 'acct_1LedgerwiseTest' },
    });
  });

  it('populates invoices, charges applied through invoice payments and credit notes with Stripe’s figures', async () => {
    const outcome = await runSync(world, workers, { sellerId, tenantId, mode: 'populate', jobId: 5001 });
    expect(outcome).toMatchObject({ ok: true });
    const ledger = await storedLedger(world.db(), sellerId);

    const customers = (await fixtures('customers')).filter((c) => !c.deleted);
    expect(ledger.customers.map((c) => c.providerId).sort()).toEqual(
      customers.map((c) => String(c.id)).sort(),
    );
    expect(ledger.customers[0]).toMatchObject({ customerId: ledgerIdOf(CUSTOMER), habit: null });

    const [invoice] = await fixtures('invoices');
    expect(ledger.invoices).toEqual([
      {
        sellerId,
        providerId: INVOICE,
        customerId: ledgerIdOf(CUSTOMER),
        docNumber: 'RR-0001',
        transactionDate: new Date(Number(invoice!.effective_at) * 1000),
        dueDate: new Date(Number(invoice!.due_date) * 1000),
        amount: TOTAL,
        balance: TOTAL - PAID - CREDITED,
        lines: [{ productId: ledgerIdOf(PRODUCT), quantity: 1, amount: TOTAL }],
      },
    ]);
    const [charge] = await fixtures('charges');
    // The charge names no invoice; the invoice payment (by its PaymentIntent) says what it paid.
    expect(charge).not.toHaveProperty('invoice');
    expect(ledger.payments).toEqual([
      {
        sellerId,
        providerId: CHARGE,
        customerId: ledgerIdOf(CUSTOMER),
        date: new Date(Number(charge!.created) * 1000),
        amount: PAID,
        applications: [{ invoiceProviderId: INVOICE, amount: PAID }],
      },
    ]);
    const [note] = await fixtures('credit_notes');
    expect(ledger.creditMemos).toEqual([
      {
        sellerId,
        providerId: String(note!.id),
        customerId: ledgerIdOf(CUSTOMER),
        date: new Date(Number(note!.created) * 1000),
        amount: CREDITED,
        applications: [{ invoiceProviderId: INVOICE, amount: CREDITED }],
      },
    ]);
    // What is applied to the invoice leaves exactly Stripe's amount_remaining.
    const applied = sumOf([...ledger.payments, ...ledger.creditMemos], (s) =>
      sumOf(s.applications, (a) => a.amount),
    );
    expect(TOTAL - applied).toBe(invoice!.amount_remaining);
    const products = await fixtures('products');
    expect(ledger.products.map((p) => p.providerId).sort()).toEqual(
      [...products.map((p) => String(p.id)), 'ledgerwise:adjustments'].sort(),
    );
  });

  it('syncs from the account’s events since the CollectionDate, an invoice payment rewriting nothing twice', async () => {
    const before = await storedLedger(world.db(), sellerId);
    const outcome = await runSync(world, workers, { sellerId, tenantId, mode: 'sync', jobId: 5002 });
    expect(outcome).toMatchObject({ ok: true });
    expect(await storedLedger(world.db(), sellerId)).toEqual(before);
    expect((await storedLedger(world.db(), sellerId)).payments[0]!.applications).toEqual([
      { invoiceProviderId: INVOICE, amount: PAID },
    ]);
  });

  it('deletes a voided invoice’s row and puts its tombstone on the feed', async () => {
    // The same account a moment later, as a stripe-mock of its own: the invoice is void now and
    // the events name it.
    const later = await startStripeMock({
      invoice: (bundled) => ({ ...bundled, status: 'void', amount_remaining: 0 }),
      event: (bundled) => ({
        ...bundled,
        type: 'invoice.voided',
        created: Math.floor(Date.now() / 1000),
        data: { object: { id: INVOICE, object: 'invoice', status: 'void' } },
      }),
    });
    const earlier = config;
    config = { ...world.config, STRIPE_API_URL: later.url };
    try {
      const outcome = await runSync(world, workers, { sellerId, tenantId, mode: 'sync', jobId: 5003 });
      expect(outcome).toMatchObject({ ok: true });
    } finally {
      config = earlier;
      await later.close();
    }
    const ledger = await storedLedger(world.db(), sellerId);
    expect(ledger.invoices).toEqual([]);
    const entries = await world
      .db()
      .collection<LedgerOutboxEntry>(LEDGER_OUTBOX)
      .find({ sellerId })
      .toArray();
    const tombstones = entries
      .flatMap((entry) => outboxValuesOf(entry, 'invoices'))
      .map((line) => LedgerFeedRecord.parse(JSON.parse(line)))
      .filter((record) => record.deleted);
    expect(tombstones).toEqual([
      expect.objectContaining({
        providerId: INVOICE,
        recordId: `invoices:${sellerId}:${INVOICE}:5001:deleted`,
      }),
    ]);
  });
});
