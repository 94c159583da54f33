import { clientPerformanceRunOf } from './client-performance-job';

const job = (parameters: Record<string, unknown>, overrides: Record<string, unknown> = {}) => ({
  jobId: 9,
  kind: 'report' as const,
  tenantId: 41,
  sellerId: null,
  parameters: parameters as never,
  workflowId: 'lw-report-client-performance-job-9',
  createdAt: '2026-11-26T09:00:00.000Z',
  ...overrides,
});

describe('clientPerformanceRunOf', () => {
  it('reads the options POST /api/reports records, as of the job’s creation', () => {
    expect(
      clientPerformanceRunOf(
        job({ type: 'CLIENT_PERFORMANCE', dryRun: true, excludeAdmins: true, userId: 12, requestedBy: 3 }),
      ),
    ).toEqual({
      jobId: 9,
      tenantId: 41,
      asOf: '2026-11-26T09:00:00.000Z',
      options: {
        excludeAdmins: true,
        hasSellers: false,
        dryRun: true,
        admin: false,
        userId: 12,
        requestedBy: 3,
      },
    });
  });

  it('takes a job recorded before requestedBy and userId existed as every advisor, no requester', () => {
    expect(clientPerformanceRunOf(job({ type: 'CLIENT_PERFORMANCE', admin: true }))).toMatchObject({
      options: { admin: true, userId: null, requestedBy: null },
    });
  });

  it('leaves an advisor’s own job to its parent’s run', () => {
    expect(
      clientPerformanceRunOf(job({ type: 'CLIENT_PERFORMANCE', parentJobId: 9, advisorUserId: 12 })),
    ).toBe('advisor');
  });

  it('answers null for what it cannot run: a seller’s job, another type, unreadable options', () => {
    expect(clientPerformanceRunOf(job({ type: 'CLIENT_PERFORMANCE' }, { sellerId: 5 }))).toBeNull();
    expect(clientPerformanceRunOf(job({ type: 'weekly' }))).toBeNull();
    expect(clientPerformanceRunOf(job({ type: 'CLIENT_PERFORMANCE', dryRun: 'yes' }))).toBeNull();
    expect(clientPerformanceRunOf(job({ type: 'CLIENT_PERFORMANCE' }, { kind: 'sync' }))).toBeNull();
  });
});
