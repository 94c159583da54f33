import { customerMetricsWorkflowId, metricsRunOf } from './metrics-jobs';

const job = (change: Partial<Parameters<typeof metricsRunOf>[0]>) => ({
  jobId: 42,
  kind: 'metrics' as const,
  tenantId: 7,
  sellerId: 101,
  parameters: { sellerId: 101, onlyMissing: false, type: 'customers' },
  workflowId: 'wf',
  createdAt: '2024-06-30T12:00:00.000Z',
  ...change,
});

describe('metricsRunOf', () => {
  it('runs the customers job of a seller', () => {
    expect(metricsRunOf(job({}))).toEqual({ jobType: 'customers', sellerId: 101, tenantId: 7, jobId: 42 });
  });

  it('leaves jobs without a pipeline queued: other metrics types, forecasts, other kinds', () => {
    for (const type of ['sellers', 'historical'])
      expect(metricsRunOf(job({ parameters: { sellerId: 101, onlyMissing: false, type } }))).toBeNull();
    expect(metricsRunOf(job({ parameters: { sellerId: 101 } }))).toBeNull();
    expect(metricsRunOf(job({ kind: 'forecast' }))).toBeNull();
    expect(
      metricsRunOf(job({ kind: 'forecast', parameters: { sellerId: 101, type: 'forecastByCustomer' } })),
    ).toBeNull();
    expect(metricsRunOf(job({ kind: 'sync', parameters: { mode: 'sync', type: 'customers' } }))).toBeNull();
    expect(metricsRunOf(job({ sellerId: null }))).toBeNull();
  });
});

describe('customerMetricsWorkflowId', () => {
  it('names the deployment, the job type, the seller and the job', () => {
    expect(customerMetricsWorkflowId({ TEMPORAL_TASK_QUEUE_PREFIX: 'lw' }, { sellerId: 5, jobId: 9 })).toBe(
      'lw-metrics-customers-seller-5-job-9',
    );
  });
});
