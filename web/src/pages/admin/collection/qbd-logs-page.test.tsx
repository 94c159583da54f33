/** @jest-environment ./web/src/test-support/jsdom-with-encoding.cjs */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { QbdLog, QbdLogsResponse } from '../../../../../contracts/api/qbd';
import type { RecordedCall } from '../../../test-support/fake-fetch';
import { renderApp } from '../../../test-support/render-app';
import { sellerApi } from '../../sellers/seller-fixtures';
import { noLogsText } from './qbd-logs-rules';

jest.setTimeout(30_000);

const queryOf = (call: RecordedCall | undefined) =>
  Object.fromEntries(new URL(call?.url ?? '/', 'http://x').searchParams.entries());

const log = (overrides: Partial<QbdLog>): QbdLog => ({
  Session: 'ticket-1',
  Endpoint: 'receiveResponseXML',
  Status: 'OK',
  Request: 'InvoiceQueryRs',
  Records: 100,
  Time: '2026-11-20T10:00:00.000Z',
  ...overrides,
});

const logsOf = (logs: QbdLog[]): QbdLogsResponse => ({
  logs,
  summary: logs.length === 0 ? [] : [{ date: '2026-11-20', count: logs.length }],
  config: {
    sellerId: 42,
    companyFile: 'C:\\Books\\Acme.QBW',
    webConnectorVersion: 'US 13 0',
    lastSyncs: { customers: '2026-11-20T09:00:00.000Z', invoices: null },
  },
});

const qbdApi = (logs: QbdLog[]) =>
  sellerApi({ platformAdmin: true })
    .on('GET /api/qbd/logs/42', { body: logsOf(logs) })
    .on('POST /api/qbd/capture', {
      body: { query: 'CustomerQueryRs', records: 3, skipped: 1, written: 2 },
    });

describe('the QuickBooks Desktop log viewer', () => {
  it('shows the newest 1000 entries with failures marked, the 90-day summary and the configuration', async () => {
    const fake = qbdApi([
      log({
        Endpoint: 'authenticate',
        Status: 'FAIL: wrong user name or password',
        Session: '',
        Request: null,
      }),
      log({}),
    ]);
    renderApp({ path: '/admin/collection/qbd-logs/42', fake });
    await screen.findByRole('heading', { name: 'QuickBooks Desktop Logs of seller 42' });
    const table = await screen.findByRole('table', { name: 'QuickBooks Desktop logs' });
    const failed = await within(table).findByRole('row', { name: /FAIL: wrong user name or password/ });
    expect(failed).toHaveAttribute('data-failure', 'true');
    const ok = within(table).getByRole('row', { name: /receiveResponseXML \(InvoiceQueryRs\)/ });
    expect(ok).not.toHaveAttribute('data-failure');
    expect(queryOf(fake.callsTo('GET /api/qbd/logs/42')[0])).toEqual({ limit: '1000' });
    expect(screen.getByRole('table', { name: 'Requests per day' })).toHaveTextContent('2026-11-20');
    expect(screen.getByText('C:\\Books\\Acme.QBW')).toBeInTheDocument();
    expect(screen.getByText('Last sync of invoices:').nextSibling).toHaveTextContent('Never');
  });

  it('says No Logs Found for a seller without logs', async () => {
    renderApp({ path: '/admin/collection/qbd-logs/42', fake: qbdApi([]) });
    const table = await screen.findByRole('table', { name: 'QuickBooks Desktop logs' });
    expect(await within(table).findByText(noLogsText)).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Requests per day' })).toHaveTextContent(noLogsText);
  });

  it('replays a captured qbXML response for the seller', async () => {
    const fake = qbdApi([]);
    renderApp({ path: '/admin/collection/qbd-logs/42', fake });
    await userEvent.type(await screen.findByLabelText('Captured qbXML response'), '<QBXML/>');
    await userEvent.click(screen.getByRole('button', { name: 'Replay capture' }));
    expect(
      await screen.findByText(/CustomerQueryRs: 3 records read, 2 written, 1 skipped/),
    ).toBeInTheDocument();
    expect(fake.callsTo('POST /api/qbd/capture')[0]?.body).toEqual({
      sellerId: 42,
      configId: 42,
      xml: '<QBXML/>',
    });
  });
});
