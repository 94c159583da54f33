import { Button } from '@tremor/react';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { ResetPasswordRequest } from '../../../../contracts/auth';
import { resetPassword } from '../../api/auth-calls';
import { ApiError, isValidationError } from '../../api/api-error';
import { sessionKey } from '../../api/queries/session';
import { AuthLayout } from '../../components/auth-layout';
import { ErrorCallout, SuccessCallout } from '../../components/error-callout';
import { formErrorsOf, validate, type FormErrors } from '../../forms/field-errors';
import { NewPasswordFields } from '../../forms/new-password-fields';
import { useAppServices } from '../../session/app-services-context';

const confirmationShownMs = 1_500;

export const passwordsDifferMessage = 'The passwords do not match.';

/**
 * Reset password: a new password and its confirmation; the current password is asked for only once
 * the server says it needs it (a signed-in change, not a recovery link).
 */
export const ResetPasswordPage = () => {
  const services = useAppServices();
  const navigate = useNavigate();
  const [values, setValues] = useState({ password: '', confirmation: '', currentPassword: '' });
  const [askCurrent, setAskCurrent] = useState(false);
  const [errors, setErrors] = useState<FormErrors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  const set = (field: keyof typeof values) => (value: string) =>
    setValues((current) => ({ ...current, [field]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setMessage(null);
    const checked = validate(ResetPasswordRequest, {
      password: values.password,
      ...(askCurrent ? { currentPassword: values.currentPassword } : {}),
    });
    const found: FormErrors = 'errors' in checked ? { ...checked.errors } : {};
    if (values.confirmation !== values.password) found.confirmation = passwordsDifferMessage;
    if (askCurrent && !values.currentPassword) found.currentPassword = 'Current password is required';
    setErrors(found);
    if ('errors' in checked || Object.keys(found).length > 0) return;
    setLoading(true);
    try {
      setSuccess(await resetPassword(services.api, checked.data));
      await services.queryClient.invalidateQueries({ queryKey: sessionKey });
      // The success text stays readable for a moment before the dashboard replaces it.
      window.setTimeout(() => void navigate('/overview', { replace: true }), confirmationShownMs);
    } catch (error) {
      if (isValidationError(error)) {
        if (error.properties.currentPassword) setAskCurrent(true);
        setErrors(formErrorsOf(error.properties));
      } else {
        setMessage(error instanceof ApiError ? error.message : 'There was an error processing this request.');
      }
    } finally {
      setLoading(false);
    }
  };

  return (
    <AuthLayout title="Reset password">
      <SuccessCallout message={success} />
      <ErrorCallout message={message} />
      <form
        noValidate
        onSubmit={(event) => void submit(event)}
        className="space-y-4"
        aria-label="Reset password"
      >
        <NewPasswordFields values={values} errors={errors} askCurrent={askCurrent} onChange={set} />
        <Button type="submit" className="w-full" loading={loading}>
          Set password
        </Button>
      </form>
    </AuthLayout>
  );
};
