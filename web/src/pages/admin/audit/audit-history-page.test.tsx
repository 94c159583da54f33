/** @jest-environment ./web/src/test-support/jsdom-with-encoding.cjs */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AuditEntry } from '../../../../../contracts/api/audit';
import type { RecordedCall } from '../../../test-support/fake-fetch';
import { renderApp } from '../../../test-support/render-app';
import { sellerApi } from '../../sellers/seller-fixtures';
import { noHistoryText } from './audit-rules';

jest.setTimeout(30_000);

const queryOf = (call: RecordedCall | undefined) =>
  Object.fromEntries(new URL(call?.url ?? '/', 'http://x').searchParams.entries());

const entry = (overrides: Partial<AuditEntry>): AuditEntry => ({
  Id: 'a1',
  UserId: 3,
  User: { Email: 'ada@example.com' },
  Action: 'UPDATE',
  Type: 'TenantSettingsChanged',
  Asset: 'Tenant',
  AssetId: '7',
  createdAt: '2026-11-20T10:00:00.000Z',
  Request: { id: 'req-1', IP: '10.0.0.1', URL: '/api/tenants/7', method: 'PUT', body: { Name: 'Acme' } },
  ...overrides,
});

const auditApi = (rows: AuditEntry[]) =>
  sellerApi({ platformAdmin: true })
    .on('GET /api/tenants/7/audit', { body: { rows } })
    .on('GET /api/admin/streams/tenant-7/history', {
      body: {
        streamId: 'tenant-7',
        nextRevision: null,
        steps: [
          {
            event: {
              id: '9b2f5f0e-1c1a-4a57-9d6f-6f3a3c0e0a01',
              streamId: 'tenant-7',
              revision: 0,
              position: 10,
              type: 'TenantCreated',
              schemaVersion: 1,
              data: { TenantId: 7, Name: 'Acme Ltd' },
              metadata: {
                tenantId: 7,
                actor: 'user:3',
                ip: null,
                method: null,
                url: null,
                body: null,
                requestId: null,
                correlationId: 'c1',
                causationId: null,
                time: '2026-11-20T09:00:00.000Z',
              },
              recordedAt: '2026-11-20T09:00:00.000Z',
            },
            stateAfter: { status: 'active', name: 'Acme Ltd' },
          },
        ],
      },
    });

describe('the audit history (UserActionAudit)', () => {
  it('lists 1000 rows at most, highlights DELETE rows and expands the request details', async () => {
    const fake = auditApi([
      entry({
        Id: 'a2',
        Action: 'DELETE',
        Asset: 'User',
        AssetId: '12',
        Request: { ...entry({}).Request, method: 'DELETE', body: null },
      }),
      entry({}),
    ]);
    renderApp({ path: '/admin/tenants/7/audit?name=Acme%20Ltd', fake });
    await screen.findByRole('heading', { name: 'Audit history of Acme Ltd (7)' });
    const table = screen.getByRole('table', { name: 'Audit history' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headers).toEqual(['Details', 'UserId', 'User', 'Action', 'Asset', 'AssetId', 'Time']);
    const deleteRow = await within(table).findByRole('row', { name: /DELETE User 12/ });
    expect(deleteRow).toHaveAttribute('data-warning', 'true');
    const updateRow = within(table).getByRole('row', { name: /UPDATE Tenant 7/ });
    expect(updateRow).not.toHaveAttribute('data-warning');
    expect(queryOf(fake.callsTo('GET /api/tenants/7/audit')[0])).toEqual({ limit: '1000' });

    await userEvent.click(within(updateRow).getByRole('button', { name: /Request details of UPDATE/ }));
    expect(table).toHaveTextContent('10.0.0.1');
    expect(table).toHaveTextContent('"Name": "Acme"');
  });

  it('says No History Found for a tenant without history', async () => {
    renderApp({ path: '/admin/tenants/7/audit', fake: auditApi([]) });
    expect(await screen.findByText(noHistoryText)).toBeInTheDocument();
  });

  it('replays the tenant stream with the state after each event', async () => {
    renderApp({ path: '/admin/tenants/7/audit', fake: auditApi([]) });
    expect(await screen.findByLabelText('Stream id')).toHaveValue('tenant-7');
    await userEvent.click(screen.getByRole('button', { name: 'Replay' }));
    await userEvent.click(await screen.findByText('#0 TenantCreated'));
    expect(screen.getByRole('list', { name: 'Events of tenant-7' })).toHaveTextContent('"status": "active"');
  });
});
