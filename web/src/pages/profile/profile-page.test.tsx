/** @jest-environment ./web/src/test-support/jsdom-with-encoding.cjs */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SessionResponse } from '../../../../contracts/auth';
import { FakeFetch } from '../../test-support/fake-fetch';
import { fieldErrorOf } from '../../test-support/field-error';
import { renderApp } from '../../test-support/render-app';
import { noSellers, sessionFixture } from '../../test-support/session-fixture';
import { teamMember, userWithTenants } from '../team/team-fixtures';

const me = userWithTenants(
  teamMember({ Id: 3, Name: 'Ada Lovelace', Membership: { JobTitle: 'Executive' } }),
);

const apiFor = (user: Partial<SessionResponse['user']> = {}) =>
  new FakeFetch()
    .on('GET /api/auth/self', { body: sessionFixture({ user }) })
    .on('GET /api/auth/token', { body: { csrfToken: 'csrf-1' } })
    .on('GET /api/sellers', { body: noSellers })
    .on('GET /api/users/3', { body: me });

// Whole-app renders with a modal and a form on the way: seconds on a loaded machine, not a timing assertion.
jest.setTimeout(30_000);

describe('Profile', () => {
  it('saves the job function and says so; name and email are not editable by a member', async () => {
    const fake = apiFor().on('PUT /api/users/3', { body: me });
    renderApp({ path: '/profile', fake });
    await userEvent.selectOptions(await screen.findByLabelText('Job function'), 'Sales');
    expect(screen.queryByLabelText('Email')).not.toBeInTheDocument();
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save profile' }));
    expect(await screen.findByText('Successfully updated your profile.')).toBeInTheDocument();
    expect(fake.callsTo('PUT /api/users/3')[0]?.body).toEqual({ JobTitle: 'Sales' });
  });

  it("checks a platform admin's name and email, and shows the server's answer against its field", async () => {
    const fake = apiFor({ isPlatformAdmin: true }).on('PUT /api/users/3', {
      status: 422,
      body: { message: 'Validation failed', code: 'validation', properties: { 'body.Email': 'not_unique' } },
    });
    renderApp({ path: '/profile', fake });
    await userEvent.clear(await screen.findByLabelText('Name'));
    await userEvent.clear(screen.getByLabelText('Email'));
    await userEvent.click(screen.getByRole('button', { name: 'Save profile' }));
    await screen.findByText('Name is required');
    expect(fieldErrorOf('Name')).toBe('Name is required');
    expect(fieldErrorOf('Email')).toBe('Email is required');
    expect(fake.callsTo('PUT /api/users/3')).toHaveLength(0);

    await userEvent.type(screen.getByLabelText('Name'), 'Ada King');
    await userEvent.type(screen.getByLabelText('Email'), 'bob@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Save profile' }));
    await screen.findByText('The email is already in use.');
    expect(fieldErrorOf('Email')).toBe('The email is already in use.');
    expect(fieldErrorOf('Name')).toBeNull();
    expect(screen.getByRole('alert').textContent).toBe('There was an error while updating the user.');
    expect(fake.callsTo('PUT /api/users/3')[0]?.body).toEqual({
      JobTitle: 'Executive',
      Name: 'Ada King',
      Email: 'bob@example.com',
    });
  });

  it('moves between the tabs with the arrow keys', async () => {
    renderApp({ path: '/profile', fake: apiFor() });
    const profileTab = await screen.findByRole('tab', { name: 'My Profile' });
    expect(profileTab.getAttribute('aria-selected')).toBe('true');
    profileTab.focus();
    await userEvent.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Security' }).getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Security' }));
  });

  it('shows the provider that signs a Google user in instead of a password form', async () => {
    renderApp({ path: '/profile', fake: apiFor({ AuthProvider: 'google' }) });
    await userEvent.click(await screen.findByRole('tab', { name: 'Security' }));
    expect(screen.getByText(/You sign in with Google/)).toBeInTheDocument();
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
  });

  it('changes the password, asking for the current one when the server does', async () => {
    const fake = apiFor().on(
      'POST /api/auth/resetPassword',
      {
        status: 422,
        body: {
          message: 'Current password is required',
          code: 'validation',
          properties: { currentPassword: 'Current password is required' },
        },
      },
      { body: { message: 'Successfully updated your password.' } },
    );
    renderApp({ path: '/profile', fake });
    await userEvent.click(await screen.findByRole('tab', { name: 'Security' }));
    await userEvent.type(screen.getByLabelText('New password'), 'Analytical2');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'Analytical3');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    await screen.findByText('The passwords do not match.');
    expect(fieldErrorOf('Confirm new password')).toBe('The passwords do not match.');
    expect(fake.callsTo('POST /api/auth/resetPassword')).toHaveLength(0);

    await userEvent.clear(screen.getByLabelText('Confirm new password'));
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'Analytical2');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    await screen.findByLabelText('Current password');
    await waitFor(() => expect(fieldErrorOf('Current password')).toBe('Current password is required'));
    await userEvent.type(screen.getByLabelText('Current password'), 'Analytical1');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Successfully updated your password.')).toBeInTheDocument();
    await waitFor(() =>
      expect(fake.callsTo('POST /api/auth/resetPassword')[1]?.body).toEqual({
        password: 'Analytical2',
        currentPassword: 'Analytical1',
      }),
    );
  });
});
