import { buffer } from 'node:stream/consumers';
import type { Db } from 'mongodb';
import type { CommandHandlerDeps } from '../../commands/command-handler';
import type { ArchivedReportType } from '../../contracts/api/reports';
import { jobStream } from '../../contracts/stream-ids';
import { archivedFileKey } from '../../domain/job/job';
import { jobDecider } from '../../domain/job/job-decider';
import type { Mailer } from '../email/smtp-mailer';
import { currentState } from './current-state';
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

/** Object keys of files archived lately held by createReportParts (a few lanes' batches). */
const ARCHIVED_KEYS_HELD = 256;

const extensionOf = (type: ArchivedReportType) => (type.endsWith('_SHEET') ? 'xlsx' : 'pdf');

/**
 * The files this process stored lately, by object key: the send that follows a render (in the same
 * worker, as it almost always is) attaches the bytes it just stored instead of downloading them
 * again. Bounded (the oldest go first); a miss (another worker, a restart) reads the object store.
 */
export const recentlyStored = (limits: { entries: number; bytes: number }) => {
  const held = new Map<string, Uint8Array>();
  let total = 0;
  return {
    keep: (key: string, bytes: Uint8Array) => {
      const before = held.get(key);
      if (before) total -= before.byteLength;
      held.delete(key);
      if (bytes.byteLength > limits.bytes) return;
      held.set(key, bytes);
      total += bytes.byteLength;
      for (const [oldest, value] of held) {
        if (held.size <= limits.entries && total <= limits.bytes) break;
        held.delete(oldest);
        total -= value.byteLength;
      }
    },
    get: (key: string) => held.get(key),
  };
};

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
  const stored = recentlyStored({ entries: 32, bytes: 64 * 1024 * 1024 });
  // The object key of each file this process archived lately, by job and file: a file's record never
  // changes once made (archived once per job and type), so the send that follows finds the key here
  // instead of loading the job's stream again. Bounded like `stored`; a miss reads the job.
  const archivedKeys = new Map<string, string>();
  const archivedKeyOf = (jobId: number, type: ArchivedReportType, sellerId: number | null) =>
    `${jobId} ${archivedFileKey(type, sellerId)}`;
  const rememberArchived = (key: string, objectKey: string) => {
    archivedKeys.delete(key);
    archivedKeys.set(key, objectKey);
    for (const oldest of archivedKeys.keys()) {
      if (archivedKeys.size <= ARCHIVED_KEYS_HELD) break;
      archivedKeys.delete(oldest);
    }
  };
  const keepingObjects: ReportObjectStore = {
    ...objects,
    put: async (key, bytes, contentType) => {
      await objects.put(key, bytes, contentType);
      stored.keep(key, bytes);
    },
  };
  const readArchivedBytes = async (jobId: number, type: ArchivedReportType, sellerId: number | null) => {
    const job = await currentState(writeSide, jobDecider, jobStream(jobId));
    const entry = job.status === 'none' ? undefined : job.archived[archivedFileKey(type, sellerId)];
    if (!entry) throw new Error(`job ${jobId} archived no ${type} for seller ${sellerId}`);
    return (
      stored.get(entry.objectKey) ?? new Uint8Array(await buffer((await objects.get(entry.objectKey)).body))
    );
  };
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
    archive: async (input) => {
      const archived = await archiveReport({ writeSide, objects: keepingObjects, now }, input);
      rememberArchived(archivedKeyOf(input.jobId, input.report.type, input.sellerId), archived.objectKey);
      return { archivedId: archived.archivedReportId };
    },
    readArchived: async ({ jobId, sellerId, file }) => {
      const known = archivedKeys.get(archivedKeyOf(jobId, file.type, sellerId));
      const held = known === undefined ? undefined : stored.get(known);
      const bytes = held ?? (await readArchivedBytes(jobId, file.type, sellerId));
      return {
        type: file.type,
        extension: extensionOf(file.type),
        fileName: file.fileName,
        displayName: file.displayName,
        contentType: file.contentType,
        bytes,
      };
    },
    wasEmailed: ({ jobId, recipientId }) => wasReportEmailed({ writeSide }, jobId, recipientId),
    recordEmailed: (input) => recordReportEmailed({ writeSide, now }, input),
    isDemoRecipient,
    mailer: deps.mailer,
  };
};
