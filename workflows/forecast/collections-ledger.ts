import type { LedgerCreditMemo, LedgerInvoice, LedgerPayment } from '../../contracts/ledger';
import type { CollectionsInvoice, CustomerLedger, InvoiceSettlement } from './collections-forecast';

/** The fields of a ledger invoice the collections forecast reads. */
export type ForecastInvoiceRecord = Pick<
  LedgerInvoice,
  'providerId' | 'customerId' | 'docNumber' | 'transactionDate' | 'dueDate' | 'amount'
>;
/** The fields of a payment or credit memo it reads. */
export type ForecastSettlementRecord = Pick<
  LedgerPayment | LedgerCreditMemo,
  'customerId' | 'date' | 'applications'
>;

export const invoiceProjection = {
  _id: 0,
  providerId: 1,
  customerId: 1,
  docNumber: 1,
  transactionDate: 1,
  dueDate: 1,
  amount: 1,
} as const;
export const settlementProjection = { _id: 0, customerId: 1, date: 1, applications: 1 } as const;

/** A payment's (cash) or credit memo's applications, each as one settlement of an invoice. */
export const settlementsOf = (record: ForecastSettlementRecord, cash: boolean): InvoiceSettlement[] =>
  record.applications.map((application) => ({
    invoiceProviderId: application.invoiceProviderId,
    date: record.date,
    amount: application.amount,
    cash,
  }));

type MutableLedger = { customerId: number; invoices: CollectionsInvoice[]; settlements: InvoiceSettlement[] };

/** Groups the records of some customers (any order, any mix) into one ledger per customer, by id. */
export const groupCustomerLedgers = (records: {
  invoices: Iterable<ForecastInvoiceRecord>;
  payments: Iterable<ForecastSettlementRecord>;
  credits: Iterable<ForecastSettlementRecord>;
}): CustomerLedger[] => {
  const ledgers = new Map<number, MutableLedger>();
  const of = (customerId: number) => {
    const found = ledgers.get(customerId);
    if (found) return found;
    const created: MutableLedger = { customerId, invoices: [], settlements: [] };
    ledgers.set(customerId, created);
    return created;
  };
  for (const invoice of records.invoices)
    of(invoice.customerId).invoices.push({
      providerId: invoice.providerId,
      customerId: invoice.customerId,
      docNumber: invoice.docNumber,
      transactionDate: invoice.transactionDate,
      dueDate: invoice.dueDate,
      amount: invoice.amount,
    });
  for (const payment of records.payments)
    of(payment.customerId).settlements.push(...settlementsOf(payment, true));
  for (const credit of records.credits)
    of(credit.customerId).settlements.push(...settlementsOf(credit, false));
  return [...ledgers.values()].sort((a, b) => a.customerId - b.customerId);
};
