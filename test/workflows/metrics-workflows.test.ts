import { ActivityFailure } from '@temporalio/common';
import type { MetricsActivities } from '../../workflows/metrics/activities';
import type { CustomerMetricsActivities } from '../../workflows/metrics/customer-metrics-activities';
import type {
  CustomerMetricsInput,
  CustomerMetricsResult,
} from '../../workflows/metrics/customer-metrics-input';
import type { GenerateMetricsInput, GenerateMetricsResult } from '../../workflows/metrics/metrics-input';
import type { customerMetricsWorkflow, generateMetricsWorkflow } from '../../workflows/metrics/workflows';
import { activitiesCalling, failureOf, refusal, useTimeSkippingWorkers } from '../harness/time-skipping';
import { keepHistory } from '../harness/workflow-histories';

/**
 * GenerateMetrics and the customers job with their activities mocked, on Temporal's time-skipping test
 * server: who ends the job and with what, refusals and retries. The heartbeat timeout is exercised on
 * SyncSeller only: the test server runs its clock at the real pace while an activity runs, and these
 * timeouts are 2 minutes. The activities are tested against the real servers (sync-and-metrics,
 * customer-metrics-job).
 */

type Mocks = { [K in keyof MetricsActivities | keyof CustomerMetricsActivities]: jest.Mock };

const queue = 'test-metrics';
const metricsResult: GenerateMetricsResult = {
  rows: 672,
  customers: 38,
  metricsDate: '2026-11-01T00:00:00.000Z',
};
const customersResult: CustomerMetricsResult = {
  customers: 38,
  customersT36M: 30,
  activeCustomers: 21,
  retentionMonths: 14,
};

let mocks: Mocks;
const newMocks = () => {
  mocks = {
    generateSellerMetrics: jest.fn().mockResolvedValue(metricsResult),
    finishMetricsJob: jest.fn().mockResolvedValue(undefined),
    beginCustomerMetrics: jest.fn().mockResolvedValue(undefined),
    generateCustomerMetrics: jest.fn().mockResolvedValue(customersResult),
    finishCustomerMetrics: jest.fn().mockResolvedValue(undefined),
  };
};
newMocks();

const environment = useTimeSkippingWorkers([
  {
    taskQueue: queue,
    workflowsPath: require.resolve('../../workflows/metrics/workflows'),
    activities: activitiesCalling(() => mocks, [
      'generateSellerMetrics',
      'finishMetricsJob',
      'beginCustomerMetrics',
      'generateCustomerMetrics',
      'finishCustomerMetrics',
    ] satisfies (keyof Mocks)[]),
  },
]);
let runs = 0;

beforeEach(newMocks);

describe('generateMetricsWorkflow', () => {
  const input = (overrides: Partial<GenerateMetricsInput> = {}): GenerateMetricsInput => ({
    sellerId: 7,
    tenantId: 3,
    jobId: 52,
    finishJob: true,
    ...overrides,
  });
  /** Starts a run; one whose history is recorded takes the history's name as its id. */
  const start = (args: GenerateMetricsInput, workflowId = `generate-metrics-${++runs}`) =>
    environment().client.workflow.start<typeof generateMetricsWorkflow>('generateMetricsWorkflow', {
      taskQueue: queue,
      workflowId,
      args: [args],
    });

  it('as the sellers job, generates the metrics and completes the job with their counts', async () => {
    const handle = await start(input(), 'generate-metrics-finishes-job');

    await expect(handle.result()).resolves.toEqual(metricsResult);
    const step = { ...input(), workflowId: handle.workflowId };
    expect(mocks.generateSellerMetrics).toHaveBeenCalledWith(step);
    expect(mocks.finishMetricsJob).toHaveBeenCalledWith({ ...step, failure: null, result: metricsResult });
    await keepHistory(handle);
  });

  it('when its parent owns the job (finishJob false), leaves the job alone', async () => {
    const handle = await start(
      input({ finishJob: false, jobId: null }),
      'generate-metrics-job-owned-by-parent',
    );

    await expect(handle.result()).resolves.toEqual(metricsResult);
    expect(mocks.finishMetricsJob).not.toHaveBeenCalled();
    await keepHistory(handle);
  });

  it('a refusal is not retried and fails the job with its text', async () => {
    mocks.generateSellerMetrics.mockRejectedValue(refusal('validation', 'The seller was never synced.'));
    const handle = await start(input(), 'generate-metrics-refused');

    expect(await failureOf(handle.result())).toBeInstanceOf(ActivityFailure);
    expect(mocks.generateSellerMetrics).toHaveBeenCalledTimes(1);
    expect(mocks.finishMetricsJob).toHaveBeenCalledWith({
      ...input(),
      workflowId: handle.workflowId,
      failure: 'The seller was never synced.',
      result: null,
    });
    await keepHistory(handle);
  });

  it('a failure with finishJob false fails the run only: the parent ends the job', async () => {
    mocks.generateSellerMetrics.mockRejectedValue(refusal('not_found', 'No such seller.'));
    const handle = await start(input({ finishJob: false }));

    await failureOf(handle.result());
    expect(mocks.finishMetricsJob).not.toHaveBeenCalled();
  });

  it('transient failures are retried up to 5 attempts, then the job fails with the last error', async () => {
    mocks.generateSellerMetrics.mockRejectedValue(new Error('Mongo cursor lost'));
    const handle = await start(input());

    await failureOf(handle.result());
    expect(mocks.generateSellerMetrics).toHaveBeenCalledTimes(5);
    expect(mocks.finishMetricsJob).toHaveBeenCalledWith(
      expect.objectContaining({ failure: 'Mongo cursor lost', result: null }),
    );
  });
});

describe('customerMetricsWorkflow', () => {
  const input: CustomerMetricsInput = { sellerId: 7, tenantId: 3, jobId: 53 };
  const start = (workflowId = `customer-metrics-${++runs}`) =>
    environment().client.workflow.start<typeof customerMetricsWorkflow>('customerMetricsWorkflow', {
      taskQueue: queue,
      workflowId,
      args: [input],
    });

  it('begins the job, generates the customer metrics and completes the job with them', async () => {
    const handle = await start('customer-metrics-completed');

    await expect(handle.result()).resolves.toEqual(customersResult);
    const step = { ...input, workflowId: handle.workflowId };
    expect(mocks.beginCustomerMetrics).toHaveBeenCalledWith(step);
    expect(mocks.generateCustomerMetrics).toHaveBeenCalledWith(step);
    expect(mocks.finishCustomerMetrics).toHaveBeenCalledWith({
      ...step,
      failure: null,
      result: customersResult,
    });
    expect(mocks.beginCustomerMetrics.mock.invocationCallOrder[0]).toBeLessThan(
      mocks.generateCustomerMetrics.mock.invocationCallOrder[0] ?? 0,
    );
    await keepHistory(handle);
  });

  it('a refused start fails the job with the reason and computes nothing', async () => {
    mocks.beginCustomerMetrics.mockRejectedValue(refusal('conflict', 'The job has already ended.'));
    const handle = await start('customer-metrics-refused');

    await failureOf(handle.result());
    expect(mocks.beginCustomerMetrics).toHaveBeenCalledTimes(1);
    expect(mocks.generateCustomerMetrics).not.toHaveBeenCalled();
    expect(mocks.finishCustomerMetrics).toHaveBeenCalledWith({
      ...input,
      workflowId: handle.workflowId,
      failure: 'The job has already ended.',
      result: null,
    });
    await keepHistory(handle);
  });

  it('computing that keeps failing is given up after 5 attempts and fails the job with the last error', async () => {
    mocks.generateCustomerMetrics
      .mockRejectedValueOnce(new Error('first'))
      .mockRejectedValue(new Error('FerretDB closed the connection'));
    const handle = await start('customer-metrics-failed');

    await failureOf(handle.result());
    expect(mocks.generateCustomerMetrics).toHaveBeenCalledTimes(5);
    expect(mocks.finishCustomerMetrics).toHaveBeenCalledWith(
      expect.objectContaining({ failure: 'FerretDB closed the connection', result: null }),
    );
    await keepHistory(handle);
  });

  it('a transient failure of the job steps is retried and the run completes', async () => {
    mocks.beginCustomerMetrics
      .mockRejectedValueOnce(new Error('version conflict'))
      .mockResolvedValue(undefined);
    mocks.finishCustomerMetrics
      .mockRejectedValueOnce(new Error('version conflict'))
      .mockResolvedValue(undefined);
    const handle = await start();

    await expect(handle.result()).resolves.toEqual(customersResult);
    expect(mocks.beginCustomerMetrics).toHaveBeenCalledTimes(2);
    expect(mocks.finishCustomerMetrics).toHaveBeenCalledTimes(2);
    expect(mocks.finishCustomerMetrics).toHaveBeenLastCalledWith(expect.objectContaining({ failure: null }));
  });
});
