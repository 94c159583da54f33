import { NativeConnection } from '@temporalio/worker';
import type { FetchPageRequest } from '../../workflows/sync/ledger-connector';
import type { DemoProfile } from '../../workflows/demo/demo-profile';
import { fetchDemoPage } from '../../workflows/demo/demo-connector';
import { ledgerEntities } from '../../workflows/ledger/ledger-collections';
import { SYNC_GROUP_PAGES } from '../../workflows/sync/activities';
import { startSellerSync } from '../../workflows/sync/client';
import { createSyncWorker } from '../../workflows/sync/worker';
import type { syncSellerWorkflow } from '../../workflows/sync/workflows';
import {
  byProviderId,
  connectDemoSeller,
  generatedCompany,
  storedLedger,
  useLedgerWorld,
} from './ledger-world';

jest.setTimeout(180_000);

const world = useLedgerWorld(__filename);
const until = new Date('2024-06-30T12:00:00.000Z');

/**
 * A populate writes its pages in groups (docs/adr/0053-sync-writes-pages-in-groups.md). A page the
 * platform fails to give must not cost the pages fetched before it: the group is written first, so
 * the retried attempt asks for the failed page and none before it.
 */
describe('a populate written in groups of pages', () => {
  const sellerId = 303;
  const tenantId = 9;
  const company: DemoProfile = { seed: 5, startDate: '2022-01-01', invoicesPerYear: 300 };

  it('writes the pages fetched before a failed page, and its retry asks from the failed page on', async () => {
    await connectDemoSeller(world.events(), { sellerId, tenantId });
    const asked: (string | null)[] = [];
    const failAt = 4;
    let failed = false;
    const connector = {
      fetchPage: async (request: FetchPageRequest) => {
        asked.push(request.cursor);
        await Promise.resolve();
        if (asked.length === failAt && !failed) {
          failed = true;
          throw new Error('the platform timed out');
        }
        return fetchDemoPage(company, request);
      },
    };
    const connection = await NativeConnection.connect({ address: world.config.TEMPORAL_ADDRESS });
    try {
      const worker = await createSyncWorker({
        connection,
        config: world.config,
        deps: {
          db: world.db(),
          writeSide: world.events().writeSide,
          connectorFor: () => connector,
          now: () => new Date(),
        },
      });
      const result = await worker.runUntil(async () => {
        const { workflowId } = await startSellerSync(
          { sellerId, tenantId, mode: 'populate', jobId: 701, until, onlyFetch: true, pageSize: 40 },
          world.temporal(),
        );
        return world.client().workflow.getHandle<typeof syncSellerWorkflow>(workflowId).result();
      });
      expect(failed).toBe(true);
      // The failure came within the first group, so the pages before it were a group in waiting.
      expect(failAt - 1).toBeLessThan(SYNC_GROUP_PAGES);
      // The retry's first request is the failed page's cursor: the three pages before it were written.
      expect(asked[failAt]).toBe(asked[failAt - 1]);
      expect(new Set(asked.slice(0, failAt)).size).toBe(failAt);
      expect(asked.filter((cursor) => cursor === asked[failAt - 2])).toHaveLength(1);
      const expected = generatedCompany(company, { sellerId, until });
      const ledger = await storedLedger(world.db(), sellerId);
      expect(byProviderId(ledger)).toEqual(byProviderId(expected));
      for (const entity of ledgerEntities) {
        const ids = ledger[entity].map((r) => r.providerId);
        expect(new Set(ids).size).toBe(ids.length);
      }
      expect(result.pages).toBeGreaterThan(failAt);
    } finally {
      await connection.close();
    }
  });
});
