import type { ChildProcess } from 'node:child_process';
import type { DemoProfile } from '../../workflows/demo/demo-profile';
import { saveDemoProfile } from '../../workflows/demo/demo-profiles';
import type { LedgerEntity } from '../../contracts/ledger';
import { ledgerCollections, ledgerEntities, type LedgerDoc } from '../../workflows/ledger/ledger-collections';
import { LEDGER_OUTBOX, toFeedRecord } from '../../workflows/ledger/ledger-outbox';
import { SYNC_GROUP_PAGES } from '../../workflows/sync/activities';
import { startSellerSync } from '../../workflows/sync/client';
import type { syncSellerWorkflow } from '../../workflows/sync/workflows';
import {
  byProviderId,
  childSays,
  connectDemoSeller,
  generatedCompany,
  killHard,
  storedLedger,
  useLedgerWorld,
} from './ledger-world';
import { readFeed } from './read-feed';

jest.setTimeout(240_000);

const world = useLedgerWorld(__filename);
const { withWorkers, temporal } = world;
const until = new Date('2024-06-30T12:00:00.000Z');

describe('a killed sync worker', () => {
  const sellerId = 202;
  const tenantId = 8;
  const bigCompany: DemoProfile = { seed: 7, startDate: '2022-01-01', invoicesPerYear: 1000 };
  let child: ChildProcess | null = null;

  afterEach(async () => {
    if (child) await killHard(child);
  });

  it('resumes a populate where it stopped, with no row lost or duplicated, and refuses a second sync meanwhile', async () => {
    const db = world.db();
    await connectDemoSeller(world.events(), { sellerId, tenantId });
    await saveDemoProfile(db, { sellerId, profile: bigCompany });
    const expected = generatedCompany(bigCompany, { sellerId, until });
    const total = expected.invoices.length;

    child = world.spawnChild('worker');
    await childSays(child, 'ready');
    const started = await startSellerSync(
      { sellerId, tenantId, mode: 'populate', jobId: 601, until, onlyFetch: true, pageSize: 30 },
      temporal(),
    );
    const invoices = db.collection(ledgerCollections.invoices);
    let stored = 0;
    while (stored < total / 4) {
      await new Promise((r) => setTimeout(r, 100));
      stored = await invoices.countDocuments({ sellerId });
    }
    await killHard(child);
    child = null;
    const atKill = await invoices.countDocuments({ sellerId });
    expect(atKill).toBeLessThan(total);

    // The run is still open: a second sync of the seller is refused.
    await expect(
      startSellerSync({ sellerId, tenantId, mode: 'sync', jobId: 602, until }, temporal()),
    ).rejects.toMatchObject({ code: 'conflict', userMessage: 'A sync of this seller is already running.' });

    const result = await withWorkers(() =>
      world.client().workflow.getHandle<typeof syncSellerWorkflow>(started.workflowId).result(),
    );
    const ledger = await storedLedger(db, sellerId);
    expect(byProviderId(ledger)).toEqual(byProviderId(expected));
    for (const entity of ledgerEntities) {
      const ids = ledger[entity].map((r) => r.providerId);
      expect(new Set(ids).size).toBe(ids.length);
    }
    expect(result.pages).toBeGreaterThan(1);

    // The feed lost nothing either. Both workers sent their pages to Kafka themselves; the resumed
    // sync first sent what the killed one had left in the outbox. After dedupe by recordId, the feed
    // holds every stored record's current version once, and nothing else; a repeat is only a record
    // of the group of pages in flight at the kill (SYNC_GROUP_PAGES pages and the one fetched next).
    expect(await db.collection(LEDGER_OUTBOX).countDocuments({})).toBe(0);
    const storedIds = new Set<string>();
    for (const entity of ledgerEntities)
      for (const doc of await db
        .collection<LedgerDoc<LedgerEntity>>(ledgerCollections[entity])
        .find({ sellerId })
        .toArray())
        storedIds.add(toFeedRecord(entity, doc).recordId);
    const feed = await readFeed(world.kafka, {
      topicPrefix: world.config.KAFKA_TOPIC_PREFIX,
      groupId: `${world.names.kafkaTopicPrefix}.feed-check`,
    });
    expect(new Set(feed.map((m) => m.recordId))).toEqual(storedIds);
    for (const { recordId, record, key } of feed) {
      expect(record.recordId).toBe(recordId);
      expect(key).toBe(String(sellerId));
    }
    expect(feed.length - storedIds.size).toBeLessThanOrEqual((SYNC_GROUP_PAGES + 1) * 30 + 200);
  });
});
