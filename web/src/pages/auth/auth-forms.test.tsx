/** @jest-environment ./web/src/test-support/jsdom-with-encoding.cjs */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FakeFetch } from '../../test-support/fake-fetch';
import { fieldErrorOf } from '../../test-support/field-error';
import { renderApp } from '../../test-support/render-app';
import { noSellers, sessionFixture } from '../../test-support/session-fixture';

const guestApi = () =>
  new FakeFetch()
    .on('GET /api/auth/self', { status: 401, body: { message: 'Unauthorized', code: 'unauthorized' } })
    .on('GET /api/auth/token', { body: { csrfToken: 'csrf-1' } })
    .on('GET /api/sellers', { body: noSellers });

const valueOf = (label: string) => screen.getByLabelText<HTMLInputElement>(label).value;

// Whole-app renders: seconds on a loaded machine (the first test timed out at 5 s), not a timing assertion.
jest.setTimeout(30_000);

describe('Get started (register)', () => {
  it('prefills from the query, ignores the text undefined, and sends the attribution with sign-up', async () => {
    const fake = guestApi().on('POST /api/auth/register', { body: sessionFixture() });
    const app = renderApp({
      path: '/register?givenName=Ada&familyName=undefined&email=ada%40example.com&referrer=partner-x&planIdentifier=growth_business&landingPage=undefined',
      fake,
    });
    await screen.findByRole('heading', { name: 'Get started' });
    expect(document.title).toBe('Ledgerwise - Register');
    expect(valueOf('First name')).toBe('Ada');
    expect(valueOf('Last name')).toBe('');
    expect(valueOf('Email')).toBe('ada@example.com');
    expect(screen.getByRole('link', { name: 'Sign up with Google' }).getAttribute('href')).toBe(
      '/api/auth/google/signup?referrer=partner-x&planIdentifier=growth_business',
    );

    await userEvent.type(screen.getByLabelText('Last name'), 'Lovelace');
    await userEvent.type(screen.getByLabelText('Password'), 'Analytical1');
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));

    await waitFor(() => expect(app.location()).toBe('/overview'));
    expect(fake.callsTo('POST /api/auth/register')[0]?.body).toEqual({
      givenName: 'Ada',
      familyName: 'Lovelace',
      email: 'ada@example.com',
      password: 'Analytical1',
      referrer: 'partner-x',
      planIdentifier: 'growth_business',
      classification: 'BUSINESS',
    });
  });

  it('shows the rules against their fields before calling the server', async () => {
    const fake = guestApi();
    renderApp({ path: '/register', fake });
    await userEvent.type(await screen.findByLabelText('Email'), 'not-an-email');
    await userEvent.type(screen.getByLabelText('Password'), 'alllowercase');
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(screen.getByText('First name is required')).toBeInTheDocument();
    expect(screen.getByText('Last name is required')).toBeInTheDocument();
    expect(screen.getByText('Email is invalid')).toBeInTheDocument();
    expect(screen.getByText('Your password does not meet the required criteria.')).toBeInTheDocument();
    expect(screen.getByLabelText('Password').getAttribute('aria-invalid')).toBe('true');
    expect(fake.callsTo('POST /api/auth/register')).toHaveLength(0);
  });

  it('shows a taken email against the email field', async () => {
    const fake = guestApi().on('POST /api/auth/register', {
      status: 422,
      body: {
        message: 'The email is already in use.',
        code: 'validation',
        properties: { email: 'not_unique' },
      },
    });
    renderApp({ path: '/register?givenName=Ada&familyName=Lovelace&email=ada%40example.com', fake });
    await userEvent.type(await screen.findByLabelText('Password'), 'Analytical1');
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    const message = await screen.findByText('The email is already in use.');
    expect(screen.getByLabelText('Email').getAttribute('aria-describedby')).toContain(message.id);
  });

  it('rates the password as it is typed', async () => {
    renderApp({ path: '/register', fake: guestApi() });
    const password = await screen.findByLabelText('Password');
    await userEvent.type(password, 'short');
    expect(screen.getByRole('meter', { name: 'Password strength' }).getAttribute('aria-valuetext')).toBe(
      'Too weak',
    );
    await userEvent.clear(password);
    await userEvent.type(password, 'Much-Longer-Passw0rd');
    expect(screen.getByRole('meter', { name: 'Password strength' }).getAttribute('aria-valuetext')).toBe(
      'Strong',
    );
  });
});

describe('Forgot password', () => {
  it('asks for the email, then shows the catalogue success text', async () => {
    const fake = guestApi().on('POST /api/auth/recoverPassword', {
      body: { message: 'Successfully sent password recovery email. The request is valid for 30 minutes.' },
    });
    renderApp({ path: '/forgot', fake });
    await userEvent.click(await screen.findByRole('button', { name: 'Email a recovery link' }));
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(fake.callsTo('POST /api/auth/recoverPassword')).toHaveLength(0);

    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Email a recovery link' }));
    await screen.findByText(
      'Successfully sent password recovery email. The request is valid for 30 minutes.',
    );
    expect(fake.callsTo('POST /api/auth/recoverPassword')[0]?.body).toEqual({ email: 'ada@example.com' });
  });

  it('prefills the email parameter and shows the rate-limit text', async () => {
    const fake = guestApi().on('POST /api/auth/recoverPassword', {
      status: 429,
      body: {
        message: 'Too many requests to reset the password. Please wait or contact support.',
        code: 'rate_limited',
      },
      headers: { 'retry-after': '60' },
    });
    renderApp({ path: '/forgot?email=ada%40example.com', fake });
    expect((await screen.findByLabelText<HTMLInputElement>('Email')).value).toBe('ada@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Email a recovery link' }));
    await screen.findByText('Too many requests to reset the password. Please wait or contact support.');
  });
});

describe('Reset password', () => {
  const resetApi = () =>
    guestApi().on('GET /api/auth/self', { body: sessionFixture({ resetPasswordRequired: true }) });

  it('requires the confirmation to match', async () => {
    const fake = resetApi();
    renderApp({ path: '/reset-password', fake });
    await userEvent.type(await screen.findByLabelText('New password'), 'Analytical1');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'Analytical2');
    await userEvent.click(screen.getByRole('button', { name: 'Set password' }));
    await screen.findByText('The passwords do not match.');
    expect(fieldErrorOf('Confirm new password')).toBe('The passwords do not match.');
    expect(fieldErrorOf('New password')).toBeNull();
    expect(fake.callsTo('POST /api/auth/resetPassword')).toHaveLength(0);
  });

  it('asks for the current password only once the server requires it', async () => {
    const fake = resetApi().on(
      'POST /api/auth/resetPassword',
      {
        status: 422,
        body: {
          message: 'Please confirm your current password.',
          code: 'validation',
          properties: { currentPassword: 'required' },
        },
      },
      { body: { message: 'Successfully updated your password.' } },
    );
    renderApp({ path: '/reset-password', fake });
    expect(screen.queryByLabelText('Current password')).not.toBeInTheDocument();
    await userEvent.type(await screen.findByLabelText('New password'), 'Analytical1');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'Analytical1');
    await userEvent.click(screen.getByRole('button', { name: 'Set password' }));

    await screen.findByLabelText('Current password');
    await waitFor(() => expect(fieldErrorOf('Current password')).toBe('This field is required.'));
    await userEvent.type(screen.getByLabelText('Current password'), 'OldSecret1');
    await userEvent.click(screen.getByRole('button', { name: 'Set password' }));
    await screen.findByText('Successfully updated your password.');
    expect(fake.callsTo('POST /api/auth/resetPassword')[1]?.body).toEqual({
      password: 'Analytical1',
      currentPassword: 'OldSecret1',
    });
  });
});
