import { AuthLayout } from '../../components/auth-layout';
import { TextLink } from '../../components/text-link';

/** The short pages the API's browser redirects land on (portal.md sections 2.1 and 8). */

export const EmailVerifiedPage = () => (
  <AuthLayout title="Email verified">
    <p className="text-gray-700">Thank you for confirming your email address!</p>
    <TextLink to="/">Go to the dashboard</TextLink>
  </AuthLayout>
);

export const InviteCancelledPage = () => (
  <AuthLayout title="Invitation no longer valid">
    <p className="text-gray-700">Oops! It seems that this invitation is no longer valid.</p>
    <TextLink to="/login">Log in</TextLink>
  </AuthLayout>
);

export const RecoveryFailedPage = () => (
  <AuthLayout title="Password recovery failed">
    <p className="text-gray-700">There was an error processing your request. Please try again.</p>
    <div className="flex flex-wrap gap-4 text-sm">
      <TextLink to="/forgot">Request a new recovery link</TextLink>
      <TextLink to="/login">Log in</TextLink>
    </div>
  </AuthLayout>
);

export const VerificationFailedPage = () => (
  <AuthLayout title="Verification Failed">
    <p className="text-gray-700">Oops! It seems that this verification link is no longer valid</p>
    <div className="flex flex-wrap gap-4 text-sm">
      <TextLink to="/">Home</TextLink>
      <TextLink to="/register">Register</TextLink>
    </div>
  </AuthLayout>
);

export const NotFoundPage = () => (
  <AuthLayout title="404 Not Found">
    <p className="text-gray-700">Oops! It seems that this page does not exist.</p>
    <div className="flex flex-wrap gap-4 text-sm">
      <TextLink to="/">Home</TextLink>
      <TextLink to="/register">Register</TextLink>
    </div>
  </AuthLayout>
);
