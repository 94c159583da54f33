import type { Db } from 'mongodb';
import type { LedgerInvoice, LedgerPage, LedgerPayment } from '../../../contracts/ledger';
import { ledgerCollections, ledgerDocId, type LedgerDoc } from '../../ledger/ledger-collections';
import { isJournalEntryRowId } from './qbd-mapping';

/**
 * Journal entries in the ledger (ADR 44): one invoice and/or credit memo per entry and customer,
 * id `<TxnID>:<customer ListID>`. QuickBooks gives an entry no balance remaining, so an entry's
 * invoice owes its amount less what payments apply to it; a payment read later rewrites the stored
 * entry invoices it applies to. A changed entry that no longer charges a customer, and a deleted
 * entry, leave their rows zeroed (the ledger's deletes).
 */

const storageFields = { _id: 0, tenantId: 0, epoch: 0, hash: 0, changedAt: 0 } as const;
const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The stored rows of these entries: which collection and id. */
export const storedJournalRows = async (
  { db, sellerId }: { db: Db; sellerId: number },
  txnIds: readonly string[],
): Promise<{ entity: 'invoices' | 'creditMemos'; providerId: string }[]> => {
  if (txnIds.length === 0) return [];
  const pattern = `^(${txnIds.map(escapeRegex).join('|')}):[^:]+$`;
  const found: { entity: 'invoices' | 'creditMemos'; providerId: string }[] = [];
  for (const entity of ['invoices', 'creditMemos'] as const) {
    const docs = await db
      .collection<LedgerDoc<typeof entity>>(ledgerCollections[entity])
      .find({ sellerId, providerId: { $regex: pattern } } as never, { projection: { providerId: 1 } })
      .toArray();
    for (const doc of docs) found.push({ entity, providerId: doc.providerId });
  }
  return found;
};

/**
 * The entries' invoices with their balance: the amount less what stored payments and credit memos
 * apply to them, the page's own payments counted as they are now.
 */
export const withJournalBalances = async (
  { db, sellerId }: { db: Db; sellerId: number },
  invoices: readonly LedgerInvoice[],
  pagePayments: readonly LedgerPayment[],
): Promise<LedgerInvoice[]> => {
  if (invoices.length === 0) return [];
  const ids = invoices.map((invoice) => invoice.providerId);
  const inPage = new Set(pagePayments.map((p) => p.providerId));
  const applied = new Map<string, number>();
  const add = (settlement: Pick<LedgerPayment, 'applications'>) => {
    for (const a of settlement.applications)
      if (ids.includes(a.invoiceProviderId))
        applied.set(a.invoiceProviderId, (applied.get(a.invoiceProviderId) ?? 0) + a.amount);
  };
  for (const entity of ['payments', 'creditMemos'] as const) {
    const stored = await db
      .collection<LedgerDoc<typeof entity>>(ledgerCollections[entity])
      .find({ sellerId, 'applications.invoiceProviderId': { $in: ids } } as never, {
        projection: { providerId: 1, applications: 1 },
      })
      .toArray();
    for (const settlement of stored)
      if (!(entity === 'payments' && inPage.has(settlement.providerId))) add(settlement);
  }
  pagePayments.forEach(add);
  return invoices.map((invoice) => ({
    ...invoice,
    balance: Math.max(0, invoice.amount - (applied.get(invoice.providerId) ?? 0)),
  }));
};

/** After a payment page: the stored entry invoices its payments apply to, with their new balance. */
export const rebalanceJournalInvoices = async (
  context: { db: Db; sellerId: number },
  page: LedgerPage,
): Promise<void> => {
  const ids = [
    ...new Set(
      page.payments.flatMap((p) =>
        p.applications.map((a) => a.invoiceProviderId).filter(isJournalEntryRowId),
      ),
    ),
  ];
  if (ids.length === 0) return;
  const stored = (await context.db
    .collection<LedgerDoc<'invoices'>>(ledgerCollections.invoices)
    .find({ _id: { $in: ids.map((id) => ledgerDocId(context.sellerId, id)) } } as never, {
      projection: storageFields,
    })
    .toArray()) as unknown as LedgerInvoice[];
  page.invoices.push(...(await withJournalBalances(context, stored, page.payments)));
};
