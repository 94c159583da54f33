import { allocateId, idStreamOf } from '../../commands/id-allocator';
import { jobStream } from '../../contracts/stream-ids';
import { archivedReportsCollection } from '../../projections/reports/query-reports';
import {
  archiveReport,
  archivedIdsPerJob,
  createReportObjectStore,
  tenantArchivePrefix,
} from '../../workflows/reports/archive/report-archive';
import { useGatewayWorld } from '../gateway/gateway-world';
import { archiveDepsOf, renderedReport, reportJobOf } from '../gateway/report-archive-fixtures';

/**
 * Archived report ids come from the report job's own stream (docs/adr/0038, Costs of a job): a file's
 * id is its position among the job's files in the job's own id range, with no append to an id stream,
 * and above every id allocated before, so the archive never shows one id for two files. Real event
 * store, object store (s3rver) and read models.
 */
const world = useGatewayWorld(__filename);
const tenantId = 7;
const sellerId = 11;

afterAll(async () => {
  const objects = createReportObjectStore(world.config);
  await objects.deletePrefix(tenantArchivePrefix(tenantId)).catch(() => 0);
  objects.close();
});

const streamEvents = async (streamId: string) =>
  (await world.services.writeSide.store.readStream(streamId)).map((event) => event.type);

describe('archived report ids', () => {
  // First in the file: a process reads the ids allocated before once, at its first archive.
  it('start above the ids the id stream allocated before, and allocate none', async () => {
    const { store } = world.services.writeSide;
    for (const key of ['a', 'b', 'c'])
      await allocateId(store, { category: 'archivedReport', commandId: `before-the-change-${key}` });
    const jobId = await reportJobOf(world, tenantId, sellerId);

    const first = await archiveReport(archiveDepsOf(world), {
      tenantId,
      sellerId,
      jobId,
      report: renderedReport(),
    });

    expect(first.archivedReportId).toBe(3 + jobId * archivedIdsPerJob + 1);
    expect(await streamEvents(idStreamOf('archivedReport'))).toEqual([
      'IdAllocated',
      'IdAllocated',
      'IdAllocated',
    ]);
  });

  it("number a job's files by their position in the job, each once however often it is archived", async () => {
    const jobId = await reportJobOf(world, tenantId, sellerId);
    const deps = archiveDepsOf(world);
    const weekly = await archiveReport(deps, { tenantId, sellerId, jobId, report: renderedReport() });
    const sheet = await archiveReport(deps, {
      tenantId,
      sellerId,
      jobId,
      report: renderedReport({ type: 'CUSTOMER_SHEET', extension: 'xlsx' }),
    });
    const retried = await archiveReport(deps, { tenantId, sellerId, jobId, report: renderedReport() });
    await world.settle();

    expect([weekly.archivedReportId, sheet.archivedReportId]).toEqual([
      3 + jobId * archivedIdsPerJob + 1,
      3 + jobId * archivedIdsPerJob + 2,
    ]);
    expect(retried).toEqual(weekly);
    // The job's stream holds the whole story: created, started, two files; no id was allocated.
    expect(await streamEvents(jobStream(jobId))).toEqual([
      'JobCreated',
      'JobStarted',
      'JobReportArchived',
      'JobReportArchived',
    ]);
    expect(await streamEvents(idStreamOf('archivedReport'))).toHaveLength(3);
    const rows = await (await archivedReportsCollection(world.services.db)).find({ jobId }).toArray();
    expect(rows.map((row) => [row._id, row.type]).sort()).toEqual(
      [
        [weekly.archivedReportId, 'WEEKLY_REPORT'],
        [sheet.archivedReportId, 'CUSTOMER_SHEET'],
      ].sort(),
    );
  });

  it('give files archived at the same moment for one job distinct ids', async () => {
    const jobId = await reportJobOf(world, tenantId, null);
    const deps = archiveDepsOf(world);
    const types = ['WEEKLY_REPORT', 'CUSTOMER_SHEET', 'PRODUCT_SHEET', 'AR_FORECAST_SHEET'] as const;
    const ids = await Promise.all(
      types.map((type) =>
        archiveReport(deps, { tenantId, sellerId: null, jobId, report: renderedReport({ type }) }),
      ),
    );
    const base = 3 + jobId * archivedIdsPerJob;
    expect(ids.map((id) => id.archivedReportId).sort((a, b) => a - b)).toEqual([
      base + 1,
      base + 2,
      base + 3,
      base + 4,
    ]);
  });
});
