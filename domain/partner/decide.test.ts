import { PartnerEvent } from '../../contracts/events/partner';
import type { Actor } from '../actor';
import { deciderSpec } from '../decider-spec';
import type { PartnerCommand } from './decide';
import { partnerDecider } from './partner-decider';

const spec = deciderSpec(partnerDecider);
const now = new Date('2025-03-04T10:00:00.000Z');
const at = now.toISOString();

const actor = (overrides: Partial<Actor>): Actor => ({
  userId: 7,
  isPlatformAdmin: false,
  tenantRole: null,
  isAdvisor: false,
  ...overrides,
});
const platformAdmin = actor({ userId: 1, isPlatformAdmin: true });
const firmAdmin = actor({ tenantRole: 'ADMIN' });
const firmUser = actor({ tenantRole: 'USER', isAdvisor: true });

type CommandOf<T extends PartnerCommand['type']> = Extract<PartnerCommand, { type: T }>;
const create = (
  overrides: Partial<CommandOf<'CreatePartner'>['data']> = {},
  by: Actor = platformAdmin,
): PartnerCommand => ({
  type: 'CreatePartner',
  data: {
    partnerId: 5,
    tenantId: 42,
    name: ' Acme Advisory ',
    clientPlanIdentifier: 'free_client',
    nameTakenInTenant: false,
    ...overrides,
  },
  now,
  actor: by,
});
const update = (
  data: Partial<CommandOf<'UpdatePartner'>['data']>,
  by: Actor = firmAdmin,
): PartnerCommand => ({
  type: 'UpdatePartner',
  data: { nameTakenInTenant: false, ...data },
  now,
  actor: by,
});

const created: PartnerEvent = {
  type: 'PartnerCreated',
  data: {
    PartnerId: 5,
    TenantId: 42,
    Name: 'Acme Advisory',
    ClientPlanIdentifier: 'free_client',
    LogoURL: null,
    CreatedAt: at,
  },
};

describe('CreatePartner', () => {
  it('creates a partner of a tenant', () => {
    spec.given([]).when(create()).then([created]);
  });

  it('keeps a logo URL', () => {
    spec
      .given([])
      .when(create({ logoUrl: 'https://cdn.example.com/acme.png' }))
      .then([
        {
          ...created,
          data: { ...created.data, LogoURL: 'https://cdn.example.com/acme.png' },
        },
      ]);
  });

  it('rejects a name that another partner of the tenant has', () => {
    const error = spec
      .given([])
      .when(create({ nameTakenInTenant: true }))
      .thenFails('validation', 'Name already exists within Tenant.');
    expect(error.properties).toEqual({ Name: 'not_unique' });
  });

  it('requires name, client plan and tenant', () => {
    const error = spec
      .given([])
      .when(create({ name: ' ', clientPlanIdentifier: '', tenantId: null }))
      .thenFails('validation', 'Name is required\nClient plan is required\nTenantId is required');
    expect(error.properties).toEqual({
      Name: 'required',
      ClientPlanIdentifier: 'required',
      TenantId: 'required',
    });
  });

  it('rejects a logo that is not an http(s) URL', () => {
    const error = spec
      .given([])
      .when(create({ logoUrl: 'javascript:alert(1)' }))
      .thenFails('validation', 'LogoURL must be an http or https URL.');
    expect(error.properties).toEqual({ LogoURL: 'invalid' });
  });

  it('is for platform admins and the tenant’s admins', () => {
    spec.given([]).when(create({}, firmAdmin)).then([created]);
    spec
      .given([])
      .when(create({}, firmUser))
      .thenFails(
        'forbidden',
        'Only a platform administrator or an administrator of the partner’s company can change it.',
      );
  });

  it('refuses a second creation on the same stream', () => {
    spec.given([created]).when(create()).thenFails('conflict', 'A partner with this id already exists.');
  });
});

describe('UpdatePartner', () => {
  it('emits one event per changed field', () => {
    spec
      .given([created])
      .when(
        update({
          name: 'Acme Partners',
          clientPlanIdentifier: 'growth_client',
          logoUrl: 'https://cdn.example.com/a.svg',
          clientWeeklyDay: 1,
          clientMonthlyDay: 15,
        }),
      )
      .then([
        { type: 'PartnerRenamed', data: { PartnerId: 5, Name: 'Acme Partners' } },
        { type: 'PartnerClientPlanChanged', data: { PartnerId: 5, ClientPlanIdentifier: 'growth_client' } },
        { type: 'PartnerLogoChanged', data: { PartnerId: 5, LogoURL: 'https://cdn.example.com/a.svg' } },
        { type: 'PartnerClientReportDaysChanged', data: { PartnerId: 5, WeeklyDay: 1, MonthlyDay: 15 } },
      ]);
  });

  it('appends nothing when nothing changes, even if the read model counts its own name as taken', () => {
    spec
      .given([created])
      .when(update({ name: 'Acme Advisory', clientPlanIdentifier: 'free_client', nameTakenInTenant: true }))
      .then([]);
  });

  it('rejects renaming to a name another partner of the tenant has', () => {
    spec
      .given([created])
      .when(update({ name: 'Taken', nameTakenInTenant: true }))
      .thenFails('validation', 'Name already exists within Tenant.');
  });

  it('refuses clearing the name or the client plan', () => {
    spec
      .given([created])
      .when(update({ name: '' }))
      .thenFails('validation', 'Name is required');
    spec
      .given([created])
      .when(update({ clientPlanIdentifier: ' ' }))
      .thenFails('validation', 'Client plan is required');
  });

  it('rejects client report days out of bounds', () => {
    const error = spec
      .given([created])
      .when(update({ clientWeeklyDay: 7, clientMonthlyDay: 29 }))
      .thenFails(
        'validation',
        'WeeklyDay must be a whole number from 0 (Sunday) to 6 (Saturday).\nMonthlyDay must be a whole number from 1 to 28.',
      );
    expect(error.properties).toEqual({ WeeklyDay: 'out_of_range', MonthlyDay: 'out_of_range' });
  });

  it('clears the logo and the client report days back to the defaults', () => {
    const customised: PartnerEvent[] = [
      created,
      { type: 'PartnerLogoChanged', data: { PartnerId: 5, LogoURL: 'https://cdn.example.com/a.svg' } },
      { type: 'PartnerClientReportDaysChanged', data: { PartnerId: 5, WeeklyDay: 1, MonthlyDay: 15 } },
    ];
    spec
      .given(customised)
      .when(update({ logoUrl: null, clientWeeklyDay: null, clientMonthlyDay: null }))
      .then([
        { type: 'PartnerLogoChanged', data: { PartnerId: 5, LogoURL: null } },
        { type: 'PartnerClientReportDaysChanged', data: { PartnerId: 5, WeeklyDay: null, MonthlyDay: null } },
      ]);
  });

  it('reports an unknown partner and refuses non-admins', () => {
    spec
      .given([])
      .when(update({ name: 'X' }))
      .thenFails('not_found', 'Partner not found.');
    spec
      .given([created])
      .when(update({ name: 'X' }, firmUser))
      .thenFails(
        'forbidden',
        'Only a platform administrator or an administrator of the partner’s company can change it.',
      );
  });
});

describe('event schemas', () => {
  it('accept what the decider emits', () => {
    const emitted = [
      ...partnerDecider.decide(create({ logoUrl: 'http://x.example/l.png' }), spec.stateAfter([])),
      ...partnerDecider.decide(
        update({
          name: 'B',
          clientPlanIdentifier: 'c',
          logoUrl: null,
          clientWeeklyDay: 0,
          clientMonthlyDay: 28,
        }),
        spec.stateAfter([created]),
      ),
    ];
    expect(emitted).toHaveLength(4);
    for (const event of emitted) expect(PartnerEvent.parse(event)).toEqual(event);
  });
});
