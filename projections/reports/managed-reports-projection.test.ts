import type { RecordedEvent } from '../../contracts/events/envelope';
import { reportsProjection } from './reports-projection';

const recorded = (type: string, streamId: string, data: unknown): RecordedEvent => ({
  id: '00000000-0000-4000-8000-000000000002',
  streamId,
  revision: 3,
  position: 120,
  type,
  schemaVersion: 1,
  data,
  metadata: {
    tenantId: 3,
    actor: 'system:live-reports',
    ip: null,
    method: null,
    url: null,
    body: null,
    requestId: 'live-reports-5-11-90',
    correlationId: 'live-reports-5-11-90',
    causationId: null,
    time: '2026-03-01T10:00:00.000Z',
  },
  recordedAt: '2026-03-01T10:00:01.000Z',
});

const written = (jobId: number, writtenAt: string) =>
  recorded('JobManagedReportWritten', `job-${jobId}`, {
    jobId,
    tenantId: 3,
    sellerId: 11,
    integrationId: 5,
    provider: 'MICROSOFT',
    type: 'AR_FORECAST_SHEET',
    fileId: '01ABCDEF',
    storageUrl: 'https://contoso-my.sharepoint.com/personal/ann/Documents/Ledgerwise/Acme.xlsx',
    displayName: 'Acme - AR Forecast',
    writtenAt,
  });

describe('live reports in the reports projection', () => {
  it('keeps one row per integration, type and seller, updated by each refresh', () => {
    const first = reportsProjection.project(written(90, '2026-03-01T10:00:00.000Z'));
    const second = reportsProjection.project(written(91, '2026-03-02T10:00:00.000Z'));
    expect(first).toEqual([
      {
        kind: 'set',
        collection: 'managed',
        id: '5-AR_FORECAST_SHEET-11',
        fields: {
          tenantId: 3,
          sellerId: 11,
          integrationId: 5,
          type: 'AR_FORECAST_SHEET',
          provider: 'MICROSOFT',
          fileId: '01ABCDEF',
          storageUrl: 'https://contoso-my.sharepoint.com/personal/ann/Documents/Ledgerwise/Acme.xlsx',
          displayName: 'Acme - AR Forecast',
          updatedAt: new Date('2026-03-01T10:00:00.000Z'),
        },
      },
    ]);
    expect(second).toMatchObject([
      { id: '5-AR_FORECAST_SHEET-11', fields: { updatedAt: new Date('2026-03-02T10:00:00.000Z') } },
    ]);
  });

  it("removes the account's rows when it is disconnected or deleted", () => {
    for (const [type, data] of [
      ['IntegrationDisconnected', { integrationId: 5, disconnectedAt: '2026-03-03T00:00:00.000Z' }],
      ['IntegrationDeleted', { integrationId: 5, deletedAt: '2026-03-03T00:00:00.000Z' }],
    ] as const)
      expect(reportsProjection.project(recorded(type, 'integration-5', data))).toEqual([
        { kind: 'delete', collection: 'managed', filter: { integrationId: 5 } },
      ]);
  });

  it("removes a deleted company's rows, whatever the integration", () => {
    expect(
      reportsProjection.project(
        recorded('SellerDeleted', 'seller-11', { sellerId: 11, deletedAt: '2026-03-03T00:00:00.000Z' }),
      ),
    ).toEqual([{ kind: 'delete', collection: 'managed', filter: { sellerId: 11 } }]);
  });
});
