import { Button } from '@tremor/react';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { RegisterRequest, passwordHint } from '../../../../contracts/auth';
import { register } from '../../api/auth-calls';
import { ApiError, isValidationError } from '../../api/api-error';
import { AuthLayout } from '../../components/auth-layout';
import { ErrorCallout } from '../../components/error-callout';
import { ProviderButtons } from '../../components/provider-buttons';
import { TextLink } from '../../components/text-link';
import { formErrorsOf, validate, type FormErrors } from '../../forms/field-errors';
import { PasswordStrengthMeter } from '../../forms/password-strength-meter';
import { TextField } from '../../forms/text-field';
import { useAppServices } from '../../session/app-services-context';
import { startSignedIn } from '../../session/session-actions';
import { rememberPlanIdentifier } from '../welcome/plan-identifier-cookie';
import { takeSignUpErrorCookie } from './sign-up-error-cookie';
import { classificationOfPlan, signUpParameters } from './sign-up-parameters';

/** Register, titled Get started (portal.md sections 2.3 and 5). */
export const RegisterPage = () => {
  const services = useAppServices();
  const [search] = useSearchParams();
  const { prefill, attribution } = useMemo(() => signUpParameters(search), [search]);
  const [values, setValues] = useState({ ...prefill, password: '' });
  const [errors, setErrors] = useState<FormErrors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    services.api.csrf.get().catch(() => undefined);
    const cookieError = takeSignUpErrorCookie();
    if (cookieError?.properties) setErrors(formErrorsOf(cookieError.properties));
    if (cookieError?.message) setMessage(cookieError.message);
  }, [services]);

  // The welcome modal, after the email is verified, still knows the plan of the sign-up link.
  useEffect(() => rememberPlanIdentifier(attribution.planIdentifier), [attribution.planIdentifier]);

  const set = (field: keyof typeof values) => (value: string) =>
    setValues((current) => ({ ...current, [field]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setMessage(null);
    const checked = validate(RegisterRequest, {
      ...values,
      ...attribution,
      classification: classificationOfPlan(attribution.planIdentifier),
    });
    if ('errors' in checked) return setErrors(checked.errors);
    setErrors({});
    setLoading(true);
    try {
      const session = await register(services.api, checked.data);
      // The guard sends the now signed-in user from this guest page to the dashboard.
      startSignedIn(services, session);
    } catch (error) {
      if (isValidationError(error)) setErrors(formErrorsOf(error.properties));
      else
        setMessage(
          error instanceof ApiError ? error.message : 'There was an error registering. Please try again.',
        );
    } finally {
      setLoading(false);
    }
  };

  const signUpHref = (provider: string) => {
    const query = new URLSearchParams(attribution).toString();
    return `/api/auth/${provider}/signup${query ? `?${query}` : ''}`;
  };

  return (
    <AuthLayout title="Get started">
      <ErrorCallout message={message} />
      <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4" aria-label="Register">
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <TextField
            name="givenName"
            label="First name"
            autoComplete="given-name"
            value={values.givenName}
            onValueChange={set('givenName')}
            error={errors.givenName}
          />
          <TextField
            name="familyName"
            label="Last name"
            autoComplete="family-name"
            value={values.familyName}
            onValueChange={set('familyName')}
            error={errors.familyName}
          />
        </div>
        <TextField
          name="email"
          label="Email"
          type="email"
          autoComplete="email"
          value={values.email}
          onValueChange={set('email')}
          error={errors.email}
        />
        <TextField
          name="password"
          label="Password"
          type="password"
          autoComplete="new-password"
          value={values.password}
          onValueChange={set('password')}
          error={errors.password}
          hint={passwordHint}
        />
        <PasswordStrengthMeter password={values.password} />
        <Button type="submit" className="w-full" loading={loading}>
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
