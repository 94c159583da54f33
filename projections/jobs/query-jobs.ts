import type { Db, Filter } from 'mongodb';
import type { JobKind } from '../../contracts/events/job';
import { currentCollection } from '../framework/read-model-versions';
import { waitUntilRead, type ReadAfter } from '../read-after';
import { JOBS, jobsProjection, type JobDoc } from './jobs-projection';

export const jobsCollection = (db: Db) => currentCollection<'jobs', JobDoc>(db, jobsProjection, 'jobs');

const requireId = (name: string, value: number) => {
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`${name} must be a positive integer, got ${value}`);
};

/** One job by id; tenancy checks happen in the gateway. */
export const getJob = async (
  db: Db,
  query: { jobId: number; readAfter?: ReadAfter },
): Promise<{ job: JobDoc | null; stale: boolean }> => {
  requireId('jobId', query.jobId);
  const stale = await waitUntilRead(db, JOBS, query.readAfter);
  return { job: await (await jobsCollection(db)).findOne({ _id: query.jobId }), stale };
};

export type JobsQuery = {
  /** Omit for every tenant (platform admins). */
  tenantId?: number;
  /** Jobs about this seller, those naming it among several included. */
  sellerId?: number;
  limit: number;
  readAfter?: ReadAfter;
};

/** Jobs newest first. */
export const listJobs = async (db: Db, query: JobsQuery): Promise<{ jobs: JobDoc[]; stale: boolean }> => {
  const stale = await waitUntilRead(db, JOBS, query.readAfter);
  const filter: Filter<JobDoc> = {};
  if (query.tenantId !== undefined) filter.tenantId = query.tenantId;
  if (query.sellerId !== undefined) filter.sellerIds = query.sellerId;
  const jobs = await (
    await jobsCollection(db)
  )
    .find(filter)
    .sort({ createdAt: -1, _id: -1 })
    .limit(Math.max(1, Math.min(1000, query.limit)))
    .toArray();
  return { jobs, stale };
};

/**
 * The seller's jobs of a kind and type that have not finished (created or running): a report request
 * is refused while one of its kind is still processing.
 */
export const unfinishedJobs = async (
  db: Db,
  query: { kind: JobKind; type: string; sellerIds: readonly number[] },
): Promise<JobDoc[]> => {
  if (query.sellerIds.length === 0) return [];
  return (await jobsCollection(db))
    .find({
      kind: query.kind,
      type: query.type,
      sellerId: { $in: [...query.sellerIds] },
      status: { $in: ['created', 'running'] },
    })
    .toArray();
};

/** The seller's newest job of a kind and type (a report's last request), or null. */
export const latestJob = async (
  db: Db,
  query: { kind: JobKind; type: string; sellerId: number; readAfter?: ReadAfter },
): Promise<JobDoc | null> => {
  requireId('sellerId', query.sellerId);
  await waitUntilRead(db, JOBS, query.readAfter);
  return (await jobsCollection(db)).findOne(
    { kind: query.kind, type: query.type, sellerId: query.sellerId },
    { sort: { createdAt: -1, _id: -1 } },
  );
};
