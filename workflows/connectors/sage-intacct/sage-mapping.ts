import type {
  Application,
  InvoiceLine,
  LedgerCreditMemo,
  LedgerCustomer,
  LedgerInvoice,
  LedgerPayment,
  LedgerProduct,
} from '../../../contracts/ledger';
import { balancedLines } from '../shared/ledger-mapping';
import { ledgerIdOf } from '../shared/ledger-ids';
import { decimalToCents } from '../shared/money';
import { textAt, type XmlElement } from '../qbd/xml';

/**
 * Sage Intacct records (readByQuery with fields *: upper-case field elements) into the ledger (ADR 44,
 * Sage section). Customers are keyed by CUSTOMERID, which transactions name; transactions by RECORDNO.
 * Amounts are the base-currency fields (TOTALENTERED, TOTALDUE), so a foreign-currency invoice is
 * already in the company's currency. An invoice's lines are its ARINVOICEITEMs (RECORDKEY names the
 * invoice) with an item (ITEMID; AR lines carry no quantity, so 1); lines on a GL account only, and
 * what the lines do not add up to, go on the adjustments product. Applications are ARPYMTDETAILs
 * (PAYMENTKEY names the payment, RECORDKEY the invoice paid): PAYMENTAMOUNT is the payment's cash
 * applied, ADJUSTMENTAMOUNT a credit adjustment's (ADJUSTMENTKEY) applied. Each function throws on a
 * malformed record.
 */

const required = (record: XmlElement, name: string): string => {
  const value = textAt(record, name);
  if (!value) throw new Error(`${name} is missing`);
  return value;
};

/** Sage dates: MM/DD/YYYY, optionally with HH:MM:SS (the company's time zone; read as UTC). */
export const sageDate = (text: string): Date => {
  const match = /^(\d{2})\/(\d{2})\/(\d{4})(?:\s+(\d{2}):(\d{2}):(\d{2}))?$/.exec(text.trim());
  if (!match) throw new Error(`not a Sage date: ${text}`);
  const [, mm, dd, yyyy, h = '00', m = '00', s = '00'] = match;
  const date = new Date(`${yyyy}-${mm}-${dd}T${h}:${m}:${s}.000Z`);
  if (Number.isNaN(date.getTime())) throw new Error(`not a Sage date: ${text}`);
  return date;
};

/** A query literal for WHENMODIFIED: MM/DD/YYYY HH:MM:SS. */
export const sageDateTime = (date: Date): string => {
  const iso = date.toISOString();
  return `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)} ${iso.slice(11, 19)}`;
};

export const sageRecordId = (record: XmlElement): string =>
  textAt(record, 'RECORDNO') ?? textAt(record, 'CUSTOMERID') ?? '(no RECORDNO)';

export const mapSageCustomer = (sellerId: number, record: XmlElement): LedgerCustomer => {
  const id = required(record, 'CUSTOMERID');
  return {
    sellerId,
    providerId: id,
    customerId: ledgerIdOf(id),
    name: required(record, 'NAME'),
    email: textAt(record, 'DISPLAYCONTACT.EMAIL1') || null,
    createdAt: sageDate(textAt(record, 'WHENCREATED') || '01/01/1970'),
    habit: null,
  };
};

/** A base-currency amount field, else the transaction-currency one, else 0. */
const amountOf = (record: XmlElement, field: string) =>
  decimalToCents(textAt(record, field) || textAt(record, `TRX_${field}`) || '0');

/** An invoice line's item: the product of the ledger (Sage's AR lines name the item, not its price). */
export const mapSageLineItem = (sellerId: number, item: XmlElement): LedgerProduct | null => {
  const id = textAt(item, 'ITEMID');
  if (!id) return null;
  return {
    sellerId,
    providerId: id,
    productId: ledgerIdOf(id),
    name: textAt(item, 'ITEMNAME') || id,
    unitPrice: 0,
  };
};

export const mapSageInvoice = (
  sellerId: number,
  record: XmlElement,
  items: readonly XmlElement[] = [],
): LedgerInvoice => {
  const id = required(record, 'RECORDNO');
  const amount = decimalToCents(required(record, 'TOTALENTERED'));
  const itemLines: InvoiceLine[] = items
    .filter((item) => textAt(item, 'ITEMID'))
    .map((item) => ({
      productId: ledgerIdOf(textAt(item, 'ITEMID')!),
      quantity: 1,
      amount: amountOf(item, 'AMOUNT'),
    }));
  const transactionDate = sageDate(required(record, 'WHENCREATED'));
  const due = textAt(record, 'WHENDUE');
  return {
    sellerId,
    providerId: id,
    customerId: ledgerIdOf(required(record, 'CUSTOMERID')),
    docNumber: textAt(record, 'RECORDID') || id,
    transactionDate,
    dueDate: due ? sageDate(due) : transactionDate,
    amount,
    balance: decimalToCents(textAt(record, 'TOTALDUE') || '0'),
    lines: balancedLines(itemLines, amount),
  };
};

/** Applications summed per invoice (RECORDKEY) from payment details' `field`; zero ones dropped. */
export const sageApplications = (details: readonly XmlElement[], field: string): Application[] => {
  const byInvoice = new Map<string, number>();
  for (const detail of details) {
    const invoice = textAt(detail, 'RECORDKEY');
    // A credit applied may be listed negative (it lowers what is owed): the ledger applies it positive.
    const amount = field === 'ADJUSTMENTAMOUNT' ? Math.abs(amountOf(detail, field)) : amountOf(detail, field);
    if (!invoice || amount === 0) continue;
    byInvoice.set(invoice, (byInvoice.get(invoice) ?? 0) + amount);
  }
  return [...byInvoice]
    .filter(([, amount]) => amount !== 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([invoiceProviderId, amount]) => ({ invoiceProviderId, amount }));
};

/** A payment with its details (those whose PAYMENTKEY is its RECORDNO): the cash applied per invoice. */
export const mapSagePayment = (
  sellerId: number,
  record: XmlElement,
  details: readonly XmlElement[] = [],
): LedgerPayment => ({
  sellerId,
  providerId: required(record, 'RECORDNO'),
  customerId: ledgerIdOf(required(record, 'CUSTOMERID')),
  date: sageDate(textAt(record, 'RECEIPTDATE') || required(record, 'WHENCREATED')),
  amount: decimalToCents(required(record, 'TOTALENTERED')),
  applications: sageApplications(details, 'PAYMENTAMOUNT'),
});

/**
 * AR adjustments that credit the customer (negative TOTALENTERED) are the ledger's credit memos;
 * their applications are the payment details naming them (ADJUSTMENTKEY), per invoice.
 */
export const mapSageAdjustment = (
  sellerId: number,
  record: XmlElement,
  details: readonly XmlElement[] = [],
): LedgerCreditMemo => ({
  sellerId,
  providerId: required(record, 'RECORDNO'),
  customerId: ledgerIdOf(required(record, 'CUSTOMERID')),
  date: sageDate(required(record, 'WHENCREATED')),
  amount: Math.abs(decimalToCents(required(record, 'TOTALENTERED'))),
  applications: sageApplications(details, 'ADJUSTMENTAMOUNT'),
});
