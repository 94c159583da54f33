import type { Db } from 'mongodb';
import { LEDGER_OUTBOX, outboxValuesOf, type LedgerOutboxEntry } from '../../workflows/ledger/ledger-outbox';
import { ledgerEntities } from '../../workflows/ledger/ledger-collections';
import type { MaterializedCompany } from '../fakes/quickbooks-online-fake';
import { storedLedger, sumOf } from './connector-world';

/**
 * The QuickBooks Online tests' two sides of one comparison: what the company's books say, straight
 * from the fake's QBO JSON, and what the sync stored in the ledger, as the same figures in cents.
 * `voided: 'drop'` leaves out the invoices of zero amount (QBO keeps a voided invoice with zeros),
 * for tests that count invoices with sales; the deletion tests keep them.
 */
type Voided = { voided: 'keep' | 'drop' };

export const cents = (value: unknown) => Math.round(Number(value) * 100);

export const bookFigures = (company: MaterializedCompany, { voided }: Voided, skip = new Set<string>()) => {
  const invoices = [...company.tables.Invoice.records.values()].filter((r) => !skip.has(String(r.Id)));
  return {
    invoiceIds: invoices
      .filter((r) => voided === 'keep' || cents(r.TotalAmt) !== 0)
      .map((r) => String(r.Id))
      .sort(),
    sales: sumOf(invoices, (r) => cents(r.TotalAmt)),
    open: sumOf(invoices, (r) => cents(r.Balance)),
    paid: sumOf([...company.tables.Payment.records.values()], (r) => cents(r.TotalAmt)),
    customers: company.tables.Customer.records.size,
    credits: sumOf([...company.tables.CreditMemo.records.values()], (r) => cents(r.TotalAmt)),
  };
};

export const ledgerFigures = async (db: Db, sellerId: number, { voided }: Voided) => {
  const ledger = await storedLedger(db, sellerId);
  return {
    ledger,
    invoiceIds: ledger.invoices
      .filter((r) => voided === 'keep' || r.amount !== 0)
      .map((r) => r.providerId)
      .sort(),
    sales: sumOf(ledger.invoices, (r) => r.amount),
    open: sumOf(ledger.invoices, (r) => r.balance),
    paid: sumOf(ledger.payments, (r) => r.amount),
    customers: ledger.customers.length,
    credits: sumOf(ledger.creditMemos, (r) => r.amount),
  };
};

/** The seller's feed lines still in the outbox (no feed sender in these tests), in write order. */
export const outboxLines = async (db: Db, sellerId: number) => {
  const entries = await db
    .collection<LedgerOutboxEntry>(LEDGER_OUTBOX)
    .find({ sellerId })
    .sort({ createdAt: 1 })
    .toArray();
  return entries.flatMap((entry) => ledgerEntities.flatMap((entity) => outboxValuesOf(entry, entity)));
};
