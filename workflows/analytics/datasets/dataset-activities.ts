import { heartbeat } from '@temporalio/activity';
import type { Db } from 'mongodb';
import type { CommandHandlerDeps } from '../../../commands/command-handler';
import { jobStream } from '../../../contracts/stream-ids';
import { isFinished } from '../../../domain/job/job';
import { jobDecider } from '../../../domain/job/job-decider';
import type { ReportObjectStore } from '../../reports/archive/report-object-store';
import { readState, runSystemCommand, type SystemCommandContext } from '../../sync/system-commands';
import { throttledProgress } from '../../sync/throttled-progress';
import { datasetFileName, datasetFileOf, datasetRows } from './dataset-content';
import type { DatasetJobResult, DatasetJobStep } from './dataset-job-input';

export type DatasetDeps = {
  db: Db;
  writeSide: CommandHandlerDeps;
  objects: ReportObjectStore;
  now: () => Date;
};

/** Under the tenant's archive prefix, so a tenant purge deletes its data sets with its reports (ADR 35). */
export const datasetObjectKey = (
  step: Pick<DatasetJobStep, 'tenantId' | 'jobId' | 'dataset' | 'sellerId'>,
  extension: string,
) => `tenants/${step.tenantId}/datasets/${step.jobId}/${step.dataset}-${step.sellerId}.${extension}`;

const contextOf = (deps: DatasetDeps, step: DatasetJobStep): SystemCommandContext => ({
  writeSide: deps.writeSide,
  workflowId: step.workflowId,
  tenantId: step.tenantId,
  process: 'datasets',
});

/**
 * A data-set job's steps: begin, build and store the file (progress: reading, writing, storing), end.
 * Each is idempotent: the object key is a function of the job, so a retried build overwrites the
 * same file, and the job decider ignores a second start or end.
 */
export const createDatasetActivities = (deps: DatasetDeps) => ({
  async beginDatasetJob(step: DatasetJobStep): Promise<void> {
    const job = await readState(deps.writeSide, jobDecider, jobStream(step.jobId));
    if (job.status !== 'created') return;
    await runSystemCommand(contextOf(deps, step), jobDecider, {
      streamId: jobStream(step.jobId),
      step: 'start-job',
      command: { type: 'StartJob', now: deps.now(), data: {} },
    });
  },

  async buildDataset(step: DatasetJobStep): Promise<DatasetJobResult> {
    const progress = throttledProgress(contextOf(deps, step), { jobId: step.jobId, now: deps.now });
    await progress.record({ stage: 'reading', done: 0, total: 3 });
    const rows = await datasetRows(deps.db, step.dataset, step);
    heartbeat();
    await progress.record({ stage: 'writing', done: 1, total: 3 });
    const file = datasetFileOf(step.dataset, step.contentType, rows);
    const bytes = Buffer.from(file.text);
    await progress.record({ stage: 'storing', done: 2, total: 3 });
    const objectKey = datasetObjectKey(step, file.extension);
    await deps.objects.put(objectKey, bytes, file.mimeType);
    await progress.record({ stage: 'stored', done: 3, total: 3 });
    return {
      dataset: step.dataset,
      contentType: step.contentType,
      objectKey,
      fileName: datasetFileName(step, file.extension),
      mimeType: file.mimeType,
      bytes: bytes.byteLength,
      rows: rows.length,
      startDate: step.startDate,
      endDate: step.endDate,
    };
  },

  async finishDatasetJob(
    step: DatasetJobStep & { failure: string | null; result: DatasetJobResult | null },
  ): Promise<void> {
    const job = await readState(deps.writeSide, jobDecider, jobStream(step.jobId));
    if (job.status === 'none' || isFinished(job.status)) return;
    const now = deps.now();
    await runSystemCommand(contextOf(deps, step), jobDecider, {
      streamId: jobStream(step.jobId),
      step: step.failure === null ? 'complete-job' : 'fail-job',
      command:
        step.failure === null
          ? { type: 'CompleteJob', now, data: { result: step.result } }
          : { type: 'FailJob', now, data: { reason: step.failure } },
    });
  },
});

export type DatasetActivities = ReturnType<typeof createDatasetActivities>;
