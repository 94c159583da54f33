import { JobEvent } from '../../contracts/events/job';
import { deciderSpec } from '../decider-spec';
import type { JobCommand } from './decide';
import { jobDecider } from './job-decider';

const spec = deciderSpec(jobDecider);
const now = new Date('2025-03-10T12:00:00.000Z');
const at = now.toISOString();
const earlier = '2025-03-10T11:59:00.000Z';
const halfASecondAgo = '2025-03-10T11:59:59.500Z';

const command = <C extends JobCommand>(type: C['type'], data: C['data'], when: Date = now) =>
  ({ type, data, now: when }) as JobCommand;

const created: JobEvent = {
  type: 'JobCreated',
  data: {
    jobId: 70,
    kind: 'sync',
    tenantId: 3,
    sellerId: 11,
    parameters: { mode: 'populate' },
    workflowId: 'sync-seller-11-70',
    createdAt: earlier,
  },
};
const started: JobEvent = { type: 'JobStarted', data: { jobId: 70, startedAt: earlier } };
const progress = (stage: string, done: number, total: number | null, recordedAt = earlier): JobEvent => ({
  type: 'JobProgressRecorded',
  data: { jobId: 70, stage, done, total, recordedAt },
});
const completed: JobEvent = { type: 'JobCompleted', data: { jobId: 70, result: null, completedAt: earlier } };
const failed: JobEvent = {
  type: 'JobFailed',
  data: { jobId: 70, reason: 'QBO answered 503', failedAt: earlier },
};
const cancelled: JobEvent = { type: 'JobCancelled', data: { jobId: 70, reason: null, cancelledAt: earlier } };

describe('creating and starting a job', () => {
  it('creates a job with its kind, tenant, seller, parameters and workflow id', () => {
    const { createdAt: _createdAt, ...data } = created.data;
    spec
      .given([])
      .when(command('CreateJob', data))
      .then([{ type: 'JobCreated', data: { ...data, createdAt: at } }]);
    expect(spec.stateAfter([created])).toMatchObject({ status: 'created', kind: 'sync', progress: null });
  });

  it('refuses a job id that exists and a blank workflow id', () => {
    const data = {
      jobId: 70,
      kind: 'report' as const,
      tenantId: 3,
      sellerId: null,
      parameters: {},
      workflowId: ' ',
    };
    spec.given([created]).when(command('CreateJob', data)).thenFails('conflict', 'The job already exists.');
    spec.given([]).when(command('CreateJob', data)).thenFails('validation', 'The workflow id is required.');
  });

  it('starts once', () => {
    spec
      .given([created])
      .when(command('StartJob', {}))
      .then([{ type: 'JobStarted', data: { jobId: 70, startedAt: at } }]);
    spec.given([created, started]).when(command('StartJob', {})).then([]);
    spec
      .given([created, completed])
      .when(command('StartJob', {}))
      .thenFails('conflict', 'The job has already completed.');
  });

  it('answers not found for a job never created', () => {
    spec.given([]).when(command('StartJob', {})).thenFails('not_found', 'Job not found.');
  });
});

describe('progress', () => {
  const record = (stage: string, done: number, total: number | null) =>
    command('RecordJobProgress', { stage, done, total });

  it('records stage, done and total', () => {
    spec
      .given([created, started])
      .when(record('invoices', 200, 1000))
      .then([progress('invoices', 200, 1000, at)]);
    expect(spec.stateAfter([created, started, progress('invoices', 200, 1000)])).toMatchObject({
      status: 'running',
      progress: { stage: 'invoices', done: 200, total: 1000 },
    });
  });

  it('starts a job that reports progress before its start', () => {
    spec
      .given([created])
      .when(record('customers', 0, null))
      .then([{ type: 'JobStarted', data: { jobId: 70, startedAt: at } }, progress('customers', 0, null, at)]);
  });

  it('keeps progress coarse: within a stage, at most one record a second', () => {
    const recent = progress('invoices', 200, 1000, halfASecondAgo);
    spec
      .given([created, started, recent])
      .when(record('invoices', 300, 1000))
      .then([]);
    spec
      .given([created, started, recent])
      .when(record('payments', 0, 50))
      .then([progress('payments', 0, 50, at)]);
    spec
      .given([created, started, recent])
      .when(record('invoices', 1000, 1000))
      .then([progress('invoices', 1000, 1000, at)]);
    spec
      .given([created, started, progress('invoices', 200, 1000)])
      .when(record('invoices', 300, 1000))
      .then([progress('invoices', 300, 1000, at)]);
  });

  it('records nothing when the progress has not changed', () => {
    spec
      .given([created, started, progress('invoices', 200, 1000)])
      .when(record('invoices', 200, 1000))
      .then([]);
  });

  it('validates the numbers', () => {
    const error = spec
      .given([created, started])
      .when(record(' ', -1, 2.5))
      .thenFails('validation', 'The progress is not valid.');
    expect(error.properties).toEqual({
      stage: 'required',
      done: 'Must be a whole number of at least 0.',
      total: 'Must be a whole number of at least 0.',
    });
    const over = spec
      .given([created, started])
      .when(record('invoices', 11, 10))
      .thenFails('validation');
    expect(over.properties).toEqual({ done: 'Cannot exceed the total.' });
  });

  it('refuses progress after the job finished', () => {
    spec
      .given([created, started, completed])
      .when(record('invoices', 1, 2))
      .thenFails('conflict', 'The job has already completed.');
    spec
      .given([created, failed])
      .when(record('invoices', 1, 2))
      .thenFails('conflict', 'The job has already failed.');
    spec
      .given([created, cancelled])
      .when(record('invoices', 1, 2))
      .thenFails('conflict', 'The job has already been cancelled.');
  });
});

describe('finishing a job', () => {
  it('completes with an optional result', () => {
    spec
      .given([created, started])
      .when(command('CompleteJob', { result: { invoices: 1000 } }))
      .then([{ type: 'JobCompleted', data: { jobId: 70, result: { invoices: 1000 }, completedAt: at } }]);
  });

  it('fails with a reason, which is required', () => {
    spec
      .given([created, started])
      .when(command('FailJob', { reason: 'QBO answered 503' }))
      .then([{ type: 'JobFailed', data: { jobId: 70, reason: 'QBO answered 503', failedAt: at } }]);
    spec
      .given([created, started])
      .when(command('FailJob', { reason: ' ' }))
      .thenFails('validation', 'A reason is required.');
  });

  it('cancels a job that has not finished', () => {
    spec
      .given([created])
      .when(command('CancelJob', { reason: ' Operator request ' }))
      .then([{ type: 'JobCancelled', data: { jobId: 70, reason: 'Operator request', cancelledAt: at } }]);
  });

  it('treats a repeated ending as a retry that changes nothing', () => {
    spec
      .given([created, completed])
      .when(command('CompleteJob', { result: null }))
      .then([]);
    spec
      .given([created, failed])
      .when(command('FailJob', { reason: 'again' }))
      .then([]);
    spec
      .given([created, cancelled])
      .when(command('CancelJob', { reason: null }))
      .then([]);
  });

  it('refuses a different ending once finished', () => {
    spec
      .given([created, completed])
      .when(command('FailJob', { reason: 'late' }))
      .thenFails('conflict', 'The job has already completed.');
    spec
      .given([created, completed])
      .when(command('CancelJob', { reason: null }))
      .thenFails('conflict', 'The job has already completed.');
    spec
      .given([created, cancelled])
      .when(command('CompleteJob', { result: null }))
      .thenFails('conflict', 'The job has already been cancelled.');
  });
});

describe('event contracts', () => {
  it('accepts every event the decider emits over a job lifetime', () => {
    const commands: JobCommand[] = [
      command('CreateJob', {
        jobId: 70,
        kind: 'dataset',
        tenantId: 3,
        sellerId: null,
        parameters: { sellerIds: [9, 11] },
        workflowId: 'w-70',
      }),
      command('RecordJobProgress', { stage: 'rows', done: 0, total: 10 }),
      command(
        'RecordJobProgress',
        { stage: 'rows', done: 10, total: 10 },
        new Date('2025-03-10T12:00:05.000Z'),
      ),
      command('CompleteJob', { result: { fileName: 'seller_analytics_weekly.csv' } }),
    ];
    let history: JobEvent[] = [];
    for (const next of commands) history = [...history, ...jobDecider.decide(next, spec.stateAfter(history))];
    expect(history.map((event) => event.type)).toEqual([
      'JobCreated',
      'JobStarted',
      'JobProgressRecorded',
      'JobProgressRecorded',
      'JobCompleted',
    ]);
    for (const event of history) expect(JobEvent.parse(event)).toEqual(event);
    const failedHistory = jobDecider.decide(command('FailJob', { reason: 'x' }), spec.stateAfter([created]));
    const cancelledHistory = jobDecider.decide(
      command('CancelJob', { reason: null }),
      spec.stateAfter([created]),
    );
    for (const event of [...failedHistory, ...cancelledHistory]) expect(JobEvent.parse(event)).toEqual(event);
  });
});

describe('archived and emailed reports', () => {
  const reportJob: JobEvent = {
    type: 'JobCreated',
    data: { ...created.data, kind: 'report', sellerId: null, parameters: { type: 'weekly' } },
  };
  const file = (sellerId: number | null, archivedReportId = 501) => ({
    archivedReportId,
    sellerId,
    type: 'WEEKLY_REPORT' as const,
    extension: 'pdf' as const,
    displayName: 'Weekly Report 2025-03-10',
    fileName: 'Acme Ltd - Weekly Report - 2025-03-10.pdf',
    contentType: 'application/pdf',
    size: 48_213,
    objectKey: `tenants/3/jobs/70/WEEKLY_REPORT-${sellerId ?? 'tenant'}.pdf`,
  });
  const archived = (sellerId: number | null, archivedReportId = 501): JobEvent => ({
    type: 'JobReportArchived',
    data: { jobId: 70, tenantId: 3, ...file(sellerId, archivedReportId), archivedAt: earlier },
  });
  const emailed = (recipientId: number): JobEvent => ({
    type: 'JobReportEmailed',
    data: { jobId: 70, recipientId, reportTypes: ['WEEKLY_REPORT'], messageId: '<a@b>', sentAt: earlier },
  });

  it("records an archived file under the job's own tenant", () => {
    spec
      .given([reportJob, started])
      .when(command('RecordReportArchived', file(11)))
      .then([{ type: 'JobReportArchived', data: { jobId: 70, tenantId: 3, ...file(11), archivedAt: at } }]);
    expect(spec.stateAfter([reportJob, archived(11)])).toMatchObject({
      archived: { 'WEEKLY_REPORT:11': { archivedReportId: 501, objectKey: file(11).objectKey } },
    });
  });

  it('records nothing the second time for the same type and seller, even with a fresh id', () => {
    spec
      .given([reportJob, started, archived(11)])
      .when(command('RecordReportArchived', file(11, 777)))
      .then([]);
    // Once the job has finished, a late retry still changes nothing.
    spec
      .given([reportJob, archived(11), completed])
      .when(command('RecordReportArchived', file(11)))
      .then([]);
  });

  it('archives the same type for another seller, and a tenant-wide file apart from them', () => {
    const history = [reportJob, started, archived(11)];
    spec
      .given(history)
      .when(command('RecordReportArchived', file(12, 502)))
      .then([
        { type: 'JobReportArchived', data: { jobId: 70, tenantId: 3, ...file(12, 502), archivedAt: at } },
      ]);
    spec
      .given(history)
      .when(command('RecordReportArchived', file(null, 503)))
      .then([
        { type: 'JobReportArchived', data: { jobId: 70, tenantId: 3, ...file(null, 503), archivedAt: at } },
      ]);
    spec
      .given(history)
      .when(command('RecordReportArchived', file(12, 501)))
      .thenFails('conflict', 'The archived report id is already used by this job.');
  });

  it('refuses a new file once the job has finished, and an invalid one', () => {
    spec
      .given([reportJob, cancelled])
      .when(command('RecordReportArchived', file(11)))
      .thenFails('conflict', 'The job has already been cancelled.');
    const error = spec
      .given([reportJob])
      .when(command('RecordReportArchived', { ...file(11), size: -1, objectKey: ' ', archivedReportId: 0 }))
      .thenFails('validation', 'The archived report is not valid.');
    expect(Object.keys(error.properties ?? {}).sort()).toEqual(['archivedReportId', 'objectKey', 'size']);
    spec
      .given([])
      .when(command('RecordReportArchived', file(11)))
      .thenFails('not_found', 'Job not found.');
  });

  it('records one email per recipient', () => {
    const data = {
      recipientId: 40,
      reportTypes: ['WEEKLY_REPORT', 'CUSTOMER_SHEET', 'WEEKLY_REPORT'] as const,
    };
    spec
      .given([reportJob, started])
      .when(
        command('RecordReportEmailed', { ...data, reportTypes: [...data.reportTypes], messageId: '<m1@x>' }),
      )
      .then([
        {
          type: 'JobReportEmailed',
          data: {
            jobId: 70,
            recipientId: 40,
            reportTypes: ['WEEKLY_REPORT', 'CUSTOMER_SHEET'],
            messageId: '<m1@x>',
            sentAt: at,
          },
        },
      ]);
    spec
      .given([reportJob, started, emailed(40)])
      .when(
        command('RecordReportEmailed', {
          recipientId: 40,
          reportTypes: ['WEEKLY_REPORT'],
          messageId: '<m2@x>',
        }),
      )
      .then([]);
    spec
      .given([reportJob, started, emailed(40)])
      .when(
        command('RecordReportEmailed', {
          recipientId: 41,
          reportTypes: ['WEEKLY_REPORT'],
          messageId: '<m3@x>',
        }),
      )
      .then([{ ...emailed(41), data: { ...emailed(41).data, messageId: '<m3@x>', sentAt: at } } as JobEvent]);
    expect(spec.stateAfter([reportJob, emailed(40), emailed(41)])).toMatchObject({
      emailedRecipientIds: [40, 41],
    });
  });

  it("starts a created job in its first file's append when asked (the scheduled send's batches)", () => {
    const recorded: JobEvent = {
      type: 'JobReportArchived',
      data: { jobId: 70, tenantId: 3, ...file(11), archivedAt: at },
    };
    spec
      .given([reportJob])
      .when(command('RecordReportArchived', { ...file(11), startJob: true }))
      .then([{ type: 'JobStarted', data: { jobId: 70, startedAt: at } }, recorded]);
    // A running job is not started again; without the flag a created job stays created.
    spec
      .given([reportJob, started])
      .when(command('RecordReportArchived', { ...file(11), startJob: true }))
      .then([recorded]);
    spec
      .given([reportJob])
      .when(command('RecordReportArchived', file(11)))
      .then([recorded]);
  });

  it('completes the job with its last email in one append when asked, once', () => {
    const result = { sent: [40] };
    const data = { recipientId: 40, reportTypes: ['WEEKLY_REPORT' as const], messageId: '<m1@x>' };
    const done: JobEvent = { type: 'JobCompleted', data: { jobId: 70, result, completedAt: at } };
    spec
      .given([reportJob, started])
      .when(command('RecordReportEmailed', { ...data, complete: { result } }))
      .then([{ type: 'JobReportEmailed', data: { jobId: 70, ...data, sentAt: at } }, done]);
    // Emailed before (a retry): only the completion is left; completed already: nothing at all.
    spec
      .given([reportJob, started, emailed(40)])
      .when(command('RecordReportEmailed', { ...data, complete: { result } }))
      .then([done]);
    spec
      .given([reportJob, started, emailed(40), completed])
      .when(command('RecordReportEmailed', { ...data, complete: { result } }))
      .then([]);
    spec
      .given([reportJob, started, emailed(40), failed])
      .when(command('RecordReportEmailed', { ...data, complete: { result } }))
      .then([]);
  });

  it('refuses an email without report types or message id, or after the job finished', () => {
    spec
      .given([reportJob])
      .when(command('RecordReportEmailed', { recipientId: 40, reportTypes: [], messageId: '' }))
      .thenFails('validation', 'The emailed report is not valid.');
    spec
      .given([reportJob, failed])
      .when(
        command('RecordReportEmailed', { recipientId: 40, reportTypes: ['WEEKLY_REPORT'], messageId: '<m>' }),
      )
      .thenFails('conflict', 'The job has already failed.');
  });

  it('emits events the contracts accept', () => {
    for (const event of [archived(11), archived(null, 502), emailed(40)])
      expect(JobEvent.parse(event)).toEqual(event);
  });
});
