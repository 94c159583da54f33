import type { JobCommand } from '../../domain/job/decide';
import { jobDecider } from '../../domain/job/job-decider';
import { jobsProjection } from '../../projections/jobs/jobs-projection';
import { getJob, listJobs, unfinishedJobs } from '../../projections/jobs/query-jobs';
import { useReadModelKit } from './read-model-kit';
import { jobStream } from '../../contracts/stream-ids';

const kit = useReadModelKit(__filename, jobsProjection);
const { context } = kit;

const at = (minute: number) => new Date(Date.UTC(2026, 0, 10, 12, minute));

const job = (jobId: number, command: Omit<JobCommand, 'now'>, minute: number) =>
  kit.run(jobDecider, jobStream(jobId), { ...command, now: at(minute) } as JobCommand);

const create = (
  jobId: number,
  fields: { kind: 'report' | 'dataset' | 'sync'; tenantId: number; sellerId: number | null },
  parameters: Record<string, unknown>,
) =>
  job(
    jobId,
    {
      type: 'CreateJob',
      data: { jobId, ...fields, parameters: parameters as never, workflowId: `${fields.kind}-${jobId}` },
    },
    jobId,
  );

beforeAll(async () => {
  await create(1, { kind: 'report', tenantId: 7, sellerId: 70 }, { type: 'weekly', recipientIds: [1] });
  await create(
    2,
    { kind: 'dataset', tenantId: 7, sellerId: 71 },
    { type: 'ar_forecast_dso', sellerIds: [70, 71] },
  );
  await create(3, { kind: 'sync', tenantId: 8, sellerId: 80 }, { target: 'seller', mode: 'populate' });
  await job(2, { type: 'StartJob', data: {} }, 10);
  await job(2, { type: 'RecordJobProgress', data: { stage: 'rows', done: 5, total: 10 } }, 11);
  await job(3, { type: 'FailJob', data: { reason: 'provider refused' } }, 12);
  await kit.catchUp();
});

describe('the jobs read model', () => {
  it('keeps each job’s state, progress and ending', async () => {
    const { job: running } = await getJob(context.db, { jobId: 2 });
    expect(running).toMatchObject({
      kind: 'dataset',
      type: 'ar_forecast_dso',
      status: 'running',
      sellerIds: [71, 70],
      progress: { stage: 'rows', done: 5, total: 10, recordedAt: at(11) },
      startedAt: at(10),
    });
    const { job: failed } = await getJob(context.db, { jobId: 3 });
    expect(failed).toMatchObject({ type: 'populate', status: 'failed', failure: 'provider refused' });
  });

  it('lists a tenant’s or a seller’s jobs newest first, shared ones included', async () => {
    const ids = (jobs: { _id: number }[]) => jobs.map((j) => j._id);
    expect(ids((await listJobs(context.db, { tenantId: 7, limit: 10 })).jobs)).toEqual([2, 1]);
    expect(ids((await listJobs(context.db, { sellerId: 70, limit: 10 })).jobs)).toEqual([2, 1]);
    expect(ids((await listJobs(context.db, { limit: 2 })).jobs)).toEqual([3, 2]);
  });

  it('finds a seller’s unfinished report of a type', async () => {
    const busy = await unfinishedJobs(context.db, { kind: 'report', type: 'weekly', sellerIds: [70, 80] });
    expect(busy.map((j) => j._id)).toEqual([1]);
    expect(await unfinishedJobs(context.db, { kind: 'report', type: 'monthly', sellerIds: [70] })).toEqual(
      [],
    );
  });

  it('is stable under redelivery and rebuild', async () => {
    await kit.expectStableUnderRedeliveryAndRebuild();
  });
});
