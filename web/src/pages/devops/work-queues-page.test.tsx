/** @jest-environment ./web/src/test-support/jsdom-with-encoding.cjs */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { QueuesResponse } from '../../../../contracts/api/devops';
import { renderApp } from '../../test-support/render-app';
import { sellerApi } from '../sellers/seller-fixtures';

jest.setTimeout(40_000);

const queue = (name: QueuesResponse['jobs'][number]['name'], failed = 0) => ({
  name,
  taskQueue: `ledgerwise-${name}`,
  waiting: 2,
  locked: 1,
  failed,
  completed: 10,
  cancelled: 0,
  failedClearedAt: null,
  oldestWaitingAt: '2026-11-26T10:00:00.000Z',
});

const answer: QueuesResponse = {
  polledAt: '2026-11-26T10:05:00.000Z',
  jobs: [queue('sync', 3), queue('report')],
  temporal: {
    available: true,
    address: '127.0.0.1:7233',
    namespace: 'default',
    serverVersion: '1.29.1',
    queues: [
      {
        name: 'ledgerwise-sync',
        concern: 'sync',
        workflowBacklog: 4,
        activityBacklog: 0,
        pollers: [{ identity: 'worker-1@host', lastAccessTime: null, type: 'workflow' }],
      },
    ],
  },
  projections: [{ name: 'jobs', version: 1, checkpoint: 90, head: 100, lag: 10, rebuilding: false }],
  outbox: { depth: 0, oldestAt: null },
  kafka: { available: false, error: 'Kafka did not answer within 3000 ms' },
  readStore: {
    kind: 'embedded',
    version: 'SQLite 3.53.2',
    memoryBytes: 200 * 1024 * 1024,
    clients: 1,
    uptimeSeconds: 3700,
    collections: 30,
  },
};

const adminApi = () =>
  sellerApi({ platformAdmin: true })
    .on('GET /api/devops/queues', { body: answer })
    .on('DELETE /api/devops/queues/sync', {
      body: { queue: 'sync', status: 'failed', cleared: 3, message: 'Cleared 3 failed sync jobs.' },
    });

describe('the work queues page', () => {
  it('shows the job queues, the Temporal task queues, lag and the read store, and says what is down', async () => {
    renderApp({ path: '/devops/queues', fake: adminApi() });
    const jobs = await screen.findByRole('table', { name: 'Job queues' });
    expect(within(jobs).getByRole('row', { name: /sync/ })).toHaveTextContent('sync21310');
    const temporal = screen.getByRole('table', { name: 'Temporal task queues' });
    expect(within(temporal).getByRole('row', { name: /ledgerwise-sync/ })).toHaveTextContent(
      'ledgerwise-syncsync401',
    );
    expect(screen.getByText('SQLite 3.53.2')).toBeInTheDocument();
    expect(screen.getByText('200 MB')).toBeInTheDocument();
    expect(screen.getByText('Kafka is unavailable: Kafka did not answer within 3000 ms')).toBeInTheDocument();
  });

  it('polls every 5 seconds, and not while a row is open', async () => {
    const fake = adminApi();
    renderApp({ path: '/devops/queues', fake });
    await screen.findByRole('table', { name: 'Job queues' });
    await waitFor(() => expect(fake.callsTo('GET /api/devops/queues').length).toBeGreaterThanOrEqual(2), {
      timeout: 7_000,
    });
    await userEvent.click(screen.getByRole('button', { name: 'Details of the sync queue' }));
    expect(screen.getByText('Polling paused while a row is open.')).toBeInTheDocument();
    expect(screen.getByText('worker-1@host (workflow)')).toBeInTheDocument();
    const paused = fake.callsTo('GET /api/devops/queues').length;
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(fake.callsTo('GET /api/devops/queues')).toHaveLength(paused);
    await userEvent.click(screen.getByRole('button', { name: 'Details of the sync queue' }));
    await waitFor(() => expect(fake.callsTo('GET /api/devops/queues').length).toBeGreaterThan(paused), {
      timeout: 7_000,
    });
  });

  it('clears a queue only with the word clear, and says when the clear was cancelled', async () => {
    const fake = adminApi();
    renderApp({ path: '/devops/queues', fake });
    await screen.findByRole('table', { name: 'Job queues' });
    await userEvent.click(screen.getByRole('button', { name: 'Clear Waiting of the report queue' }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel' }),
    );
    expect(await screen.findByText('Cancelling clear queue request!')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Clear Failed of the sync queue' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByRole('button', { name: 'Clear' })).toBeDisabled();
    await userEvent.type(within(dialog).getByLabelText('Type clear to confirm'), 'clear');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Clear' }));
    expect(await screen.findByText('Cleared 3 failed sync jobs.')).toBeInTheDocument();
    const [call] = fake.callsTo('DELETE /api/devops/queues/sync');
    expect(new URL(call?.url ?? '/', 'http://x').searchParams.get('status')).toBe('failed');
  });

  it('sends anyone but a platform admin to the dashboard', async () => {
    const { location } = renderApp({ path: '/devops/queues', fake: sellerApi() });
    await waitFor(() => expect(location()).toBe('/overview'));
  });
});
