import type { FastifyReply } from 'fastify';
import type { BatchUpdateTenantsRequest, Tenant } from '../../../contracts/api/tenants';
import { AppError } from '../../../contracts/errors';
import type { TenantCommand } from '../../../domain/tenant/decide';
import { tenantDecider } from '../../../domain/tenant/tenant-decider';
import type { UserCommand } from '../../../domain/user/decide';
import { userDecider } from '../../../domain/user/user-decider';
import { queryTenant } from '../../../projections/tenants/query-tenant';
import { executeCommand, loadAggregate } from '../../execute-command';
import { currentTenantOf, requireTenantAccess, type Caller } from '../../plugins/access';
import { checkCommands, runCommands } from '../run-commands';
import { requirePlan } from './tenant-facts';
import { tenantStream, userStream } from '../../../contracts/stream-ids';

const invalid = (field: string, message: string) =>
  new AppError('validation', 'There was an error while updating the selected clients.', {
    properties: { [field]: message },
  });

const settingsOf = (body: BatchUpdateTenantsRequest) => {
  const { WeeklyDay, MonthlyDay, WeeklyEmailsDisabled, MonthlyEmailsDisabled, PlanIdentifier, TeamMemberId } =
    body;
  return { WeeklyDay, MonthlyDay, WeeklyEmailsDisabled, MonthlyEmailsDisabled, PlanIdentifier, TeamMemberId };
};

const commandsFor = (
  body: BatchUpdateTenantsRequest,
  base: { now: Date; actor: Caller['actor'] },
): TenantCommand[] => {
  const commands: TenantCommand[] = [];
  const reporting = [body.WeeklyDay, body.MonthlyDay, body.WeeklyEmailsDisabled, body.MonthlyEmailsDisabled];
  if (reporting.some((value) => value !== undefined))
    commands.push({
      ...base,
      type: 'ChangeReportingSettings',
      data: {
        weeklyDay: body.WeeklyDay,
        monthlyDay: body.MonthlyDay,
        weeklyEmailsDisabled: body.WeeklyEmailsDisabled,
        monthlyEmailsDisabled: body.MonthlyEmailsDisabled,
      },
    });
  if (body.PlanIdentifier !== undefined)
    commands.push({ ...base, type: 'ChangeTenantPlan', data: { planIdentifier: body.PlanIdentifier } });
  return commands;
};

/**
 * The clients page's bulk edit (PUT /api/tenants/batch): the caller must administer every selected
 * client, and every change is decided for every client before any is appended, so a refusal leaves all
 * of them as they were. TeamMemberId adds a member of the caller's firm to each client as its advisor.
 */
export const batchUpdateTenants = async (
  reply: FastifyReply,
  body: BatchUpdateTenantsRequest,
): Promise<Tenant[]> => {
  const { request } = reply;
  const services = request.server.services;
  if (Object.values(settingsOf(body)).every((value) => value === undefined))
    throw invalid('settings', 'Choose at least one setting to change.');
  if (body.PlanIdentifier !== undefined) await requirePlan(request, body.PlanIdentifier);
  const ids = [...new Set(body.Id)];

  let teamMember: { streamId: string; userId: number } | null = null;
  if (body.TeamMemberId !== undefined) {
    const firmId = currentTenantOf(request);
    const { state } = await loadAggregate(request, userDecider, userStream(body.TeamMemberId));
    if (state.status !== 'registered' || state.memberships[firmId]?.status !== 'ACTIVE')
      throw invalid('TeamMemberId', 'not a member of your company');
    teamMember = { streamId: userStream(body.TeamMemberId), userId: body.TeamMemberId };
  }

  const plans = await Promise.all(
    ids.map(async (tenantId) => {
      const access = await requireTenantAccess(request, tenantId, 'tenantAdmin');
      const { state } = await loadAggregate(request, tenantDecider, tenantStream(tenantId));
      const base = { now: services.now(), actor: access.actor };
      const commands = commandsFor(body, base);
      checkCommands(tenantDecider, state, commands);
      return { tenantId, actor: access.actor, commands };
    }),
  );
  let memberState = teamMember
    ? (await loadAggregate(request, userDecider, teamMember.streamId)).state
    : null;
  const joins: { tenantId: number; command: UserCommand }[] = [];
  if (teamMember && memberState?.status === 'registered') {
    for (const plan of plans) {
      if (memberState.status !== 'registered' || memberState.memberships[plan.tenantId]) continue;
      const command: UserCommand = {
        type: 'JoinTenant',
        data: {
          tenantId: plan.tenantId,
          role: 'ADMIN',
          classification: 'ADVISOR',
          jobTitle: null,
          sendWeekly: false,
          sendMonthly: false,
          inviteId: null,
        },
        now: services.now(),
        actor: plan.actor,
      };
      memberState = checkCommands(userDecider, memberState, [command]);
      joins.push({ tenantId: plan.tenantId, command });
    }
  }

  let position: number | null = null;
  for (const plan of plans) {
    const done = await runCommands(reply, tenantDecider, {
      streamId: tenantStream(plan.tenantId),
      commands: plan.commands,
      tenantId: plan.tenantId,
    });
    position = done.position ?? position;
  }
  for (const join of joins) {
    if (!teamMember) break;
    const done = await executeCommand(reply, userDecider, {
      streamId: teamMember.streamId,
      tenantId: join.tenantId,
      command: join.command,
      part: String(join.tenantId),
    });
    position = done.position;
  }
  const readAfter = position === null ? request.readAfter : { afterPosition: position };
  const tenants = await Promise.all(
    ids.map(async (tenantId) => (await queryTenant(services.db, { tenantId, ...readAfter })).tenant),
  );
  return tenants.filter((tenant): tenant is Tenant => tenant !== null);
};
