import { auditHistoryProjection } from '../../projections/audit-history/audit-history-projection';
import { ProjectionProcessor } from '../../projections/framework/projection-processor';
import { projectionStatus } from '../../projections/framework/projection-status';
import { rebuildProjection } from '../../projections/framework/rebuild-projection';
import { currentVersion } from '../../projections/framework/read-model-versions';
import { projectionPositions } from '../../projections/framework/read-your-writes';
import { appendWorkload } from './audit-workload';
import { useProjectionTestSetup } from './projection-test-setup';
import { versionChecksums } from './read-model-checksum';

const { context, openStore } = useProjectionTestSetup(__filename);
const projection = auditHistoryProjection;

const collectionNames = async () =>
  (await context.db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name).sort();

describe('rebuilding a read model', () => {
  it('produces exactly what live processing produced, switches queries to it and drops the old version', async () => {
    const { db, decode, keys } = context;
    const store = openStore();
    const positions = projectionPositions(db);
    await appendWorkload(store, keys, { events: 400, label: 'rebuild' });
    const live = new ProjectionProcessor({ db, store, decode, projection, batchSize: 90 });
    live.start();
    try {
      const head = await store.headPosition();
      expect((await positions.waitForPosition(projection.name, head, 30_000)).reached).toBe(true);
      const liveChecksums = await versionChecksums(db, projection, 1);

      const result = await rebuildProjection({ db, store, decode }, projection, { batchSize: 130 });

      expect(result).toEqual({
        name: projection.name,
        version: 2,
        previousVersion: 1,
        switched: true,
        position: head,
      });
      expect(await currentVersion(db, projection.name)).toBe(2);
      expect(await versionChecksums(db, projection, 2)).toEqual(liveChecksums);
      expect(await collectionNames()).not.toContain('audit_history_v1');

      // The live processor carries on in the new version from the rebuild's checkpoint.
      const newHead = await appendWorkload(store, keys, { events: 120, label: 'rebuild', firstIndex: 400 });
      expect((await positions.waitForPosition(projection.name, newHead, 30_000)).reached).toBe(true);
      expect(live.status()).toMatchObject({ version: 2, lastError: null });

      const reference = new ProjectionProcessor({ db, store, decode, projection, version: 99 });
      await reference.catchUp();
      expect(await versionChecksums(db, projection, 2)).toEqual(await versionChecksums(db, projection, 99));
      expect(await collectionNames()).toEqual(
        expect.not.arrayContaining(['audit_history_v1', 'audit_history_user_emails_v1']),
      );

      const [status] = await projectionStatus(db, store, [projection]);
      expect(status).toMatchObject({ name: projection.name, version: 2, head: newHead, lag: 0 });
      expect(status?.rebuilding).toEqual([{ version: 99, checkpoint: newHead }]);
    } finally {
      await live.stop();
    }
  });
});
