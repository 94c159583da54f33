import { Button } from '@tremor/react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { resetPassword } from '../../api/auth-calls';
import { sessionKey } from '../../api/queries/session';
import { AuthLayout } from '../../components/auth-layout';
import { ErrorCallout, SuccessCallout } from '../../components/error-callout';
import { NewPasswordFields } from '../../forms/new-password-fields';
import { usePasswordChangeForm } from '../../forms/password-change-form';
import { useAppServices } from '../../session/app-services-context';

const confirmationShownMs = 1_500;

/**
 * Reset password: a new password and its confirmation; the current password is asked for only once
 * the server says it needs it (a signed-in change, not a recovery link).
 */
export const ResetPasswordPage = () => {
  const services = useAppServices();
  const navigate = useNavigate();
  const [success, setSuccess] = useState<string | null>(null);
  const passwordChange = usePasswordChangeForm(async (request) => {
    setSuccess(await resetPassword(services.api, request));
    await services.queryClient.invalidateQueries({ queryKey: sessionKey });
    // The success text stays readable for a moment before the dashboard replaces it.
    window.setTimeout(() => void navigate('/overview', { replace: true }), confirmationShownMs);
  });

  return (
    <AuthLayout title="Reset password">
      <SuccessCallout message={success} />
      <ErrorCallout message={passwordChange.message} />
      <form
        noValidate
        onSubmit={(event) => void passwordChange.submit(event)}
        className="space-y-4"
        aria-label="Reset password"
      >
        <NewPasswordFields control={passwordChange.form.control} askCurrent={passwordChange.askCurrent} />
        <Button type="submit" className="w-full" loading={passwordChange.form.formState.isSubmitting}>
          Set password
        </Button>
      </form>
    </AuthLayout>
  );
};
