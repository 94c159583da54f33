import { LedgerFeedRecord } from '../../contracts/kafka/ledger-records';
import { LEDGER_OUTBOX, outboxValuesOf, type LedgerOutboxEntry } from '../../workflows/ledger/ledger-outbox';
import { ledgerEntities } from '../../workflows/ledger/ledger-collections';
import { ledgerIdOf } from '../../workflows/connectors/shared/ledger-ids';
import { useLedgerWorld } from '../workflows/ledger-world';
import {
  startStripeFake,
  stripeAccount,
  stripeEventOf,
  stripeInvoiceOf,
  stripePaymentOf,
  type StripeAccount,
} from '../fakes/stripe-fake';
import { connectOAuthSeller, runSync, storedLedger, sumOf, usePlatformFake } from './connector-world';

/**
 * Issue 16's "incremental sync with changes and deletes" for Stripe, against the local Stripe list
 * fake (stripe-mock answers one fixed object per kind, so it cannot change between syncs): a
 * populate, then the account's events since the CollectionDate bring a paid invoice, a new one, a
 * voided invoice, a voided credit note and a deleted customer. The ledger's figures equal the
 * account's after each.
 */

jest.setTimeout(180_000);

const world = useLedgerWorld(__filename);
const { fake, workers } = usePlatformFake(world, startStripeFake);

type Json = Record<string, unknown>;

/** What the account's books say, from the fake's objects in Stripe's shapes. */
const figuresOf = (account: StripeAccount) => {
  const counts = (o: Json) => o.status !== 'draft' && o.status !== 'void';
  const invoices = [...account.objects.invoices.values()].filter(counts);
  const charges = [...account.objects.charges.values()].filter((c) => c.status === 'succeeded');
  const notes = [...account.objects.credit_notes.values()].filter(counts);
  return {
    invoiceIds: invoices.map((r) => String(r.id)).sort(),
    sales: sumOf(invoices, (r) => Number(r.total)),
    open: sumOf(invoices, (r) => Number(r.amount_remaining)),
    chargeIds: charges.map((r) => String(r.id)).sort(),
    paid: sumOf(charges, (r) => Number(r.amount)),
    noteIds: notes.map((r) => String(r.id)).sort(),
    credits: sumOf(notes, (r) => Number(r.total)),
    customers: account.objects.customers.size + account.deletedCustomers.size,
  };
};

const ledgerFigures = async (sellerId: number) => {
  const ledger = await storedLedger(world.db(), sellerId);
  return {
    ledger,
    figures: {
      invoiceIds: ledger.invoices.map((r) => r.providerId).sort(),
      sales: sumOf(ledger.invoices, (r) => r.amount),
      open: sumOf(ledger.invoices, (r) => r.balance),
      chargeIds: ledger.payments.map((r) => r.providerId).sort(),
      paid: sumOf(ledger.payments, (r) => r.amount),
      noteIds: ledger.creditMemos.map((r) => r.providerId).sort(),
      credits: sumOf(ledger.creditMemos, (r) => r.amount),
      customers: ledger.customers.length,
    },
  };
};

/** Every invoice's amount less what charges and credit notes apply to it is its amount_remaining. */
const expectApplicationsAgree = async (sellerId: number, account: StripeAccount) => {
  const ledger = await storedLedger(world.db(), sellerId);
  const applied = new Map<string, number>();
  for (const settlement of [...ledger.payments, ...ledger.creditMemos])
    for (const a of settlement.applications)
      applied.set(a.invoiceProviderId, (applied.get(a.invoiceProviderId) ?? 0) + a.amount);
  const disagree = ledger.invoices.filter(
    (invoice) =>
      invoice.amount - (applied.get(invoice.providerId) ?? 0) !==
      Number(account.objects.invoices.get(invoice.providerId)!.amount_remaining),
  );
  expect(disagree).toEqual([]);
};

const tombstones = async (sellerId: number) => {
  const entries = await world.db().collection<LedgerOutboxEntry>(LEDGER_OUTBOX).find({ sellerId }).toArray();
  return entries
    .flatMap((entry) => ledgerEntities.flatMap((entity) => outboxValuesOf(entry, entity)))
    .map((line) => LedgerFeedRecord.parse(JSON.parse(line)))
    .filter((record) => record.deleted)
    .map((record) => record.recordId)
    .sort();
};

describe('Stripe incremental sync with changes and deletes, through the Stripe fake', () => {
  const tenantId = 56;
  const sellerId = 561;
  let account: StripeAccount;

  beforeAll(async () => {
    account = stripeAccount('acct_1SyncRides', { customers: 12, products: 3, invoices: 60, creditNotes: 3 });
    fake().addAccount(account);
    await connectOAuthSeller(world, {
      sellerId,
      tenantId,
      provider: 'STRIPE',
      companyName: 'Sync Rides',
      secret: { accessToken: 'sk_test_connected', tokenType: 'bearer', accountId: account.id },
    });
  });

  it('populates the account’s books, paging every list through a rate limit and 5xx answers', async () => {
    // The package retries 5xx itself; a 429 fails the attempt, which resumes from its checkpoint.
    fake().throttle(1);
    fake().failNext(2, 503);
    const outcome = await runSync(world, workers, {
      sellerId,
      tenantId,
      mode: 'populate',
      jobId: 5601,
      pageSize: 25,
    });
    expect(outcome).toMatchObject({ ok: true });
    expect((await ledgerFigures(sellerId)).figures).toEqual(figuresOf(account));
    await expectApplicationsAgree(sellerId, account);
    expect(fake().requests.filter((r) => r.status === 429)).toHaveLength(1);
    expect(fake().requests.filter((r) => r.status === 503)).toHaveLength(2);
    // Pages of 25 follow starting_after through the 60 invoices.
    const invoicePages = fake().requests.filter((r) => r.path === '/v1/invoices');
    expect(invoicePages.map((r) => r.query.starting_after ?? null)).toEqual([
      null,
      'in_K000035',
      'in_K000010',
    ]);
  });

  it('syncs a payment, a new invoice, voids and a deleted customer from the events since the last sync', async () => {
    // Stripe's `created` has whole seconds: changes in the second the populate ended would read as older.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const { invoices, charges, credit_notes: notes } = account.objects;
    const open = [...invoices.values()].filter((i) => i.status === 'open');
    const now = Math.floor(Date.now() / 1000);

    // An open invoice is paid in full by a charge, through an invoice payment.
    const toPay = open[0]!;
    const payment = stripePaymentOf({
      key: 'Kpaid1',
      customer: String(toPay.customer),
      invoice: String(toPay.id),
      amount: Number(toPay.amount_remaining),
      created: now,
    });
    const paid = { ...toPay, status: 'paid', amount_paid: toPay.amount_remaining, amount_remaining: 0 };
    invoices.set(String(toPay.id), paid);
    charges.set(String(payment.charge.id), payment.charge);
    account.objects.payment_intents.set(String(payment.intent.id), payment.intent);
    account.objects.invoice_payments.set(String(payment.invoicePayment.id), payment.invoicePayment);
    stripeEventOf(account, 'charge.succeeded', payment.charge);
    stripeEventOf(account, 'invoice_payment.paid', payment.invoicePayment);
    stripeEventOf(account, 'invoice.paid', paid);

    // An open invoice is voided: its row goes, with a tombstone on the feed.
    const toVoid = open.find((i) => !notes.has(`cn_${String(i.id).slice(3)}`) && i !== toPay)!;
    const voided = { ...toVoid, status: 'void', amount_remaining: 0 };
    invoices.set(String(toVoid.id), voided);
    stripeEventOf(account, 'invoice.voided', voided);

    // A credit note is voided: its row goes, and its invoice is owed in full again.
    const note = [...notes.values()][0]!;
    const voidedNote = { ...note, status: 'void', voided_at: now };
    notes.set(String(note.id), voidedNote);
    const credited = invoices.get(String(note.invoice))!;
    const reopened = { ...credited, amount_remaining: credited.total, pre_payment_credit_notes_amount: 0 };
    invoices.set(String(credited.id), reopened);
    stripeEventOf(account, 'credit_note.voided', voidedNote);
    stripeEventOf(account, 'invoice.updated', reopened);

    // A new invoice for a new customer.
    const customer = {
      ...account.objects.customers.get('cus_K000000')!,
      id: 'cus_Knew001',
      name: 'New Rider',
      email: 'new.rider@example.test',
      created: now,
    };
    account.objects.customers.set(customer.id, customer);
    stripeEventOf(account, 'customer.created', customer);
    const fresh = stripeInvoiceOf({
      id: 'in_Knew001',
      customer: customer.id,
      created: now,
      number: 'KNEW-0001',
      lines: (toPay.lines as { data: Json[] }).data,
      total: Number(toPay.total),
      subtotal: Number(toPay.subtotal),
      amountPaid: 0,
      amountRemaining: Number(toPay.total),
      status: 'open',
    });
    invoices.set('in_Knew001', fresh);
    stripeEventOf(account, 'invoice.finalized', fresh);

    // A customer is deleted. Stripe keeps its invoices (and the ledger its row, which they name).
    const gone = account.objects.customers.get('cus_K000005')!;
    account.objects.customers.delete(String(gone.id));
    account.deletedCustomers.add(String(gone.id));
    stripeEventOf(account, 'customer.deleted', gone);

    const outcome = await runSync(world, workers, { sellerId, tenantId, mode: 'sync', jobId: 5602 });
    expect(outcome).toMatchObject({ ok: true });
    const { ledger, figures } = await ledgerFigures(sellerId);
    expect(figures).toEqual(figuresOf(account));
    await expectApplicationsAgree(sellerId, account);
    expect(await tombstones(sellerId)).toEqual(
      [
        `invoices:${sellerId}:${String(toVoid.id)}:5601:deleted`,
        `creditMemos:${sellerId}:${String(note.id)}:5601:deleted`,
      ].sort(),
    );
    expect(ledger.payments.find((p) => p.providerId === payment.charge.id)).toMatchObject({
      amount: Number(toPay.amount_remaining),
      applications: [{ invoiceProviderId: toPay.id, amount: Number(toPay.amount_remaining) }],
    });
    expect(ledger.invoices.find((i) => i.providerId === 'in_Knew001')).toMatchObject({
      customerId: ledgerIdOf('cus_Knew001'),
      balance: Number(toPay.total),
    });
    expect(ledger.customers.some((c) => c.providerId === gone.id)).toBe(true);
    expect(ledger.invoices.filter((i) => i.customerId === ledgerIdOf(String(gone.id))).length).toBe(
      [...invoices.values()].filter((i) => i.customer === gone.id && i.status !== 'void').length,
    );
    // Only the events' objects were read again, not the lists.
    const syncCalls = fake().requests.slice(fake().requests.findIndex((r) => r.path === '/v1/events'));
    expect(syncCalls.some((r) => r.path === '/v1/invoices')).toBe(false);
  });
});
