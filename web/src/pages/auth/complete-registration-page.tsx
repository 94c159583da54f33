import { Button, Card } from '@tremor/react';
import { useNavigate } from 'react-router';
import { resetPassword } from '../../api/auth-calls';
import { ErrorCallout } from '../../components/error-callout';
import { ProviderButtons } from '../../components/provider-buttons';
import { NewPasswordFields } from '../../forms/new-password-fields';
import { usePasswordChangeForm } from '../../forms/password-change-form';
import { useAppServices } from '../../session/app-services-context';

/** Where a completed registration goes. */
export const registrationDonePath = '/overview';

/** The provider sign-in that completes the registration and comes back to the dashboard. */
export const completeWithProviderHref = (provider: string) =>
  `/api/auth/${provider}/login?returnTo=${encodeURIComponent(registrationDonePath)}`;

/**
 * /complete-registration (portal.md section 2.1): a signed-in user without a way to sign in again
 * authenticates with Google or Microsoft, or sets a password.
 */
export const CompleteRegistrationPage = () => {
  const services = useAppServices();
  const navigate = useNavigate();
  const passwordChange = usePasswordChangeForm(async (request) => {
    await resetPassword(services.api, request);
    void navigate(registrationDonePath);
  });
  return (
    <div className="mx-auto max-w-xl space-y-6">
      <h1 className="text-xl font-semibold text-gray-900">Complete registration</h1>
      <Card className="space-y-4">
        <h2 className="text-lg font-medium text-gray-900">Sign in with Google or Microsoft</h2>
        <p className="text-sm text-gray-700">Use your Google or Microsoft account to sign in from now on.</p>
        <ProviderButtons verb="Continue" hrefOf={completeWithProviderHref} />
      </Card>
      <Card>
        <form
          noValidate
          onSubmit={(event) => void passwordChange.submit(event)}
          className="space-y-4"
          aria-label="Set a password"
        >
          <h2 className="text-lg font-medium text-gray-900">Or set a password</h2>
          <ErrorCallout message={passwordChange.message} />
          <NewPasswordFields control={passwordChange.form.control} askCurrent={passwordChange.askCurrent} />
          <Button type="submit" loading={passwordChange.form.formState.isSubmitting}>
            Set password
          </Button>
        </form>
      </Card>
    </div>
  );
};
