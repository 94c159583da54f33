/** @jest-environment ./web/src/test-support/jsdom-with-encoding.cjs */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FakeFetch } from '../../test-support/fake-fetch';
import { renderApp } from '../../test-support/render-app';
import { noSellers, sessionFixture } from '../../test-support/session-fixture';

jest.setTimeout(30_000);

const api = () =>
  new FakeFetch()
    .on('GET /api/auth/self', { body: sessionFixture() })
    .on('GET /api/auth/token', { body: { csrfToken: 'csrf-1' } })
    .on('GET /api/sellers', { body: noSellers })
    .on('POST /api/auth/resetPassword', { body: { message: 'Successfully updated your password.' } });

describe('/complete-registration (portal.md section 2.1)', () => {
  it('offers Google and Microsoft sign-in that come back to the dashboard', async () => {
    renderApp({ path: '/complete-registration', fake: api() });
    await screen.findByRole('heading', { name: 'Complete registration' });
    expect(screen.getByRole('link', { name: 'Continue with Google' })).toHaveAttribute(
      'href',
      '/api/auth/google/login?returnTo=%2Foverview',
    );
    expect(screen.getByRole('link', { name: 'Continue with Microsoft' })).toHaveAttribute(
      'href',
      '/api/auth/microsoft/login?returnTo=%2Foverview',
    );
    expect(screen.queryByText(/later/i)).toBeNull();
  });

  it('sets a password, then opens the dashboard', async () => {
    const fake = api();
    const app = renderApp({ path: '/complete-registration', fake });
    await userEvent.type(await screen.findByLabelText('New password'), 'Analytical-Engine-1843');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'Analytical-Engine-1843');
    await userEvent.click(screen.getByRole('button', { name: 'Set password' }));
    await waitFor(() => expect(app.location()).toBe('/overview'));
    expect(fake.callsTo('POST /api/auth/resetPassword')[0]?.body).toEqual({
      password: 'Analytical-Engine-1843',
    });
  });
});
