import { Button } from '@tremor/react';
import { useEffect, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { RecoverPasswordRequest } from '../../../../contracts/auth';
import { recoverPassword } from '../../api/auth-calls';
import { ApiError, isValidationError } from '../../api/api-error';
import { AuthLayout } from '../../components/auth-layout';
import { ErrorCallout, SuccessCallout } from '../../components/error-callout';
import { TextLink } from '../../components/text-link';
import { formErrorsOf, validate, type FormErrors } from '../../forms/field-errors';
import { TextField } from '../../forms/text-field';
import { useAppServices } from '../../session/app-services-context';

/** The recovery message stays up for 5 seconds (portal.md section 8). */
const successShownMs = 5_000;

/** Forgot password: emails a recovery link valid for 30 minutes. */
export const ForgotPasswordPage = () => {
  const { api } = useAppServices();
  const [search] = useSearchParams();
  const [email, setEmail] = useState(search.get('email') ?? '');
  const [errors, setErrors] = useState<FormErrors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    if (!success) return;
    const timer = window.setTimeout(() => setSuccess(null), successShownMs);
    return () => window.clearTimeout(timer);
  }, [success]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setMessage(null);
    const checked = validate(RecoverPasswordRequest, { email });
    if ('errors' in checked) return setErrors(checked.errors);
    setErrors({});
    setLoading(true);
    try {
      setSuccess(await recoverPassword(api, checked.data.email));
    } catch (error) {
      if (isValidationError(error)) setErrors(formErrorsOf(error.properties));
      setMessage(error instanceof ApiError ? error.message : 'There was an error processing this request.');
    } finally {
      setLoading(false);
    }
  };

  return (
    <AuthLayout title="Forgot password">
      <SuccessCallout message={success} />
      <ErrorCallout message={message} />
      <form
        noValidate
        onSubmit={(event) => void submit(event)}
        className="space-y-4"
        aria-label="Forgot password"
      >
        <TextField
          name="email"
          label="Email"
          type="email"
          autoComplete="email"
          value={email}
          onValueChange={setEmail}
          error={errors.email}
        />
        <Button type="submit" className="w-full" loading={loading}>
          Email a recovery link
        </Button>
      </form>
      <div className="flex flex-wrap justify-between gap-2 text-sm">
        <TextLink to="/register">Create an account</TextLink>
        <TextLink to="/">Back to the dashboard</TextLink>
      </div>
    </AuthLayout>
  );
};
