import { Context } from '@temporalio/activity';
import { ZodError } from 'zod';
import type { InvoiceLine, LedgerPage, LedgerProduct } from '../../../contracts/ledger';
import { ledgerIdOf } from './ledger-ids';

/**
 * What the platforms' mappings share (docs/adr/0043-accounting-connectors.md): the product that
 * carries what is not an item line (tax, discounts, shipping), deleted transactions, and the count
 * of malformed records a page skipped.
 */

/** The provider id of the product standing for everything on an invoice that is not an item line. */
export const ADJUSTMENTS_PROVIDER_ID = 'ledgerwise:adjustments';
export const adjustmentsProductId = ledgerIdOf(ADJUSTMENTS_PROVIDER_ID);

export const adjustmentsProduct = (sellerId: number): LedgerProduct => ({
  sellerId,
  providerId: ADJUSTMENTS_PROVIDER_ID,
  productId: adjustmentsProductId,
  name: 'Tax, discounts and other charges',
  unitPrice: 0,
});

/**
 * The ledger's invoice amount is the sum of its lines: the item lines, and when the platform's total
 * differs (tax, discounts, shipping, rounding of a converted currency) one line of the difference.
 */
export const balancedLines = (itemLines: InvoiceLine[], total: number): InvoiceLine[] => {
  const sum = itemLines.reduce((n, line) => n + line.amount, 0);
  if (sum === total && itemLines.length > 0) return itemLines;
  return [...itemLines, { productId: adjustmentsProductId, quantity: 1, amount: total - sum }];
};

/** A platform quantity as the ledger's positive whole quantity (fractions round, at least 1). */
export const wholeQuantity = (quantity: unknown): number => {
  const n = typeof quantity === 'number' ? quantity : Number(quantity);
  return Number.isFinite(n) && n >= 1 ? Math.round(n) : 1;
};

type TransactionEntity = 'invoices' | 'payments' | 'creditMemos';

/**
 * Deleted (or voided) transactions: the page carries them as deletions, and the ledger writer
 * removes their stored rows and puts a tombstone on the ledger feed (docs/adr/0043, Deletes). One
 * never stored is nothing to remove. A record the same page also writes is deleted.
 */
export const recordDeletions = (
  { sellerId }: { sellerId: number },
  deleted: { entity: TransactionEntity; providerId: string }[],
  page: LedgerPage,
): Promise<void> => {
  if (deleted.length > 0)
    page.deletions = [...(page.deletions ?? []), ...deleted.map((d) => ({ ...d, sellerId }))];
  return Promise.resolve();
};

/**
 * Malformed records: counted, logged with their platform id and skipped; the sync goes on. The log
 * goes to the activity's logger when there is one.
 */
export type MalformedLog = (entry: { platform: string; entity: string; id: string; problem: string }) => void;

export const defaultMalformedLog: MalformedLog = (entry) => {
  const message = `${entry.platform}: skipped a malformed ${entry.entity} record`;
  try {
    Context.current().log.warn(message, entry);
  } catch {
    // Outside an activity (a script, a test).
    console.warn(`${message} ${entry.id}: ${entry.problem}`);
  }
};

/** A warning about a whole sync (a fallback, a count of skipped records), to the activity's log. */
export const defaultWarn = (message: string): void => {
  try {
    Context.current().log.warn(message);
  } catch {
    console.warn(message);
  }
};

/** Maps a record, or logs it as malformed and answers null. */
export const mapOrSkip = <T>(
  log: MalformedLog,
  where: { platform: string; entity: string; id: string },
  map: () => T,
): T | null => {
  try {
    return map();
  } catch (error) {
    const problem =
      error instanceof ZodError
        ? error.issues.map((i) => `${i.path.join('.') || '(record)'}: ${i.message}`).join('; ')
        : error instanceof Error
          ? error.message
          : String(error);
    log({ ...where, problem });
    return null;
  }
};

/** A platform date-time or date as a Date; an unreadable one is a malformed record. */
export const dateOf = (text: string): Date => {
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00.000Z` : text);
  if (Number.isNaN(date.getTime())) throw new Error(`not a date: ${text}`);
  return date;
};
