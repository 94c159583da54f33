import type { ArchivedReportType, ReportExtension } from '../../contracts/api/reports';
import type { RecordedEvent } from '../../contracts/events/envelope';
import { IntegrationEvent } from '../../contracts/events/integration';
import { JobEvent, type ManagedReportProvider, type ManagedReportType } from '../../contracts/events/job';
import { SellerEvent } from '../../contracts/events/seller';
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
 * One live report kept in a cloud drive (the Live Reports table, docs/adr/0049-live-reports.md): the
 * last JobManagedReportWritten of its integration, type and seller. The integration's disconnect or
 * delete, or the seller's delete, removes its rows (the files stay in the user's drive, theirs to keep).
 */
export type ManagedReportDoc = {
  /** managedReportId(integrationId, type, sellerId) */
  _id: string;
  position: number;
  tenantId: number;
  sellerId: number | null;
  integrationId: number;
  type: ManagedReportType;
  provider: ManagedReportProvider;
  /** The provider's id of the file: the next refresh rewrites this one. */
  fileId: string;
  storageUrl: string;
  displayName: string;
  updatedAt: Date;
};

export const managedReportId = (integrationId: number, type: string, sellerId: number): string =>
  `${integrationId}-${type}-${sellerId}`;

export type ReportCollections = 'archived' | 'managed';

const archivedTypes = new Set(['JobReportArchived', 'JobManagedReportWritten']);
const integrationTypes = new Set(['IntegrationDisconnected', 'IntegrationDeleted']);
const sellerTypes = new Set(['SellerDeleted']);
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
    managed: [
      { key: { tenantId: 1, updatedAt: -1 }, name: 'tenant_updated' },
      { key: { integrationId: 1 }, name: 'integration' },
      // A deleted seller's rows go (SellerDeleted).
      { key: { sellerId: 1 }, name: 'seller' },
    ],
  },
  filter: { eventTypes: [...archivedTypes, ...integrationTypes, ...sellerTypes, ...tenantTypes] },
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
    if (job?.type === 'JobManagedReportWritten') {
      const { data } = job;
      return [
        {
          kind: 'set',
          collection: 'managed',
          id: managedReportId(data.integrationId, data.type, data.sellerId),
          fields: {
            tenantId: data.tenantId,
            sellerId: data.sellerId,
            integrationId: data.integrationId,
            type: data.type,
            provider: data.provider,
            fileId: data.fileId,
            storageUrl: data.storageUrl,
            displayName: data.displayName,
            updatedAt: new Date(data.writtenAt),
          },
        },
      ];
    }
    const integration = parseEvent(IntegrationEvent, integrationTypes, event);
    // A disconnected or deleted account no longer refreshes its files: they leave the Live Reports table.
    if (integration?.type === 'IntegrationDisconnected' || integration?.type === 'IntegrationDeleted')
      return [
        { kind: 'delete', collection: 'managed', filter: { integrationId: integration.data.integrationId } },
      ];
    const seller = parseEvent(SellerEvent, sellerTypes, event);
    // A deleted company's files are no longer refreshed: they leave the table (archived files stay).
    if (seller?.type === 'SellerDeleted')
      return [{ kind: 'delete', collection: 'managed', filter: { sellerId: seller.data.sellerId } }];
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
