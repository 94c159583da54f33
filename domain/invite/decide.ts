import { timingSafeEqual } from 'node:crypto';
import { match } from 'ts-pattern';
import { AppError } from '../../contracts/errors';
import {
  invitationValidityMs,
  type InviteEvent,
  type InviteRole,
  type InviteWorkflow,
} from '../../contracts/events/invite';
import type { TenantClassification } from '../../contracts/events/tenant';
import type { Actor } from '../actor';
import type { DomainCommand } from '../decider';
import { isValidEmail, normaliseEmail } from '../user/email';
import type { Invitation, InviteState } from './invite';
import { invalidFields, blankToNull, type FieldProblem as Problem } from '../field-problems';

/** `actor.tenantRole` is the actor's role in the inviting tenant. */
type InviteCommandOf<Type extends string, Data> = DomainCommand<Type, Data> & { actor: Actor };

/**
 * The invite form. The tenant's classification is a fact from the tenant stream, supplied by the
 * command layer; it decides which roles may be offered.
 */
export type CreateInvite = InviteCommandOf<
  'CreateInvite',
  {
    inviteId: string;
    tenantId: number;
    email: string;
    name: string;
    /** null only for an accounting-admin invitation, which defaults to ADMIN. */
    role: InviteRole | null;
    jobTitle: string | null;
    subscribeToReports: boolean;
    classifyAsAdvisor: boolean;
    workflow: InviteWorkflow;
    tenantClassification: TenantClassification;
    /** Hash of the link's secret token, drawn by the command layer; the token never reaches an event. */
    tokenHash: string;
  }
>;

/** Recorded by the workflow that emailed the invitation. */
export type MarkInviteSent = InviteCommandOf<'MarkInviteSent', { inviteId: string }>;
export type CancelInvite = InviteCommandOf<'CancelInvite', { inviteId: string }>;

/**
 * The invited person, signed in (or just registered) as userId with userEmail, accepts with the link's
 * token (its hash, computed by the command layer).
 */
export type AcceptInvite = InviteCommandOf<
  'AcceptInvite',
  { inviteId: string; tokenHash: string; userId: number; userEmail: string }
>;

export type InviteCommand = CreateInvite | MarkInviteSent | CancelInvite | AcceptInvite;

const text = {
  onlyTenantAdmin: 'Only an administrator of this company can invite users.',
  onlySystem: 'Only the system records that an invitation was sent.',
  alreadyPending: 'An invitation is already pending for this email.',
  otherAddress: 'This invitation stream belongs to another tenant or email address.',
  nameRequired: 'Name is required',
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address.',
  roleRequired: 'Role is required',
  firmRoles: 'An advisory firm can invite administrators and standard users only.',
  accountingAdminRoles: 'An accounting admin invitation is for an administrator or an advisor.',
  classifyOnlyInFirm: 'Only an advisory firm can classify an invited user as an advisor.',
  notFound: 'Invitation not found.',
  alreadyJoined: 'This invitation has already been accepted.',
  alreadyCancelled: 'This invitation has already been cancelled.',
  noLongerValid: 'Oops! It seems that this invitation is no longer valid.',
  otherEmail: 'This invitation was sent to a different email address.',
} as const;

/** Accounting admins get this job title unless the form names one. */
const accountingAdminJobTitle = 'Accounting/Finance';

const isOpen = (invitation: Invitation): boolean =>
  invitation.status === 'pending' || invitation.status === 'sent';

const isExpired = (invitation: Invitation, now: Date): boolean =>
  now.getTime() >= new Date(invitation.expiresAt).getTime();

/** Equal hashes, compared in constant time so the comparison leaks no prefix of the recorded one. */
const sameHash = (recorded: string | null, presented: string): boolean => {
  if (recorded === null) return false;
  const a = Buffer.from(recorded);
  const b = Buffer.from(presented);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * The invitation a link may accept now: the current one with this id, open, not expired, and recorded
 * with the hash of the token the link carries; null otherwise (whatever the reason, so the answer
 * tells a prober nothing). The command layer checks it before creating an account; AcceptInvite again.
 */
export const acceptableInvitation = (
  state: InviteState,
  link: { inviteId: string; tokenHash: string; now: Date },
): Invitation | null => {
  if (state.status === 'none' || state.current.inviteId !== link.inviteId) return null;
  const current = state.current;
  if (!isOpen(current) || isExpired(current, link.now)) return null;
  return sameHash(current.tokenHash, link.tokenHash) ? current : null;
};

const requireTenantAdmin = (actor: Actor): void => {
  if (!actor.isPlatformAdmin && actor.tenantRole !== 'ADMIN')
    throw new AppError('forbidden', text.onlyTenantAdmin);
};

const roleProblems = (command: CreateInvite, role: InviteRole | null): Problem[] => {
  const { data } = command;
  if (role === null) return [{ field: 'role', code: 'required', message: text.roleRequired }];
  if (data.workflow === 'ACCOUNTING_ADMIN' && role === 'USER')
    return [{ field: 'role', code: 'invalid', message: text.accountingAdminRoles }];
  if (data.tenantClassification === 'FIRM' && role === 'ADVISOR')
    return [{ field: 'role', code: 'invalid', message: text.firmRoles }];
  return [];
};

const decideCreate = (command: CreateInvite, state: InviteState): InviteEvent[] => {
  const { actor, data } = command;
  requireTenantAdmin(actor);
  const email = normaliseEmail(data.email);
  if (state.status === 'invited') {
    // The stream is keyed by tenant and address; anything else means the command layer picked the wrong one.
    if (state.current.tenantId !== data.tenantId || state.current.email !== email)
      throw new AppError('conflict', text.otherAddress);
    // An expired invitation no longer holds the address: the admin may invite again.
    if (isOpen(state.current) && !isExpired(state.current, command.now))
      throw new AppError('conflict', text.alreadyPending);
  }
  const isAccountingAdmin = data.workflow === 'ACCOUNTING_ADMIN';
  const role = data.role ?? (isAccountingAdmin ? 'ADMIN' : null);
  const name = data.name.trim();
  const problems = [
    ...(name === '' ? [{ field: 'name', code: 'required', message: text.nameRequired } as const] : []),
    ...(email === ''
      ? [{ field: 'email', code: 'required', message: text.emailRequired } as const]
      : isValidEmail(email)
        ? []
        : [{ field: 'email', code: 'invalid', message: text.emailInvalid } as const]),
    ...roleProblems(command, role),
    ...(data.classifyAsAdvisor && data.tenantClassification !== 'FIRM'
      ? [{ field: 'classifyAsAdvisor', code: 'invalid', message: text.classifyOnlyInFirm } as const]
      : []),
  ];
  if (problems.length > 0 || role === null) throw invalidFields(problems);
  return [
    {
      type: 'InviteCreated',
      data: {
        InviteId: data.inviteId,
        TenantId: data.tenantId,
        Email: email,
        Name: name,
        Role: role,
        JobTitle: blankToNull(data.jobTitle) ?? (isAccountingAdmin ? accountingAdminJobTitle : null),
        SubscribeToReports: data.subscribeToReports,
        ClassifyAsAdvisor: data.classifyAsAdvisor,
        Workflow: data.workflow,
        CreatedAt: command.now.toISOString(),
        TokenHash: data.tokenHash,
        ExpiresAt: new Date(command.now.getTime() + invitationValidityMs).toISOString(),
      },
    },
  ];
};

/** The current invitation with this id, or a refusal naming why it cannot be acted on. */
const openInvitation = (state: InviteState, inviteId: string): Invitation => {
  if (state.status === 'none' || state.current.inviteId !== inviteId)
    throw new AppError('not_found', text.notFound);
  const current = state.current;
  if (current.status === 'joined') throw new AppError('conflict', text.alreadyJoined);
  if (current.status === 'cancelled') throw new AppError('conflict', text.alreadyCancelled);
  return current;
};

const decideAccept = (command: AcceptInvite, state: InviteState): InviteEvent[] => {
  const { actor, data } = command;
  // Whoever follows a stale, expired or forged link sees the spec's invite page text.
  const invitation = acceptableInvitation(state, { ...data, now: command.now });
  if (!invitation) throw new AppError('conflict', text.noLongerValid);
  if (actor.userId !== data.userId && !actor.isPlatformAdmin)
    throw new AppError('forbidden', text.otherEmail);
  if (normaliseEmail(data.userEmail) !== invitation.email) throw new AppError('forbidden', text.otherEmail);
  const asAdvisor = invitation.role === 'ADVISOR' || invitation.classifyAsAdvisor;
  return [
    {
      type: 'InviteJoined',
      data: {
        InviteId: invitation.inviteId,
        UserId: data.userId,
        TenantId: invitation.tenantId,
        // An ADVISOR invited by a business gets administrator access.
        MembershipRole: invitation.role === 'USER' ? 'USER' : 'ADMIN',
        MembershipClassification: asAdvisor ? 'ADVISOR' : 'MEMBER',
        JobTitle: invitation.jobTitle,
        // Weekly is the default send frequency.
        SendWeekly: invitation.subscribeToReports,
        SendMonthly: false,
        JoinedAt: command.now.toISOString(),
      },
    },
  ];
};

export const decideInvite = (command: InviteCommand, state: InviteState): InviteEvent[] =>
  match(command)
    .with({ type: 'CreateInvite' }, (c) => decideCreate(c, state))
    .with({ type: 'MarkInviteSent' }, (c): InviteEvent[] => {
      if (!c.actor.isPlatformAdmin) throw new AppError('forbidden', text.onlySystem);
      const invitation = openInvitation(state, c.data.inviteId);
      return [{ type: 'InviteSent', data: { InviteId: invitation.inviteId, SentAt: c.now.toISOString() } }];
    })
    .with({ type: 'CancelInvite' }, (c): InviteEvent[] => {
      requireTenantAdmin(c.actor);
      const invitation = openInvitation(state, c.data.inviteId);
      return [
        {
          type: 'InviteCancelled',
          data: { InviteId: invitation.inviteId, CancelledAt: c.now.toISOString() },
        },
      ];
    })
    .with({ type: 'AcceptInvite' }, (c) => decideAccept(c, state))
    .exhaustive();
