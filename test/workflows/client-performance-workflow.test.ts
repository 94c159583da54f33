import type { ClientPerformanceActivities } from '../../workflows/reports/client-performance/client-performance-activities';
import type {
  ClientPerformanceInput,
  ClientPerformanceResult,
  PlannedAdvisor,
} from '../../workflows/reports/client-performance/client-performance-input';
import type { clientPerformanceWorkflow } from '../../workflows/reports/workflows';
import { activitiesCalling, failureOf, refusal, useTimeSkippingWorkers } from '../harness/time-skipping';
import { keepHistory } from '../harness/workflow-histories';

/**
 * clientPerformanceWorkflow with its activities mocked, on Temporal's time-skipping test server: the
 * order of the steps, what reaches each, how one advisor's failure is recorded while the others go on,
 * and how the job ends. The activities run against the real servers in client-performance.test.ts.
 */

type Mocks = { [K in keyof ClientPerformanceActivities]: jest.Mock };

const queue = 'test-client-performance';

const advisor = (userId: number, clients = 2): PlannedAdvisor => ({
  userId,
  recipientUserId: userId,
  archiveTenantId: 41,
  clients,
  format: clients >= 30 ? 'xlsx' : 'pdf',
});
const archivedOf = (userId: number) => ({
  archivedId: 100 + userId,
  type: 'CLIENT_PERFORMANCE_REPORT' as const,
  fileName: `Advisor ${userId} - Client Performance Summary - 2026-11-26.pdf`,
  displayName: 'Client Performance Summary 2026-11-26',
  contentType: 'application/pdf',
  size: 9_000,
});

let mocks: Mocks;
const newMocks = () => {
  mocks = {
    beginClientPerformanceJob: jest.fn().mockResolvedValue(undefined),
    planClientPerformanceJob: jest.fn().mockResolvedValue({
      advisors: [advisor(4001), advisor(4002, 31), advisor(4003)],
      skipped: [{ userId: 4009, reason: 'There are no clients with a connected platform to report on.' }],
    }),
    renderAdvisorReport: jest.fn((step: { advisor: PlannedAdvisor }) =>
      Promise.resolve({
        status: 'archived',
        jobId: step.advisor.userId - 4000 + 50,
        archived: archivedOf(step.advisor.userId),
        periodLabel: 'October 2026',
      }),
    ),
    sendAdvisorReport: jest.fn((step: { advisor: PlannedAdvisor; advisorJobId: number }) =>
      Promise.resolve({
        userId: step.advisor.userId,
        status: 'sent',
        jobId: step.advisorJobId,
        recipientUserId: step.advisor.recipientUserId,
        archived: archivedOf(step.advisor.userId),
      }),
    ),
    failAdvisorReport: jest.fn().mockResolvedValue(52),
    finishClientPerformanceJob: jest.fn().mockResolvedValue(undefined),
  };
};
newMocks();

const environment = useTimeSkippingWorkers([
  {
    taskQueue: queue,
    workflowsPath: require.resolve('../../workflows/reports/workflows'),
    activities: activitiesCalling(() => mocks, [
      'beginClientPerformanceJob',
      'planClientPerformanceJob',
      'renderAdvisorReport',
      'sendAdvisorReport',
      'failAdvisorReport',
      'finishClientPerformanceJob',
    ] satisfies (keyof Mocks)[]),
  },
]);

beforeEach(newMocks);

const input = (options: Partial<ClientPerformanceInput['options']> = {}): ClientPerformanceInput => ({
  jobId: 9,
  tenantId: 41,
  asOf: '2026-11-26T09:00:00.000Z',
  options: {
    excludeAdmins: false,
    hasSellers: false,
    dryRun: false,
    admin: false,
    userId: null,
    requestedBy: 1,
    ...options,
  },
});

const start = (workflowId: string, args: ClientPerformanceInput = input()) =>
  environment().client.workflow.start<typeof clientPerformanceWorkflow>('clientPerformanceWorkflow', {
    taskQueue: queue,
    workflowId,
    args: [args],
  });

const noClients = { userId: 4009, reason: 'There are no clients with a connected platform to report on.' };

describe('clientPerformanceWorkflow', () => {
  it('renders, archives and sends each advisor in turn, and completes the job with each outcome', async () => {
    const handle = await start('client-performance-sent');
    const result = await handle.result();
    expect(result.sent).toEqual([4001, 4002, 4003]);
    expect(result.skipped).toEqual([noClients]);
    expect(result.advisors.map((a) => [a.userId, a.status])).toEqual([
      [4009, 'skipped'],
      [4001, 'sent'],
      [4002, 'sent'],
      [4003, 'sent'],
    ]);
    const step = { ...input(), workflowId: handle.workflowId };
    expect(mocks.beginClientPerformanceJob).toHaveBeenCalledWith(step);
    // Each send gets its advisor's job and archived file, and the progress counts n of m.
    expect(
      mocks.sendAdvisorReport.mock.calls.map(
        ([call]: [{ advisor: PlannedAdvisor; advisorJobId: number; index: number; total: number }]) => [
          call.advisor.userId,
          call.advisorJobId,
          call.index,
          call.total,
        ],
      ),
    ).toEqual([
      [4001, 51, 0, 3],
      [4002, 52, 1, 3],
      [4003, 53, 2, 3],
    ]);
    expect(mocks.finishClientPerformanceJob).toHaveBeenCalledWith({ ...step, failure: null, result });
    await keepHistory(handle);
  });

  it('on a dry run, plans and records who would get what, rendering and sending nothing', async () => {
    const handle = await start('client-performance-dry-run', input({ dryRun: true }));
    const expected: ClientPerformanceResult = {
      dryRun: true,
      advisors: [
        { ...noClients, status: 'skipped', jobId: null },
        { userId: 4001, status: 'planned', recipientUserId: 4001, clients: 2, format: 'pdf' },
        { userId: 4002, status: 'planned', recipientUserId: 4002, clients: 31, format: 'xlsx' },
        { userId: 4003, status: 'planned', recipientUserId: 4003, clients: 2, format: 'pdf' },
      ],
      sent: [],
      skipped: [noClients],
    };
    await expect(handle.result()).resolves.toEqual(expected);
    expect(mocks.renderAdvisorReport).not.toHaveBeenCalled();
    expect(mocks.sendAdvisorReport).not.toHaveBeenCalled();
    await keepHistory(handle);
  });

  it("records one advisor's refused render as failed and sends the others", async () => {
    mocks.renderAdvisorReport.mockImplementation((step: { advisor: PlannedAdvisor }) =>
      step.advisor.userId === 4002
        ? Promise.reject(refusal('not_found', 'Job not found.'))
        : Promise.resolve({
            status: 'archived',
            jobId: step.advisor.userId - 4000 + 50,
            archived: archivedOf(step.advisor.userId),
            periodLabel: 'October 2026',
          }),
    );
    const handle = await start('client-performance-advisor-failed');
    const result = await handle.result();
    expect(result.sent).toEqual([4001, 4003]);
    expect(result.advisors).toContainEqual({
      userId: 4002,
      status: 'failed',
      reason: 'Job not found.',
      jobId: 52,
    });
    expect(result.skipped).toEqual([noClients, { userId: 4002, reason: 'Job not found.' }]);
    expect(mocks.renderAdvisorReport).toHaveBeenCalledTimes(3);
    expect(mocks.failAdvisorReport).toHaveBeenCalledWith(
      expect.objectContaining({ advisor: advisor(4002, 31), reason: 'Job not found.' }),
    );
    await keepHistory(handle);
  });

  it('fails the job with the reason when the plan is refused', async () => {
    mocks.planClientPerformanceJob.mockReset().mockRejectedValue(refusal('validation', 'Bad options.'));
    const handle = await start('client-performance-refused');
    expect(await failureOf(handle.result())).toBeDefined();
    expect(mocks.planClientPerformanceJob).toHaveBeenCalledTimes(1);
    expect(mocks.finishClientPerformanceJob).toHaveBeenLastCalledWith(
      expect.objectContaining({ failure: 'Bad options.', result: null }),
    );
    await keepHistory(handle);
  });
});
