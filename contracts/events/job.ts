import { z } from 'zod';
import {
  ArchivedReportType,
  ManagedReportProvider,
  ManagedReportType,
  ReportExtension,
} from '../api/reports';
import { JsonValue } from '../json-value';
import { EntityId, IsoDateTime, type PersonalDataFields } from './values';

/** The long-running pipelines (architecture.md, workflows); `task` runs an admin task (admin.md, Tasks). */
export const JobKind = z.enum(['sync', 'metrics', 'forecast', 'report', 'dataset', 'task']);
export type JobKind = z.infer<typeof JobKind>;

/** Job parameters and results are plain JSON, so that any pipeline can describe its own. */
export const JobJson = z.record(z.string(), JsonValue);
export type JobJson = z.infer<typeof JobJson>;

export const JobCreated = z.object({
  type: z.literal('JobCreated'),
  data: z.object({
    jobId: EntityId,
    kind: JobKind,
    tenantId: EntityId,
    sellerId: EntityId.nullable(),
    parameters: JobJson,
    /** The Temporal workflow id that runs the job, also the idempotency key of its side effects. */
    workflowId: z.string().min(1),
    createdAt: IsoDateTime,
  }),
});

export const JobStarted = z.object({
  type: z.literal('JobStarted'),
  data: z.object({ jobId: EntityId, startedAt: IsoDateTime }),
});

/** Coarse progress: `total` is null while unknown. */
export const JobProgressRecorded = z.object({
  type: z.literal('JobProgressRecorded'),
  data: z.object({
    jobId: EntityId,
    stage: z.string().min(1),
    done: z.int().nonnegative(),
    total: z.int().nonnegative().nullable(),
    recordedAt: IsoDateTime,
  }),
});

export const JobCompleted = z.object({
  type: z.literal('JobCompleted'),
  data: z.object({ jobId: EntityId, result: JobJson.nullable(), completedAt: IsoDateTime }),
});

export const JobFailed = z.object({
  type: z.literal('JobFailed'),
  data: z.object({ jobId: EntityId, reason: z.string().min(1), failedAt: IsoDateTime }),
});

export const JobCancelled = z.object({
  type: z.literal('JobCancelled'),
  data: z.object({ jobId: EntityId, reason: z.string().nullable(), cancelledAt: IsoDateTime }),
});

/**
 * A report file of the job stored in the archive's object store (docs/adr/0035-report-archive.md).
 * One per (type, sellerId) and job: a retried archive step finds it and stores nothing twice.
 */
export const JobReportArchived = z.object({
  type: z.literal('JobReportArchived'),
  data: z.object({
    jobId: EntityId,
    /** The id users see in the archive (GET /api/reports/archived/{id}/content). */
    archivedReportId: EntityId,
    tenantId: EntityId,
    /** Null for a report of the whole tenant (an advisor's client performance report). */
    sellerId: EntityId.nullable(),
    type: ArchivedReportType,
    extension: ReportExtension,
    displayName: z.string().min(1),
    fileName: z.string().min(1),
    contentType: z.string().min(1),
    /** Bytes of the stored file. */
    size: z.int().nonnegative(),
    objectKey: z.string().min(1),
    archivedAt: IsoDateTime,
  }),
});

/**
 * A live report rewritten in place in a cloud drive by a live reports job (docs/adr/0049-live-reports.md):
 * a Google Sheets spreadsheet or an Excel workbook in OneDrive. `fileId` is the provider's id of the
 * file, the same on every refresh while the file exists. One per (integration, type, seller) and job.
 */
export { ManagedReportProvider, ManagedReportType };

export const JobManagedReportWritten = z.object({
  type: z.literal('JobManagedReportWritten'),
  data: z.object({
    jobId: EntityId,
    tenantId: EntityId,
    sellerId: EntityId,
    integrationId: EntityId,
    provider: ManagedReportProvider,
    type: ManagedReportType,
    fileId: z.string().min(1),
    storageUrl: z.string().min(1),
    displayName: z.string().min(1),
    writtenAt: IsoDateTime,
  }),
});

/** The job's email reached one recipient (once: a retried send step finds it and sends nothing twice). */
export const JobReportEmailed = z.object({
  type: z.literal('JobReportEmailed'),
  data: z.object({
    jobId: EntityId,
    recipientId: EntityId,
    reportTypes: z.array(ArchivedReportType),
    /** The SMTP Message-ID the mail server accepted. */
    messageId: z.string().min(1),
    sentAt: IsoDateTime,
  }),
});

export const JobEvent = z.discriminatedUnion('type', [
  JobCreated,
  JobStarted,
  JobProgressRecorded,
  JobCompleted,
  JobFailed,
  JobCancelled,
  JobReportArchived,
  JobReportEmailed,
  JobManagedReportWritten,
]);
export type JobEvent = z.infer<typeof JobEvent>;
export type JobEventType = JobEvent['type'];

export const jobEventVersions = {
  JobCreated: 1,
  JobStarted: 1,
  JobProgressRecorded: 1,
  JobCompleted: 1,
  JobFailed: 1,
  JobCancelled: 1,
  JobReportArchived: 1,
  JobReportEmailed: 1,
  JobManagedReportWritten: 1,
} satisfies Record<JobEventType, number>;

/** Jobs refer to people only by id; parameters must not carry emails or names. */
export const jobPersonalDataFields = {
  JobCreated: [],
  JobStarted: [],
  JobProgressRecorded: [],
  JobCompleted: [],
  JobFailed: [],
  JobCancelled: [],
  JobReportArchived: [],
  JobReportEmailed: [],
  JobManagedReportWritten: [],
} satisfies PersonalDataFields<JobEvent>;
