import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@tremor/react';
import { useEffect } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import { LoginRequest } from '../../../../contracts/auth';
import { login } from '../../api/auth-calls';
import { logoutReasons } from '../../api/error-catalogue';
import { AuthLayout } from '../../components/auth-layout';
import { ErrorCallout } from '../../components/error-callout';
import { ProviderButtons } from '../../components/provider-buttons';
import { TextLink } from '../../components/text-link';
import { FormTextField } from '../../forms/form-fields';
import { serverTextOr, useServerErrors } from '../../forms/use-server-errors';
import { useAppServices } from '../../session/app-services-context';
import { lastLoginMethod, loginMethodLabels } from '../../session/last-login-method';
import { startSignedIn } from '../../session/session-actions';

const reasonTexts: Record<string, string> = {
  [logoutReasons.sessionIdle]: 'You were signed out because your session was idle. Please log in again.',
  [logoutReasons.accessDenied]: 'Access Denied. Please log in again.',
};

/** Login (portal.md section 2.3): email and password, Google and Microsoft, the last-method reminder. */
export const LoginPage = () => {
  const services = useAppServices();
  const [search] = useSearchParams();
  const returnTo = search.get('returnTo');
  const form = useForm({
    resolver: zodResolver(LoginRequest),
    defaultValues: { email: '', password: '' },
  });
  const serverErrors = useServerErrors(form, {
    failure: serverTextOr('There was an error logging in. Please try again.'),
  });
  // A provider sign-in that failed comes back with its message in the address.
  const redirectError = form.formState.isSubmitted ? null : search.get('error');
  const lastMethod = lastLoginMethod();
  const reason = services.logoutReason.current ?? search.get('reason');
  const email = useWatch({ control: form.control, name: 'email' });

  // The token is fetched on load so the first submit does not wait for it.
  useEffect(() => {
    services.api.csrf.get().catch(() => undefined);
  }, [services]);

  // The schema says Email is required and Password is required: with either empty, nothing is sent.
  const submit = form.handleSubmit(async (request) => {
    try {
      const session = await login(services.api, request);
      // The guard sends the now signed-in user on to the return address (guard-decision.ts).
      startSignedIn(services, session);
    } catch (error) {
      serverErrors.show(error);
    }
  });

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
      <ErrorCallout message={serverErrors.message ?? redirectError} />
      <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4" aria-label="Log in">
        <FormTextField control={form.control} name="email" label="Email" type="email" autoComplete="email" />
        <FormTextField
          control={form.control}
          name="password"
          label="Password"
          type="password"
          autoComplete="current-password"
        />
        <Button type="submit" className="w-full" loading={form.formState.isSubmitting}>
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
