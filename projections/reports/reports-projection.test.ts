import type { RecordedEvent } from '../../contracts/events/envelope';
import { reportsProjection } from './reports-projection';

const recorded = (type: string, streamId: string, data: unknown): RecordedEvent => ({
  id: '00000000-0000-4000-8000-000000000001',
  streamId,
  revision: 4,
  position: 90,
  type,
  schemaVersion: 1,
  data,
  metadata: {
    tenantId: 3,
    actor: 'system:reports',
    ip: null,
    method: null,
    url: null,
    body: null,
    requestId: 'w-70',
    correlationId: 'w-70',
    causationId: null,
    time: '2026-03-01T10:00:00.000Z',
  },
  recordedAt: '2026-03-01T10:00:01.000Z',
});

const archived = {
  jobId: 70,
  archivedReportId: 501,
  tenantId: 3,
  sellerId: 11,
  type: 'WEEKLY_REPORT',
  extension: 'pdf',
  displayName: 'Weekly Report 2026-03-01',
  fileName: 'Acme - Weekly Report - 2026-03-01.pdf',
  contentType: 'application/pdf',
  size: 48_213,
  objectKey: 'tenants/3/jobs/70/WEEKLY_REPORT-11.pdf',
  archivedAt: '2026-03-01T10:00:00.000Z',
};

describe('the reports projection', () => {
  it('keeps one archived row per archived report id, the same on a second delivery', () => {
    const event = recorded('JobReportArchived', 'job-70', archived);
    const writes = reportsProjection.project(event);
    expect(writes).toEqual([
      {
        kind: 'set',
        collection: 'archived',
        id: 501,
        fields: {
          tenantId: 3,
          sellerId: 11,
          jobId: 70,
          type: 'WEEKLY_REPORT',
          extension: 'pdf',
          displayName: 'Weekly Report 2026-03-01',
          fileName: 'Acme - Weekly Report - 2026-03-01.pdf',
          contentType: 'application/pdf',
          size: 48_213,
          objectKey: 'tenants/3/jobs/70/WEEKLY_REPORT-11.pdf',
          createdAt: new Date('2026-03-01T10:00:00.000Z'),
        },
      },
    ]);
    expect(reportsProjection.project(event)).toEqual(writes);
  });

  it("drops the tenant's archived and managed rows on any purge", () => {
    for (const Permanent of [false, true])
      expect(
        reportsProjection.project(
          recorded('TenantPurged', 'tenant-3', {
            TenantId: 3,
            Permanent,
            PurgedAt: '2026-03-02T00:00:00.000Z',
          }),
        ),
      ).toEqual([
        { kind: 'delete', collection: 'archived', filter: { tenantId: 3 } },
        { kind: 'delete', collection: 'managed', filter: { tenantId: 3 } },
      ]);
  });

  it('reads only the events it projects', () => {
    expect(reportsProjection.filter?.eventTypes).toEqual([
      'JobReportArchived',
      'JobManagedReportWritten',
      'IntegrationDisconnected',
      'IntegrationDeleted',
      'SellerDeleted',
      'TenantPurged',
    ]);
    const emailed = recorded('JobReportEmailed', 'job-70', {
      jobId: 70,
      recipientId: 4,
      reportTypes: ['WEEKLY_REPORT'],
      messageId: '<m@x>',
      sentAt: '2026-03-01T10:00:00.000Z',
    });
    expect(reportsProjection.project(emailed)).toEqual([]);
  });
});
