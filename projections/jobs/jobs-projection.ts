import type { RecordedEvent } from '../../contracts/events/envelope';
import { JobEvent, jobEventVersions, type JobJson, type JobKind } from '../../contracts/events/job';
import { TenantEvent } from '../../contracts/events/tenant';
import type { JobStatus } from '../../domain/job/job';
import { defineProjection, type DocumentFields, type ReadModelWrite } from '../framework/projection';
import { parseEvent } from '../parse-event';

/** One document per job: what the browser shows of a pipeline request while it runs and after. */
export type JobDoc = {
  _id: number;
  position: number;
  kind: JobKind;
  /** What was asked within the kind (a metrics jobType, a report frequency, a dataset, a task name). */
  type: string;
  tenantId: number;
  sellerId: number | null;
  /** The seller and any others the parameters name, so a seller's jobs include shared ones. */
  sellerIds: number[];
  parameters: JobJson;
  workflowId: string;
  status: JobStatus;
  progress: { stage: string; done: number; total: number | null; recordedAt: Date } | null;
  result: JobJson | null;
  failure: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
};

type Collections = 'jobs';

const jobTypes = new Set(Object.keys(jobEventVersions));
const tenantTypes = new Set(['TenantPurged']);

/** The request's own name for itself; sync jobs (seller sync) name their mode. */
export const jobTypeOf = (kind: JobKind, parameters: JobJson): string => {
  const named = parameters.type ?? parameters.mode;
  return typeof named === 'string' && named !== '' ? named : kind;
};

const sellerIdsOf = (sellerId: number | null, parameters: JobJson): number[] => {
  const listed = Array.isArray(parameters.sellerIds) ? parameters.sellerIds : [];
  const ids = [sellerId, ...listed].filter(
    (id): id is number => typeof id === 'number' && Number.isInteger(id) && id > 0,
  );
  return [...new Set(ids)];
};

const set = (id: number, fields: DocumentFields): ReadModelWrite<Collections>[] => [
  { kind: 'set', collection: 'jobs', id, fields },
];

const jobWrites = (event: JobEvent): ReadModelWrite<Collections>[] => {
  switch (event.type) {
    case 'JobCreated': {
      const { data } = event;
      return set(data.jobId, {
        kind: data.kind,
        type: jobTypeOf(data.kind, data.parameters),
        tenantId: data.tenantId,
        sellerId: data.sellerId,
        sellerIds: sellerIdsOf(data.sellerId, data.parameters),
        parameters: data.parameters,
        workflowId: data.workflowId,
        status: 'created',
        progress: null,
        result: null,
        failure: null,
        createdAt: new Date(data.createdAt),
        startedAt: null,
        finishedAt: null,
      });
    }
    case 'JobStarted':
      return set(event.data.jobId, { status: 'running', startedAt: new Date(event.data.startedAt) });
    case 'JobProgressRecorded': {
      const { data } = event;
      return set(data.jobId, {
        status: 'running',
        progress: {
          stage: data.stage,
          done: data.done,
          total: data.total,
          recordedAt: new Date(data.recordedAt),
        },
      });
    }
    case 'JobCompleted':
      return set(event.data.jobId, {
        status: 'completed',
        result: event.data.result,
        finishedAt: new Date(event.data.completedAt),
      });
    case 'JobFailed':
      return set(event.data.jobId, {
        status: 'failed',
        failure: event.data.reason,
        finishedAt: new Date(event.data.failedAt),
      });
    case 'JobCancelled':
      return set(event.data.jobId, {
        status: 'cancelled',
        failure: event.data.reason,
        finishedAt: new Date(event.data.cancelledAt),
      });
    // The archive's own read model (projections/reports) holds these.
    case 'JobReportArchived':
    case 'JobReportEmailed':
    case 'JobManagedReportWritten':
      return [];
  }
};

export const JOBS = 'jobs';

/** Jobs: the state of metric, forecast, report, dataset, sync and task requests (GET /api/jobs). */
export const jobsProjection = defineProjection<Collections>({
  name: JOBS,
  collections: { jobs: 'jobs' },
  indexes: {
    jobs: [
      { key: { tenantId: 1, createdAt: -1 }, name: 'tenant_created' },
      { key: { sellerIds: 1, createdAt: -1 }, name: 'seller_created' },
      { key: { kind: 1, sellerId: 1, status: 1 }, name: 'kind_seller_status' },
      // The work queues page: counts per kind and state, and the oldest waiting job of a kind.
      { key: { kind: 1, status: 1, createdAt: 1 }, name: 'kind_status_created' },
      // GET /api/cron/{name}: a task's latest runs across every tenant.
      { key: { type: 1, createdAt: -1 }, name: 'type_created' },
    ],
  },
  filter: { eventTypes: [...jobTypes, ...tenantTypes] },
  project: (event: RecordedEvent) => {
    const job = parseEvent(JobEvent, jobTypes, event);
    if (job) return jobWrites(job);
    const tenant = parseEvent(TenantEvent, tenantTypes, event);
    // A permanent purge removes the tenant's history; its jobs go with it.
    if (tenant?.type === 'TenantPurged' && tenant.data.Permanent)
      return [{ kind: 'delete', collection: 'jobs', filter: { tenantId: tenant.data.TenantId } }];
    return [];
  },
});
