import type { ArchivedReportType, ReportExtension } from '../../contracts/api/reports';
import type { RecordedEvent } from '../../contracts/events/envelope';
import { JobEvent } from '../../contracts/events/job';
import { TenantEvent } from '../../contracts/events/tenant';
import { defineProjection, type ReadModelWrite } from '../framework/projection';
import { parseEvent } from '../parse-event';

/** One archived report file (JobReportArchived): what the Report Archive tables list and download. */
export type ArchivedReportDoc = {
  /** The archived report id users see. */
  _id: number;
  position: number;
  tenantId: number;
  sellerId: number | null;
  jobId: number;
  type: ArchivedReportType;
  extension: ReportExtension;
  displayName: string;
  fileName: string;
  contentType: string;
  size: number;
  /** Where the file is in the report archive's bucket (docs/adr/0035-report-archive.md). */
  objectKey: string;
  createdAt: Date;
};

/**
 * One live report kept in a CRM or cloud drive (the Live Reports table). Nothing writes it yet: the
 * CRM and cloud integrations issue adds the events that do, here in this projection.
 */
export type ManagedReportDoc = {
  _id: string;
  position: number;
  tenantId: number;
  sellerId: number | null;
  type: string;
  provider: string;
  storageUrl: string;
  displayName: string;
  updatedAt: Date;
};

export type ReportCollections = 'archived' | 'managed';

const archivedTypes = new Set(['JobReportArchived']);
const tenantTypes = new Set(['TenantPurged']);

export const REPORTS = 'reports';

/** GET /api/reports/archived and GET /api/reports/managed. */
export const reportsProjection = defineProjection<ReportCollections>({
  name: REPORTS,
  collections: { archived: 'archived_reports', managed: 'managed_reports' },
  indexes: {
    archived: [
      { key: { tenantId: 1, createdAt: -1 }, name: 'tenant_created' },
      { key: { sellerId: 1, createdAt: -1 }, name: 'seller_created' },
    ],
    managed: [{ key: { tenantId: 1, updatedAt: -1 }, name: 'tenant_updated' }],
  },
  filter: { eventTypes: [...archivedTypes, ...tenantTypes] },
  project: (event: RecordedEvent): ReadModelWrite<ReportCollections>[] => {
    const job = parseEvent(JobEvent, archivedTypes, event);
    if (job?.type === 'JobReportArchived') {
      const { data } = job;
      return [
        {
          kind: 'set',
          collection: 'archived',
          id: data.archivedReportId,
          fields: {
            tenantId: data.tenantId,
            sellerId: data.sellerId,
            jobId: data.jobId,
            type: data.type,
            extension: data.extension,
            displayName: data.displayName,
            fileName: data.fileName,
            contentType: data.contentType,
            size: data.size,
            objectKey: data.objectKey,
            createdAt: new Date(data.archivedAt),
          },
        },
      ];
    }
    const tenant = parseEvent(TenantEvent, tenantTypes, event);
    // Any purge deletes the tenant's archived files (their customers' names are in them), so the rows go too.
    if (tenant?.type === 'TenantPurged')
      return (['archived', 'managed'] as const).map((collection) => ({
        kind: 'delete',
        collection,
        filter: { tenantId: tenant.data.TenantId },
      }));
    return [];
  },
});
