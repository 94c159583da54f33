import type { Db } from 'mongodb';
import type { LedgerPage, LedgerPayment } from '../../../contracts/ledger';
import { ledgerCollections, ledgerDocId, type LedgerDoc } from '../../ledger/ledger-collections';
import { chargeApplications, type StripeChargeApplication } from './stripe-mapping';

/**
 * Stripe charge-to-invoice applications (docs/adr/0043-accounting-connectors.md). The current API
 * keeps them on invoice payments, neither on the charge nor on the invoice, and a sync reads charges
 * and invoice payments apart (a sync only the changed ones). So each paid invoice payment's
 * application is kept in `stripe_invoice_payments` (ids and cents): a charge read gets its
 * applications from there, and an invoice payment read rewrites the stored charge it names.
 * Re-reading an invoice payment replaces its entry: a retried page is harmless.
 */
export const STRIPE_INVOICE_PAYMENTS = 'stripe_invoice_payments';

type InvoicePaymentDoc = StripeChargeApplication & { _id: string; sellerId: number };

const collectionOf = (db: Db) => db.collection<InvoicePaymentDoc>(STRIPE_INVOICE_PAYMENTS);

/** A populate starts the seller's applications afresh, as it lists every invoice payment again. */
export const forgetInvoicePayments = async (db: Db, sellerId: number): Promise<void> => {
  await collectionOf(db).deleteMany({ sellerId });
};

const applicationsOf = async (db: Db, sellerId: number, chargeIds: readonly string[]) => {
  const docs = await collectionOf(db)
    .find({ sellerId, chargeId: { $in: [...chargeIds] } })
    .toArray();
  return new Map(
    chargeIds.map((charge) => [charge, chargeApplications(docs.filter((d) => d.chargeId === charge))]),
  );
};

/**
 * Records the invoice payments just read (null: not paid, or naming no charge, so nothing applied),
 * fills the page's charges, and adds to the page the stored charges whose applications changed.
 */
export const recordInvoicePayments = async (
  { db, sellerId }: { db: Db; sellerId: number },
  read: ReadonlyMap<string, StripeChargeApplication | null>,
  page: LedgerPage,
): Promise<void> => {
  const touched = new Set<string>();
  if (read.size > 0) {
    const ids = [...read.keys()].map((id) => ledgerDocId(sellerId, id));
    for (const doc of await collectionOf(db)
      .find({ _id: { $in: ids } })
      .toArray())
      touched.add(doc.chargeId);
    const gone = [...read].filter(([, application]) => application === null).map(([id]) => id);
    if (gone.length > 0)
      await collectionOf(db).deleteMany({ _id: { $in: gone.map((id) => ledgerDocId(sellerId, id)) } });
    const kept = [...read.values()].filter((a): a is StripeChargeApplication => a !== null);
    if (kept.length > 0)
      await collectionOf(db).bulkWrite(
        kept.map((application) => {
          const _id = ledgerDocId(sellerId, application.invoicePaymentId);
          return {
            replaceOne: { filter: { _id }, replacement: { _id, sellerId, ...application }, upsert: true },
          };
        }),
        { ordered: false },
      );
    for (const application of kept) touched.add(application.chargeId);
  }
  const inPage = new Set(page.payments.map((p) => p.providerId));
  const charges = [...new Set([...inPage, ...touched])].sort();
  if (charges.length === 0) return;
  const applications = await applicationsOf(db, sellerId, charges);
  page.payments = page.payments.map((p) => ({ ...p, applications: applications.get(p.providerId) ?? [] }));
  const storedIds = charges.filter((charge) => !inPage.has(charge));
  if (storedIds.length === 0) return;
  const stored = await db
    .collection<LedgerDoc<'payments'>>(ledgerCollections.payments)
    .find({ _id: { $in: storedIds.map((charge) => ledgerDocId(sellerId, charge)) } } as never, {
      projection: { _id: 0, tenantId: 0, epoch: 0, hash: 0, changedAt: 0 },
    })
    .toArray();
  for (const row of stored as unknown as LedgerPayment[])
    page.payments.push({ ...row, applications: applications.get(row.providerId) ?? [] });
};
