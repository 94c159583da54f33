import type { Db } from 'mongodb';
import type { RetentionPeriod } from '../../contracts/events/tenant';
import type { LedgerCustomer } from '../../contracts/ledger';
import { ledgerCollections } from '../ledger/ledger-collections';
import {
  createMetricsAccumulator,
  type ComputedMetrics,
  type Exclusions,
  type MetricPayment,
} from './compute-metrics';
import { createCustomerLedgerFigures } from './customer-ledger-figures';
import { customerReceivablesDocs, type CustomerReceivablesDoc } from './customer-receivables';
import { createReceivablesAccumulator, type ReceivableInvoice, type Settlement } from './receivables-metrics';

export type SellerMetrics = ComputedMetrics & { customerReceivables: CustomerReceivablesDoc[] };

/**
 * Every metric of a seller in one scan of its ledger: the totals of compute-metrics.ts and the
 * receivables of receivables-metrics.ts (ADR 30) read the same invoices and payments; credit memos
 * and customer names are read once more each. `onScanned` gets the running count (for heartbeats).
 */
export const scanSellerMetrics = async (
  db: Db,
  scope: {
    sellerId: number;
    exclusions: Exclusions;
    asOf: Date;
    retention: RetentionPeriod;
    onScanned?: (scanned: number) => void;
  },
): Promise<SellerMetrics> => {
  const { sellerId, exclusions } = scope;
  const totals = createMetricsAccumulator(exclusions);
  const receivables = createReceivablesAccumulator(exclusions);
  const sheetFigures = createCustomerLedgerFigures(exclusions, scope.asOf);
  let scanned = 0;
  const counted = () => scope.onScanned?.((scanned += 1));
  const invoices = db.collection<ReceivableInvoice>(ledgerCollections.invoices).find(
    { sellerId },
    {
      projection: {
        _id: 0,
        providerId: 1,
        customerId: 1,
        transactionDate: 1,
        dueDate: 1,
        amount: 1,
        balance: 1,
        lines: 1,
      },
    },
  );
  for await (const invoice of invoices) {
    totals.addInvoice(invoice);
    receivables.addInvoice(invoice);
    sheetFigures.addInvoice(invoice);
    counted();
  }
  const settlementFields = { _id: 0, customerId: 1, date: 1, amount: 1, applications: 1 };
  const payments = db
    .collection<MetricPayment & Settlement>(ledgerCollections.payments)
    .find({ sellerId }, { projection: settlementFields });
  for await (const payment of payments) {
    totals.addPayment(payment);
    receivables.addPayment(payment);
    sheetFigures.addPayment(payment);
    counted();
  }
  const creditMemos = db
    .collection<Settlement & { amount: number }>(ledgerCollections.creditMemos)
    .find({ sellerId }, { projection: settlementFields });
  for await (const creditMemo of creditMemos) {
    receivables.addCreditMemo(creditMemo);
    sheetFigures.addCreditMemo(creditMemo);
    counted();
  }
  const names = new Map<number, { name: string; email: string | null }>();
  const customers = db
    .collection<LedgerCustomer>(ledgerCollections.customers)
    .find({ sellerId }, { projection: { _id: 0, customerId: 1, name: 1, email: 1 } });
  for await (const customer of customers) names.set(customer.customerId, customer);
  const computed = totals.compute({ asOf: scope.asOf, retention: scope.retention });
  const owed = receivables.compute({ asOf: scope.asOf });
  return {
    ...computed,
    rows: [...computed.rows, ...owed.rows],
    customerReceivables: customerReceivablesDocs({
      metrics: computed.customers,
      receivables: owed.customers,
      names,
      sheetFigures,
    }),
  };
};
