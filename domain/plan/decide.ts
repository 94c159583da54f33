import { match } from 'ts-pattern';
import { AppError } from '../../contracts/errors';
import type { PlanClassification, PlanEvent, PlanProduct } from '../../contracts/events/plan';
import type { Actor } from '../actor';
import type { DomainCommand } from '../decider';
import type { Plan, PlanState } from './plan';
import { rejectInvalid, type FieldProblem as Problem } from '../field-problems';

type PlanCommandOf<Type extends string, Data> = DomainCommand<Type, Data> & { actor: Actor };

/**
 * Identifiers are unique across plans (other streams), so the command layer supplies
 * `identifierTaken` from the plans read model.
 */
export type CreatePlan = PlanCommandOf<
  'CreatePlan',
  {
    planId: number;
    identifier: string;
    name: string;
    classification: PlanClassification;
    isDefault: boolean;
    active: boolean;
    /** Days. */
    trialPeriod: number;
    products: readonly PlanProduct[];
    identifierTaken: boolean;
  }
>;

/**
 * Absent fields are unchanged. Identifier and classification never change: subscriptions, partners and
 * the sign-up cookie refer to a plan by its identifier and expect its audience to stay the same.
 */
export type UpdatePlan = PlanCommandOf<
  'UpdatePlan',
  { name?: string; trialPeriod?: number; products?: readonly PlanProduct[]; isDefault?: boolean }
>;

export type ActivatePlan = PlanCommandOf<'ActivatePlan', Record<string, never>>;
export type DeactivatePlan = PlanCommandOf<'DeactivatePlan', Record<string, never>>;

export type PlanCommand = CreatePlan | UpdatePlan | ActivatePlan | DeactivatePlan;

const text = {
  notFound: 'Plan not found.',
  alreadyExists: 'A plan with this id already exists.',
  onlyPlatformAdmin: 'Only a platform administrator can do this.',
  identifierRequired: 'Identifier is required',
  identifierFormat: 'Identifier may contain only lower-case letters, digits and underscores.',
  identifierTaken: 'Identifier already exists.',
  nameRequired: 'Name is required',
  trialPeriod: 'TrialPeriod must be a whole number of days from 0 to 365.',
  productIdentifier: 'Every product needs an identifier.',
  productDuplicate: 'Each product may appear only once in a plan.',
  licensedQuantity: 'LicensedQuantity must be a whole number from 0 to 10000.',
  inactiveDefault: 'An inactive plan cannot be the default.',
  deactivateDefault: 'The default plan cannot be deactivated. Make another plan the default first.',
} as const;

const requirePlatformAdmin = (actor: Actor): void => {
  if (!actor.isPlatformAdmin) throw new AppError('forbidden', text.onlyPlatformAdmin);
};

const existing = (state: PlanState): Plan => {
  if (state.status === 'none') throw new AppError('not_found', text.notFound);
  return state;
};

const nameProblems = (name: string | undefined): Problem[] =>
  name === '' ? [{ field: 'Name', code: 'required', message: text.nameRequired }] : [];

const trialProblems = (trialPeriod: number | undefined): Problem[] =>
  trialPeriod !== undefined && !(Number.isInteger(trialPeriod) && trialPeriod >= 0 && trialPeriod <= 365)
    ? [{ field: 'TrialPeriod', code: 'out_of_range', message: text.trialPeriod }]
    : [];

const productProblems = (products: readonly PlanProduct[] | undefined): Problem[] => {
  if (products === undefined) return [];
  const problems: Problem[] = [];
  const identifiers = products.map((p) => p.Identifier);
  if (identifiers.some((id) => id === ''))
    problems.push({ field: 'Products', code: 'required', message: text.productIdentifier });
  if (new Set(identifiers).size !== identifiers.length)
    problems.push({ field: 'Products', code: 'invalid', message: text.productDuplicate });
  const badQuantity = (q: number | null) => q !== null && !(Number.isInteger(q) && q >= 0 && q <= 10000);
  if (products.some((p) => badQuantity(p.LicensedQuantity)))
    problems.push({
      field: 'Products.LicensedQuantity',
      code: 'out_of_range',
      message: text.licensedQuantity,
    });
  return problems;
};

const trimProducts = (products: readonly PlanProduct[]): PlanProduct[] =>
  products.map((p) => ({ ...p, Identifier: p.Identifier.trim() }));

const decideCreate = (command: CreatePlan, state: PlanState): PlanEvent[] => {
  requirePlatformAdmin(command.actor);
  if (state.status !== 'none') throw new AppError('conflict', text.alreadyExists);
  const { data } = command;
  const identifier = data.identifier.trim();
  const name = data.name.trim();
  const products = trimProducts(data.products);
  const identifierProblems: Problem[] =
    identifier === ''
      ? [{ field: 'Identifier', code: 'required', message: text.identifierRequired }]
      : !/^[a-z0-9_]+$/.test(identifier)
        ? [{ field: 'Identifier', code: 'invalid', message: text.identifierFormat }]
        : data.identifierTaken
          ? [{ field: 'Identifier', code: 'not_unique', message: text.identifierTaken }]
          : [];
  rejectInvalid([
    ...identifierProblems,
    ...nameProblems(name),
    ...trialProblems(data.trialPeriod),
    ...productProblems(products),
  ]);
  if (data.isDefault && !data.active) throw new AppError('conflict', text.inactiveDefault);
  return [
    {
      type: 'PlanCreated',
      data: {
        PlanId: data.planId,
        Identifier: identifier,
        Name: name,
        Classification: data.classification,
        Default: data.isDefault,
        Active: data.active,
        TrialPeriod: data.trialPeriod,
        Products: products,
        CreatedAt: command.now.toISOString(),
      },
    },
  ];
};

/** One event per field that actually changes. */
const decideUpdate = (command: UpdatePlan, state: PlanState): PlanEvent[] => {
  const plan = existing(state);
  requirePlatformAdmin(command.actor);
  const { data } = command;
  const name = data.name?.trim();
  const products = data.products === undefined ? undefined : trimProducts(data.products);
  rejectInvalid([...nameProblems(name), ...trialProblems(data.trialPeriod), ...productProblems(products)]);
  if (data.isDefault === true && !plan.active) throw new AppError('conflict', text.inactiveDefault);

  const PlanId = plan.planId;
  const events: PlanEvent[] = [];
  if (name !== undefined && name !== plan.name)
    events.push({ type: 'PlanRenamed', data: { PlanId, Name: name } });
  if (data.trialPeriod !== undefined && data.trialPeriod !== plan.trialPeriod)
    events.push({ type: 'PlanTrialPeriodChanged', data: { PlanId, TrialPeriod: data.trialPeriod } });
  if (products !== undefined && JSON.stringify(products) !== JSON.stringify(plan.products))
    events.push({ type: 'PlanProductsChanged', data: { PlanId, Products: products } });
  if (data.isDefault !== undefined && data.isDefault !== plan.isDefault)
    events.push({ type: 'PlanDefaultChanged', data: { PlanId, Default: data.isDefault } });
  return events;
};

export const decidePlan = (command: PlanCommand, state: PlanState): PlanEvent[] =>
  match(command)
    .with({ type: 'CreatePlan' }, (c) => decideCreate(c, state))
    .with({ type: 'UpdatePlan' }, (c) => decideUpdate(c, state))
    .with({ type: 'ActivatePlan' }, (c): PlanEvent[] => {
      const plan = existing(state);
      requirePlatformAdmin(c.actor);
      return plan.active ? [] : [{ type: 'PlanActivated', data: { PlanId: plan.planId } }];
    })
    .with({ type: 'DeactivatePlan' }, (c): PlanEvent[] => {
      const plan = existing(state);
      requirePlatformAdmin(c.actor);
      // New sign-ups fall back to the default plan, so it must stay available.
      if (plan.isDefault) throw new AppError('conflict', text.deactivateDefault);
      return plan.active ? [{ type: 'PlanDeactivated', data: { PlanId: plan.planId } }] : [];
    })
    .exhaustive();
