import type { Db } from 'mongodb';
import type { CronName, CronParameter, CronResponse } from '../../../contracts/api/jobs';
import { jobsCollection } from '../../../projections/jobs/query-jobs';
import { toJob } from './job-view';

const RECENT_JOBS = 10;

/** What each task takes: the tasks page builds its trigger form from this (docs/adr/0040). */
const catalogue: Record<CronName, { description: string; parameters: CronParameter[] }> = {
  update_demo_seller: {
    description: 'Syncs every demo seller up to today, then generates its metrics.',
    parameters: [
      {
        name: 'force',
        type: 'boolean',
        required: false,
        description: 'Update even when the demo data looks current.',
      },
      {
        name: 'onlyFetch',
        type: 'boolean',
        required: false,
        description: 'Bring the ledger up to date without generating metrics.',
      },
    ],
  },
  moveIndirectCustomer: {
    description:
      'Makes a company whose subscription an advisory firm pays (an indirect customer) pay for itself; a firm client plan becomes the business default plan.',
    parameters: [
      {
        name: 'customerId',
        type: 'id',
        required: true,
        description: 'The company to move (its tenant id).',
      },
    ],
  },
};

/** GET /api/cron/{name}: the task's parameters and its latest runs across every tenant. */
export const describeCron = async (db: Db, name: CronName): Promise<CronResponse> => {
  const jobs = await jobsCollection(db);
  const recent = await jobs
    .find({ type: name })
    .sort({ createdAt: -1, _id: -1 })
    .limit(RECENT_JOBS)
    .toArray();
  return { name, ...catalogue[name], recentJobs: recent.map(toJob) };
};
