import type {
  Application,
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
import { QboCreditMemo, QboCustomer, QboInvoice, QboItem, QboPayment } from './qbo-formats';

/**
 * QuickBooks Online records into the ledger (docs/adr/0043-accounting-connectors.md). Amounts are
 * decimals in the transaction's currency; the ledger holds the company's home currency in cents, so
 * a foreign-currency transaction is converted at its own ExchangeRate (QBO's HomeTotalAmt when given).
 * A voided transaction keeps its row with QBO's zero amounts. Each function throws on a malformed
 * record; the connector counts, logs and skips it.
 */

export const mapQboCustomer = (sellerId: number, raw: unknown): LedgerCustomer => {
  const c = QboCustomer.parse(raw);
  const name = c.DisplayName ?? c.CompanyName ?? c.FullyQualifiedName;
  if (!name?.trim()) throw new Error('the customer has no name');
  return {
    sellerId,
    providerId: c.Id,
    customerId: ledgerIdOf(c.Id),
    name: name.trim(),
    email: c.PrimaryEmailAddr?.Address?.trim() || null,
    createdAt: dateOf(c.MetaData?.CreateTime ?? '1970-01-01'),
    habit: null,
  };
};

export const mapQboItem = (sellerId: number, raw: unknown): LedgerProduct => {
  const item = QboItem.parse(raw);
  return {
    sellerId,
    providerId: item.Id,
    productId: ledgerIdOf(item.Id),
    name: item.Name,
    unitPrice: homeCents(item.UnitPrice ?? 0, 1),
  };
};

export const mapQboInvoice = (sellerId: number, raw: unknown): LedgerInvoice => {
  const invoice = QboInvoice.parse(raw);
  const rate = invoice.ExchangeRate;
  const amount =
    invoice.HomeTotalAmt !== undefined
      ? homeCents(invoice.HomeTotalAmt, 1)
      : homeCents(invoice.TotalAmt, rate);
  const balance =
    invoice.HomeBalance !== undefined ? homeCents(invoice.HomeBalance, 1) : homeCents(invoice.Balance, rate);
  const itemLines: InvoiceLine[] = invoice.Line.filter(
    (line) => line.DetailType === 'SalesItemLineDetail' && line.SalesItemLineDetail?.ItemRef,
  ).map((line) => ({
    productId: ledgerIdOf(line.SalesItemLineDetail!.ItemRef!.value),
    quantity: wholeQuantity(line.SalesItemLineDetail?.Qty),
    amount: homeCents(line.Amount ?? 0, rate),
  }));
  const transactionDate = dateOf(invoice.TxnDate);
  return {
    sellerId,
    providerId: invoice.Id,
    customerId: ledgerIdOf(invoice.CustomerRef.value),
    docNumber: invoice.DocNumber?.trim() || invoice.Id,
    transactionDate,
    dueDate: invoice.DueDate ? dateOf(invoice.DueDate) : transactionDate,
    amount,
    balance,
    lines: balancedLines(itemLines, amount),
  };
};

/** A credit memo applied to an invoice, as QBO records it: on a payment (ledger cents). */
export type QboCreditApplication = { memoProviderId: string; invoiceProviderId: string; amount: number };

/**
 * A QBO payment and the credits it applies. QBO records a credit memo applied to an invoice as a
 * payment line linking the memo (TxnType CreditMemo) beside the lines linking invoices; the invoice
 * lines add up to the cash (TotalAmt, 0 for a credit-only application) plus the credits. The credits
 * settle the payment's invoices first, in line order; what is left of each invoice line is the cash
 * applied to it. A credit the invoice lines do not take (a refund of the memo) is not an application.
 */
export const mapQboPaymentSettlements = (
  sellerId: number,
  raw: unknown,
): { payment: LedgerPayment; credits: QboCreditApplication[] } => {
  const payment = QboPayment.parse(raw);
  const rate = payment.ExchangeRate;
  const linked = (type: string) =>
    payment.Line.flatMap((line) =>
      line.LinkedTxn.filter((txn) => txn.TxnType === type).map((txn) => ({
        id: txn.TxnId,
        amount: homeCents(line.Amount, rate),
      })),
    ).filter((link) => link.amount > 0);
  const invoices = linked('Invoice');
  const credits: QboCreditApplication[] = [];
  for (const memo of linked('CreditMemo')) {
    let left = memo.amount;
    for (const invoice of invoices) {
      const take = Math.min(left, invoice.amount);
      if (take <= 0) continue;
      credits.push({ memoProviderId: memo.id, invoiceProviderId: invoice.id, amount: take });
      invoice.amount -= take;
      left -= take;
    }
  }
  return {
    payment: {
      sellerId,
      providerId: payment.Id,
      customerId: ledgerIdOf(payment.CustomerRef.value),
      date: dateOf(payment.TxnDate),
      amount: homeCents(payment.TotalAmt, rate),
      applications: invoices
        .filter((invoice) => invoice.amount > 0)
        .map((invoice) => ({ invoiceProviderId: invoice.id, amount: invoice.amount })),
    },
    credits,
  };
};

/** A payment's cash applications; its credits are the memos' (mapQboPaymentSettlements). */
export const mapQboPayment = (sellerId: number, raw: unknown): LedgerPayment =>
  mapQboPaymentSettlements(sellerId, raw).payment;

/** Credits applied by payments, summed per invoice: a credit memo's applications. */
export const creditMemoApplications = (credits: readonly QboCreditApplication[]): Application[] => {
  const byInvoice = new Map<string, number>();
  for (const credit of credits)
    byInvoice.set(credit.invoiceProviderId, (byInvoice.get(credit.invoiceProviderId) ?? 0) + credit.amount);
  return [...byInvoice]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([invoiceProviderId, amount]) => ({ invoiceProviderId, amount }));
};

/**
 * A credit memo's applications are not on the memo: QBO records them as payment lines linking the
 * memo (mapQboPaymentSettlements); the connector fills them from the payments it has read.
 */
export const mapQboCreditMemo = (sellerId: number, raw: unknown): LedgerCreditMemo => {
  const memo = QboCreditMemo.parse(raw);
  return {
    sellerId,
    providerId: memo.Id,
    customerId: ledgerIdOf(memo.CustomerRef.value),
    date: dateOf(memo.TxnDate),
    amount: homeCents(memo.TotalAmt, memo.ExchangeRate),
    applications: [],
  };
};
