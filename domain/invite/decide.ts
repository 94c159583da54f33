import { match } from 'ts-pattern';
import { AppError } from '../../contracts/errors';
import type { InviteEvent, InviteRole, InviteWorkflow } from '../../contracts/events/invite';
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
  }
>;

/** Recorded by the workflow that emailed the invitation. */
export type MarkInviteSent = InviteCommandOf<'MarkInviteSent', { inviteId: string }>;
export type CancelInvite = InviteCommandOf<'CancelInvite', { inviteId: string }>;

/** The invited person, signed in (or just registered) as userId with userEmail, follows the link. */
export type AcceptInvite = InviteCommandOf<
  'AcceptInvite',
  { inviteId: string; userId: number; userEmail: string }
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
    if (isOpen(state.current)) throw new AppError('conflict', text.alreadyPending);
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
      },
    },
  ];
};

/** The current invitation with this id, or a refusal naming why it cannot be acted on. */
const openInvitation = (state: InviteState, inviteId: string, staleMessage?: string): Invitation => {
  if (state.status === 'none' || state.current.inviteId !== inviteId) {
    throw staleMessage ? new AppError('conflict', staleMessage) : new AppError('not_found', text.notFound);
  }
  const current = state.current;
  if (current.status === 'joined') throw new AppError('conflict', staleMessage ?? text.alreadyJoined);
  if (current.status === 'cancelled') throw new AppError('conflict', staleMessage ?? text.alreadyCancelled);
  return current;
};

const decideAccept = (command: AcceptInvite, state: InviteState): InviteEvent[] => {
  const { actor, data } = command;
  // Whoever follows a stale link sees the spec's invite page text.
  const invitation = openInvitation(state, data.inviteId, text.noLongerValid);
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
