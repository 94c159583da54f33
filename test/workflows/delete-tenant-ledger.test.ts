import type { Db } from 'mongodb';
import { fetchDemoPage } from '../../workflows/demo/demo-connector';
import { ledgerCollections, ledgerEntities } from '../../workflows/ledger/ledger-collections';
import { deleteTenantLedger } from '../../workflows/ledger/delete-tenant-ledger';
import {
  LEDGER_OUTBOX,
  outboxEntriesOf,
  writeOutboxEntries,
  type LedgerOutboxEntry,
} from '../../workflows/ledger/ledger-outbox';
import { serializedDocsOf } from '../../workflows/ledger/write-ledger-page';
import { CUSTOMER_RECEIVABLES } from '../../workflows/metrics/metric-store';
import { QBO_CREDIT_APPLICATIONS } from '../../workflows/connectors/quickbooks-online/qbo-credit-applications';
import { STRIPE_INVOICE_PAYMENTS } from '../../workflows/connectors/stripe/stripe-invoice-payments';
import { useTestReadStore } from '../harness/test-read-store';

const readStore = useTestReadStore(__filename);
let db: Db;
beforeAll(() => {
  db = readStore.db();
});

const now = new Date('2024-07-01T08:30:00.000Z');

/** A synced DEMO page of the seller: its ledger rows (unless `rows` is false) and its outbox entry. */
const syncPage = async (sellerId: number, tenantId: number, rows = true) => {
  const { page } = fetchDemoPage(
    { seed: sellerId, startDate: '2024-01-01', invoicesPerYear: 40 },
    { sellerId, since: null, until: now, cursor: null, pageSize: 1_000 },
  );
  const changed = ledgerEntities.map((entity) => ({
    entity,
    docs: serializedDocsOf({ tenantId, epoch: 1, now }, page[entity]),
  }));
  await writeOutboxEntries(db, await outboxEntriesOf(sellerId, changed));
  if (!rows) return;
  for (const { entity, docs } of changed)
    if (docs.length > 0)
      await db.collection<{ _id: string }>(ledgerCollections[entity]).insertMany(docs.map((d) => d.doc));
};

const outboxSellers = async () =>
  (await db.collection<LedgerOutboxEntry>(LEDGER_OUTBOX).find().toArray()).map((e) => e.sellerId).sort();

describe('a tenant purge’s removal of the synced ledger', () => {
  it('removes the company’s ledger rows and its unsent outbox entries, which hold the same customers', async () => {
    await syncPage(12, 4);
    // Crashed between its outbox entry and its rows: its entry goes all the same.
    await syncPage(14, 4, false);
    await syncPage(13, 5);
    expect(await outboxSellers()).toEqual([12, 13, 14]);
    const named = (sellerId: number) => ({ _id: `${sellerId}:run:1`, sellerId, customerId: 1, name: 'Acme' });
    await db.collection<{ _id: string }>(CUSTOMER_RECEIVABLES).insertMany([named(12), named(13)]);
    const kept = (sellerId: number) => ({ _id: `${sellerId}:x`, sellerId });
    for (const name of [QBO_CREDIT_APPLICATIONS, STRIPE_INVOICE_PAYMENTS])
      await db.collection<{ _id: string }>(name).insertMany([kept(12), kept(13)]);

    await deleteTenantLedger(db, { tenantId: 4, sellerIds: [12, 14] });

    const tables = await db.collection<{ sellerId: number }>(CUSTOMER_RECEIVABLES).find().toArray();
    expect(tables.map((doc) => doc.sellerId)).toEqual([13]);
    for (const name of [QBO_CREDIT_APPLICATIONS, STRIPE_INVOICE_PAYMENTS])
      expect(
        (await db.collection<{ sellerId: number }>(name).find().toArray()).map((d) => d.sellerId),
      ).toEqual([13]);

    expect(await outboxSellers()).toEqual([13]);
    for (const entity of ledgerEntities) {
      const rows = db.collection(ledgerCollections[entity]);
      expect(await rows.countDocuments({ tenantId: 4 })).toBe(0);
    }
    expect(await db.collection(ledgerCollections.customers).countDocuments({ tenantId: 5 })).toBeGreaterThan(
      0,
    );
  });
});
