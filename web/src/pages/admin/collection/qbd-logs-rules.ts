import type { QbdLog } from '../../../../../contracts/api/qbd';

/** admin.md section 2: the log viewer's empty text. */
export const noLogsText = 'No Logs Found';

/** A log whose status starts with FAIL: is a failure. */
export const isFailedLog = (log: Pick<QbdLog, 'Status'>) => log.Status.startsWith('FAIL:');

/** The log viewer's names of the queries whose last sync it shows. */
export const lastSyncNames: Record<string, string> = {
  classes: 'Classes',
  customers: 'Customers',
  products: 'Products',
  estimates: 'Estimates',
  invoices: 'Invoices',
  creditMemos: 'Credit memos',
  payments: 'Payments',
  salesReceipts: 'Sales receipts',
  journalEntries: 'Journal entries',
};

export const logTimeText = (iso: string) =>
  new Date(iso).toLocaleString('en-US', { timeZone: 'UTC' }) + ' UTC';
