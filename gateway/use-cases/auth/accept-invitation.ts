import type { FastifyReply } from 'fastify';
import {
  invitationForAnotherAccount,
  invitationNoLongerValid,
  type AcceptInvitationRequest,
  type AcceptInvitationResponse,
} from '../../../contracts/auth';
import { AppError } from '../../../contracts/errors';
import { acceptableInvitation } from '../../../domain/invite/decide';
import type { Invitation } from '../../../domain/invite/invite';
import { inviteDecider } from '../../../domain/invite/invite-decider';
import { userDecider } from '../../../domain/user/user-decider';
import { queryInvite } from '../../../projections/invites/query-invites';
import { userIdByEmail } from '../../../projections/users/user-facts';
import { invitationTokenHash } from '../../auth/signed-links';
import { executeCommand, loadAggregate } from '../../execute-command';
import { sessionCookie } from '../../plugins/session-auth';
import { registerUser } from './register-user';
import { startSession } from './start-session';
import { userStream } from '../../../contracts/stream-ids';

/** Splits an invitee's single name field into the account's given and family names. */
const namesOf = (name: string) => {
  const [givenName = name, ...rest] = name.trim().split(/\s+/);
  return { givenName, familyName: rest.join(' ') || givenName };
};

const selfActor = (userId: number) => ({
  userId,
  isPlatformAdmin: false,
  tenantRole: null,
  isAdvisor: false,
});

/** AcceptInvite (token checked again by the decider) and the membership it grants. */
const join = async (
  reply: FastifyReply,
  accepted: { invitation: Invitation; streamId: string; tokenHash: string; userId: number },
): Promise<void> => {
  const { invitation, userId } = accepted;
  const now = reply.server.services.now();
  const result = await executeCommand(reply, inviteDecider, {
    streamId: accepted.streamId,
    tenantId: invitation.tenantId,
    command: {
      type: 'AcceptInvite',
      data: {
        inviteId: invitation.inviteId,
        tokenHash: accepted.tokenHash,
        userId,
        userEmail: invitation.email,
      },
      now,
      actor: selfActor(userId),
    },
  });
  const joined = result.events.find((e) => e.type === 'InviteJoined');
  if (joined?.type !== 'InviteJoined') throw new Error('AcceptInvite appended no InviteJoined');
  await executeCommand(reply, userDecider, {
    streamId: userStream(userId),
    tenantId: invitation.tenantId,
    command: {
      type: 'JoinTenant',
      data: {
        tenantId: invitation.tenantId,
        role: joined.data.MembershipRole,
        classification: joined.data.MembershipClassification,
        jobTitle: joined.data.JobTitle,
        sendWeekly: joined.data.SendWeekly,
        sendMonthly: joined.data.SendMonthly,
        inviteId: invitation.inviteId,
      },
      now,
      actor: selfActor(userId),
    },
  });
};

/**
 * The invitation page's Accept (docs/adr/0020-invitation-tokens.md). Only the emailed token accepts,
 * and it never opens a session for an account that already exists: that account's owner accepts while
 * signed in as themselves. An address without an account gets one (the email proves control of it),
 * a session in the inviting company, and chooses a password next.
 */
export const acceptInvitation = async (
  reply: FastifyReply,
  link: AcceptInvitationRequest,
): Promise<AcceptInvitationResponse> => {
  const { request } = reply;
  const { services } = reply.server;
  const { invite } = await queryInvite(services.db, { inviteId: link.inviteId, ...request.readAfter });
  if (!invite) throw new AppError('conflict', invitationNoLongerValid);
  const tokenHash = invitationTokenHash(link.token);
  const { state } = await loadAggregate(request, inviteDecider, invite.streamId);
  // Checked before anything is created: without the token nothing happens, not even an account.
  const invitation = acceptableInvitation(state, { inviteId: invite.Uuid, tokenHash, now: services.now() });
  if (!invitation) throw new AppError('conflict', invitationNoLongerValid);
  const accepting = { invitation, streamId: invite.streamId, tokenHash };

  const { userId: existingUserId } = await userIdByEmail(services.db, {
    email: invitation.email,
    ...request.readAfter,
  });
  const session = request.session;
  if (session && session.userId !== existingUserId)
    throw new AppError('forbidden', invitationForAnotherAccount);

  if (existingUserId !== null) {
    if (!session) return { outcome: 'signInRequired', email: invitation.email };
    await join(reply, { ...accepting, userId: existingUserId });
    // The session is the invitee's own: it moves into the company they joined.
    await services.sessions.update(request.cookies[sessionCookie] ?? '', { tenantId: invitation.tenantId });
    return { outcome: 'joined', tenantId: invitation.tenantId, next: '/overview' };
  }

  const userId = await registerUser(reply, {
    email: invitation.email,
    ...namesOf(invitation.name),
    authProvider: null,
    passwordHash: null,
    emailVerified: true,
  });
  await join(reply, { ...accepting, userId });
  await startSession(
    reply,
    { userId, email: invitation.email },
    { method: null, resetPasswordRequired: true, tenantId: invitation.tenantId },
  );
  return { outcome: 'joined', tenantId: invitation.tenantId, next: '/reset-password' };
};
