import type { FastifyRequest } from 'fastify';
import { AppError } from '../../../contracts/errors';
import { JOBS } from '../../../projections/jobs/jobs-projection';
import { unfinishedJobs } from '../../../projections/jobs/query-jobs';
import { waitUntilRead } from '../../../projections/read-after';

export const reportStillProcessing = 'A previous request to send the report is still processing.';

/** Report requests of the same type queue here, so two at once cannot both pass the check. */
const queues = new Map<string, Promise<unknown>>();

const inTurn = async <T>(key: string, work: () => Promise<T>): Promise<T> => {
  const before = queues.get(key) ?? Promise.resolve();
  const turn = before.then(work, work);
  const settled = turn.catch(() => undefined);
  queues.set(key, settled);
  try {
    return await turn;
  } finally {
    if (queues.get(key) === settled) queues.delete(key);
  }
};

/**
 * Runs `record` unless a report of `type` for one of the sellers is still processing (409, the
 * spec's text). The check reads the jobs read model once it has every event appended so far, and
 * requests for the same report wait their turn in this process, so a double click records one job.
 */
export const unlessReportProcessing = <T>(
  request: FastifyRequest,
  report: { type: string; sellerIds: readonly number[] },
  record: () => Promise<T>,
): Promise<T> => {
  const { db, writeSide } = request.server.services;
  return inTurn(report.type, async () => {
    const head = await writeSide.store.headPosition();
    await waitUntilRead(db, JOBS, { afterPosition: head });
    const busy = await unfinishedJobs(db, { kind: 'report', type: report.type, sellerIds: report.sellerIds });
    if (busy.length > 0)
      throw new AppError('conflict', reportStillProcessing, {
        message: `report jobs still processing: ${busy.map((job) => job._id).join(', ')}`,
      });
    return record();
  });
};
