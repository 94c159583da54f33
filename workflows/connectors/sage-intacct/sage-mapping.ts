import type {
  LedgerCreditMemo,
  LedgerCustomer,
  LedgerInvoice,
  LedgerPayment,
} from '../../../contracts/ledger';
import { balancedLines } from '../shared/ledger-mapping';
import { ledgerIdOf } from '../shared/ledger-ids';
import { decimalToCents } from '../shared/money';
import { textAt, type XmlElement } from '../qbd/xml';

/**
 * Sage Intacct records (readByQuery with fields *: upper-case field elements) into the ledger (ADR 44,
 * Sage section). Customers are keyed by CUSTOMERID, which transactions name; transactions by RECORDNO.
 * Amounts are the base-currency fields (TOTALENTERED, TOTALDUE), so a foreign-currency invoice is
 * already in the company's currency. Invoice lines are not read (ARINVOICEITEM): an invoice is one
 * line of the adjustments product. Each function throws on a malformed record.
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

export const mapSageInvoice = (sellerId: number, record: XmlElement): LedgerInvoice => {
  const id = required(record, 'RECORDNO');
  const amount = decimalToCents(required(record, 'TOTALENTERED'));
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
    lines: balancedLines([], amount),
  };
};

export const mapSagePayment = (sellerId: number, record: XmlElement): LedgerPayment => ({
  sellerId,
  providerId: required(record, 'RECORDNO'),
  customerId: ledgerIdOf(required(record, 'CUSTOMERID')),
  date: sageDate(textAt(record, 'RECEIPTDATE') || required(record, 'WHENCREATED')),
  amount: decimalToCents(required(record, 'TOTALENTERED')),
  applications: [],
});

/** AR adjustments that credit the customer (negative TOTALENTERED) are the ledger's credit memos. */
export const mapSageAdjustment = (sellerId: number, record: XmlElement): LedgerCreditMemo => ({
  sellerId,
  providerId: required(record, 'RECORDNO'),
  customerId: ledgerIdOf(required(record, 'CUSTOMERID')),
  date: sageDate(required(record, 'WHENCREATED')),
  amount: Math.abs(decimalToCents(required(record, 'TOTALENTERED'))),
  applications: [],
});
