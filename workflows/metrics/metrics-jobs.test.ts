import { metricsJobWorkflowId, metricsRunOf } from './metrics-jobs';

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
  it('runs the customers and the sellers job of a seller', () => {
    expect(metricsRunOf(job({}))).toEqual({ jobType: 'customers', sellerId: 101, tenantId: 7, jobId: 42 });
    expect(metricsRunOf(job({ parameters: { sellerId: 101, onlyMissing: true, type: 'sellers' } }))).toEqual({
      jobType: 'sellers',
      sellerId: 101,
      tenantId: 7,
      jobId: 42,
    });
  });

  it('runs the forecast jobs and historical with their onlyMissing', () => {
    expect(
      metricsRunOf(job({ parameters: { sellerId: 101, onlyMissing: true, type: 'historical' } })),
    ).toEqual({ jobType: 'historical', sellerId: 101, tenantId: 7, jobId: 42, onlyMissing: true });
    expect(
      metricsRunOf(job({ kind: 'forecast', parameters: { sellerId: 101, type: 'forecastByCustomer' } })),
    ).toEqual({ jobType: 'forecastByCustomer', sellerId: 101, tenantId: 7, jobId: 42, onlyMissing: false });
    expect(
      metricsRunOf(
        job({ kind: 'forecast', parameters: { sellerId: 101, onlyMissing: false, type: 'forecasts' } }),
      ),
    ).toEqual({ jobType: 'forecasts', sellerId: 101, tenantId: 7, jobId: 42, onlyMissing: false });
  });

  it('leaves jobs of no pipeline or of the wrong kind queued', () => {
    expect(metricsRunOf(job({ parameters: { sellerId: 101 } }))).toBeNull();
    expect(metricsRunOf(job({ kind: 'forecast' }))).toBeNull();
    expect(metricsRunOf(job({ parameters: { sellerId: 101, type: 'forecasts' } }))).toBeNull();
    expect(metricsRunOf(job({ kind: 'sync', parameters: { mode: 'sync', type: 'sellers' } }))).toBeNull();
    expect(metricsRunOf(job({ sellerId: null }))).toBeNull();
  });
});

describe('metricsJobWorkflowId', () => {
  it('names the deployment, the job type, the seller and the job', () => {
    const config = { TEMPORAL_TASK_QUEUE_PREFIX: 'lw' };
    expect(metricsJobWorkflowId(config, { jobType: 'customers', sellerId: 5, jobId: 9 })).toBe(
      'lw-metrics-customers-seller-5-job-9',
    );
    expect(metricsJobWorkflowId(config, { jobType: 'sellers', sellerId: 5, jobId: 10 })).toBe(
      'lw-metrics-sellers-seller-5-job-10',
    );
  });
});
