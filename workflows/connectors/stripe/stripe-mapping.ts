import { z } from 'zod';
import type {
  Application,
  InvoiceLine,
  LedgerCreditMemo,
  LedgerCustomer,
  LedgerInvoice,
  LedgerPayment,
  LedgerProduct,
} from '../../../contracts/ledger';
import { balancedLines, wholeQuantity } from '../shared/ledger-mapping';
import { ledgerIdOf } from '../shared/ledger-ids';
import { minorUnitsToCents } from '../shared/money';

/**
 * Stripe objects into the ledger (docs/adr/0043-accounting-connectors.md). Amounts are integers in the
 * currency's minor unit (zero-decimal currencies scaled to cents); times are Unix seconds. Stripe
 * converts nothing: a connected account's documents are in the currency they were issued in, which
 * for a single-currency account is its default currency. Each function throws on a malformed object.
 */

const Expandable = z.union([z.string().min(1), z.object({ id: z.string().min(1) })]);
const idOf = (value: z.infer<typeof Expandable>) => (typeof value === 'string' ? value : value.id);
const at = (seconds: number) => new Date(seconds * 1000);

export const StripeCustomer = z.object({
  id: z.string().min(1),
  object: z.literal('customer'),
  deleted: z.boolean().optional(),
  name: z.string().nullable().optional(),
  email: z.string().nullable().optional(),
  created: z.number().int(),
});

export const StripeProduct = z.object({
  id: z.string().min(1),
  object: z.literal('product'),
  name: z.string().min(1),
});

const StripeLine = z.object({
  amount: z.number().int(),
  quantity: z.number().nullable().optional(),
  pricing: z
    .object({ price_details: z.object({ product: z.string().optional() }).nullable().optional() })
    .nullable()
    .optional(),
});

export const StripeInvoice = z.object({
  id: z.string().min(1),
  object: z.literal('invoice'),
  status: z.string().nullable(),
  number: z.string().nullable().optional(),
  customer: Expandable,
  currency: z.string().min(3),
  created: z.number().int(),
  effective_at: z.number().int().nullable().optional(),
  due_date: z.number().int().nullable().optional(),
  total: z.number().int(),
  amount_remaining: z.number().int(),
  lines: z.object({ data: z.array(StripeLine), has_more: z.boolean().optional() }),
});
export type StripeInvoice = z.infer<typeof StripeInvoice>;

export const StripeCharge = z.object({
  id: z.string().min(1),
  object: z.literal('charge'),
  status: z.string(),
  customer: Expandable.nullable(),
  amount: z.number().int(),
  amount_refunded: z.number().int().default(0),
  currency: z.string().min(3),
  created: z.number().int(),
  payment_intent: Expandable.nullable().optional(),
});

/**
 * How the current API links a payment to an invoice: an invoice payment names the invoice and the
 * charge, or the PaymentIntent (then its latest_charge, when the list expands it).
 */
export const StripeInvoicePayment = z.object({
  id: z.string().min(1),
  object: z.literal('invoice_payment'),
  status: z.string(),
  amount_paid: z.number().int().nullable(),
  currency: z.string().min(3),
  invoice: Expandable,
  payment: z.object({
    type: z.string(),
    charge: Expandable.nullable().optional(),
    payment_intent: z
      .union([
        z.string().min(1),
        z.object({ id: z.string().min(1), latest_charge: Expandable.nullable().optional() }),
      ])
      .nullable()
      .optional(),
  }),
});

/** One invoice's share of one charge, in ledger cents. */
export type StripeChargeApplication = {
  invoicePaymentId: string;
  invoiceProviderId: string;
  chargeId: string;
  amount: number;
};

/**
 * The application an invoice payment records: only a paid one, with an amount and a charge to name
 * (a PaymentIntent not expanded, or without a charge yet, names none). Null: nothing is applied.
 */
export const mapStripeInvoicePayment = (raw: unknown): StripeChargeApplication | null => {
  const paid = StripeInvoicePayment.parse(raw);
  if (paid.status !== 'paid' || !paid.amount_paid) return null;
  const intent = paid.payment.payment_intent;
  const charge =
    paid.payment.charge ??
    (intent && typeof intent === 'object' && intent.latest_charge ? intent.latest_charge : null);
  if (!charge) return null;
  return {
    invoicePaymentId: paid.id,
    invoiceProviderId: idOf(paid.invoice),
    chargeId: idOf(charge),
    amount: minorUnitsToCents(paid.amount_paid, paid.currency),
  };
};

/** A charge's applications: what its invoice payments gave each invoice. */
export const chargeApplications = (applications: readonly StripeChargeApplication[]): Application[] => {
  const byInvoice = new Map<string, number>();
  for (const a of applications)
    byInvoice.set(a.invoiceProviderId, (byInvoice.get(a.invoiceProviderId) ?? 0) + a.amount);
  return [...byInvoice]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([invoiceProviderId, amount]) => ({ invoiceProviderId, amount }));
};

export const StripeCreditNote = z.object({
  id: z.string().min(1),
  object: z.literal('credit_note'),
  status: z.string(),
  customer: Expandable,
  invoice: Expandable,
  total: z.number().int(),
  currency: z.string().min(3),
  created: z.number().int(),
});

/** Drafts are not receivables yet; a void invoice or credit note no longer counts. */
export const stripeCounts = (object: { status?: string | null }) =>
  object.status !== 'draft' && object.status !== 'void' && object.status !== 'deleted';

export const mapStripeCustomer = (sellerId: number, raw: unknown): LedgerCustomer => {
  const c = StripeCustomer.parse(raw);
  return {
    sellerId,
    providerId: c.id,
    customerId: ledgerIdOf(c.id),
    name: c.name?.trim() || c.email?.trim() || c.id,
    email: c.email?.trim() || null,
    createdAt: at(c.created),
    habit: null,
  };
};

export const mapStripeProduct = (sellerId: number, raw: unknown): LedgerProduct => {
  const p = StripeProduct.parse(raw);
  return { sellerId, providerId: p.id, productId: ledgerIdOf(p.id), name: p.name, unitPrice: 0 };
};

export const mapStripeInvoice = (sellerId: number, invoice: StripeInvoice): LedgerInvoice => {
  const cents = (amount: number) => minorUnitsToCents(amount, invoice.currency);
  const amount = cents(invoice.total);
  const itemLines: InvoiceLine[] = invoice.lines.data
    .filter((line) => line.pricing?.price_details?.product)
    .map((line) => ({
      productId: ledgerIdOf(line.pricing!.price_details!.product!),
      quantity: wholeQuantity(line.quantity),
      amount: cents(line.amount),
    }));
  const transactionDate = at(invoice.effective_at ?? invoice.created);
  return {
    sellerId,
    providerId: invoice.id,
    customerId: ledgerIdOf(idOf(invoice.customer)),
    docNumber: invoice.number?.trim() || invoice.id,
    transactionDate,
    dueDate: invoice.due_date ? at(invoice.due_date) : transactionDate,
    amount,
    balance: cents(invoice.amount_remaining),
    lines: balancedLines(itemLines, amount),
  };
};

/**
 * A succeeded charge of a customer, less what was refunded; other charges are no receivable's
 * payment. Its applications come from the invoice payments naming it (the connector fills them).
 */
export const mapStripeCharge = (sellerId: number, raw: unknown): LedgerPayment | null => {
  const charge = StripeCharge.parse(raw);
  if (charge.status !== 'succeeded' || charge.customer === null) return null;
  return {
    sellerId,
    providerId: charge.id,
    customerId: ledgerIdOf(idOf(charge.customer)),
    date: at(charge.created),
    amount: minorUnitsToCents(charge.amount - charge.amount_refunded, charge.currency),
    applications: [],
  };
};

export const mapStripeCreditNote = (sellerId: number, raw: unknown): LedgerCreditMemo => {
  const note = StripeCreditNote.parse(raw);
  const amount = minorUnitsToCents(note.total, note.currency);
  return {
    sellerId,
    providerId: note.id,
    customerId: ledgerIdOf(idOf(note.customer)),
    date: at(note.created),
    amount,
    applications: [{ invoiceProviderId: idOf(note.invoice), amount }],
  };
};
