import { match } from 'ts-pattern';
import { AppError } from '../../contracts/errors';
import type { PartnerEvent } from '../../contracts/events/partner';
import type { Actor } from '../actor';
import type { DomainCommand } from '../decider';
import type { Partner, PartnerState } from './partner';
import { invalidFields, rejectInvalid, blankToNull, type FieldProblem as Problem } from '../field-problems';

/** `actor.tenantRole` is the actor's role in the partner's tenant. */
type PartnerCommandOf<Type extends string, Data> = DomainCommand<Type, Data> & { actor: Actor };

/**
 * The partner form. Name uniqueness spans the tenant's partners (other streams), so the command layer
 * supplies `nameTakenInTenant` from the partners read model: another partner of this tenant already
 * has this name, compared trimmed and case-insensitively.
 */
export type CreatePartner = PartnerCommandOf<
  'CreatePartner',
  {
    partnerId: number;
    /** Required when creating; null when the form left it empty. */
    tenantId: number | null;
    name: string;
    clientPlanIdentifier: string;
    logoUrl?: string | null;
    nameTakenInTenant: boolean;
  }
>;

/**
 * PATCH /api/partners/{TenantId}: absent fields are unchanged. `nameTakenInTenant` as for CreatePartner,
 * excluding this partner itself.
 */
export type UpdatePartner = PartnerCommandOf<
  'UpdatePartner',
  {
    name?: string;
    clientPlanIdentifier?: string;
    logoUrl?: string | null;
    clientWeeklyDay?: number | null;
    clientMonthlyDay?: number | null;
    nameTakenInTenant: boolean;
  }
>;

export type PartnerCommand = CreatePartner | UpdatePartner;

const text = {
  notFound: 'Partner not found.',
  alreadyExists: 'A partner with this id already exists.',
  forbidden: 'Only a platform administrator or an administrator of the partner’s company can change it.',
  nameRequired: 'Name is required',
  nameNotUnique: 'Name already exists within Tenant.',
  clientPlanRequired: 'Client plan is required',
  tenantRequired: 'TenantId is required',
  logoUrl: 'LogoURL must be an http or https URL.',
  weeklyDay: 'WeeklyDay must be a whole number from 0 (Sunday) to 6 (Saturday).',
  monthlyDay: 'MonthlyDay must be a whole number from 1 to 28.',
} as const;

const isHttpUrl = (value: string): boolean => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

const requireEditor = (actor: Actor): void => {
  if (!actor.isPlatformAdmin && actor.tenantRole !== 'ADMIN') throw new AppError('forbidden', text.forbidden);
};

const nameProblems = (name: string | undefined, nameTaken: boolean): Problem[] => {
  if (name === undefined) return [];
  if (name === '') return [{ field: 'Name', code: 'required', message: text.nameRequired }];
  return nameTaken ? [{ field: 'Name', code: 'not_unique', message: text.nameNotUnique }] : [];
};

const clientPlanProblems = (identifier: string | undefined): Problem[] =>
  identifier === ''
    ? [{ field: 'ClientPlanIdentifier', code: 'required', message: text.clientPlanRequired }]
    : [];

const logoProblems = (logoUrl: string | null): Problem[] =>
  logoUrl !== null && !isHttpUrl(logoUrl)
    ? [{ field: 'LogoURL', code: 'invalid', message: text.logoUrl }]
    : [];

const reportDayProblems = (weeklyDay: number | null, monthlyDay: number | null): Problem[] => [
  ...(weeklyDay !== null && !(Number.isInteger(weeklyDay) && weeklyDay >= 0 && weeklyDay <= 6)
    ? [{ field: 'WeeklyDay', code: 'out_of_range', message: text.weeklyDay } as const]
    : []),
  ...(monthlyDay !== null && !(Number.isInteger(monthlyDay) && monthlyDay >= 1 && monthlyDay <= 28)
    ? [{ field: 'MonthlyDay', code: 'out_of_range', message: text.monthlyDay } as const]
    : []),
];

const decideCreate = (command: CreatePartner, state: PartnerState): PartnerEvent[] => {
  const { data } = command;
  requireEditor(command.actor);
  if (state.status !== 'none') throw new AppError('conflict', text.alreadyExists);
  const name = data.name.trim();
  const clientPlanIdentifier = data.clientPlanIdentifier.trim();
  const logoUrl = blankToNull(data.logoUrl);
  const problems = [
    ...nameProblems(name, data.nameTakenInTenant),
    ...clientPlanProblems(clientPlanIdentifier),
    ...(data.tenantId === null
      ? [{ field: 'TenantId', code: 'required', message: text.tenantRequired } as const]
      : []),
    ...logoProblems(logoUrl),
  ];
  if (problems.length > 0 || data.tenantId === null) throw invalidFields(problems);
  return [
    {
      type: 'PartnerCreated',
      data: {
        PartnerId: data.partnerId,
        TenantId: data.tenantId,
        Name: name,
        ClientPlanIdentifier: clientPlanIdentifier,
        LogoURL: logoUrl,
        CreatedAt: command.now.toISOString(),
      },
    },
  ];
};

/** One event per field that actually changes. */
const decideUpdate = (command: UpdatePartner, state: PartnerState): PartnerEvent[] => {
  if (state.status === 'none') throw new AppError('not_found', text.notFound);
  requireEditor(command.actor);
  const partner: Partner = state;
  const { data } = command;
  const name = data.name?.trim();
  const renamed = name !== undefined && name !== partner.name;
  const clientPlanIdentifier = data.clientPlanIdentifier?.trim();
  const logoUrl = data.logoUrl === undefined ? partner.logoUrl : blankToNull(data.logoUrl);
  const weeklyDay = data.clientWeeklyDay === undefined ? partner.clientWeeklyDay : data.clientWeeklyDay;
  const monthlyDay = data.clientMonthlyDay === undefined ? partner.clientMonthlyDay : data.clientMonthlyDay;
  rejectInvalid([
    // Keeping its own name is never a clash, whatever the read model says.
    ...nameProblems(name, renamed && data.nameTakenInTenant),
    ...clientPlanProblems(clientPlanIdentifier),
    ...(logoUrl !== partner.logoUrl ? logoProblems(logoUrl) : []),
    ...reportDayProblems(weeklyDay, monthlyDay),
  ]);

  const PartnerId = partner.partnerId;
  const events: PartnerEvent[] = [];
  if (renamed) events.push({ type: 'PartnerRenamed', data: { PartnerId, Name: name } });
  if (clientPlanIdentifier !== undefined && clientPlanIdentifier !== partner.clientPlanIdentifier)
    events.push({
      type: 'PartnerClientPlanChanged',
      data: { PartnerId, ClientPlanIdentifier: clientPlanIdentifier },
    });
  if (logoUrl !== partner.logoUrl)
    events.push({ type: 'PartnerLogoChanged', data: { PartnerId, LogoURL: logoUrl } });
  if (weeklyDay !== partner.clientWeeklyDay || monthlyDay !== partner.clientMonthlyDay)
    events.push({
      type: 'PartnerClientReportDaysChanged',
      data: { PartnerId, WeeklyDay: weeklyDay, MonthlyDay: monthlyDay },
    });
  return events;
};

export const decidePartner = (command: PartnerCommand, state: PartnerState): PartnerEvent[] =>
  match(command)
    .with({ type: 'CreatePartner' }, (c) => decideCreate(c, state))
    .with({ type: 'UpdatePartner' }, (c) => decideUpdate(c, state))
    .exhaustive();
