import { ActivityFailure, ApplicationFailure } from '@temporalio/common';
import type { LiveReportsActivities } from '../../workflows/integrations/cloud/live-reports-activities';
import type { LiveReportsInput } from '../../workflows/integrations/cloud/live-reports-input';
import type { liveReportsWorkflow } from '../../workflows/integrations/cloud/workflows';
import { activitiesCalling, failureOf, useTimeSkippingWorkers } from '../harness/time-skipping';
import { keepHistory } from '../harness/workflow-histories';

/**
 * liveReportsWorkflow with its activities mocked, on Temporal's time-skipping test server: the job is
 * begun, the forecast awaited, each live report written in order, and the job ended with the links or
 * the reason. The activities run against the real servers and the cloud fakes in
 * test/integrations/cloud/live-reports-workflow.test.ts.
 */

type Mocks = { [K in keyof LiveReportsActivities]: jest.Mock };

const queue = 'test-live-reports';
const sheetUrl = 'https://docs.google.com/spreadsheets/d/1Abc';

let mocks: Mocks;
const newMocks = () => {
  mocks = {
    beginLiveReports: jest.fn().mockResolvedValue(undefined),
    awaitForecast: jest.fn().mockResolvedValue(undefined),
    writeLiveReport: jest
      .fn()
      .mockImplementation(({ type }: { type: string }) =>
        Promise.resolve(type === 'CUSTOMER_SHEET' ? { type, fileId: '1Abc', storageUrl: sheetUrl } : null),
      ),
    finishLiveReports: jest.fn().mockResolvedValue(undefined),
  };
};
newMocks();

const environment = useTimeSkippingWorkers([
  {
    taskQueue: queue,
    workflowsPath: require.resolve('../../workflows/integrations/cloud/workflows'),
    activities: activitiesCalling(() => mocks, [
      'beginLiveReports',
      'awaitForecast',
      'writeLiveReport',
      'finishLiveReports',
    ] satisfies (keyof Mocks)[]),
  },
]);
let runs = 0;

beforeEach(newMocks);

const input: LiveReportsInput = {
  jobId: 90,
  tenantId: 3,
  sellerId: 11,
  integrationId: 5,
  provider: 'GOOGLE',
  types: ['CUSTOMER_SHEET', 'AR_FORECAST_SHEET'],
  forecastWorkflowId: 'lw-forecast-seller-11-after-120',
};
const start = (workflowId = `live-reports-${++runs}`, args: LiveReportsInput = input) =>
  environment().client.workflow.start<typeof liveReportsWorkflow>('liveReportsWorkflow', {
    taskQueue: queue,
    workflowId,
    args: [args],
  });

describe('liveReportsWorkflow', () => {
  it('begins the job, awaits the forecast, writes each report in order and completes with the links', async () => {
    const handle = await start('live-reports-completed');

    const result = {
      written: [{ type: 'CUSTOMER_SHEET', storageUrl: sheetUrl }],
      skipped: ['AR_FORECAST_SHEET'],
    };
    await expect(handle.result()).resolves.toEqual(result);
    const step = { ...input, workflowId: handle.workflowId };
    expect(mocks.beginLiveReports).toHaveBeenCalledWith(step);
    expect(mocks.awaitForecast).toHaveBeenCalledWith(step);
    expect(mocks.writeLiveReport.mock.calls).toEqual([
      [{ ...step, type: 'CUSTOMER_SHEET', index: 0 }],
      [{ ...step, type: 'AR_FORECAST_SHEET', index: 1 }],
    ]);
    expect(mocks.finishLiveReports).toHaveBeenCalledWith({ ...step, failure: null, result });
    await keepHistory(handle);
  });

  it('waits for no forecast when only the customer sheet is written', async () => {
    const handle = await start(undefined, { ...input, types: ['CUSTOMER_SHEET'] });
    await handle.result();
    expect(mocks.awaitForecast).not.toHaveBeenCalled();
  });

  it('a refused token is not retried and fails the job asking to reconnect', async () => {
    const reconnect =
      'Google refused our access to the account of this integration. Reconnect Google on the Platforms page; ' +
      'the live reports are refreshed after the next sync.';
    mocks.writeLiveReport.mockRejectedValue(
      ApplicationFailure.nonRetryable(reconnect, 'ConnectorAuthRevoked'),
    );
    const handle = await start('live-reports-refused');

    expect(await failureOf(handle.result())).toBeInstanceOf(ActivityFailure);
    expect(mocks.writeLiveReport).toHaveBeenCalledTimes(1);
    expect(mocks.finishLiveReports).toHaveBeenCalledWith({
      ...input,
      workflowId: handle.workflowId,
      failure: reconnect,
      result: null,
    });
    await keepHistory(handle);
  });

  it('retries a transient failure of a write, then goes on', async () => {
    mocks.writeLiveReport
      .mockRejectedValueOnce(new Error('Google answered 503 5 times'))
      .mockResolvedValue({ type: 'CUSTOMER_SHEET', fileId: '1Abc', storageUrl: sheetUrl });
    const handle = await start();
    await handle.result();
    expect(mocks.writeLiveReport).toHaveBeenCalledTimes(3);
    expect(mocks.finishLiveReports).toHaveBeenCalledWith(expect.objectContaining({ failure: null }));
  });
});
