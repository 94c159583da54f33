import type {
  InvoiceLine,
  LedgerCreditMemo,
  LedgerCustomer,
  LedgerInvoice,
  LedgerPayment,
  LedgerProduct,
} from '../../../contracts/ledger';
import { balancedLines, wholeQuantity } from '../shared/ledger-mapping';
import { ledgerIdOf } from '../shared/ledger-ids';
import { decimalToCents } from '../shared/money';
import { xeroDate, XeroContact, XeroCreditNote, XeroInvoice, XeroItem, XeroPayment } from './xero-formats';

/**
 * Xero records into the ledger (docs/adr/0043-accounting-connectors.md). Amounts are converted into
 * the organisation's base currency by dividing by CurrencyRate. Invoice lines name items by Code, so
 * a product's ledger id comes from its code. Deleted and voided documents are the connector's
 * business (it deletes what was stored); these functions map the rest and throw on malformed records.
 */

const baseCents = (amount: number | string, rate: number | string | undefined) => {
  const cents = decimalToCents(amount);
  const r = rate === undefined || rate === '' ? 1 : Number(rate);
  if (!Number.isFinite(r) || r <= 0) throw new Error(`not a currency rate: ${rate}`);
  return r === 1 ? cents : Math.round(cents / r);
};

export const xeroProductIdOf = (code: string) => ledgerIdOf(`code:${code}`);

export const mapXeroContact = (sellerId: number, raw: unknown, fallbackCreated: Date): LedgerCustomer => {
  const c = XeroContact.parse(raw);
  if (!c.Name?.trim()) throw new Error('the contact has no name');
  return {
    sellerId,
    providerId: c.ContactID,
    customerId: ledgerIdOf(c.ContactID),
    name: c.Name.trim(),
    email: c.EmailAddress?.trim() || null,
    // Xero does not say when a contact was created; its last change is the closest it tells.
    createdAt: c.UpdatedDateUTC ? xeroDate(c.UpdatedDateUTC) : fallbackCreated,
    habit: null,
  };
};

export const mapXeroItem = (sellerId: number, raw: unknown): LedgerProduct => {
  const item = XeroItem.parse(raw);
  return {
    sellerId,
    providerId: item.ItemID,
    productId: xeroProductIdOf(item.Code),
    name: item.Name?.trim() || item.Code,
    unitPrice: decimalToCents(item.SalesDetails?.UnitPrice ?? 0),
  };
};

export const mapXeroInvoice = (sellerId: number, raw: unknown): LedgerInvoice => {
  const invoice = XeroInvoice.parse(raw);
  const rate = invoice.CurrencyRate;
  const amount = baseCents(invoice.Total, rate);
  const itemLines: InvoiceLine[] = invoice.LineItems.filter((line) => line.ItemCode).map((line) => ({
    productId: xeroProductIdOf(line.ItemCode!),
    quantity: wholeQuantity(line.Quantity),
    amount: baseCents(line.LineAmount ?? 0, rate),
  }));
  const transactionDate = xeroDate(invoice.Date);
  return {
    sellerId,
    providerId: invoice.InvoiceID,
    customerId: ledgerIdOf(invoice.Contact.ContactID),
    docNumber: invoice.InvoiceNumber?.trim() || invoice.InvoiceID,
    transactionDate,
    dueDate: invoice.DueDate ? xeroDate(invoice.DueDate) : transactionDate,
    amount,
    balance: baseCents(invoice.AmountDue, rate),
    lines: balancedLines(itemLines, amount),
  };
};

/** A payment names its invoice; its customer is the invoice's contact. */
export const mapXeroPayment = (sellerId: number, raw: unknown): LedgerPayment => {
  const payment = XeroPayment.parse(raw);
  const contact = payment.Invoice.Contact?.ContactID;
  if (!contact) throw new Error("the payment's invoice names no contact");
  const amount = baseCents(payment.Amount, payment.CurrencyRate);
  return {
    sellerId,
    providerId: payment.PaymentID,
    customerId: ledgerIdOf(contact),
    date: xeroDate(payment.Date),
    amount,
    applications: [{ invoiceProviderId: payment.Invoice.InvoiceID, amount }],
  };
};

export const mapXeroCreditNote = (sellerId: number, raw: unknown): LedgerCreditMemo => {
  const note = XeroCreditNote.parse(raw);
  const rate = note.CurrencyRate;
  return {
    sellerId,
    providerId: note.CreditNoteID,
    customerId: ledgerIdOf(note.Contact.ContactID),
    date: xeroDate(note.Date),
    amount: baseCents(note.Total, rate),
    applications: note.Allocations.map((a) => ({
      invoiceProviderId: a.Invoice.InvoiceID,
      amount: baseCents(a.Amount, rate),
    })),
  };
};
