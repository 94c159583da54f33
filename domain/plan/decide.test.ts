import { PlanEvent, type PlanProduct } from '../../contracts/events/plan';
import type { Actor } from '../actor';
import { deciderSpec } from '../decider-spec';
import type { PlanCommand } from './decide';
import { planDecider } from './plan-decider';

const spec = deciderSpec(planDecider);
const now = new Date('2025-03-04T10:00:00.000Z');
const at = now.toISOString();

const platformAdmin: Actor = { userId: 1, isPlatformAdmin: true, tenantRole: null, isAdvisor: false };
const tenantAdmin: Actor = { userId: 7, isPlatformAdmin: false, tenantRole: 'ADMIN', isAdvisor: false };

const sheet: PlanProduct = {
  Identifier: 'reports/customer_sheet',
  MeteredUsage: false,
  LicensedQuantity: null,
};
const seats: PlanProduct = {
  Identifier: 'plans/business/client_nurturing/packaged',
  MeteredUsage: true,
  LicensedQuantity: 10,
};

type CommandOf<T extends PlanCommand['type']> = Extract<PlanCommand, { type: T }>;
const command = <T extends PlanCommand['type']>(
  type: T,
  data: CommandOf<T>['data'],
  by: Actor = platformAdmin,
): PlanCommand => ({ type, data, now, actor: by }) as CommandOf<T>;

const create = (overrides: Partial<CommandOf<'CreatePlan'>['data']> = {}, by: Actor = platformAdmin) =>
  command(
    'CreatePlan',
    {
      planId: 3,
      identifier: ' growth_client ',
      name: 'Plus',
      classification: 'CLIENT',
      isDefault: false,
      active: true,
      trialPeriod: 14,
      products: [sheet],
      identifierTaken: false,
      ...overrides,
    },
    by,
  );

const created = (
  overrides: Partial<Extract<PlanEvent, { type: 'PlanCreated' }>['data']> = {},
): PlanEvent => ({
  type: 'PlanCreated',
  data: {
    PlanId: 3,
    Identifier: 'growth_client',
    Name: 'Plus',
    Classification: 'CLIENT',
    Default: false,
    Active: true,
    TrialPeriod: 14,
    Products: [sheet],
    CreatedAt: at,
    ...overrides,
  },
});
const defaultPlan = created({ Default: true });

describe('CreatePlan', () => {
  it('creates a plan', () => {
    spec.given([]).when(create()).then([created()]);
  });

  it('validates identifier, name, trial period and products together', () => {
    const error = spec
      .given([])
      .when(
        create({
          identifier: 'Growth Client',
          name: ' ',
          trialPeriod: -1,
          products: [sheet, sheet, { ...seats, LicensedQuantity: 10001 }],
        }),
      )
      .thenFails('validation');
    expect(error.properties).toEqual({
      Identifier: 'invalid',
      Name: 'required',
      TrialPeriod: 'out_of_range',
      Products: 'invalid',
      'Products.LicensedQuantity': 'out_of_range',
    });
    expect(error.userMessage).toBe(
      [
        'Identifier may contain only lower-case letters, digits and underscores.',
        'Name is required',
        'TrialPeriod must be a whole number of days from 0 to 365.',
        'Each product may appear only once in a plan.',
        'LicensedQuantity must be a whole number from 0 to 10000.',
      ].join('\n'),
    );
  });

  it('requires an identifier that no other plan has', () => {
    spec
      .given([])
      .when(create({ identifier: '' }))
      .thenFails('validation', 'Identifier is required');
    const error = spec
      .given([])
      .when(create({ identifierTaken: true }))
      .thenFails('validation', 'Identifier already exists.');
    expect(error.properties).toEqual({ Identifier: 'not_unique' });
  });

  it('requires every product to have an identifier', () => {
    spec
      .given([])
      .when(create({ products: [{ ...sheet, Identifier: ' ' }] }))
      .thenFails('validation', 'Every product needs an identifier.');
  });

  it('refuses an inactive default plan', () => {
    spec
      .given([])
      .when(create({ isDefault: true, active: false }))
      .thenFails('conflict', 'An inactive plan cannot be the default.');
  });

  it('is for platform admins only, once per stream', () => {
    spec
      .given([])
      .when(create({}, tenantAdmin))
      .thenFails('forbidden', 'Only a platform administrator can do this.');
    spec.given([created()]).when(create()).thenFails('conflict', 'A plan with this id already exists.');
  });
});

describe('UpdatePlan', () => {
  it('emits one event per changed field', () => {
    spec
      .given([created()])
      .when(
        command('UpdatePlan', {
          name: 'Plus (2025)',
          trialPeriod: 30,
          products: [sheet, seats],
          isDefault: true,
        }),
      )
      .then([
        { type: 'PlanRenamed', data: { PlanId: 3, Name: 'Plus (2025)' } },
        { type: 'PlanTrialPeriodChanged', data: { PlanId: 3, TrialPeriod: 30 } },
        { type: 'PlanProductsChanged', data: { PlanId: 3, Products: [sheet, seats] } },
        { type: 'PlanDefaultChanged', data: { PlanId: 3, Default: true } },
      ]);
  });

  it('appends nothing when nothing changes', () => {
    spec
      .given([created()])
      .when(command('UpdatePlan', { name: 'Plus', trialPeriod: 14, products: [sheet], isDefault: false }))
      .then([]);
  });

  it('validates what it changes', () => {
    spec
      .given([created()])
      .when(command('UpdatePlan', { name: '' }))
      .thenFails('validation', 'Name is required');
    spec
      .given([created()])
      .when(command('UpdatePlan', { trialPeriod: 1.5 }))
      .thenFails('validation', 'TrialPeriod must be a whole number of days from 0 to 365.');
  });

  it('refuses making an inactive plan the default', () => {
    spec
      .given([created(), { type: 'PlanDeactivated', data: { PlanId: 3 } }])
      .when(command('UpdatePlan', { isDefault: true }))
      .thenFails('conflict', 'An inactive plan cannot be the default.');
  });

  it('reports an unknown plan and refuses non platform admins', () => {
    spec
      .given([])
      .when(command('UpdatePlan', { name: 'X' }))
      .thenFails('not_found', 'Plan not found.');
    spec
      .given([created()])
      .when(command('UpdatePlan', { name: 'X' }, tenantAdmin))
      .thenFails('forbidden', 'Only a platform administrator can do this.');
  });
});

describe('ActivatePlan and DeactivatePlan', () => {
  const deactivated: PlanEvent = { type: 'PlanDeactivated', data: { PlanId: 3 } };

  it('deactivates and reactivates a plan, idempotently', () => {
    spec.given([created()]).when(command('DeactivatePlan', {})).then([deactivated]);
    spec.given([created(), deactivated]).when(command('DeactivatePlan', {})).then([]);
    spec
      .given([created(), deactivated])
      .when(command('ActivatePlan', {}))
      .then([{ type: 'PlanActivated', data: { PlanId: 3 } }]);
    spec.given([created()]).when(command('ActivatePlan', {})).then([]);
  });

  it('never deactivates the default plan', () => {
    spec
      .given([defaultPlan])
      .when(command('DeactivatePlan', {}))
      .thenFails('conflict', 'The default plan cannot be deactivated. Make another plan the default first.');
    const undefaulted: PlanEvent = { type: 'PlanDefaultChanged', data: { PlanId: 3, Default: false } };
    spec.given([defaultPlan, undefaulted]).when(command('DeactivatePlan', {})).then([deactivated]);
  });

  it('is for platform admins only', () => {
    spec
      .given([created()])
      .when(command('DeactivatePlan', {}, tenantAdmin))
      .thenFails('forbidden', 'Only a platform administrator can do this.');
  });
});

describe('event schemas', () => {
  it('accept what the decider emits', () => {
    const emitted = [
      ...planDecider.decide(create({ products: [sheet, seats] }), spec.stateAfter([])),
      ...planDecider.decide(
        command('UpdatePlan', { name: 'N', trialPeriod: 0, products: [], isDefault: true }),
        spec.stateAfter([created()]),
      ),
      ...planDecider.decide(command('DeactivatePlan', {}), spec.stateAfter([created()])),
    ];
    expect(emitted).toHaveLength(6);
    for (const event of emitted) expect(PlanEvent.parse(event)).toEqual(event);
  });
});
