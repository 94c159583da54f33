import { Button } from '@tremor/react';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { AcceptInvitationRequest } from '../../../../contracts/auth';
import { acceptInvitation, fetchSession } from '../../api/auth-calls';
import { ApiError } from '../../api/api-error';
import { AuthLayout } from '../../components/auth-layout';
import { ErrorCallout } from '../../components/error-callout';
import { TextLink } from '../../components/text-link';
import { useAppServices } from '../../session/app-services-context';
import { endSession, startSignedIn } from '../../session/session-actions';
import { useSessionQuery } from '../../session/session-query';

/** Where this tab keeps the link while its owner signs in first. */
const storageKey = 'lw_invitation';
const failed = 'There was an error processing this request.';

/**
 * The emailed link is /invitation#invite=<Uuid>&token=<token> (docs/adr/0020-invitation-tokens.md):
 * the fragment never reaches a server. The page keeps it in this tab's session storage, so a sign-in
 * on the way (with /invitation as the return address) does not lose it, and takes it out of the
 * address bar and the history.
 */
const readInvitationLink = (hash: string): AcceptInvitationRequest | null => {
  const fragment = new URLSearchParams(hash.slice(1));
  const fromLink = AcceptInvitationRequest.safeParse({
    inviteId: fragment.get('invite'),
    token: fragment.get('token'),
  });
  if (fromLink.success) {
    window.sessionStorage.setItem(storageKey, JSON.stringify(fromLink.data));
    return fromLink.data;
  }
  try {
    const kept = AcceptInvitationRequest.safeParse(
      JSON.parse(window.sessionStorage.getItem(storageKey) ?? ''),
    );
    return kept.success ? kept.data : null;
  } catch {
    return null;
  }
};

const forgetInvitationLink = () => window.sessionStorage.removeItem(storageKey);

type Phase =
  | { kind: 'ready' }
  | { kind: 'accepting' }
  | { kind: 'signInRequired'; email: string }
  | { kind: 'otherAccount'; message: string }
  | { kind: 'failed'; message: string };

/**
 * Accepting an invitation: nothing happens until the invitee presses Accept, which posts the link's
 * token with the anti-forgery header. An address that already has an account accepts signed in as
 * itself; a new one gets its account and chooses a password next.
 */
export const InvitationPage = () => {
  const services = useAppServices();
  const navigate = useNavigate();
  const location = useLocation();
  const session = useSessionQuery();
  const [link] = useState(() => readInvitationLink(location.hash));
  const [phase, setPhase] = useState<Phase>({ kind: 'ready' });

  // Kept in session storage now: out of the address bar and the history entry.
  useEffect(() => {
    if (location.hash) void navigate(location.pathname, { replace: true });
  }, [location.hash, location.pathname, navigate]);

  const accept = async () => {
    if (!link) return;
    setPhase({ kind: 'accepting' });
    try {
      const answer = await acceptInvitation(services.api, link);
      if (answer.outcome === 'signInRequired') {
        setPhase({ kind: 'signInRequired', email: answer.email });
        return;
      }
      forgetInvitationLink();
      const signedIn = await fetchSession(services.api);
      if (signedIn) startSignedIn(services, signedIn);
      void navigate(answer.next, { replace: true });
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        forgetInvitationLink();
        void navigate('/invite-cancelled', { replace: true });
      } else if (error instanceof ApiError && error.status === 403) {
        setPhase({ kind: 'otherAccount', message: error.message });
      } else {
        setPhase({ kind: 'failed', message: error instanceof ApiError ? error.message : failed });
      }
    }
  };

  const signOut = async () => {
    await endSession(services);
    setPhase({ kind: 'ready' });
  };

  if (!link) {
    return (
      <AuthLayout title="Invitation">
        <p className="text-gray-700">Oops! It seems that this invitation is no longer valid.</p>
        <TextLink to="/login">Log in</TextLink>
      </AuthLayout>
    );
  }

  if (phase.kind === 'signInRequired') {
    return (
      <AuthLayout title="Log in to accept">
        <p className="text-gray-700">
          This invitation is for <b>{phase.email}</b>, which already has a Ledgerwise account. Log in as{' '}
          {phase.email} to accept it; you come back here afterwards.
        </p>
        <TextLink to={`/login?returnTo=${encodeURIComponent('/invitation')}`}>Log in to accept</TextLink>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Accept your invitation">
      <p className="text-gray-700">
        You were invited to join a company on Ledgerwise. The link in your email works once and expires 7 days
        after it was sent.
      </p>
      {session.data ? (
        <p className="text-sm text-gray-600">
          You are signed in as <b>{session.data.user.Email}</b>.
        </p>
      ) : null}
      <ErrorCallout
        message={phase.kind === 'otherAccount' || phase.kind === 'failed' ? phase.message : null}
      />
      <div className="flex flex-wrap gap-3">
        <Button onClick={() => void accept()} loading={phase.kind === 'accepting'}>
          Accept invitation
        </Button>
        {phase.kind === 'otherAccount' ? (
          <Button variant="secondary" onClick={() => void signOut()}>
            Sign out
          </Button>
        ) : null}
      </div>
    </AuthLayout>
  );
};
