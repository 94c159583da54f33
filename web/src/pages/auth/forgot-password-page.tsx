import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@tremor/react';
import { useForm } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import { RecoverPasswordRequest } from '../../../../contracts/auth';
import { recoverPassword } from '../../api/auth-calls';
import { AuthLayout } from '../../components/auth-layout';
import { ErrorCallout, SuccessCallout } from '../../components/error-callout';
import { TextLink } from '../../components/text-link';
import { useTimedMessage } from '../../components/use-timed-message';
import { FormTextField } from '../../forms/form-fields';
import { serverTextOr, useServerErrors } from '../../forms/use-server-errors';
import { useAppServices } from '../../session/app-services-context';

/** The recovery message stays up for 5 seconds (portal.md section 8). */
const successShownMs = 5_000;

/** Forgot password: emails a recovery link valid for 30 minutes. */
export const ForgotPasswordPage = () => {
  const { api } = useAppServices();
  const [search] = useSearchParams();
  const form = useForm({
    resolver: zodResolver(RecoverPasswordRequest),
    defaultValues: { email: search.get('email') ?? '' },
  });
  const serverErrors = useServerErrors(form, {
    failure: serverTextOr('There was an error processing this request.'),
    // The catalogue's recovery error is said above the form as well (portal.md section 8).
    alwaysSayFailure: true,
  });
  const [success, setSuccess] = useTimedMessage(successShownMs);

  const submit = form.handleSubmit(async ({ email }) => {
    setSuccess(null);
    try {
      setSuccess(await recoverPassword(api, email));
    } catch (error) {
      serverErrors.show(error);
    }
  });

  return (
    <AuthLayout title="Forgot password">
      <SuccessCallout message={success} />
      <ErrorCallout message={serverErrors.message} />
      <form
        noValidate
        onSubmit={(event) => void submit(event)}
        className="space-y-4"
        aria-label="Forgot password"
      >
        <FormTextField control={form.control} name="email" label="Email" type="email" autoComplete="email" />
        <Button type="submit" className="w-full" loading={form.formState.isSubmitting}>
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
