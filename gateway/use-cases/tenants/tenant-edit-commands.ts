import type { FastifyRequest } from 'fastify';
import type { UpdateTenantRequest } from '../../../contracts/api/tenants';
import type { TenantCommand } from '../../../domain/tenant/decide';
import type { Tenant } from '../../../domain/tenant/tenant';
import type { Actor } from '../../../domain/actor';
import { industryOf, requirePartner, requirePlan } from './tenant-facts';

type Base = { now: Date; actor: Actor };

const profileCommand = (body: UpdateTenantRequest, base: Base): TenantCommand[] => {
  const touched = [body.Name, body.FriendlyName, body.Classification, body.BusinessModel, body.Industry].some(
    (value) => value !== undefined,
  );
  if (!touched) return [];
  return [
    {
      ...base,
      type: 'UpdateTenantProfile',
      data: {
        name: body.Name,
        friendlyName: body.FriendlyName,
        classification: body.Classification,
        businessModel: body.BusinessModel,
        industry: body.Industry === undefined ? undefined : body.Industry && industryOf(body.Industry),
      },
    },
  ];
};

const reportingCommand = (body: UpdateTenantRequest, base: Base): TenantCommand[] => {
  const reporting = body.Settings?.Reporting;
  if (!reporting) return [];
  return [
    {
      ...base,
      type: 'ChangeReportingSettings',
      data: {
        retentionPeriod: reporting.RetentionPeriod,
        weeklyDay: reporting.WeeklyDay,
        monthlyDay: reporting.MonthlyDay,
        currency: reporting.Currency,
        weeklyEmailsDisabled: reporting.WeeklyEmailsDisabled,
        monthlyEmailsDisabled: reporting.MonthlyEmailsDisabled,
        timeZone: reporting.TimeZone,
      },
    },
  ];
};

/** The platform admin's fields; the decider refuses them to anyone else. */
const adminCommands = async (
  request: FastifyRequest,
  edit: { body: UpdateTenantRequest; tenant: Tenant; base: Base },
): Promise<TenantCommand[]> => {
  const { body, tenant, base } = edit;
  const commands: TenantCommand[] = [];
  if (body.UsageType !== undefined)
    commands.push({ ...base, type: 'ChangeTenantUsageType', data: { usageType: body.UsageType } });
  if (body.PartnerId !== undefined) {
    await requirePartner(request, body.PartnerId);
    commands.push({ ...base, type: 'ChangeTenantPartner', data: { partnerId: body.PartnerId } });
  }
  if (body.Referrer !== undefined || body.ReferrerIdentifier !== undefined || body.LandingPage !== undefined)
    commands.push({
      ...base,
      type: 'ChangeTenantReferral',
      data: {
        referrer: body.Referrer === undefined ? tenant.referral.referrer : body.Referrer,
        referrerIdentifier:
          body.ReferrerIdentifier === undefined
            ? tenant.referral.referrerIdentifier
            : body.ReferrerIdentifier,
        landingPage: body.LandingPage === undefined ? tenant.referral.landingPage : body.LandingPage,
      },
    });
  if (body.ActiveCampaignId !== undefined)
    commands.push({
      ...base,
      type: 'ChangeTenantActiveCampaignId',
      data: { activeCampaignId: body.ActiveCampaignId },
    });
  if (body.PlanIdentifier !== undefined) {
    await requirePlan(request, body.PlanIdentifier);
    commands.push({ ...base, type: 'ChangeTenantPlan', data: { planIdentifier: body.PlanIdentifier } });
  }
  return commands;
};

/** The tenant-stream commands of one Company/Reporting save (portal.md section 6 for who may send what). */
export const tenantEditCommands = async (
  request: FastifyRequest,
  edit: { body: UpdateTenantRequest; tenant: Tenant; actor: Actor },
): Promise<TenantCommand[]> => {
  const base = { now: request.server.services.now(), actor: edit.actor };
  return [
    ...profileCommand(edit.body, base),
    ...reportingCommand(edit.body, base),
    ...(await adminCommands(request, { body: edit.body, tenant: edit.tenant, base })),
  ];
};
