import type {
  InvoiceLine,
  LedgerCreditMemo,
  LedgerCustomer,
  LedgerInvoice,
  LedgerPayment,
  LedgerProduct,
} from '../../../contracts/ledger';
import { balancedLines, dateOf, wholeQuantity } from '../shared/ledger-mapping';
import { ledgerIdOf } from '../shared/ledger-ids';
import { homeCents } from '../shared/money';
import { childrenNamed, textAt, type XmlElement } from './xml';

/**
 * QuickBooks Desktop qbXML records (*Ret elements) into the ledger (ADR 44). Ids are the
 * ListID of list records and the TxnID of transactions. Amounts are decimals in the transaction's
 * currency; with multicurrency a transaction carries its ExchangeRate into the home currency, which
 * the ledger holds in cents. An invoice's total is Subtotal + SalesTaxTotal (InvoiceRet has no total
 * of its own). Each function throws on a malformed record; the session counts, logs and skips it.
 */

const required = (record: XmlElement, ...path: string[]): string => {
  const value = textAt(record, ...path);
  if (value === undefined || value === '') throw new Error(`${path.join('.')} is missing`);
  return value;
};

const optionalCents = (record: XmlElement, name: string, rate: string | undefined): number => {
  const value = textAt(record, name);
  return value === undefined || value === '' ? 0 : homeCents(value, rate);
};

/** The id of the record, for logging a malformed one. */
export const qbdRecordId = (record: XmlElement): string =>
  textAt(record, 'ListID') ?? textAt(record, 'TxnID') ?? '(no id)';

export const mapQbdCustomer = (sellerId: number, record: XmlElement): LedgerCustomer => {
  const id = required(record, 'ListID');
  const name = textAt(record, 'FullName') || textAt(record, 'Name') || textAt(record, 'CompanyName');
  if (!name) throw new Error('the customer has no name');
  return {
    sellerId,
    providerId: id,
    customerId: ledgerIdOf(id),
    name,
    email: textAt(record, 'Email') || null,
    createdAt: dateOf(textAt(record, 'TimeCreated') ?? '1970-01-01'),
    habit: null,
  };
};

/** ItemServiceRet, ItemInventoryRet, ItemNonInventoryRet, ItemOtherChargeRet, ...: the sales price. */
export const mapQbdItem = (sellerId: number, record: XmlElement): LedgerProduct => {
  const id = required(record, 'ListID');
  const price =
    textAt(record, 'SalesPrice') ??
    textAt(record, 'SalesOrPurchase', 'Price') ??
    textAt(record, 'SalesAndPurchase', 'SalesPrice') ??
    '0';
  return {
    sellerId,
    providerId: id,
    productId: ledgerIdOf(id),
    name: textAt(record, 'FullName') || textAt(record, 'Name') || id,
    unitPrice: /%$/.test(price) ? 0 : homeCents(price, 1),
  };
};

export const mapQbdInvoice = (sellerId: number, record: XmlElement): LedgerInvoice => {
  const id = required(record, 'TxnID');
  const rate = textAt(record, 'ExchangeRate');
  const amount = homeCents(required(record, 'Subtotal'), rate) + optionalCents(record, 'SalesTaxTotal', rate);
  const homeBalance = textAt(record, 'BalanceRemainingInHomeCurrency');
  const balance =
    homeBalance !== undefined && homeBalance !== ''
      ? homeCents(homeBalance, 1)
      : homeCents(required(record, 'BalanceRemaining'), rate);
  const itemLines: InvoiceLine[] = [
    ...childrenNamed(record, 'InvoiceLineRet'),
    ...childrenNamed(record, 'InvoiceLineGroupRet').flatMap((group) =>
      childrenNamed(group, 'InvoiceLineRet'),
    ),
  ]
    .filter((line) => textAt(line, 'ItemRef', 'ListID'))
    .map((line) => ({
      productId: ledgerIdOf(textAt(line, 'ItemRef', 'ListID')!),
      quantity: wholeQuantity(textAt(line, 'Quantity')),
      amount: homeCents(textAt(line, 'Amount') || '0', rate),
    }));
  const transactionDate = dateOf(required(record, 'TxnDate'));
  const due = textAt(record, 'DueDate');
  return {
    sellerId,
    providerId: id,
    customerId: ledgerIdOf(required(record, 'CustomerRef', 'ListID')),
    docNumber: textAt(record, 'RefNumber') || id,
    transactionDate,
    dueDate: due ? dateOf(due) : transactionDate,
    amount,
    balance,
    lines: balancedLines(itemLines, amount),
  };
};

/**
 * The ledger id of what a journal entry owes or credits one customer: its receivable lines for that
 * customer, summed (`<TxnID>:<customer ListID>`). A payment applied to the entry names the entry and
 * its own customer, which is how it finds the row.
 */
export const journalEntryRowId = (txnId: string, customerListId: string) => `${txnId}:${customerListId}`;

/** Whether a ledger id is a journal entry's row (TxnIDs and ListIDs hold no colon; receipts end `:receipt`). */
export const isJournalEntryRowId = (providerId: string) =>
  /^[^:]+:[^:]+$/.test(providerId) && !providerId.endsWith(':receipt');

/**
 * A payment's applications are its AppliedToTxnRet elements (IncludeLineItems) on invoices, and on
 * journal entries that charged the customer (the entry's row of the payment's customer).
 */
export const mapQbdPayment = (sellerId: number, record: XmlElement): LedgerPayment => {
  const id = required(record, 'TxnID');
  const rate = textAt(record, 'ExchangeRate');
  const customer = required(record, 'CustomerRef', 'ListID');
  return {
    sellerId,
    providerId: id,
    customerId: ledgerIdOf(customer),
    date: dateOf(required(record, 'TxnDate')),
    amount: homeCents(required(record, 'TotalAmount'), rate),
    applications: childrenNamed(record, 'AppliedToTxnRet')
      .filter((applied) => ['Invoice', 'JournalEntry'].includes(textAt(applied, 'TxnType') ?? ''))
      .map((applied) => ({
        invoiceProviderId:
          textAt(applied, 'TxnType') === 'JournalEntry'
            ? journalEntryRowId(required(applied, 'TxnID'), customer)
            : required(applied, 'TxnID'),
        amount: homeCents(textAt(applied, 'PaymentAmount') || '0', rate),
      }))
      .filter((application) => application.amount !== 0),
  };
};

/**
 * A journal entry's lines on an Accounts Receivable account (`receivables`: the ListIDs the
 * AccountQueryRq answered) with a customer (EntityRef) are receivables: per customer, the debits
 * are an invoice (owed, due on the entry's date; its balance is the amount until payments applied
 * to it are counted, see qbd-session.ts) and the credits a credit memo. Other lines (income,
 * expense, even with a customer named) are not. An entry with no such line maps to nothing.
 */
export const mapQbdJournalEntry = (
  sellerId: number,
  record: XmlElement,
  receivables: ReadonlySet<string>,
): { invoices: LedgerInvoice[]; creditMemos: LedgerCreditMemo[] } => {
  const id = required(record, 'TxnID');
  const rate = textAt(record, 'ExchangeRate');
  const date = dateOf(required(record, 'TxnDate'));
  const sums = { debit: new Map<string, number>(), credit: new Map<string, number>() };
  for (const [side, name] of [
    ['debit', 'JournalDebitLine'],
    ['credit', 'JournalCreditLine'],
  ] as const)
    for (const line of childrenNamed(record, name)) {
      const account = textAt(line, 'AccountRef', 'ListID');
      const customer = textAt(line, 'EntityRef', 'ListID');
      if (!account || !receivables.has(account) || !customer) continue;
      const amount = homeCents(textAt(line, 'Amount') || '0', rate);
      sums[side].set(customer, (sums[side].get(customer) ?? 0) + amount);
    }
  const docNumber = textAt(record, 'RefNumber') || id;
  return {
    invoices: [...sums.debit]
      .filter(([, amount]) => amount !== 0)
      .map(([customer, amount]) => ({
        sellerId,
        providerId: journalEntryRowId(id, customer),
        customerId: ledgerIdOf(customer),
        docNumber,
        transactionDate: date,
        dueDate: date,
        amount,
        balance: amount,
        lines: balancedLines([], amount),
      })),
    creditMemos: [...sums.credit]
      .filter(([, amount]) => amount !== 0)
      .map(([customer, amount]) => ({
        sellerId,
        providerId: journalEntryRowId(id, customer),
        customerId: ledgerIdOf(customer),
        date,
        amount,
        applications: [],
      })),
  };
};

/**
 * A credit memo applied to an invoice shows as a LinkedTxn of type Invoice with a negative Amount;
 * the invoice's BalanceRemaining already counts it.
 */
export const mapQbdCreditMemo = (sellerId: number, record: XmlElement): LedgerCreditMemo => {
  const id = required(record, 'TxnID');
  const rate = textAt(record, 'ExchangeRate');
  const total = textAt(record, 'TotalAmount');
  return {
    sellerId,
    providerId: id,
    customerId: ledgerIdOf(required(record, 'CustomerRef', 'ListID')),
    date: dateOf(required(record, 'TxnDate')),
    amount:
      total !== undefined && total !== ''
        ? homeCents(total, rate)
        : homeCents(required(record, 'Subtotal'), rate) + optionalCents(record, 'SalesTaxTotal', rate),
    applications: childrenNamed(record, 'LinkedTxn')
      .filter((linked) => textAt(linked, 'TxnType') === 'Invoice')
      .map((linked) => ({
        invoiceProviderId: required(linked, 'TxnID'),
        amount: Math.abs(homeCents(textAt(linked, 'Amount') || '0', rate)),
      }))
      .filter((application) => application.amount !== 0),
  };
};

/** TxnDeletedRet: which transaction went. */
export const deletedOf = (record: XmlElement): { type: string; providerId: string } => ({
  type: required(record, 'TxnDelType'),
  providerId: required(record, 'TxnID'),
});

/** The payment id that stands for a sales receipt's settlement. */
export const salesReceiptPaymentId = (txnId: string) => `${txnId}:receipt`;

/**
 * A sales receipt is a sale paid on the spot: an invoice with nothing owed and a payment of the same
 * amount applied to it (id `<TxnID>:receipt`), so sales and payments both count it. A receipt
 * without a customer (an anonymous cash sale) has no one to bill and is skipped as malformed.
 */
export const mapQbdSalesReceipt = (
  sellerId: number,
  record: XmlElement,
): { invoice: LedgerInvoice; payment: LedgerPayment } => {
  const id = required(record, 'TxnID');
  const rate = textAt(record, 'ExchangeRate');
  const total = textAt(record, 'TotalAmount');
  const amount =
    total !== undefined && total !== ''
      ? homeCents(total, rate)
      : homeCents(required(record, 'Subtotal'), rate) + optionalCents(record, 'SalesTaxTotal', rate);
  const customerId = ledgerIdOf(required(record, 'CustomerRef', 'ListID'));
  const date = dateOf(required(record, 'TxnDate'));
  const itemLines: InvoiceLine[] = childrenNamed(record, 'SalesReceiptLineRet')
    .filter((line) => textAt(line, 'ItemRef', 'ListID'))
    .map((line) => ({
      productId: ledgerIdOf(textAt(line, 'ItemRef', 'ListID')!),
      quantity: wholeQuantity(textAt(line, 'Quantity')),
      amount: homeCents(textAt(line, 'Amount') || '0', rate),
    }));
  return {
    invoice: {
      sellerId,
      providerId: id,
      customerId,
      docNumber: textAt(record, 'RefNumber') || id,
      transactionDate: date,
      dueDate: date,
      amount,
      balance: 0,
      lines: balancedLines(itemLines, amount),
    },
    payment: {
      sellerId,
      providerId: salesReceiptPaymentId(id),
      customerId,
      date,
      amount,
      applications: amount === 0 ? [] : [{ invoiceProviderId: id, amount }],
    },
  };
};
