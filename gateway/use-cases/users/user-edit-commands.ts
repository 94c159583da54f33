import type { FastifyRequest } from 'fastify';
import type { UpdateUserRequest } from '../../../contracts/api/users';
import type { UserCommand } from '../../../domain/user/decide';
import type { User } from '../../../domain/user/user';
import { normaliseEmail } from '../../../domain/user/email';
import { tenantsCollection } from '../../../projections/tenants/tenant-view';
import { userIdByEmail } from '../../../projections/users/user-facts';
import type { Caller } from '../../plugins/access';

/** Splits a single Name field into given and family names, as invitations do. */
const namesOf = (name: string) => {
  const [givenName = name, ...rest] = name.trim().split(/\s+/);
  return { givenName, familyName: rest.join(' ') || givenName };
};

const accountCommands = async (
  request: FastifyRequest,
  edit: { body: UpdateUserRequest; user: User; base: Pick<UserCommand, 'now' | 'actor'> },
): Promise<UserCommand[]> => {
  const { body, user, base } = edit;
  const commands: UserCommand[] = [];
  if (body.Name !== undefined || body.GivenName !== undefined || body.FamilyName !== undefined) {
    const fromName = body.Name === undefined ? null : namesOf(body.Name);
    commands.push({
      ...base,
      type: 'RenameUser',
      data: {
        givenName: body.GivenName ?? fromName?.givenName ?? user.givenName,
        familyName: body.FamilyName ?? fromName?.familyName ?? user.familyName,
      },
    });
  }
  if (body.Email !== undefined) {
    const email = normaliseEmail(body.Email);
    const owner = await userIdByEmail(request.server.services.db, { email, ...request.readAfter });
    const emailInUse = owner.userId !== null && owner.userId !== user.userId;
    commands.push({ ...base, type: 'ChangeUserEmail', data: { email, emailInUse } });
  }
  if (body.PrimaryClassification !== undefined)
    commands.push({
      ...base,
      type: 'ChangePrimaryClassification',
      data: { classification: body.PrimaryClassification },
    });
  if (body.ActiveCampaignId !== undefined)
    commands.push({
      ...base,
      type: 'ChangeUserActiveCampaignId',
      data: { activeCampaignId: body.ActiveCampaignId },
    });
  return commands;
};

const membershipCommands = async (
  request: FastifyRequest,
  edit: { body: UpdateUserRequest; tenantId: number; base: Pick<UserCommand, 'now' | 'actor'> },
): Promise<UserCommand[]> => {
  const { body, tenantId, base } = edit;
  const commands: UserCommand[] = [];
  if (body.JobTitle !== undefined)
    commands.push({ ...base, type: 'ChangeMembershipJobTitle', data: { tenantId, jobTitle: body.JobTitle } });
  if (body.Role !== undefined && body.Role !== null)
    commands.push({ ...base, type: 'ChangeMembershipRole', data: { tenantId, role: body.Role } });
  if (body.SendWeekly !== undefined || body.SendMonthly !== undefined)
    commands.push({
      ...base,
      type: 'ChangeMembershipReportPreferences',
      data: { tenantId, sendWeekly: body.SendWeekly, sendMonthly: body.SendMonthly },
    });
  if (body.AssignToAllClients !== undefined) {
    const tenant = await (
      await tenantsCollection(request.server.services.db)
    ).findOne({ _id: tenantId }, { projection: { Classification: 1 } });
    commands.push({
      ...base,
      type: 'ChangeAssignToAllClients',
      data: {
        tenantId,
        tenantClassification: tenant?.Classification ?? 'BUSINESS',
        assignToAllClients: body.AssignToAllClients,
      },
    });
  }
  return commands;
};

/**
 * The commands of one user edit (portal.md section 5, User edit sends). Account fields are decided as
 * the platform admin's (the decider refuses anyone else); membership fields concern the caller's
 * current tenant. A platform admin editing, from the admin users table, someone who is not a member of
 * the admin's current company edits the account only: the membership fields have no company to apply to.
 */
export const userEditCommands = async (
  request: FastifyRequest,
  edit: { caller: Caller; user: User; body: UpdateUserRequest },
): Promise<UserCommand[]> => {
  const { caller, user, body } = edit;
  const base = { now: request.server.services.now(), actor: caller.actor };
  const tenantId = caller.tenantId;
  const member = tenantId !== null && user.memberships[tenantId] !== undefined;
  return [
    ...(await accountCommands(request, { body, user, base })),
    ...(member && tenantId !== null ? await membershipCommands(request, { body, tenantId, base }) : []),
  ];
};
