import { reportRunOf } from './report-job';

const job = (parameters: Record<string, unknown>, overrides: Record<string, unknown> = {}) => ({
  jobId: 7,
  kind: 'report' as const,
  tenantId: 3,
  sellerId: 5,
  parameters: parameters as never,
  workflowId: 'lw-report-seller-5-job-7',
  createdAt: '2026-03-10T07:00:00.000Z',
  ...overrides,
});

describe('reportRunOf', () => {
  it('reads the portal request: the chosen recipients, no archive, no override rule', () => {
    expect(reportRunOf(job({ type: 'weekly', recipientIds: [4, 6] }))).toEqual({
      jobId: 7,
      tenantId: 3,
      sellerId: 5,
      asOf: '2026-03-10T07:00:00.000Z',
      jobType: 'weekly',
      pdf: 'weekly',
      sheets: {
        includeCustomerSheet: false,
        includeCustomerReviewSheet: false,
        includePrioritizedInvoices: false,
        includeForecast: false,
      },
      sections: null,
      recipients: { kind: 'recipients', recipientIds: [4, 6] },
      archive: false,
      noOverride: false,
      requireRecentData: false,
    });
  });

  it('reads the admin report options: sheets, archive, admins only or chosen subscribers', () => {
    const options = {
      type: 'monthly',
      frequency: 'monthly',
      admin: true,
      archive: true,
      subscriberIds: null,
      includeCustomerSheet: true,
      includeCustomerReviewSheet: false,
      includePrioritizedInvoices: true,
      includeForecast: false,
    };
    const run = reportRunOf(job(options));
    expect(run).toMatchObject({
      pdf: 'monthly',
      archive: true,
      recipients: { kind: 'admins' },
      sheets: { includeCustomerSheet: true, includePrioritizedInvoices: true, includeForecast: false },
    });
    expect(reportRunOf(job({ ...options, subscriberIds: [9] }))?.recipients).toEqual({
      kind: 'subscribers',
      userIds: [9],
    });
    expect(reportRunOf(job({ ...options, admin: false }))?.recipients).toEqual({ kind: 'subscribed' });
    // Sections are an on-demand report's only.
    expect(reportRunOf(job({ ...options, sections: ['summary'] }))?.sections).toBeNull();
    expect(
      reportRunOf(
        job({ ...options, type: 'ondemand', frequency: 'ondemand', sections: ['summary', 'benchmarks'] }),
      )?.sections,
    ).toEqual(['summary', 'benchmarks']);
  });

  it('reads the workflow options: defaults noOverride and noRecent, onlyArchive sends nothing', () => {
    expect(reportRunOf(job({ type: 'workflow', frequency: 'monthly' }))).toMatchObject({
      pdf: 'monthly',
      recipients: { kind: 'subscribed' },
      archive: true,
      noOverride: true,
      requireRecentData: true,
    });
    expect(
      reportRunOf(
        job({ type: 'workflow', frequency: 'weekly', onlyArchive: true, skipRecentDataChecks: true }),
      ),
    ).toMatchObject({ recipients: { kind: 'nobody' }, archive: true, requireRecentData: false });
    expect(reportRunOf(job({ type: 'workflow', frequency: 'none' }))).toMatchObject({
      pdf: 'weekly',
      recipients: { kind: 'nobody' },
    });
  });

  it('leaves alone what it does not run', () => {
    expect(reportRunOf(job({ type: 'CLIENT_PERFORMANCE' }, { sellerId: null }))).toBeNull();
    expect(reportRunOf(job({ type: 'weekly' }, { kind: 'metrics' }))).toBeNull();
    expect(reportRunOf(job({ type: 'benchmarks' }))).toBeNull();
    expect(reportRunOf(job({ type: 'workflow', frequency: 'daily' }))).toBeNull();
  });
});
