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

export const mapQboPayment = (sellerId: number, raw: unknown): LedgerPayment => {
  const payment = QboPayment.parse(raw);
  const rate = payment.ExchangeRate;
  return {
    sellerId,
    providerId: payment.Id,
    customerId: ledgerIdOf(payment.CustomerRef.value),
    date: dateOf(payment.TxnDate),
    amount: homeCents(payment.TotalAmt, rate),
    applications: payment.Line.flatMap((line) =>
      line.LinkedTxn.filter((linked) => linked.TxnType === 'Invoice').map((linked) => ({
        invoiceProviderId: linked.TxnId,
        amount: homeCents(line.Amount, rate),
      })),
    ).filter((application) => application.amount !== 0),
  };
};

/**
 * A credit memo's applications are not on the memo: QBO records them as payment lines linking the
 * memo, and the invoices' Balance already counts them. The ledger keeps the memo's amount and date.
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
