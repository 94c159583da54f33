import type { RetentionPeriod } from '../../contracts/events/tenant';
import type { LedgerInvoice } from '../../contracts/ledger';

/**
 * The customer metrics recomputed the slow, obvious way from the invoices, to check the customers
 * job: per customer its purchases (invoices with a line that is not excluded), the sales and invoices
 * of the trailing 36 months, the average gap between purchases over all of them and over the last 10,
 * and whether it bought within the retention period; then the seller's counts.
 */
const DAY = 86_400_000;
const dayOf = (date: Date) =>
  new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
const monthsBefore = (date: Date, months: number) =>
  new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - months, date.getUTCDate()));
/** Hundredths of a day, rounded; null without a gap. */
const averageOf = (gaps: number[]) =>
  gaps.length === 0 ? null : Math.round((gaps.reduce((s, g) => s + g, 0) * 100) / gaps.length);

const retentionMonths: Record<Exclude<RetentionPeriod, 'AUTO'>, number> = {
  TRAILING24MONTHS: 24,
  TRAILING12MONTHS: 12,
  TRAILING3MONTHS: 3,
  TRAILING1MONTH: 1,
};

export const expectedCustomerMetrics = (input: {
  invoices: LedgerInvoice[];
  excludedCustomers: number[];
  excludedProducts: number[];
  asOf: Date;
  retention: RetentionPeriod;
}) => {
  const since36 = dayOf(monthsBefore(input.asOf, 36));
  const purchases = input.invoices
    .filter((i) => !input.excludedCustomers.includes(i.customerId) && i.transactionDate <= input.asOf)
    .map((i) => ({
      customerId: i.customerId,
      day: dayOf(i.transactionDate),
      lines: i.lines.filter((l) => !input.excludedProducts.includes(l.productId)),
    }))
    .filter((p) => p.lines.length > 0);
  const customerIds = [...new Set(purchases.map((p) => p.customerId))].sort((a, b) => a - b);
  const perCustomer = customerIds.map((customerId) => {
    const own = purchases
      .filter((p) => p.customerId === customerId)
      .sort((a, b) => a.day.getTime() - b.day.getTime());
    const gaps = own.slice(1).map((p, i) => (p.day.getTime() - own[i]!.day.getTime()) / DAY);
    const recent = own.filter((p) => p.day > since36);
    return {
      customerId,
      firstPurchase: own[0]!.day,
      lastPurchase: own.at(-1)!.day,
      purchases: own.length,
      salesT36M: recent.flatMap((p) => p.lines).reduce((s, l) => s + l.amount, 0),
      invoicesT36M: recent.length,
      avgDaysBetweenPurchases: averageOf(gaps),
      movingAvgDaysBetweenPurchases: averageOf(gaps.slice(-10)),
    };
  });
  // AUTO (portal.md section 9): 3 months when 90% of the customers with a gap buy within 90 days.
  const averages = perCustomer.flatMap((c) =>
    c.avgDaysBetweenPurchases === null ? [] : [c.avgDaysBetweenPurchases / 100],
  );
  const months =
    input.retention !== 'AUTO'
      ? retentionMonths[input.retention]
      : averages.length > 0 && averages.filter((d) => d <= 90).length / averages.length >= 0.9
        ? 3
        : 12;
  const activeSince = dayOf(monthsBefore(input.asOf, months));
  const customers = perCustomer.map((c) => ({ ...c, active: c.lastPurchase > activeSince }));
  return {
    customers,
    counts: {
      customersT36M: customers.filter((c) => c.invoicesT36M > 0).length,
      activeCustomers: customers.filter((c) => c.active).length,
      retentionMonths: months,
    },
  };
};
