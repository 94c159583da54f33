import { ActivityFailure } from '@temporalio/common';
import type { ReportActivities } from '../../workflows/reports/activities';
import type { ReportJobInput, ReportJobResult } from '../../workflows/reports/report-job-input';
import type { ScheduledBatchActivities } from '../../workflows/reports/report-schedules/scheduled-batch-activities';
import type { ScheduledReportsActivities } from '../../workflows/reports/report-schedules/scheduled-reports-activities';
import type { reportJobWorkflow, scheduledReportsWorkflow } from '../../workflows/reports/workflows';
import { activitiesCalling, failureOf, refusal, useTimeSkippingWorkers } from '../harness/time-skipping';
import { keepHistory } from '../harness/workflow-histories';

/**
 * reportJobWorkflow and scheduledReportsWorkflow with their activities mocked, on Temporal's
 * time-skipping test server: the order of the steps, what reaches each, and how the job ends. The
 * activities run against the real servers in report-workflow.test.ts. (That server has no Schedules:
 * CreateSchedule answers "unimplemented"; the schedules run on the dev server in report-schedules.test.ts.)
 */

type Mocks = {
  [
    K in keyof ReportActivities | keyof ScheduledReportsActivities | keyof ScheduledBatchActivities
  ]: jest.Mock;
};

const queue = 'test-reports';

const archivedPdf = {
  archivedId: 31,
  type: 'WEEKLY_REPORT' as const,
  fileName: 'Acme - Weekly Report - 2026-03-10.pdf',
  displayName: 'Weekly Report 2026-03-10',
  contentType: 'application/pdf',
  size: 20_480,
};
const archivedSheet = {
  archivedId: 32,
  type: 'CUSTOMER_SHEET' as const,
  fileName: 'Acme - Customer Sheet - 2026-03-10.xlsx',
  displayName: 'Customer Sheet 2026-03-10',
  contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  size: 9_000,
};
const summary = {
  periodLabel: 'Week of 2 Mar 2026',
  highlights: [{ label: 'Collected', value: '$1,200.00' }],
};

let mocks: Mocks;
/** The scheduled send's recording of its last jobs and its batches, in the order they happened. */
let sendOrder: string[] = [];
const newMocks = () => {
  sendOrder = [];
  mocks = {
    beginReportJob: jest.fn().mockResolvedValue(undefined),
    // Runs from the begin-and-plan-in-one-step patch on answer the plan planReport holds here.
    beginAndPlanReport: jest.fn((step: unknown): unknown => mocks.planReport(step)),
    planReport: jest.fn().mockResolvedValue({
      skipped: null,
      files: [{ type: 'WEEKLY_REPORT' }, { type: 'CUSTOMER_SHEET' }],
      recipientIds: [4, 6, 9],
      skippedRecipients: [{ recipientId: 5, reason: 'Demo recipients never receive email.' }],
    }),
    renderAndArchive: jest
      .fn()
      .mockResolvedValueOnce({ archived: archivedPdf, summary })
      .mockResolvedValueOnce({ archived: archivedSheet, summary: null }),
    sendReportEmail: jest.fn((step: { recipientId: number }) =>
      Promise.resolve(
        step.recipientId === 6
          ? { recipientId: 6, status: 'skipped', reason: 'The subscription is not active.' }
          : {
              recipientId: step.recipientId,
              status: 'sent',
              messageId: `<7.${step.recipientId}@ledgerwise>`,
            },
      ),
    ),
    renderArchiveAndSend: jest.fn().mockResolvedValue({
      archived: archivedPdf,
      outcome: { recipientId: 4, status: 'sent', messageId: '<7.4@ledgerwise>' },
    }),
    finishReportJob: jest.fn().mockResolvedValue(undefined),
    recordScheduledReportJobs: jest.fn().mockResolvedValue({ skipped: null, jobIds: [70, 71] }),
    recordScheduledJobBlock: jest.fn().mockResolvedValue({
      skipped: null,
      jobs: [70, 71, 72, 73, 74].map((jobId) => ({ jobId, sellerId: jobId * 10 })),
      batching: { size: 2, lanes: 2 },
      // The first batches' jobs (two of two sellers); the run records the last one beside them.
      recorded: 4,
    }),
    recordScheduledJobs: jest.fn(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      sendOrder.push('rest recorded');
    }),
    sendScheduledBatch: jest.fn((step: { jobs: { jobId: number }[] }) => {
      sendOrder.push(`batch ${step.jobs.map((job) => job.jobId).join(',')}`);
      return Promise.resolve({ finished: step.jobs.length, alreadyEnded: 0 });
    }),
    failScheduledBatch: jest.fn().mockResolvedValue(undefined),
  };
};
newMocks();

const environment = useTimeSkippingWorkers([
  {
    taskQueue: queue,
    workflowsPath: require.resolve('../../workflows/reports/workflows'),
    activities: activitiesCalling(() => mocks, [
      'beginReportJob',
      'planReport',
      'beginAndPlanReport',
      'renderAndArchive',
      'sendReportEmail',
      'renderArchiveAndSend',
      'finishReportJob',
      'recordScheduledReportJobs',
      'recordScheduledJobBlock',
      'recordScheduledJobs',
      'sendScheduledBatch',
      'failScheduledBatch',
    ] satisfies (keyof Mocks)[]),
  },
]);

beforeEach(newMocks);

const input: ReportJobInput = {
  jobId: 7,
  tenantId: 3,
  sellerId: 5,
  pdf: 'weekly',
  sheets: {
    includeCustomerSheet: true,
    includeCustomerReviewSheet: false,
    includePrioritizedInvoices: false,
    includeForecast: false,
  },
  sections: null,
  recipients: { kind: 'subscribed' },
  archive: true,
  noOverride: true,
  requireRecentData: true,
  asOf: '2026-03-10T07:00:00.000Z',
  jobType: 'workflow',
};

const start = (workflowId: string) =>
  environment().client.workflow.start<typeof reportJobWorkflow>('reportJobWorkflow', {
    taskQueue: queue,
    workflowId,
    args: [input],
  });

describe('reportJobWorkflow', () => {
  it('renders and archives each file, emails each recipient in turn, and completes the job', async () => {
    const handle = await start('report-job-sent');
    const expected: ReportJobResult = {
      skipped: null,
      archived: [archivedPdf, archivedSheet],
      sent: [4, 9],
      skippedRecipients: [
        { recipientId: 5, reason: 'Demo recipients never receive email.' },
        { recipientId: 6, reason: 'The subscription is not active.' },
      ],
    };
    await expect(handle.result()).resolves.toEqual(expected);

    const step = { ...input, workflowId: handle.workflowId };
    // A new run begins and plans in one local activity; the two-step path is for recorded runs only.
    expect(mocks.beginAndPlanReport).toHaveBeenCalledWith(step);
    expect(mocks.beginReportJob).not.toHaveBeenCalled();
    expect(
      mocks.renderAndArchive.mock.calls.map(([call]: [{ file: unknown; index: number; total: number }]) => [
        call.file,
        call.index,
        call.total,
      ]),
    ).toEqual([
      [{ type: 'WEEKLY_REPORT' }, 0, 2],
      [{ type: 'CUSTOMER_SHEET' }, 1, 2],
    ]);
    // The PDF's headline goes into every email; the files by archive id, never their bytes.
    expect(
      mocks.sendReportEmail.mock.calls.map(
        ([call]: [{ recipientId: number; index: number; total: number }]) => [
          call.recipientId,
          call.index,
          call.total,
        ],
      ),
    ).toEqual([
      [4, 0, 3],
      [6, 1, 3],
      [9, 2, 3],
    ]);
    expect(mocks.sendReportEmail).toHaveBeenCalledWith(
      expect.objectContaining({ archived: [archivedPdf, archivedSheet], summary }),
    );
    expect(mocks.finishReportJob).toHaveBeenCalledWith({ ...step, failure: null, result: expected });
    await keepHistory(handle);
  });

  it('renders, archives and sends a job of one file for one recipient in one activity', async () => {
    mocks.planReport.mockResolvedValue({
      skipped: null,
      files: [{ type: 'WEEKLY_REPORT' }],
      recipientIds: [4],
      skippedRecipients: [],
    });
    const handle = await start('report-job-one-file-one-recipient');
    const expected: ReportJobResult = {
      skipped: null,
      archived: [archivedPdf],
      sent: [4],
      skippedRecipients: [],
    };
    await expect(handle.result()).resolves.toEqual(expected);

    const step = { ...input, workflowId: handle.workflowId };
    expect(mocks.renderArchiveAndSend).toHaveBeenCalledTimes(1);
    expect(mocks.renderArchiveAndSend).toHaveBeenCalledWith({
      ...step,
      file: { type: 'WEEKLY_REPORT' },
      recipientId: 4,
    });
    expect(mocks.renderAndArchive).not.toHaveBeenCalled();
    expect(mocks.sendReportEmail).not.toHaveBeenCalled();
    expect(mocks.finishReportJob).toHaveBeenCalledWith({ ...step, failure: null, result: expected });
    await keepHistory(handle);
  });

  it('lists the one recipient the combined step skipped, and archives the file', async () => {
    mocks.planReport.mockResolvedValue({
      skipped: null,
      files: [{ type: 'WEEKLY_REPORT' }],
      recipientIds: [6],
      skippedRecipients: [],
    });
    mocks.renderArchiveAndSend.mockResolvedValue({
      archived: archivedPdf,
      outcome: { recipientId: 6, status: 'skipped', reason: 'The subscription is not active.' },
    });
    const handle = await start('report-job-one-recipient-skipped');

    await expect(handle.result()).resolves.toEqual({
      skipped: null,
      archived: [archivedPdf],
      sent: [],
      skippedRecipients: [{ recipientId: 6, reason: 'The subscription is not active.' }],
    });
  });

  it('fails the job with the text of a refusal in the combined step', async () => {
    mocks.planReport.mockResolvedValue({
      skipped: null,
      files: [{ type: 'WEEKLY_REPORT' }],
      recipientIds: [],
      skippedRecipients: [],
    });
    mocks.renderArchiveAndSend.mockReset().mockRejectedValue(refusal('not_found', 'Job not found.'));
    const handle = await start('report-job-one-file-refused');

    expect(await failureOf(handle.result())).toBeInstanceOf(ActivityFailure);
    expect(mocks.renderArchiveAndSend).toHaveBeenCalledTimes(1);
    expect(mocks.renderArchiveAndSend).toHaveBeenCalledWith(expect.objectContaining({ recipientId: null }));
    expect(mocks.finishReportJob).toHaveBeenLastCalledWith(
      expect.objectContaining({ failure: 'Job not found.', result: null }),
    );
  });

  it('completes a skipped job with its reason and renders and sends nothing', async () => {
    mocks.planReport.mockResolvedValue({
      skipped: 'No data was received from the seller in the past 24 hours.',
      files: [],
      recipientIds: [],
      skippedRecipients: [],
    });
    const handle = await start('report-job-skipped');

    await expect(handle.result()).resolves.toMatchObject({
      skipped: 'No data was received from the seller in the past 24 hours.',
      sent: [],
    });
    expect(mocks.renderAndArchive).not.toHaveBeenCalled();
    expect(mocks.sendReportEmail).not.toHaveBeenCalled();
    await keepHistory(handle);
  });

  it('a refusal is not retried, sends nothing, and fails the job with its text', async () => {
    mocks.renderAndArchive.mockReset().mockRejectedValue(refusal('not_found', 'Job not found.'));
    const handle = await start('report-job-refused');

    const failure = await failureOf(handle.result());
    expect(failure).toBeInstanceOf(ActivityFailure);
    expect(mocks.renderAndArchive).toHaveBeenCalledTimes(1);
    expect(mocks.sendReportEmail).not.toHaveBeenCalled();
    expect(mocks.finishReportJob).toHaveBeenLastCalledWith(
      expect.objectContaining({ failure: 'Job not found.', result: null }),
    );
    await keepHistory(handle);
  });

  it('retries a failing send (SMTP down) until it goes through', async () => {
    mocks.sendReportEmail
      .mockRejectedValueOnce(new Error('connect ECONNREFUSED 127.0.0.1:1025'))
      .mockRejectedValueOnce(new Error('connect ECONNREFUSED 127.0.0.1:1025'));
    const handle = await start('report-job-smtp-retried');

    await expect(handle.result()).resolves.toMatchObject({ sent: [4, 9] });
    expect(
      mocks.sendReportEmail.mock.calls.map(([call]: [{ recipientId: number }]) => call.recipientId),
    ).toEqual([4, 4, 4, 6, 9]);
  });
});

describe('scheduledReportsWorkflow', () => {
  const startScheduled = (workflowId: string) =>
    environment().client.workflow.start<typeof scheduledReportsWorkflow>('scheduledReportsWorkflow', {
      taskQueue: queue,
      workflowId,
      args: [{ tenantId: 3, frequency: 'weekly', scheduledAt: '2026-03-10T07:00:00.000Z' }],
    });
  const batchesSent = () =>
    mocks.sendScheduledBatch.mock.calls
      .map(([call]: [{ jobs: { jobId: number }[] }]) => call.jobs.map((job) => job.jobId))
      .sort((a, b) => a[0]! - b[0]!);

  // Runs recorded before the scheduled-send-in-batches patch (recordScheduledReportJobs, a run per
  // job) replay from test/workflows/histories/scheduled-reports-weekly-tenant-3-2026-03-10T07:00:00Z.json.
  // Runs recorded before the record-jobs-beside-first-batches patch (the block recorded every job)
  // replay from test/workflows/histories/scheduled-reports-batched-weekly-tenant-3-2026-03-10T07:00:00Z.json.
  it('records the first batches’ jobs as a block under its own run id, the rest beside them, and sends them in batches', async () => {
    const workflowId = 'scheduled-reports-batched-early-weekly-tenant-3-2026-03-10T07:00:00Z';
    const handle = await startScheduled(workflowId);

    await expect(handle.result()).resolves.toEqual({ skipped: null, jobIds: [70, 71, 72, 73, 74] });
    const step = {
      tenantId: 3,
      frequency: 'weekly',
      scheduledAt: '2026-03-10T07:00:00.000Z',
      scheduledRunId: workflowId,
    };
    expect(mocks.recordScheduledJobBlock).toHaveBeenCalledWith({ ...step, firstBatchesOnly: true });
    expect(mocks.recordScheduledReportJobs).not.toHaveBeenCalled();
    expect(mocks.recordScheduledJobs).toHaveBeenCalledTimes(1);
    expect(mocks.recordScheduledJobs).toHaveBeenCalledWith({ ...step, jobs: [{ jobId: 74, sellerId: 740 }] });
    // The first batches go while the last job is recorded; its batch only once it is.
    expect(sendOrder.slice(0, 2).sort()).toEqual(['batch 70,71', 'batch 72,73']);
    expect(sendOrder.slice(2)).toEqual(['rest recorded', 'batch 74']);
    // Two sellers a batch, as the recording worker chose; every job in exactly one batch.
    expect(batchesSent()).toEqual([[70, 71], [72, 73], [74]]);
    expect(mocks.sendScheduledBatch).toHaveBeenCalledWith(expect.objectContaining(step));
    expect(mocks.failScheduledBatch).not.toHaveBeenCalled();
    await keepHistory(handle);
  });

  it('fails the open jobs of a batch that fails for good, and sends the other batches', async () => {
    mocks.sendScheduledBatch.mockImplementation((step: { jobs: { jobId: number }[] }) =>
      step.jobs.some((job) => job.jobId === 72)
        ? Promise.reject(refusal('validation', 'The archive refused the file.'))
        : Promise.resolve({ finished: step.jobs.length, alreadyEnded: 0 }),
    );
    const handle = await startScheduled('scheduled-reports-batch-refused');

    await expect(handle.result()).resolves.toEqual({ skipped: null, jobIds: [70, 71, 72, 73, 74] });
    expect(batchesSent()).toEqual([[70, 71], [72, 73], [74]]);
    expect(mocks.failScheduledBatch).toHaveBeenCalledTimes(1);
    expect(mocks.failScheduledBatch).toHaveBeenCalledWith(
      expect.objectContaining({
        jobs: [
          { jobId: 72, sellerId: 720 },
          { jobId: 73, sellerId: 730 },
        ],
        reason: 'The archive refused the file.',
      }),
    );
  });

  it('fails the jobs of the batches whose recording failed for good, and sends the first batches', async () => {
    mocks.recordScheduledJobs.mockRejectedValue(refusal('internal', 'The event store refused the jobs.'));
    const handle = await startScheduled('scheduled-reports-rest-refused');

    await expect(handle.result()).resolves.toEqual({ skipped: null, jobIds: [70, 71, 72, 73, 74] });
    expect(batchesSent()).toEqual([
      [70, 71],
      [72, 73],
    ]);
    expect(mocks.failScheduledBatch).toHaveBeenCalledTimes(1);
    expect(mocks.failScheduledBatch).toHaveBeenCalledWith(
      expect.objectContaining({
        jobs: [{ jobId: 74, sellerId: 740 }],
        reason: 'The event store refused the jobs.',
      }),
    );
  });

  it('sends nothing when the send is disabled', async () => {
    mocks.recordScheduledJobBlock.mockResolvedValue({
      skipped: 'Weekly emails are disabled for this company.',
      jobs: [],
      batching: { size: 20, lanes: 4 },
    });
    const handle = await startScheduled('scheduled-reports-disabled');

    await expect(handle.result()).resolves.toEqual({
      skipped: 'Weekly emails are disabled for this company.',
      jobIds: [],
    });
    expect(mocks.sendScheduledBatch).not.toHaveBeenCalled();
  });
});
