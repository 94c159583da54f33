import { randomBytes } from 'node:crypto';
import { contentTypeOf, type ArchivedReportType, type ReportExtension } from '../../contracts/api/reports';
import { jobStream } from '../../contracts/stream-ids';
import { jobDecider } from '../../domain/job/job-decider';
import { reportObjectStoreOf } from '../../gateway/routes/reports/report-object-store-of';
import { archiveReport, type ReportArchiveDeps } from '../../workflows/reports/archive/report-archive';
import type { RenderedReport } from '../../workflows/reports/rendered-report';
import type { World } from './gateway-world';

/** Job ids of these fixtures: far above those the allocator hands out in a test file's fresh store. */
let nextJobId = 940_000;

/** A report job of the tenant, running, as the report workflow leaves it before archiving. */
export const reportJobOf = async (
  world: World,
  tenantId: number,
  sellerId: number | null,
): Promise<number> => {
  const jobId = (nextJobId += 1);
  const now = world.clock.now();
  await world.run(jobDecider, jobStream(jobId), {
    type: 'CreateJob',
    now,
    data: {
      jobId,
      kind: 'report',
      tenantId,
      sellerId,
      parameters: { type: 'weekly' },
      workflowId: `${world.runId}-report-job-${jobId}`,
    },
  });
  await world.run(jobDecider, jobStream(jobId), { type: 'StartJob', now, data: {} });
  return jobId;
};

/** A rendered file of random bytes (incompressible, so sizes are what they say). */
export const renderedReport = (
  options: { type?: ArchivedReportType; extension?: ReportExtension; bytes?: number; fileName?: string } = {},
): RenderedReport => {
  const extension = options.extension ?? 'pdf';
  return {
    type: options.type ?? 'WEEKLY_REPORT',
    extension,
    fileName: options.fileName ?? `Example Books - Weekly Report - 2024-06-30.${extension}`,
    displayName: 'Weekly Report 2024-06-30',
    contentType: contentTypeOf[extension],
    bytes: new Uint8Array(randomBytes(options.bytes ?? 40_000)),
  };
};

export const archiveDepsOf = (world: World): ReportArchiveDeps => ({
  writeSide: world.services.writeSide,
  objects: reportObjectStoreOf(world.services),
  now: world.clock.now,
});

/** A report archived for the tenant (and seller) through the real object store, read models settled. */
export const archivedReportOf = async (
  world: World,
  owner: { tenantId: number; sellerId: number | null },
  report: RenderedReport = renderedReport(),
): Promise<{ archivedReportId: number; objectKey: string; jobId: number; report: RenderedReport }> => {
  const jobId = await reportJobOf(world, owner.tenantId, owner.sellerId);
  const archived = await archiveReport(archiveDepsOf(world), { ...owner, jobId, report });
  await world.settle();
  return { ...archived, jobId, report };
};
