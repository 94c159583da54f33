import { Button } from '@tremor/react';
import { useState, type FormEvent } from 'react';
import { passwordChangedMessage, ResetPasswordRequest } from '../../../../contracts/auth';
import type { SessionResponse } from '../../../../contracts/auth';
import { resetPassword } from '../../api/auth-calls';
import { ApiError, isValidationError } from '../../api/api-error';
import { ErrorCallout, SuccessCallout } from '../../components/error-callout';
import { useTimedMessage } from '../../components/use-timed-message';
import { formErrorsOf, validate, type FormErrors } from '../../forms/field-errors';
import { NewPasswordFields } from '../../forms/new-password-fields';
import { useAppServices } from '../../session/app-services-context';
import { passwordsDifferMessage } from '../auth/reset-password-page';

const providerNames = { google: 'Google', microsoft: 'Microsoft' } as const;

type AuthProvider = SessionResponse['user']['AuthProvider'];

/** Who signs the user in, when it is not a password of ours (portal.md section 2.3, Profile). */
export const signInProviderOf = (provider: AuthProvider): string | null =>
  provider === 'google' || provider === 'microsoft' ? providerNames[provider] : null;

const emptyValues = { password: '', confirmation: '', currentPassword: '' };

/** Security: the provider that signs the user in, or a password change (current password when asked). */
export const SecurityTab = ({ provider }: { provider: AuthProvider }) => {
  const services = useAppServices();
  const [values, setValues] = useState(emptyValues);
  const [askCurrent, setAskCurrent] = useState(false);
  const [errors, setErrors] = useState<FormErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [success, setSuccess] = useTimedMessage();
  const [saving, setSaving] = useState(false);
  const providerName = signInProviderOf(provider);

  if (providerName)
    return (
      <p className="text-sm text-gray-700">
        You sign in with {providerName}. Your password and security settings are managed by {providerName}.
      </p>
    );

  const set = (field: keyof typeof values) => (value: string) =>
    setValues((current) => ({ ...current, [field]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    setSuccess(null);
    const checked = validate(ResetPasswordRequest, {
      password: values.password,
      ...(askCurrent ? { currentPassword: values.currentPassword } : {}),
    });
    const found: FormErrors = 'errors' in checked ? { ...checked.errors } : {};
    if (values.confirmation !== values.password) found.confirmation = passwordsDifferMessage;
    if (askCurrent && !values.currentPassword) found.currentPassword = 'Current password is required';
    setErrors(found);
    if ('errors' in checked || Object.keys(found).length > 0) return;
    setSaving(true);
    try {
      await resetPassword(services.api, checked.data);
      setValues(emptyValues);
      setAskCurrent(false);
      setSuccess(passwordChangedMessage);
    } catch (error) {
      if (isValidationError(error)) {
        if (error.properties.currentPassword) setAskCurrent(true);
        setErrors(formErrorsOf(error.properties));
      } else {
        setFailure(error instanceof ApiError ? error.message : 'There was an error processing this request.');
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <form
      noValidate
      onSubmit={(event) => void submit(event)}
      className="max-w-lg space-y-4"
      aria-label="Change password"
    >
      <SuccessCallout message={success} />
      <ErrorCallout message={failure} />
      <NewPasswordFields values={values} errors={errors} askCurrent={askCurrent} onChange={set} />
      <Button type="submit" loading={saving}>
        Change password
      </Button>
    </form>
  );
};
