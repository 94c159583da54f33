import { ledgerIdOf } from '../shared/ledger-ids';
import { adjustmentsProductId } from '../shared/ledger-mapping';
import {
  chargeApplications,
  mapStripeCharge,
  mapStripeInvoice,
  mapStripeInvoicePayment,
  StripeInvoice,
  stripeCounts,
} from './stripe-mapping';

/** Trimmed from the API's invoice object (the fields the mapping reads, as Stripe spells them). */
const invoice = (changes: Record<string, unknown> = {}) =>
  StripeInvoice.parse({
    id: 'in_1Pgc6tB7WZ01zgkWu9fdqL6I',
    object: 'invoice',
    status: 'open',
    number: 'ABCD-0042',
    customer: 'cus_QXg1o8vcGmoR32',
    currency: 'usd',
    created: 1717200000,
    effective_at: 1717286400,
    due_date: 1719878400,
    total: 12_870,
    amount_remaining: 2_870,
    lines: {
      object: 'list',
      has_more: false,
      data: [
        {
          amount: 10_000,
          quantity: 2,
          pricing: { type: 'price_details', price_details: { product: 'prod_A' } },
        },
        {
          amount: 1_900,
          quantity: 1,
          pricing: { type: 'price_details', price_details: { product: 'prod_B' } },
        },
      ],
    },
    ...changes,
  });

describe('Stripe mapping', () => {
  it('keeps an open invoice in cents with its product lines, tax on the adjustments line', () => {
    const row = mapStripeInvoice(7, invoice());
    expect(row).toEqual({
      sellerId: 7,
      providerId: 'in_1Pgc6tB7WZ01zgkWu9fdqL6I',
      customerId: ledgerIdOf('cus_QXg1o8vcGmoR32'),
      docNumber: 'ABCD-0042',
      transactionDate: new Date('2024-06-02T00:00:00Z'),
      dueDate: new Date('2024-07-02T00:00:00Z'),
      amount: 12_870,
      balance: 2_870,
      lines: [
        { productId: ledgerIdOf('prod_A'), quantity: 2, amount: 10_000 },
        { productId: ledgerIdOf('prod_B'), quantity: 1, amount: 1_900 },
        { productId: adjustmentsProductId, quantity: 1, amount: 970 },
      ],
    });
  });

  it('scales a zero-decimal currency to cents', () => {
    const row = mapStripeInvoice(
      7,
      invoice({ currency: 'jpy', total: 5000, amount_remaining: 0, lines: { data: [] } }),
    );
    expect(row).toMatchObject({
      amount: 500_000,
      balance: 0,
      lines: [{ productId: adjustmentsProductId, amount: 500_000 }],
    });
  });

  it('counts neither drafts nor void documents', () => {
    expect(stripeCounts({ status: 'draft' })).toBe(false);
    expect(stripeCounts({ status: 'void' })).toBe(false);
    expect(stripeCounts({ status: 'uncollectible' })).toBe(true);
  });

  it('takes a customer’s succeeded charge less refunds, and no other charge', () => {
    const charge = {
      id: 'ch_1',
      object: 'charge',
      customer: 'cus_1',
      amount: 5000,
      amount_refunded: 1200,
      currency: 'gbp',
      created: 1717200000,
    };
    expect(mapStripeCharge(7, { ...charge, status: 'succeeded' })).toMatchObject({
      amount: 3800,
      customerId: ledgerIdOf('cus_1'),
    });
    expect(mapStripeCharge(7, { ...charge, status: 'failed' })).toBeNull();
    expect(mapStripeCharge(7, { ...charge, status: 'succeeded', customer: null })).toBeNull();
  });
});

describe('Stripe invoice payments (the current API’s charge-to-invoice link)', () => {
  const paid = {
    id: 'inpay_1',
    object: 'invoice_payment',
    status: 'paid',
    amount_paid: 1250,
    currency: 'jpy',
    invoice: 'in_1',
    payment: { type: 'charge', charge: 'ch_1' },
  };

  it('applies what was paid to the invoice, in cents, naming the charge', () => {
    expect(mapStripeInvoicePayment(paid)).toEqual({
      invoicePaymentId: 'inpay_1',
      invoiceProviderId: 'in_1',
      chargeId: 'ch_1',
      amount: 125_000,
    });
  });

  it('names the charge of an expanded PaymentIntent, and nothing for one not paid or not charged', () => {
    const byIntent = {
      ...paid,
      currency: 'usd',
      payment: { type: 'payment_intent', payment_intent: { id: 'pi_1', latest_charge: 'ch_9' } },
    };
    expect(mapStripeInvoicePayment(byIntent)).toMatchObject({ chargeId: 'ch_9', amount: 1250 });
    expect(mapStripeInvoicePayment({ ...byIntent, status: 'open' })).toBeNull();
    expect(
      mapStripeInvoicePayment({ ...byIntent, payment: { type: 'payment_intent', payment_intent: 'pi_1' } }),
    ).toBeNull();
  });

  it('sums a charge’s applications per invoice', () => {
    expect(
      chargeApplications([
        { invoicePaymentId: 'a', invoiceProviderId: 'in_2', chargeId: 'ch_1', amount: 300 },
        { invoicePaymentId: 'b', invoiceProviderId: 'in_1', chargeId: 'ch_1', amount: 200 },
        { invoicePaymentId: 'c', invoiceProviderId: 'in_2', chargeId: 'ch_1', amount: 100 },
      ]),
    ).toEqual([
      { invoiceProviderId: 'in_1', amount: 200 },
      { invoiceProviderId: 'in_2', amount: 400 },
    ]);
  });
});
