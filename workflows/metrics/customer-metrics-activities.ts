import { heartbeat } from '@temporalio/activity';
import { jobDecider } from '../../domain/job/job-decider';
import { isFinished } from '../../domain/job/job';
import { ledgerCollections } from '../ledger/ledger-collections';
import { readState, runSystemCommand, type SystemCommandContext } from '../sync/system-commands';
import { throttledProgress } from '../sync/throttled-progress';
import type { MetricsDeps } from './activities';
import { createMetricsAccumulator, type MetricInvoice } from './compute-metrics';
import type { CustomerMetricsResult, CustomerMetricsStep } from './customer-metrics-input';
import { storeCustomerMetrics, updateCustomerCounts } from './metric-store';
import { readMetricsScope } from './metrics-scope';
import { withSellerMetricsLease } from './seller-metrics-lease';
import { jobStream } from '../../contracts/stream-ids';

const HEARTBEAT_EVERY = 5_000;

const commandContext = (deps: MetricsDeps, step: CustomerMetricsStep): SystemCommandContext => ({
  writeSide: deps.writeSide,
  workflowId: step.workflowId,
  tenantId: step.tenantId,
  process: 'customer-metrics',
});

/**
 * The customers job (C in the admin sellers table): recomputes one seller's customer metrics (per
 * customer, and the customer counts of its summary) from the invoices alone, leaving its metric rows
 * and MetricsDate as the last GenerateMetrics left them. The request's onlyMissing does not apply:
 * customer metrics have no periods to fill in.
 */
export const createCustomerMetricsActivities = (deps: MetricsDeps) => ({
  /** Marks the job started, creating it when a caller started the run without recording one. */
  async beginCustomerMetrics(step: CustomerMetricsStep) {
    const context = commandContext(deps, step);
    const now = deps.now();
    const job = await readState(deps.writeSide, jobDecider, jobStream(step.jobId));
    if (job.status === 'none')
      await runSystemCommand(context, jobDecider, {
        streamId: jobStream(step.jobId),
        step: 'create-job',
        command: {
          type: 'CreateJob',
          now,
          data: {
            jobId: step.jobId,
            kind: 'metrics',
            tenantId: step.tenantId,
            sellerId: step.sellerId,
            parameters: { sellerId: step.sellerId, onlyMissing: false, type: 'customers' },
            workflowId: step.workflowId,
          },
        },
      });
    await runSystemCommand(context, jobDecider, {
      streamId: jobStream(step.jobId),
      step: 'start-job',
      command: { type: 'StartJob', now, data: {} },
    });
  },

  /**
   * Scans the seller's invoices (progress: invoices read of the count at the start) while holding the
   * seller's metrics lease, so it never interleaves with GenerateMetrics or another customers job.
   */
  async generateCustomerMetrics(step: CustomerMetricsStep): Promise<CustomerMetricsResult> {
    const context = commandContext(deps, step);
    const { exclusions, retention, asOf } = await readMetricsScope(deps, step);
    const onWait = async ({ first }: { first: boolean }) => {
      heartbeat('waiting');
      // Once, so the jobs table says why nothing moves while another run has the seller.
      if (first)
        await runSystemCommand(context, jobDecider, {
          streamId: jobStream(step.jobId),
          step: 'progress:waiting',
          command: {
            type: 'RecordJobProgress',
            now: deps.now(),
            data: { stage: 'waiting', done: 0, total: null },
          },
        });
    };
    return withSellerMetricsLease(
      deps,
      { sellerId: step.sellerId, holder: step.workflowId, onWait },
      async () => {
        const invoices = deps.db.collection<MetricInvoice>(ledgerCollections.invoices);
        const total = await invoices.countDocuments({ sellerId: step.sellerId });
        const progress = throttledProgress(context, { jobId: step.jobId, now: deps.now });
        const accumulator = createMetricsAccumulator(exclusions);
        let scanned = 0;
        await progress.record({ stage: 'customers', done: 0, total });
        const cursor = invoices.find(
          { sellerId: step.sellerId },
          { projection: { _id: 0, customerId: 1, transactionDate: 1, balance: 1, lines: 1 } },
        );
        for await (const invoice of cursor) {
          accumulator.addInvoice(invoice);
          scanned += 1;
          if (scanned % HEARTBEAT_EVERY === 0) heartbeat(scanned);
          // The count was taken before the scan; a sync writing meanwhile can move it either way.
          if (scanned < total) await progress.record({ stage: 'customers', done: scanned, total });
        }
        const { customers, summary } = accumulator.compute({ asOf, retention });
        heartbeat(scanned);
        await storeCustomerMetrics(
          deps.db,
          { sellerId: step.sellerId, generation: step.workflowId },
          customers,
        );
        const counts = {
          customersT36M: summary.customersT36M,
          activeCustomers: summary.activeCustomers,
          retentionMonths: summary.retentionMonths,
        };
        await updateCustomerCounts(deps.db, step.sellerId, counts);
        // The stage's last step, recorded after storing: the bar is full only when the figures are there.
        await progress.record({ stage: 'customers', done: scanned, total: scanned });
        return { customers: customers.length, ...counts };
      },
    );
  },

  /** Ends the job; a job already ended (cancelled meanwhile, or a retried ending) is left as it is. */
  async finishCustomerMetrics(
    step: CustomerMetricsStep & { failure: string | null; result: CustomerMetricsResult | null },
  ) {
    const job = await readState(deps.writeSide, jobDecider, jobStream(step.jobId));
    if (job.status === 'none' || isFinished(job.status)) return;
    const now = deps.now();
    await runSystemCommand(commandContext(deps, step), jobDecider, {
      streamId: jobStream(step.jobId),
      step: step.failure === null ? 'complete-job' : 'fail-job',
      command:
        step.failure === null
          ? { type: 'CompleteJob', now, data: { result: step.result } }
          : { type: 'FailJob', now, data: { reason: step.failure } },
    });
  },
});

export type CustomerMetricsActivities = ReturnType<typeof createCustomerMetricsActivities>;
