import { Button } from '@tremor/react';
import { passwordChangedMessage } from '../../../../contracts/auth';
import type { SessionResponse } from '../../../../contracts/auth';
import { resetPassword } from '../../api/auth-calls';
import { ErrorCallout, SuccessCallout } from '../../components/error-callout';
import { useTimedMessage } from '../../components/use-timed-message';
import { NewPasswordFields } from '../../forms/new-password-fields';
import { usePasswordChangeForm } from '../../forms/password-change-form';
import { useAppServices } from '../../session/app-services-context';

const providerNames = { google: 'Google', microsoft: 'Microsoft' } as const;

type AuthProvider = SessionResponse['user']['AuthProvider'];

/** Who signs the user in, when it is not a password of ours (portal.md section 2.3, Profile). */
export const signInProviderOf = (provider: AuthProvider): string | null =>
  provider === 'google' || provider === 'microsoft' ? providerNames[provider] : null;

/** Security: the provider that signs the user in, or a password change (current password when asked). */
export const SecurityTab = ({ provider }: { provider: AuthProvider }) => {
  const services = useAppServices();
  const [success, setSuccess] = useTimedMessage();
  const passwordChange = usePasswordChangeForm(
    async (request) => {
      setSuccess(null);
      await resetPassword(services.api, request);
      setSuccess(passwordChangedMessage);
    },
    { clearAfterChange: true },
  );
  const providerName = signInProviderOf(provider);

  if (providerName)
    return (
      <p className="text-sm text-gray-700">
        You sign in with {providerName}. Your password and security settings are managed by {providerName}.
      </p>
    );

  return (
    <form
      noValidate
      onSubmit={(event) => void passwordChange.submit(event)}
      className="max-w-lg space-y-4"
      aria-label="Change password"
    >
      <SuccessCallout message={success} />
      <ErrorCallout message={passwordChange.message} />
      <NewPasswordFields control={passwordChange.form.control} askCurrent={passwordChange.askCurrent} />
      <Button type="submit" loading={passwordChange.form.formState.isSubmitting}>
        Change password
      </Button>
    </form>
  );
};
