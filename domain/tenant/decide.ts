import { match } from 'ts-pattern';
import { AppError } from '../../contracts/errors';
import {
  Currency,
  isTimeZone,
  LogoContentType,
  RetentionPeriod,
  defaultReportingSettings,
  type BusinessModel,
  type DisableReason,
  type Industry,
  type LogoReviewDecision,
  type ReportingSettings,
  type TenantClassification,
  type TenantEvent,
  type UsageType,
} from '../../contracts/events/tenant';
import type { Actor } from '../actor';
import type { DomainCommand } from '../decider';
import type { Tenant, TenantState } from './tenant';
import { invalidFields, rejectInvalid, blankToNull, type FieldProblem as Problem } from '../field-problems';

type TenantCommandOf<Type extends string, Data> = DomainCommand<Type, Data> & { actor: Actor };

/**
 * Creates a company: the welcome modal, an advisor's new client, or an admin's new tenant. The creating
 * user's membership (and, for a FIRM, their advisor classification) is a separate user command.
 */
export type CreateTenant = TenantCommandOf<
  'CreateTenant',
  {
    tenantId: number;
    name: string;
    classification: TenantClassification;
    /** Defaults to the name for a FIRM, which must always have a client display name. */
    friendlyName?: string | null;
    usageType?: UsageType;
    businessModel?: BusinessModel | null;
    industry?: Industry | null;
    partnerId?: number | null;
    referrer?: string | null;
    referrerIdentifier?: string | null;
    landingPage?: string | null;
    planIdentifier?: string | null;
  }
>;

export type RenameTenant = TenantCommandOf<'RenameTenant', { name: string }>;

/** The Company tab in one save: absent fields are unchanged, so one form save is one atomic append. */
export type UpdateTenantProfile = TenantCommandOf<
  'UpdateTenantProfile',
  {
    name?: string;
    friendlyName?: string | null;
    classification?: TenantClassification;
    businessModel?: BusinessModel | null;
    industry?: Industry | null;
  }
>;

export type ChangeTenantUsageType = TenantCommandOf<'ChangeTenantUsageType', { usageType: UsageType }>;

/** Links the tenant to an advisory partner; that the partner exists is checked by the command layer. */
export type ChangeTenantPartner = TenantCommandOf<'ChangeTenantPartner', { partnerId: number | null }>;

/** A platform admin's edit, or an ActiveCampaign sync finding the company among the accounts. */
export type ChangeTenantActiveCampaignId = TenantCommandOf<
  'ChangeTenantActiveCampaignId',
  { activeCampaignId: string | null }
>;
export type ChangeTenantReferral = TenantCommandOf<
  'ChangeTenantReferral',
  { referrer: string | null; referrerIdentifier: string | null; landingPage: string | null }
>;

/** Absent fields are unchanged ("blank means no change"). */
export type ChangeReportingSettings = TenantCommandOf<
  'ChangeReportingSettings',
  {
    retentionPeriod?: RetentionPeriod;
    weeklyDay?: number;
    monthlyDay?: number;
    currency?: Currency;
    weeklyEmailsDisabled?: boolean;
    monthlyEmailsDisabled?: boolean;
    /** IANA name; the scheduled report sends go out at 07:00 in it. */
    timeZone?: string;
  }
>;

/** The upload itself is stored by the command layer; contentType is what the file turned out to be. */
export type SubmitTenantLogo = TenantCommandOf<'SubmitTenantLogo', { logoUrl: string; contentType: string }>;

/** logoUrl names the upload that was reviewed, so a review of a since-replaced logo is refused. */
export type ReviewTenantLogo = TenantCommandOf<
  'ReviewTenantLogo',
  { logoUrl: string; decision: LogoReviewDecision }
>;

/** That the plan exists is checked by the command layer. */
export type ChangeTenantPlan = TenantCommandOf<'ChangeTenantPlan', { planIdentifier: string }>;

export type DisableTenant = TenantCommandOf<'DisableTenant', { reason: DisableReason | null }>;
export type RestoreTenant = TenantCommandOf<'RestoreTenant', Record<string, never>>;
export type PurgeTenant = TenantCommandOf<'PurgeTenant', { permanent: boolean }>;

export type TenantCommand =
  | CreateTenant
  | RenameTenant
  | UpdateTenantProfile
  | ChangeTenantUsageType
  | ChangeTenantPartner
  | ChangeTenantReferral
  | ChangeTenantActiveCampaignId
  | ChangeReportingSettings
  | SubmitTenantLogo
  | ReviewTenantLogo
  | ChangeTenantPlan
  | DisableTenant
  | RestoreTenant
  | PurgeTenant;

const text = {
  notFound: 'Tenant not found.',
  alreadyExists: 'A tenant with this id already exists.',
  plainUserCannotAddCompany: 'Standard users cannot add a company. Ask an administrator or advisor.',
  onlyPlatformAdminUsageType: 'Only a platform administrator can create a test, internal or demo tenant.',
  onlyCompanyAdmin: 'Only an administrator of this company can change its settings.',
  onlyPlatformAdmin: 'Only a platform administrator can do this.',
  demoLocked: 'Billing is disabled while in a demo tenant. Please switch.',
  disabled: 'This company is disabled. Restore it before changing it.',
  nameRequired: 'Please enter company name',
  friendlyNameRequired: 'Please enter a client display name: an advisory firm needs one for client reports.',
  industryRequired: 'Please enter an industry',
  naicsInvalid: 'The NAICS2017 industry code must be 2 to 6 digits.',
  weeklyDay: 'WeeklyDay must be a whole number from 0 (Sunday) to 6 (Saturday).',
  monthlyDay: 'MonthlyDay must be a whole number from 1 to 28.',
  retentionPeriod: `RetentionPeriod must be one of ${RetentionPeriod.options.join(', ')}.`,
  currency: `Currency must be one of ${Currency.options.join(', ')}.`,
  timeZone: 'Choose a time zone from the list',
  logoType: 'The logo must be a JPEG, PNG, GIF or SVG image.',
  logoUrlRequired: 'The logo upload is missing its file location.',
  noLogoPending: 'There is no logo waiting for review.',
  logoReplaced: 'This logo was replaced by a newer upload; review the newer one.',
  planRequired: 'Please choose a plan.',
  internalCannotBeDisabled: 'Internal tenants cannot be disabled.',
  alreadyDisabled: 'The tenant is already disabled.',
  restoreOnlyDisabled: 'Only a disabled tenant can be restored.',
  purgeOnlyDisabled: 'Only a disabled tenant can be purged.',
} as const;

const existing = (state: TenantState): Tenant => {
  if (state.status === 'none' || state.status === 'purged') throw new AppError('not_found', text.notFound);
  return state;
};

/** Everything but restore and purge needs a tenant that is neither disabled nor purged. */
const activeTenant = (state: TenantState): Tenant => {
  const tenant = existing(state);
  if (tenant.status === 'disabled') throw new AppError('conflict', text.disabled);
  return tenant;
};

const requirePlatformAdmin = (actor: Actor): void => {
  if (!actor.isPlatformAdmin) throw new AppError('forbidden', text.onlyPlatformAdmin);
};

/** Tenant admins and platform admins edit company settings; a demo tenant's are locked for its users. */
const requireSettingsEditor = (actor: Actor, tenant: Tenant): void => {
  if (actor.isPlatformAdmin) return;
  if (actor.tenantRole !== 'ADMIN') throw new AppError('forbidden', text.onlyCompanyAdmin);
  if (tenant.usageType === 'DEMO') throw new AppError('conflict', text.demoLocked);
};

const nameProblems = (name: string | undefined): Problem[] =>
  name !== undefined && name.trim() === ''
    ? [{ field: 'Name', code: 'required', message: text.nameRequired }]
    : [];

const industryProblems = (industry: Industry | null | undefined): Problem[] => {
  if (!industry) return [];
  const problems: Problem[] = [];
  if (industry.FreeForm.trim() === '')
    problems.push({ field: 'Industry.FreeForm', code: 'required', message: text.industryRequired });
  if (industry.NAICS2017 !== null && !/^\d{2,6}$/.test(industry.NAICS2017))
    problems.push({ field: 'Industry.NAICS2017', code: 'invalid', message: text.naicsInvalid });
  return problems;
};

const normaliseIndustry = (industry: Industry | null | undefined): Industry | null =>
  industry ? { ...industry, FreeForm: industry.FreeForm.trim() } : null;

const decideCreate = (command: CreateTenant, state: TenantState): TenantEvent[] => {
  const { actor, data } = command;
  if (state.status !== 'none') throw new AppError('conflict', text.alreadyExists);
  const isPlainUser = !actor.isPlatformAdmin && !actor.isAdvisor && actor.tenantRole === 'USER';
  if (isPlainUser) throw new AppError('forbidden', text.plainUserCannotAddCompany);
  const usageType = data.usageType ?? 'NORMAL';
  if (usageType !== 'NORMAL' && !actor.isPlatformAdmin)
    throw new AppError('forbidden', text.onlyPlatformAdminUsageType);
  rejectInvalid([...nameProblems(data.name), ...industryProblems(data.industry)]);

  const name = data.name.trim();
  const friendlyName = blankToNull(data.friendlyName) ?? (data.classification === 'FIRM' ? name : null);
  return [
    {
      type: 'TenantCreated',
      data: {
        TenantId: data.tenantId,
        Name: name,
        FriendlyName: friendlyName,
        Classification: data.classification,
        UsageType: usageType,
        BusinessModel: data.businessModel ?? null,
        Industry: normaliseIndustry(data.industry),
        PartnerId: data.partnerId ?? null,
        Referrer: blankToNull(data.referrer),
        ReferrerIdentifier: blankToNull(data.referrerIdentifier),
        LandingPage: blankToNull(data.landingPage),
        PlanIdentifier: blankToNull(data.planIdentifier),
        Reporting: defaultReportingSettings,
        CreatedBy: actor.userId,
        CreatedAt: command.now.toISOString(),
      },
    },
  ];
};

/** Emits one event per field that actually changes; saving an unchanged form appends nothing. */
const decideProfile = (
  command: TenantCommandOf<string, UpdateTenantProfile['data']>,
  state: TenantState,
): TenantEvent[] => {
  const tenant = activeTenant(state);
  requireSettingsEditor(command.actor, tenant);
  const { data } = command;
  const classification = data.classification ?? tenant.classification;
  const friendlyName = data.friendlyName === undefined ? tenant.friendlyName : blankToNull(data.friendlyName);
  rejectInvalid([
    ...nameProblems(data.name),
    ...(classification === 'FIRM' && friendlyName === null
      ? [{ field: 'FriendlyName', code: 'required', message: text.friendlyNameRequired } as const]
      : []),
    ...industryProblems(data.industry),
  ]);

  const TenantId = tenant.tenantId;
  const events: TenantEvent[] = [];
  const name = data.name?.trim();
  if (name !== undefined && name !== tenant.name)
    events.push({ type: 'TenantRenamed', data: { TenantId, Name: name } });
  if (friendlyName !== tenant.friendlyName)
    events.push({ type: 'TenantFriendlyNameChanged', data: { TenantId, FriendlyName: friendlyName } });
  if (classification !== tenant.classification)
    events.push({ type: 'TenantClassificationChanged', data: { TenantId, Classification: classification } });
  if (data.businessModel !== undefined && data.businessModel !== tenant.businessModel)
    events.push({
      type: 'TenantBusinessModelChanged',
      data: { TenantId, BusinessModel: data.businessModel },
    });
  if (data.industry !== undefined) {
    const industry = normaliseIndustry(data.industry);
    if (JSON.stringify(industry) !== JSON.stringify(tenant.industry))
      events.push({ type: 'TenantIndustryChanged', data: { TenantId, Industry: industry } });
  }
  return events;
};

const reportingProblems = (settings: ReportingSettings): Problem[] => {
  const problems: Problem[] = [];
  if (!RetentionPeriod.options.includes(settings.RetentionPeriod))
    problems.push({ field: 'RetentionPeriod', code: 'invalid', message: text.retentionPeriod });
  if (!Number.isInteger(settings.WeeklyDay) || settings.WeeklyDay < 0 || settings.WeeklyDay > 6)
    problems.push({ field: 'WeeklyDay', code: 'out_of_range', message: text.weeklyDay });
  if (!Number.isInteger(settings.MonthlyDay) || settings.MonthlyDay < 1 || settings.MonthlyDay > 28)
    problems.push({ field: 'MonthlyDay', code: 'out_of_range', message: text.monthlyDay });
  if (!Currency.options.includes(settings.Currency))
    problems.push({ field: 'Currency', code: 'invalid', message: text.currency });
  if (settings.TimeZone !== undefined && !isTimeZone(settings.TimeZone))
    problems.push({ field: 'TimeZone', code: 'invalid', message: text.timeZone });
  return problems;
};

const decideReporting = (command: ChangeReportingSettings, state: TenantState): TenantEvent[] => {
  const tenant = activeTenant(state);
  requireSettingsEditor(command.actor, tenant);
  const { data } = command;
  const current = tenant.reporting;
  const next: ReportingSettings = {
    RetentionPeriod: data.retentionPeriod ?? current.RetentionPeriod,
    WeeklyDay: data.weeklyDay ?? current.WeeklyDay,
    MonthlyDay: data.monthlyDay ?? current.MonthlyDay,
    Currency: data.currency ?? current.Currency,
    WeeklyEmailsDisabled: data.weeklyEmailsDisabled ?? current.WeeklyEmailsDisabled,
    MonthlyEmailsDisabled: data.monthlyEmailsDisabled ?? current.MonthlyEmailsDisabled,
    ...((data.timeZone ?? current.TimeZone) === undefined
      ? {}
      : { TimeZone: data.timeZone ?? current.TimeZone }),
  };
  rejectInvalid(reportingProblems(next));
  const unchanged = (Object.keys(next) as (keyof ReportingSettings)[]).every(
    (key) => next[key] === current[key],
  );
  return unchanged
    ? []
    : [{ type: 'TenantReportingSettingsChanged', data: { TenantId: tenant.tenantId, Reporting: next } }];
};

const decideSubmitLogo = (command: SubmitTenantLogo, state: TenantState): TenantEvent[] => {
  const tenant = activeTenant(state);
  requireSettingsEditor(command.actor, tenant);
  const contentType = LogoContentType.safeParse(command.data.contentType);
  const logoUrl = command.data.logoUrl.trim();
  if (!contentType.success) throw invalidFields([{ field: 'file', code: 'invalid', message: text.logoType }]);
  if (logoUrl === '')
    throw invalidFields([{ field: 'file', code: 'required', message: text.logoUrlRequired }]);
  return [
    {
      type: 'TenantLogoSubmitted',
      data: {
        TenantId: tenant.tenantId,
        LogoURL: logoUrl,
        ContentType: contentType.data,
        SubmittedAt: command.now.toISOString(),
      },
    },
  ];
};

const decideReviewLogo = (command: ReviewTenantLogo, state: TenantState): TenantEvent[] => {
  const tenant = activeTenant(state);
  requirePlatformAdmin(command.actor);
  const pending = tenant.logo.pending;
  if (pending === null) throw new AppError('conflict', text.noLogoPending);
  if (pending.url !== command.data.logoUrl) throw new AppError('conflict', text.logoReplaced);
  return [
    {
      type: 'TenantLogoReviewed',
      data: {
        TenantId: tenant.tenantId,
        LogoURL: pending.url,
        Decision: command.data.decision,
        ReviewedAt: command.now.toISOString(),
      },
    },
  ];
};

const decidePlan = (command: ChangeTenantPlan, state: TenantState): TenantEvent[] => {
  const tenant = activeTenant(state);
  if (!command.actor.isPlatformAdmin && command.actor.tenantRole !== 'ADMIN')
    throw new AppError('forbidden', text.onlyCompanyAdmin);
  // Billing is off in a demo tenant for everyone, platform admins included.
  if (tenant.usageType === 'DEMO') throw new AppError('conflict', text.demoLocked);
  const planIdentifier = command.data.planIdentifier.trim();
  rejectInvalid(
    planIdentifier === '' ? [{ field: 'PlanIdentifier', code: 'required', message: text.planRequired }] : [],
  );
  if (planIdentifier === tenant.planIdentifier) return [];
  return [{ type: 'TenantPlanChanged', data: { TenantId: tenant.tenantId, PlanIdentifier: planIdentifier } }];
};

const decideDisable = (command: DisableTenant, state: TenantState): TenantEvent[] => {
  const tenant = existing(state);
  requirePlatformAdmin(command.actor);
  if (tenant.status === 'disabled') throw new AppError('conflict', text.alreadyDisabled);
  if (tenant.usageType === 'INTERNAL') throw new AppError('conflict', text.internalCannotBeDisabled);
  return [
    {
      type: 'TenantDisabled',
      data: { TenantId: tenant.tenantId, Reason: command.data.reason, DisabledAt: command.now.toISOString() },
    },
  ];
};

const decideRestore = (command: RestoreTenant, state: TenantState): TenantEvent[] => {
  const tenant = existing(state);
  requirePlatformAdmin(command.actor);
  if (tenant.status !== 'disabled') throw new AppError('conflict', text.restoreOnlyDisabled);
  return [
    { type: 'TenantRestored', data: { TenantId: tenant.tenantId, RestoredAt: command.now.toISOString() } },
  ];
};

/** A purge that kept the record can later be made permanent; a permanent one leaves nothing to act on. */
const decidePurge = (command: PurgeTenant, state: TenantState): TenantEvent[] => {
  if (state.status === 'none' || (state.status === 'purged' && state.permanentlyPurged))
    throw new AppError('not_found', text.notFound);
  requirePlatformAdmin(command.actor);
  const canPurge = state.status === 'disabled' || (state.status === 'purged' && command.data.permanent);
  if (!canPurge) throw new AppError('conflict', text.purgeOnlyDisabled);
  return [
    {
      type: 'TenantPurged',
      data: {
        TenantId: state.tenantId,
        Permanent: command.data.permanent,
        PurgedAt: command.now.toISOString(),
      },
    },
  ];
};

const decidePlatformAdminEdit = (
  command: { actor: Actor },
  state: TenantState,
  change: (tenant: Tenant) => TenantEvent[],
): TenantEvent[] => {
  const tenant = activeTenant(state);
  requirePlatformAdmin(command.actor);
  return change(tenant);
};

export const decideTenant = (command: TenantCommand, state: TenantState): TenantEvent[] =>
  match(command)
    .with({ type: 'CreateTenant' }, (c) => decideCreate(c, state))
    .with({ type: 'RenameTenant' }, (c) => decideProfile({ ...c, data: { name: c.data.name } }, state))
    .with({ type: 'UpdateTenantProfile' }, (c) => decideProfile(c, state))
    .with({ type: 'ChangeTenantUsageType' }, (c) =>
      decidePlatformAdminEdit(c, state, (tenant): TenantEvent[] => {
        if (tenant.usageType === c.data.usageType) return [];
        return [
          {
            type: 'TenantUsageTypeChanged',
            data: { TenantId: tenant.tenantId, UsageType: c.data.usageType },
          },
        ];
      }),
    )
    .with({ type: 'ChangeTenantPartner' }, (c) =>
      decidePlatformAdminEdit(c, state, (tenant): TenantEvent[] => {
        if (tenant.partnerId === c.data.partnerId) return [];
        return [
          { type: 'TenantPartnerChanged', data: { TenantId: tenant.tenantId, PartnerId: c.data.partnerId } },
        ];
      }),
    )
    .with({ type: 'ChangeTenantActiveCampaignId' }, (c) =>
      decidePlatformAdminEdit(c, state, (tenant): TenantEvent[] => {
        const next = blankToNull(c.data.activeCampaignId);
        if (next !== null && next.length > 64)
          throw new AppError('validation', 'The ActiveCampaign id is too long.', {
            properties: { ActiveCampaignId: 'at most 64 characters' },
          });
        if (next === tenant.activeCampaignId) return [];
        return [
          {
            type: 'TenantActiveCampaignIdChanged',
            data: { TenantId: tenant.tenantId, ActiveCampaignId: next },
          },
        ];
      }),
    )
    .with({ type: 'ChangeTenantReferral' }, (c) =>
      decidePlatformAdminEdit(c, state, (tenant): TenantEvent[] => {
        const next = {
          referrer: blankToNull(c.data.referrer),
          referrerIdentifier: blankToNull(c.data.referrerIdentifier),
          landingPage: blankToNull(c.data.landingPage),
        };
        if (JSON.stringify(next) === JSON.stringify(tenant.referral)) return [];
        return [
          {
            type: 'TenantReferralChanged',
            data: {
              TenantId: tenant.tenantId,
              Referrer: next.referrer,
              ReferrerIdentifier: next.referrerIdentifier,
              LandingPage: next.landingPage,
            },
          },
        ];
      }),
    )
    .with({ type: 'ChangeReportingSettings' }, (c) => decideReporting(c, state))
    .with({ type: 'SubmitTenantLogo' }, (c) => decideSubmitLogo(c, state))
    .with({ type: 'ReviewTenantLogo' }, (c) => decideReviewLogo(c, state))
    .with({ type: 'ChangeTenantPlan' }, (c) => decidePlan(c, state))
    .with({ type: 'DisableTenant' }, (c) => decideDisable(c, state))
    .with({ type: 'RestoreTenant' }, (c) => decideRestore(c, state))
    .with({ type: 'PurgeTenant' }, (c) => decidePurge(c, state))
    .exhaustive();
