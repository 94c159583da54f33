import { ActivityFailure } from '@temporalio/common';
import type { ForecastActivities } from '../../workflows/forecast/activities';
import type { ForecastJobInput, ForecastJobResult } from '../../workflows/forecast/forecast-job-input';
import type { forecastJobWorkflow } from '../../workflows/forecast/workflows';
import { activitiesCalling, failureOf, refusal, useTimeSkippingWorkers } from '../harness/time-skipping';
import { keepHistory } from '../harness/workflow-histories';

/**
 * forecastJobWorkflow with its activities mocked, on Temporal's time-skipping test server: the job is
 * begun, the forecasts run, and the job ends with their counts or the reason they failed. The
 * activities run against the real servers in forecast-jobs.test.ts.
 */

type Mocks = { [K in keyof ForecastActivities]: jest.Mock };

const queue = 'test-forecasts';
const result: ForecastJobResult = {
  skipped: null,
  issued: 3,
  skippedAsOfs: 0,
  customerForecasts: 38,
  validatedSteps: 13,
  validatedCustomers: 30,
};

let mocks: Mocks;
const newMocks = () => {
  mocks = {
    beginForecastJob: jest.fn().mockResolvedValue(undefined),
    runForecasts: jest.fn().mockResolvedValue(result),
    finishForecastJob: jest.fn().mockResolvedValue(undefined),
  };
};
newMocks();

const environment = useTimeSkippingWorkers([
  {
    taskQueue: queue,
    workflowsPath: require.resolve('../../workflows/metrics/workflows'),
    activities: activitiesCalling(() => mocks, [
      'beginForecastJob',
      'runForecasts',
      'finishForecastJob',
    ] satisfies (keyof Mocks)[]),
  },
]);
let runs = 0;

beforeEach(newMocks);

const input: ForecastJobInput = {
  sellerId: 7,
  tenantId: 3,
  jobId: 54,
  jobType: 'forecasts',
  onlyMissing: true,
};
const start = (workflowId = `forecast-job-${++runs}`) =>
  environment().client.workflow.start<typeof forecastJobWorkflow>('forecastJobWorkflow', {
    taskQueue: queue,
    workflowId,
    args: [input],
  });

describe('forecastJobWorkflow', () => {
  it('begins the job, runs the forecasts and completes the job with their counts', async () => {
    const handle = await start('forecast-job-completed');

    await expect(handle.result()).resolves.toEqual(result);
    const step = { ...input, workflowId: handle.workflowId };
    expect(mocks.beginForecastJob).toHaveBeenCalledWith(step);
    expect(mocks.runForecasts).toHaveBeenCalledWith(step);
    expect(mocks.finishForecastJob).toHaveBeenCalledWith({ ...step, failure: null, result });
    await keepHistory(handle);
  });

  it('a refusal is not retried and fails the job with its text', async () => {
    mocks.runForecasts.mockRejectedValue(refusal('conflict', 'Metrics need synced data.'));
    const handle = await start('forecast-job-refused');

    expect(await failureOf(handle.result())).toBeInstanceOf(ActivityFailure);
    expect(mocks.runForecasts).toHaveBeenCalledTimes(1);
    expect(mocks.finishForecastJob).toHaveBeenCalledWith({
      ...input,
      workflowId: handle.workflowId,
      failure: 'Metrics need synced data.',
      result: null,
    });
    await keepHistory(handle);
  });

  it('transient failures are retried up to 5 attempts, then the job fails with the last error', async () => {
    mocks.runForecasts.mockRejectedValue(new Error('read store busy'));
    const handle = await start();

    await failureOf(handle.result());
    expect(mocks.runForecasts).toHaveBeenCalledTimes(5);
    expect(mocks.finishForecastJob).toHaveBeenCalledWith(
      expect.objectContaining({ failure: 'read store busy', result: null }),
    );
  });
});
