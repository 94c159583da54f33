import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@tremor/react';
import { useEffect, useMemo } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import { RegisterRequest, passwordHint } from '../../../../contracts/auth';
import { register } from '../../api/auth-calls';
import { ValidationError } from '../../api/api-error';
import { AuthLayout } from '../../components/auth-layout';
import { ErrorCallout } from '../../components/error-callout';
import { ProviderButtons } from '../../components/provider-buttons';
import { TextLink } from '../../components/text-link';
import { FormTextField } from '../../forms/form-fields';
import { PasswordStrengthMeter } from '../../forms/password-strength-meter';
import { serverTextOr, showServerErrors, useServerErrors } from '../../forms/use-server-errors';
import { useAppServices } from '../../session/app-services-context';
import { startSignedIn } from '../../session/session-actions';
import { rememberPlanIdentifier } from '../welcome/plan-identifier-cookie';
import { takeSignUpErrorCookie } from './sign-up-error-cookie';
import { classificationOfPlan, signUpParameters } from './sign-up-parameters';

/** The fields the person fills in; the attribution travels from the address. */
const RegisterForm = RegisterRequest.pick({ givenName: true, familyName: true, email: true, password: true });
const registerErrors = { failure: serverTextOr('There was an error registering. Please try again.') };

/** Register, titled Get started (portal.md sections 2.3 and 5). */
export const RegisterPage = () => {
  const services = useAppServices();
  const [search] = useSearchParams();
  const { prefill, attribution } = useMemo(() => signUpParameters(search), [search]);
  const form = useForm({
    resolver: zodResolver(RegisterForm),
    defaultValues: { ...prefill, password: '' },
  });
  const serverErrors = useServerErrors(form, registerErrors);
  const password = useWatch({ control: form.control, name: 'password' });

  useEffect(() => {
    services.api.csrf.get().catch(() => undefined);
    const cookieError = takeSignUpErrorCookie();
    if (cookieError)
      showServerErrors(form, new ValidationError(cookieError.message ?? '', cookieError.properties ?? {}), {
        ...registerErrors,
        alwaysSayFailure: Boolean(cookieError.message),
      });
  }, [services, form]);

  // The welcome modal, after the email is verified, still knows the plan of the sign-up link.
  useEffect(() => rememberPlanIdentifier(attribution.planIdentifier), [attribution.planIdentifier]);

  const submit = form.handleSubmit(async (values) => {
    try {
      const session = await register(services.api, {
        ...values,
        ...attribution,
        classification: classificationOfPlan(attribution.planIdentifier),
      });
      // The guard sends the now signed-in user from this guest page to the dashboard.
      startSignedIn(services, session);
    } catch (error) {
      serverErrors.show(error);
    }
  });

  const signUpHref = (provider: string) => {
    const query = new URLSearchParams(attribution).toString();
    return `/api/auth/${provider}/signup${query ? `?${query}` : ''}`;
  };

  return (
    <AuthLayout title="Get started">
      <ErrorCallout message={serverErrors.message} />
      <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4" aria-label="Register">
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <FormTextField
            control={form.control}
            name="givenName"
            label="First name"
            autoComplete="given-name"
          />
          <FormTextField
            control={form.control}
            name="familyName"
            label="Last name"
            autoComplete="family-name"
          />
        </div>
        <FormTextField control={form.control} name="email" label="Email" type="email" autoComplete="email" />
        <FormTextField
          control={form.control}
          name="password"
          label="Password"
          type="password"
          autoComplete="new-password"
          hint={passwordHint}
        />
        <PasswordStrengthMeter password={password} />
        <Button type="submit" className="w-full" loading={form.formState.isSubmitting}>
          Register
        </Button>
      </form>
      <ProviderButtons verb="Sign up" hrefOf={signUpHref} />
      <p className="text-sm">
        <TextLink to="/login">Looking to login?</TextLink>
      </p>
    </AuthLayout>
  );
};
