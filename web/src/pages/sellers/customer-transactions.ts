import type { AssetInvoice } from '../../../../contracts/api/receivables';

/**
 * The customer transaction chart's points (portal.md 2.3): one per invoice, oldest first, its amount
 * or the running total in currency units, and its day as a number so a scatter chart can space the
 * points by the real time between them.
 */
export type TransactionPoint = {
  date: string;
  /** Milliseconds since the epoch: the scatter chart's x. */
  time: number;
  amount: number;
  cumulative: number;
};

const MS_PER_DAY = 86_400_000;

export const transactionDay = (iso: string): string =>
  new Date(iso).toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });

export const transactionPoints = (invoices: readonly AssetInvoice[]): TransactionPoint[] => {
  let total = 0;
  return [...invoices]
    .sort((a, b) => a.transactionDate.localeCompare(b.transactionDate))
    .map((invoice) => {
      total += invoice.amount;
      return {
        date: transactionDay(invoice.transactionDate),
        time: Date.parse(invoice.transactionDate),
        amount: invoice.amount / 100,
        cumulative: total / 100,
      };
    });
};

/** The scatter chart's x axis: days shown as dates. */
export const timeTick = (time: number): string =>
  new Date(Math.round(time / MS_PER_DAY) * MS_PER_DAY).toLocaleDateString('en-US', {
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
