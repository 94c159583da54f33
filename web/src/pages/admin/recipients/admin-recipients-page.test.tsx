/** @jest-environment ./web/src/test-support/jsdom-with-encoding.cjs */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RecipientResponse } from '../../../../../contracts/api/recipients';
import { renderApp } from '../../../test-support/render-app';
import { sellerApi } from '../../sellers/seller-fixtures';

jest.setTimeout(30_000);

const recipient = (overrides: Partial<RecipientResponse> = {}): RecipientResponse => ({
  Id: 11,
  TenantId: 7,
  SellerId: 1,
  Seller: { Id: 1, CompanyName: 'Acme Demo' },
  SubscriberId: null,
  Subscriber: { Id: null, Email: 'ann@example.test', GivenName: 'Ann', FamilyName: 'Lee', JobTitle: null },
  STATE: 'ACTIVE',
  SendWeekly: true,
  SendMonthly: false,
  TrackWelcomeDate: null,
  TrackWeeklyDate: null,
  TrackMonthlyDate: null,
  createdAt: '2026-11-01T00:00:00.000Z',
  Danger: false,
  StateAction: 'deactivate',
  ...overrides,
});

const adminApi = (rows: () => RecipientResponse[]) =>
  sellerApi({ platformAdmin: true }).on('GET /api/subscriptions', () => ({
    body: { rows: rows(), total: rows().length, filtered: rows().length },
  }));

describe('the admin recipients table', () => {
  it('deactivates an active recipient, whose row then shows the danger state and Activate', async () => {
    let state: RecipientResponse = recipient();
    const fake = adminApi(() => [state]).on('PATCH /api/subscriptions/11', () => {
      state = recipient({ STATE: 'INACTIVE', Danger: true, StateAction: 'activate' });
      return { body: state };
    });
    renderApp({ path: '/admin/recipients', fake });
    const table = await screen.findByRole('table', { name: 'Recipients' });
    await userEvent.click(await within(table).findByRole('button', { name: 'Deactivate Ann Lee' }));
    expect(await within(table).findByRole('button', { name: 'Activate Ann Lee' })).toBeInTheDocument();
    expect(within(table).getByText('INACTIVE')).toHaveClass('bg-red-50');
    expect(fake.callsTo('PATCH /api/subscriptions/11')[0]?.body).toEqual({ STATE: 'INACTIVE' });
  });

  it('says which toggle failed, in the words of admin.md section 8', async () => {
    const fake = adminApi(() => [recipient()]).on('PATCH /api/subscriptions/11', {
      status: 409,
      body: { message: 'No', code: 'conflict' },
    });
    renderApp({ path: '/admin/recipients', fake });
    const table = await screen.findByRole('table', { name: 'Recipients' });
    await userEvent.click(await within(table).findByRole('switch', { name: 'Monthly reports for Ann Lee' }));
    expect(await screen.findByText('Error Toggling SendMonthly to true')).toBeInTheDocument();
    expect(
      screen.getByText('Error toggling field: Please try again or contact support.'),
    ).toBeInTheDocument();
  });

  it('deletes only after "Are you sure? You won\'t be able to revert this."', async () => {
    let rows = [recipient()];
    const fake = adminApi(() => rows).on('DELETE /api/subscriptions/11', () => {
      rows = [];
      return { body: { ok: true } };
    });
    renderApp({ path: '/admin/recipients', fake });
    const table = await screen.findByRole('table', { name: 'Recipients' });
    await userEvent.click(await within(table).findByRole('button', { name: 'Delete Ann Lee' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete Subscription' });
    expect(within(dialog).getByText("Are you sure? You won't be able to revert this.")).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Ann Lee was deleted.')).toBeInTheDocument();
    await waitFor(() => expect(fake.callsTo('DELETE /api/subscriptions/11')).toHaveLength(1));
  });
});
