/** @jest-environment ./web/src/test-support/jsdom-with-encoding.cjs */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '../../../test-support/render-app';
import { sellerApi } from '../../sellers/seller-fixtures';

jest.setTimeout(30_000);

const adminApi = () =>
  sellerApi({ platformAdmin: true })
    .on('GET /api/cron/update_demo_seller', {
      body: {
        name: 'update_demo_seller',
        description: 'Syncs every demo seller up to today, then generates its metrics.',
        parameters: [
          { name: 'force', type: 'boolean', required: false, description: 'Update even when current.' },
          { name: 'onlyFetch', type: 'boolean', required: false, description: 'No metrics.' },
        ],
        recentJobs: [],
      },
    })
    .on('GET /api/cron/moveIndirectCustomer', {
      body: {
        name: 'moveIndirectCustomer',
        description: 'Records a Move Customer request.',
        parameters: [{ name: 'customerId', type: 'id', required: true, description: 'The customer.' }],
        recentJobs: [],
      },
    })
    .on('POST /api/tasks', { body: { jobs: [] } });

describe('the admin tasks page', () => {
  it('moves a customer by id (Clean) and updates the demo seller with only-fetch', async () => {
    const fake = adminApi();
    renderApp({ path: '/admin/tasks', fake });
    const move = await screen.findByRole('form', { name: 'Move Customer' });
    await userEvent.click(within(move).getByRole('button', { name: 'Clean' }));
    expect(within(move).getByText('Enter a customer id.')).toBeInTheDocument();
    await userEvent.type(within(move).getByLabelText('Customer id'), '42');
    await userEvent.click(within(move).getByRole('button', { name: 'Clean' }));
    await waitFor(() => expect(fake.callsTo('POST /api/tasks')).toHaveLength(1));
    const demo = screen.getByRole('form', { name: 'Update Demo Seller' });
    await userEvent.click(within(demo).getByLabelText('Only fetch'));
    await userEvent.click(within(demo).getByRole('button', { name: 'Trigger Update' }));
    await waitFor(() => expect(fake.callsTo('POST /api/tasks')).toHaveLength(2));
    expect(fake.callsTo('POST /api/tasks').map((call) => call.body)).toEqual([
      { name: 'moveIndirectCustomer', customerId: 42 },
      { name: 'update_demo_seller', force: true, onlyFetch: true },
    ]);
  });

  it("builds the trigger's form from GET /api/cron/{name} and says why a task was refused", async () => {
    const fake = adminApi().on('POST /api/tasks', {
      status: 409,
      body: { message: 'There is no demo seller to update.', code: 'conflict' },
    });
    renderApp({ path: '/admin/tasks', fake });
    const trigger = await screen.findByRole('form', { name: 'Trigger a task' });
    await within(trigger).findByLabelText(/^force:/);
    await userEvent.selectOptions(within(trigger).getByLabelText('Task'), 'moveIndirectCustomer');
    const field = await within(trigger).findByLabelText('customerId');
    await userEvent.type(field, '7');
    await userEvent.click(within(trigger).getByRole('button', { name: 'Trigger' }));
    expect(
      await screen.findByText('There was an error while creating task: There is no demo seller to update.'),
    ).toBeInTheDocument();
    expect(fake.callsTo('POST /api/tasks')[0]?.body).toEqual({ name: 'moveIndirectCustomer', customerId: 7 });
  });
});
