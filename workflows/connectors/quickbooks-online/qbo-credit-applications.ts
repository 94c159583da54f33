import type { Db } from 'mongodb';
import type { LedgerCreditMemo, LedgerPage } from '../../../contracts/ledger';
import { ledgerCollections, ledgerDocId, type LedgerDoc } from '../../ledger/ledger-collections';
import { creditMemoApplications, type QboCreditApplication } from './qbo-mapping';

/**
 * QuickBooks Online credit memo applications (docs/adr/0043-accounting-connectors.md). QBO keeps
 * them on payments, not on the memo, and the sync reads payments and memos apart (and a sync only
 * the changed ones). So the credits each payment applies are kept per payment in
 * `qbo_credit_applications` (ids and cents only, and only for payments that apply a credit): a memo
 * read gets its applications from there, and a payment read (or deleted) rewrites the stored memos
 * it touches, before and after. Re-reading a payment replaces its entry: a retried page is harmless.
 */
export const QBO_CREDIT_APPLICATIONS = 'qbo_credit_applications';

type CreditApplicationsDoc = {
  _id: string;
  sellerId: number;
  paymentProviderId: string;
  credits: QboCreditApplication[];
};

const collectionOf = (db: Db) => db.collection<CreditApplicationsDoc>(QBO_CREDIT_APPLICATIONS);

/** A populate starts the seller's credits afresh, as it reads every payment again. */
export const forgetCreditApplications = async (db: Db, sellerId: number): Promise<void> => {
  await collectionOf(db).deleteMany({ sellerId });
};

const applicationsOf = async (db: Db, sellerId: number, memoIds: readonly string[]) => {
  const docs = await collectionOf(db)
    .find({ sellerId, 'credits.memoProviderId': { $in: [...memoIds] } })
    .toArray();
  const credits = docs.flatMap((doc) => doc.credits);
  return new Map(
    memoIds.map((memo) => [memo, creditMemoApplications(credits.filter((c) => c.memoProviderId === memo))]),
  );
};

/** The page's credit memos with the applications the payments read so far record. */
export const fillCreditMemoApplications = async (
  { db, sellerId }: { db: Db; sellerId: number },
  page: LedgerPage,
): Promise<void> => {
  if (page.creditMemos.length === 0) return;
  const applications = await applicationsOf(
    db,
    sellerId,
    page.creditMemos.map((memo) => memo.providerId),
  );
  page.creditMemos = page.creditMemos.map((memo) =>
    memo.amount === 0 ? memo : { ...memo, applications: applications.get(memo.providerId) ?? [] },
  );
};

/**
 * Records the credits of the payments just read (a deleted payment: none) and adds to the page the
 * stored credit memos whose applications changed. A memo not stored yet gets them when it is read.
 */
export const recordPaymentCredits = async (
  { db, sellerId }: { db: Db; sellerId: number },
  payments: ReadonlyMap<string, QboCreditApplication[]>,
  page: LedgerPage,
): Promise<void> => {
  if (payments.size === 0) return;
  const ids = [...payments.keys()].map((paymentId) => ledgerDocId(sellerId, paymentId));
  const before = await collectionOf(db)
    .find({ _id: { $in: ids } })
    .toArray();
  const touched = new Set<string>();
  for (const doc of before) for (const credit of doc.credits) touched.add(credit.memoProviderId);
  const gone = [...payments].filter(([, credits]) => credits.length === 0);
  if (gone.length > 0)
    await collectionOf(db).deleteMany({
      _id: { $in: gone.map(([paymentId]) => ledgerDocId(sellerId, paymentId)) },
    });
  const kept = [...payments].filter(([, credits]) => credits.length > 0);
  if (kept.length > 0)
    await collectionOf(db).bulkWrite(
      kept.map(([paymentProviderId, credits]) => {
        const _id = ledgerDocId(sellerId, paymentProviderId);
        return {
          replaceOne: {
            filter: { _id },
            replacement: { _id, sellerId, paymentProviderId, credits },
            upsert: true,
          },
        };
      }),
      { ordered: false },
    );
  for (const [, credits] of kept) for (const credit of credits) touched.add(credit.memoProviderId);
  if (touched.size === 0) return;
  const memoIds = [...touched].sort();
  const stored = await db
    .collection<LedgerDoc<'creditMemos'>>(ledgerCollections.creditMemos)
    .find({ _id: { $in: memoIds.map((memo) => ledgerDocId(sellerId, memo)) } } as never, {
      projection: { _id: 0, tenantId: 0, epoch: 0, hash: 0, changedAt: 0 },
    })
    .toArray();
  const applications = await applicationsOf(db, sellerId, memoIds);
  for (const row of stored as unknown as LedgerCreditMemo[]) {
    // A voided memo (QBO keeps it with zero amounts) applies nothing.
    if (row.amount === 0) continue;
    page.creditMemos.push({ ...row, applications: applications.get(row.providerId) ?? [] });
  }
};
