import type { JobEvent } from '../../contracts/events/job';
import { deciderSpec } from '../decider-spec';
import type { RecordManagedReport } from './decide';
import { jobDecider } from './job-decider';

const spec = deciderSpec(jobDecider);
const now = new Date('2026-03-10T12:00:00.000Z');
const earlier = '2026-03-10T11:59:00.000Z';

const created: JobEvent = {
  type: 'JobCreated',
  data: {
    jobId: 90,
    kind: 'sync',
    tenantId: 3,
    sellerId: 11,
    parameters: { target: 'live-reports', integrationId: 5 },
    workflowId: 'live-reports-5-11-90',
    createdAt: earlier,
  },
};
const failed: JobEvent = { type: 'JobFailed', data: { jobId: 90, reason: 'Reconnect', failedAt: earlier } };

const write: RecordManagedReport['data'] = {
  sellerId: 11,
  integrationId: 5,
  provider: 'GOOGLE',
  type: 'CUSTOMER_SHEET',
  fileId: 'sheet-1',
  storageUrl: 'https://docs.google.com/spreadsheets/d/sheet-1',
  displayName: 'Acme - Customer Sheet',
};
const written: JobEvent = {
  type: 'JobManagedReportWritten',
  data: { jobId: 90, tenantId: 3, ...write, writtenAt: now.toISOString() },
};
const record = (data: RecordManagedReport['data']) => ({ type: 'RecordManagedReport' as const, data, now });

describe('recording a live report', () => {
  it("records the written file on the job, with the job's tenant", () => {
    spec.given([created]).when(record(write)).then([written]);
    expect(spec.stateAfter([created, written])).toMatchObject({
      managed: { '5:CUSTOMER_SHEET:11': 'sheet-1' },
    });
  });

  it('records a retried write once, and the other sheet of the same seller apart', () => {
    spec.given([created, written]).when(record(write)).then([]);
    const forecast = { ...write, type: 'AR_FORECAST_SHEET' as const, fileId: 'sheet-2' };
    spec
      .given([created, written])
      .when(record(forecast))
      .then([{ ...written, data: { ...written.data, ...forecast } }]);
  });

  it('refuses a blank file id or a link that is not a web address, and a finished job', () => {
    spec
      .given([created])
      .when(record({ ...write, fileId: ' ', storageUrl: 'javascript:alert(1)' }))
      .thenFails('validation', 'The live report is not valid.');
    spec.given([created, failed]).when(record(write)).thenFails('conflict', 'The job has already failed.');
  });
});
