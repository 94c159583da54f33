import { Button } from '@tremor/react';
import { useEffect, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { login } from '../../api/auth-calls';
import { ApiError, isValidationError } from '../../api/api-error';
import { logoutReasons } from '../../api/error-catalogue';
import { AuthLayout } from '../../components/auth-layout';
import { ErrorCallout } from '../../components/error-callout';
import { ProviderButtons } from '../../components/provider-buttons';
import { TextLink } from '../../components/text-link';
import { formErrorsOf, type FormErrors } from '../../forms/field-errors';
import { TextField } from '../../forms/text-field';
import { useAppServices } from '../../session/app-services-context';
import { lastLoginMethod, loginMethodLabels } from '../../session/last-login-method';
import { startSignedIn } from '../../session/session-actions';

type LoginStatus = 'idle' | 'submitted' | 'loading' | 'success' | 'error';

const reasonTexts: Record<string, string> = {
  [logoutReasons.sessionIdle]: 'You were signed out because your session was idle. Please log in again.',
  [logoutReasons.accessDenied]: 'Access Denied. Please log in again.',
};

/** Login (portal.md section 2.3): email and password, Google and Microsoft, the last-method reminder. */
export const LoginPage = () => {
  const services = useAppServices();
  const [search] = useSearchParams();
  const returnTo = search.get('returnTo');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FormErrors>({});
  const [status, setStatus] = useState<LoginStatus>('idle');
  const [message, setMessage] = useState<string | null>(search.get('error'));
  const lastMethod = lastLoginMethod();
  const reason = services.logoutReason.current ?? search.get('reason');

  // The token is fetched on load so the first submit does not wait for it.
  useEffect(() => {
    services.api.csrf.get().catch(() => undefined);
  }, [services]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setStatus('submitted');
    const missing: FormErrors = {};
    if (!email.trim()) missing.email = 'Email is required';
    if (!password) missing.password = 'Password is required';
    setErrors(missing);
    if (Object.keys(missing).length > 0) return;
    setStatus('loading');
    setMessage(null);
    try {
      const session = await login(services.api, { email: email.trim(), password });
      setStatus('success');
      // The guard sends the now signed-in user on to the return address (guard-decision.ts).
      startSignedIn(services, session);
    } catch (error) {
      setStatus('error');
      if (isValidationError(error)) setErrors(formErrorsOf(error.properties));
      setMessage(
        error instanceof ApiError ? error.message : 'There was an error logging in. Please try again.',
      );
    }
  };

  const providerHref = (provider: string) =>
    `/api/auth/${provider}/login${returnTo ? `?returnTo=${encodeURIComponent(returnTo)}` : ''}`;

  return (
    <AuthLayout title="Log in">
      {reason && <p className="text-sm text-gray-700">{reasonTexts[reason] ?? reason}</p>}
      {lastMethod && (
        <p className="rounded-md bg-blue-50 px-3 py-2 text-sm text-blue-900">
          Last time you logged in with {loginMethodLabels[lastMethod]}.
        </p>
      )}
      <ErrorCallout message={message} />
      <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4" aria-label="Log in">
        <TextField
          name="email"
          label="Email"
          type="email"
          autoComplete="email"
          value={email}
          onValueChange={setEmail}
          error={errors.email}
        />
        <TextField
          name="password"
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          onValueChange={setPassword}
          error={errors.password}
        />
        <Button type="submit" className="w-full" loading={status === 'loading'}>
          Log in
        </Button>
      </form>
      <ProviderButtons verb="Log in" hrefOf={providerHref} />
      <div className="flex flex-wrap justify-between gap-2 text-sm">
        <TextLink to={email ? `/forgot?email=${encodeURIComponent(email)}` : '/forgot'}>
          Forgot password?
        </TextLink>
        <TextLink to="/register">Create an account</TextLink>
      </div>
    </AuthLayout>
  );
};
