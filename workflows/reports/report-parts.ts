import { buffer } from 'node:stream/consumers';
import type { Db } from 'mongodb';
import type { CommandHandlerDeps } from '../../commands/command-handler';
import type { ArchivedReportType } from '../../contracts/api/reports';
import { jobStream } from '../../contracts/stream-ids';
import { archivedFileKey } from '../../domain/job/job';
import { jobDecider } from '../../domain/job/job-decider';
import type { Mailer } from '../email/smtp-mailer';
import { readState } from '../sync/system-commands';
import type { ReportParts } from './activities';
import {
  archiveReport,
  recordReportEmailed,
  wasReportEmailed,
  type ReportObjectStore,
} from './archive/report-archive';
import { isDemoRecipient } from './email/demo-recipient';
import { renderClientPerformance } from './pdf/render-client-performance';
import { renderSellerReportWithSummary } from './pdf/render-seller-report';
import { pdfReportTypes } from './report-job-input';
import { renderSheets } from './sheets/render-sheets';

const extensionOf = (type: ArchivedReportType) => (type.endsWith('_SHEET') ? 'xlsx' : 'pdf');

/**
 * The report workflow's parts as the product runs them: the PDF renderer (pdf/), the XLSX sheets
 * (sheets/), the archive in the object store and the job's records of what it archived and emailed
 * (archive/), the demo-address rule (email/) and the SMTP mailer.
 */
export const createReportParts = (deps: {
  db: Db;
  writeSide: CommandHandlerDeps;
  now: () => Date;
  objects: ReportObjectStore;
  mailer: Pick<Mailer, 'send'>;
}): ReportParts => {
  const { db, writeSide, objects, now } = deps;
  return {
    renderPdf: ({ sellerId, frequency, asOf, sections }) =>
      renderSellerReportWithSummary(db, {
        sellerId,
        type: pdfReportTypes[frequency],
        asOf,
        ...(sections ? { sections } : {}),
      }),
    renderClientReport: ({ advisorUserId, asOf }) =>
      renderClientPerformance(db, { advisorUserId, asOf, format: 'pdf' }),
    renderSheet: async ({ sellerId, asOf, include }) =>
      (await renderSheets(db, { sellerId, asOf, include }))[0] ?? null,
    archive: async (input) => ({
      archivedId: (await archiveReport({ writeSide, objects, now }, input)).archivedReportId,
    }),
    readArchived: async ({ jobId, sellerId, file }) => {
      const job = await readState(writeSide, jobDecider, jobStream(jobId));
      const entry = job.status === 'none' ? undefined : job.archived[archivedFileKey(file.type, sellerId)];
      if (!entry) throw new Error(`job ${jobId} archived no ${file.type} for seller ${sellerId}`);
      const stored = await objects.get(entry.objectKey);
      return {
        type: file.type,
        extension: extensionOf(file.type),
        fileName: file.fileName,
        displayName: file.displayName,
        contentType: file.contentType,
        bytes: new Uint8Array(await buffer(stored.body)),
      };
    },
    wasEmailed: ({ jobId, recipientId }) => wasReportEmailed({ writeSide }, jobId, recipientId),
    recordEmailed: (input) => recordReportEmailed({ writeSide, now }, input),
    isDemoRecipient,
    mailer: deps.mailer,
  };
};
