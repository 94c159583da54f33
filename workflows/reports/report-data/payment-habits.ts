import type { Db } from 'mongodb';
import type { LedgerCustomer, LedgerInvoice, LedgerPayment } from '../../../contracts/ledger';
import { ledgerCollections, ledgerDocId } from '../../ledger/ledger-collections';
import { toDay, type Exclusions } from '../../metrics/compute-metrics';
import type { HabitChange } from './report-data';
import { endOfDay, type DayRange } from './report-period';

/** A customer's habit changed when its average days late moved by at least this many days. */
export const HABIT_CHANGE_DAYS = 10;
const LOOKUP_BATCH = 1000;

type Lateness = { weighted: number; amount: number };

const twoDecimals = (value: number) => Math.round(value * 100) / 100;

/** Customer names of a seller by ledger customer id, read through the (seller, customer) index. */
export const customerNames = async (db: Db, sellerId: number, customerIds: readonly number[]) => {
  if (customerIds.length === 0) return new Map<number, string>();
  const docs = await db
    .collection<LedgerCustomer>(ledgerCollections.customers)
    .find(
      { sellerId, customerId: { $in: [...customerIds] } },
      { projection: { _id: 0, customerId: 1, name: 1 } },
    )
    .toArray();
  return new Map(docs.map((doc) => [doc.customerId, doc.name]));
};

/** Due days of the invoices with these provider ids, read by primary key in batches. */
const dueDaysOf = async (db: Db, sellerId: number, providerIds: readonly string[]) => {
  const dueDays = new Map<string, number>();
  const invoices = db.collection<LedgerInvoice & { _id: string }>(ledgerCollections.invoices);
  for (let i = 0; i < providerIds.length; i += LOOKUP_BATCH) {
    const ids = providerIds.slice(i, i + LOOKUP_BATCH).map((id) => ledgerDocId(sellerId, id));
    const docs = await invoices
      .find({ _id: { $in: ids } }, { projection: { _id: 0, providerId: 1, dueDate: 1 } })
      .toArray();
    for (const doc of docs) dueDays.set(doc.providerId, toDay(doc.dueDate));
  }
  return dueDays;
};

/**
 * Customers whose payment habit changed between two windows (ADR 36): in each window, the
 * amount-weighted days late (payment day - due day, early counting as 0) of what its payments
 * dated in the window applied to its invoices; listed when it paid in both windows and the two
 * averages differ by 10 days or more, the largest moves first. Reads the payments of the two
 * windows through the (seller, date) index and their invoices by id.
 */
export const paymentHabitChanges = async (
  db: Db,
  query: {
    sellerId: number;
    windows: { before: DayRange; after: DayRange };
    exclusions: Exclusions;
    limit: number;
  },
): Promise<{ changes: HabitChange[]; total: number }> => {
  const { sellerId, windows } = query;
  // Newest first, stopping at the first payment before the windows: an indexed read bounded by the
  // windows (and the payments since), on MongoDB and on the embedded store alike, which serves a
  // sort by the (seller, date) index but not a range on a date (ADR 36).
  const payments: Pick<LedgerPayment, 'customerId' | 'date' | 'applications'>[] = [];
  const firstMs = windows.before.start * 86_400_000;
  const cursor = db
    .collection<LedgerPayment>(ledgerCollections.payments)
    .find(
      { sellerId, date: { $lte: endOfDay(windows.after.end) } },
      { projection: { _id: 0, customerId: 1, date: 1, applications: 1 } },
    )
    .sort({ date: -1 });
  for await (const payment of cursor) {
    if (payment.date.getTime() < firstMs) break;
    payments.push(payment);
  }
  const excluded = new Set(query.exclusions.customerIds);
  const counted = payments.filter((payment) => !excluded.has(payment.customerId));
  const dueDays = await dueDaysOf(db, sellerId, [
    ...new Set(counted.flatMap((payment) => payment.applications.map((a) => a.invoiceProviderId))),
  ]);
  const before = new Map<number, Lateness>();
  const after = new Map<number, Lateness>();
  for (const payment of counted) {
    const day = toDay(payment.date);
    const window = day <= windows.before.end ? before : after;
    for (const application of payment.applications) {
      const dueDay = dueDays.get(application.invoiceProviderId);
      if (dueDay === undefined || application.amount <= 0) continue;
      const lateness = window.get(payment.customerId) ?? { weighted: 0, amount: 0 };
      lateness.weighted += application.amount * Math.max(0, day - dueDay);
      lateness.amount += application.amount;
      window.set(payment.customerId, lateness);
    }
  }
  const moved: Omit<HabitChange, 'name'>[] = [];
  for (const [customerId, was] of before) {
    const now = after.get(customerId);
    if (!now) continue;
    const daysLateBefore = twoDecimals(was.weighted / was.amount);
    const daysLateAfter = twoDecimals(now.weighted / now.amount);
    const change = twoDecimals(daysLateAfter - daysLateBefore);
    if (Math.abs(change) >= HABIT_CHANGE_DAYS)
      moved.push({ customerId, daysLateBefore, daysLateAfter, change });
  }
  moved.sort((a, b) => Math.abs(b.change) - Math.abs(a.change) || a.customerId - b.customerId);
  const shown = moved.slice(0, query.limit);
  const names = await customerNames(
    db,
    sellerId,
    shown.map((c) => c.customerId),
  );
  return {
    changes: shown.map((c) => ({ ...c, name: names.get(c.customerId) ?? `Customer ${c.customerId}` })),
    total: moved.length,
  };
};
