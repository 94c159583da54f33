/** @jest-environment ./web/src/test-support/jsdom-with-encoding.cjs */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FakeFetch } from '../../test-support/fake-fetch';
import { renderApp } from '../../test-support/render-app';
import { noSellers } from '../../test-support/session-fixture';

const token = `412.w.${'A'.repeat(43)}`;

const guestApi = () =>
  new FakeFetch()
    .on('GET /api/auth/self', { status: 401, body: { message: 'Unauthorized', code: 'unauthorized' } })
    .on('GET /api/auth/token', { body: { csrfToken: 'csrf-1' } })
    .on('GET /api/sellers', { body: noSellers });

// Whole-app renders: slow on a loaded machine, not a timing assertion.
jest.setTimeout(30_000);

describe('the unsubscribe page', () => {
  it('stops nothing on opening; its button posts the token with the anti-forgery header', async () => {
    const fake = guestApi().on('POST /api/subscriptions/unsubscribe', {
      body: {
        frequency: 'weekly',
        companyName: 'Acme Ltd',
        message: 'You will no longer receive the weekly report of Acme Ltd.',
      },
    });
    renderApp({ path: `/unsubscribe?token=${token}`, fake });
    const button = await screen.findByRole('button', { name: 'Stop receiving the weekly report' });
    expect(fake.callsTo('POST /api/subscriptions/unsubscribe')).toHaveLength(0);
    await userEvent.click(button);
    await screen.findByText('You will no longer receive the weekly report of Acme Ltd.');
    const [call] = fake.callsTo('POST /api/subscriptions/unsubscribe');
    expect(call?.body).toEqual({ token });
    expect(call?.headers['x-csrf-token']).toBe('csrf-1');
    expect(screen.getByRole('link', { name: 'Go to Reports' })).toBeInTheDocument();
  });

  it("shows the server's refusal of a tampered link", async () => {
    const fake = guestApi().on('POST /api/subscriptions/unsubscribe', {
      status: 400,
      body: { message: 'This link is invalid.', code: 'validation', properties: { token: 'invalid' } },
    });
    renderApp({ path: `/unsubscribe?token=${token.replace('.w.', '.m.')}`, fake });
    await userEvent.click(await screen.findByRole('button', { name: 'Stop receiving the monthly report' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('This link is invalid.'));
  });

  it('says a link without a token is invalid, and posts nothing', async () => {
    const fake = guestApi();
    renderApp({ path: '/unsubscribe', fake });
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('This link is invalid.'));
    expect(screen.queryByRole('button')).toBeNull();
    expect(fake.callsTo('POST /api/subscriptions/unsubscribe')).toHaveLength(0);
  });
});
