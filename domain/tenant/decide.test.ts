import { TenantEvent, type ReportingSettings } from '../../contracts/events/tenant';
import type { Actor } from '../actor';
import { deciderSpec } from '../decider-spec';
import type { TenantCommand } from './decide';
import { tenantDecider } from './tenant-decider';

const spec = deciderSpec(tenantDecider);
const now = new Date('2025-03-04T10:00:00.000Z');
const at = now.toISOString();

const actor = (overrides: Partial<Actor>): Actor => ({
  userId: 7,
  isPlatformAdmin: false,
  tenantRole: null,
  isAdvisor: false,
  ...overrides,
});
const newUser = actor({});
const tenantAdmin = actor({ tenantRole: 'ADMIN' });
const plainUser = actor({ tenantRole: 'USER' });
const advisorAsUser = actor({ tenantRole: 'USER', isAdvisor: true });
const platformAdmin = actor({ userId: 1, isPlatformAdmin: true });

type CommandOf<T extends TenantCommand['type']> = Extract<TenantCommand, { type: T }>;
const command = <T extends TenantCommand['type']>(
  type: T,
  data: CommandOf<T>['data'],
  by: Actor = tenantAdmin,
): TenantCommand => ({ type, data, now, actor: by }) as CommandOf<T>;

const defaults: ReportingSettings = {
  RetentionPeriod: 'AUTO',
  WeeklyDay: 2,
  MonthlyDay: 7,
  Currency: 'USD',
  WeeklyEmailsDisabled: false,
  MonthlyEmailsDisabled: false,
};

const created = (
  overrides: Partial<Extract<TenantEvent, { type: 'TenantCreated' }>['data']> = {},
): TenantEvent => ({
  type: 'TenantCreated',
  data: {
    TenantId: 42,
    Name: 'Acme Ltd',
    FriendlyName: null,
    Classification: 'BUSINESS',
    UsageType: 'NORMAL',
    BusinessModel: 'B2B',
    Industry: null,
    PartnerId: null,
    Referrer: null,
    ReferrerIdentifier: null,
    LandingPage: null,
    PlanIdentifier: null,
    Reporting: defaults,
    CreatedBy: 7,
    CreatedAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  },
});
const business = created();
const firm = created({ Classification: 'FIRM', FriendlyName: 'Acme Advisory', Name: 'Acme Advisory LLP' });
const demo = created({ UsageType: 'DEMO', Name: 'Demo Client' });
const disabled: TenantEvent = {
  type: 'TenantDisabled',
  data: { TenantId: 42, Reason: null, DisabledAt: at },
};
const purged: TenantEvent = { type: 'TenantPurged', data: { TenantId: 42, Permanent: false, PurgedAt: at } };
const purgedForGood: TenantEvent = {
  type: 'TenantPurged',
  data: { TenantId: 42, Permanent: true, PurgedAt: at },
};

describe('CreateTenant', () => {
  it('creates a business with the reporting defaults (weekly day 2, monthly day 7, USD, AUTO)', () => {
    spec
      .given([])
      .when(
        command(
          'CreateTenant',
          {
            tenantId: 42,
            name: '  Acme Ltd ',
            classification: 'BUSINESS',
            businessModel: 'B2B',
            industry: { FreeForm: 'Widgets ', NAICS2017: '332', Description: 'Fabricated Metal' },
            referrer: 'partner-site',
            referrerIdentifier: '',
            landingPage: '/pricing',
            planIdentifier: 'growth_business',
          },
          newUser,
        ),
      )
      .then([
        created({
          CreatedAt: at,
          Industry: { FreeForm: 'Widgets', NAICS2017: '332', Description: 'Fabricated Metal' },
          Referrer: 'partner-site',
          LandingPage: '/pricing',
          PlanIdentifier: 'growth_business',
        }),
      ]);
  });

  it('gives a FIRM created from the welcome modal its name as client display name', () => {
    spec
      .given([])
      .when(command('CreateTenant', { tenantId: 42, name: 'Acme Advisory', classification: 'FIRM' }, newUser))
      .then([
        created({
          Name: 'Acme Advisory',
          FriendlyName: 'Acme Advisory',
          Classification: 'FIRM',
          BusinessModel: null,
          CreatedAt: at,
        }),
      ]);
  });

  it('keeps an explicit client display name for a FIRM', () => {
    const events = tenantDecider.decide(
      command('CreateTenant', {
        tenantId: 42,
        name: 'Acme LLP',
        classification: 'FIRM',
        friendlyName: 'Acme',
      }),
      tenantDecider.initialState(),
    );
    expect(events[0]?.type === 'TenantCreated' && events[0].data.FriendlyName).toBe('Acme');
  });

  it('lets an admin create a test tenant without joining it (no creating user)', () => {
    const system: Actor = { userId: null, isPlatformAdmin: true, tenantRole: null, isAdvisor: false };
    const events = tenantDecider.decide(
      command(
        'CreateTenant',
        { tenantId: 42, name: 'QA', classification: 'BUSINESS', usageType: 'TEST' },
        system,
      ),
      tenantDecider.initialState(),
    );
    expect(events[0]?.data).toMatchObject({ UsageType: 'TEST', CreatedBy: null });
  });

  it('lets an advisor add a client even where their role is Standard User', () => {
    const events = tenantDecider.decide(
      command('CreateTenant', { tenantId: 42, name: 'Client Co', classification: 'BUSINESS' }, advisorAsUser),
      tenantDecider.initialState(),
    );
    expect(events.map((e) => e.type)).toEqual(['TenantCreated']);
  });

  it('refuses a plain Standard User adding a company', () => {
    spec
      .given([])
      .when(command('CreateTenant', { tenantId: 42, name: 'Side Co', classification: 'BUSINESS' }, plainUser))
      .thenFails('forbidden', 'Standard users cannot add a company. Ask an administrator or advisor.');
  });

  it('refuses a non platform admin creating a test, internal or demo tenant', () => {
    spec
      .given([])
      .when(
        command('CreateTenant', {
          tenantId: 42,
          name: 'X',
          classification: 'BUSINESS',
          usageType: 'INTERNAL',
        }),
      )
      .thenFails('forbidden', 'Only a platform administrator can create a test, internal or demo tenant.');
  });

  it('requires a company name', () => {
    const error = spec
      .given([])
      .when(command('CreateTenant', { tenantId: 42, name: '   ', classification: 'BUSINESS' }, newUser))
      .thenFails('validation', 'Please enter company name');
    expect(error.properties).toEqual({ Name: 'required' });
  });

  it('requires an industry text when an industry is given, and a 2 to 6 digit NAICS code', () => {
    const error = spec
      .given([])
      .when(
        command(
          'CreateTenant',
          {
            tenantId: 42,
            name: '',
            classification: 'BUSINESS',
            industry: { FreeForm: ' ', NAICS2017: '33A', Description: null },
          },
          newUser,
        ),
      )
      .thenFails('validation');
    expect(error.properties).toEqual({
      Name: 'required',
      'Industry.FreeForm': 'required',
      'Industry.NAICS2017': 'invalid',
    });
    expect(error.userMessage).toBe(
      'Please enter company name\nPlease enter an industry\nThe NAICS2017 industry code must be 2 to 6 digits.',
    );
  });

  it('refuses a second creation on the same stream', () => {
    spec
      .given([business])
      .when(command('CreateTenant', { tenantId: 42, name: 'Acme', classification: 'BUSINESS' }, newUser))
      .thenFails('conflict', 'A tenant with this id already exists.');
  });
});

describe('RenameTenant and UpdateTenantProfile', () => {
  it('renames a tenant, trimming the name', () => {
    spec
      .given([business])
      .when(command('RenameTenant', { name: ' Acme Holdings ' }))
      .then([{ type: 'TenantRenamed', data: { TenantId: 42, Name: 'Acme Holdings' } }]);
  });

  it('appends nothing when the name is unchanged', () => {
    spec
      .given([business])
      .when(command('RenameTenant', { name: 'Acme Ltd' }))
      .then([]);
  });

  it('requires a name', () => {
    spec
      .given([business])
      .when(command('RenameTenant', { name: '' }))
      .thenFails('validation', 'Please enter company name');
  });

  it('lets only a tenant admin or a platform admin change the company', () => {
    spec
      .given([business])
      .when(command('RenameTenant', { name: 'Mine now' }, plainUser))
      .thenFails('forbidden', 'Only an administrator of this company can change its settings.');
    spec
      .given([business])
      .when(command('RenameTenant', { name: 'Fixed' }, platformAdmin))
      .then([{ type: 'TenantRenamed', data: { TenantId: 42, Name: 'Fixed' } }]);
  });

  it('saves one event per changed field of the company form', () => {
    spec
      .given([business])
      .when(
        command('UpdateTenantProfile', {
          name: 'Acme Advisory',
          classification: 'FIRM',
          friendlyName: 'Acme',
          businessModel: 'HYBRID',
          industry: { FreeForm: 'Accounting', NAICS2017: '541211', Description: 'Offices of CPAs' },
        }),
      )
      .then([
        { type: 'TenantRenamed', data: { TenantId: 42, Name: 'Acme Advisory' } },
        { type: 'TenantFriendlyNameChanged', data: { TenantId: 42, FriendlyName: 'Acme' } },
        { type: 'TenantClassificationChanged', data: { TenantId: 42, Classification: 'FIRM' } },
        { type: 'TenantBusinessModelChanged', data: { TenantId: 42, BusinessModel: 'HYBRID' } },
        {
          type: 'TenantIndustryChanged',
          data: {
            TenantId: 42,
            Industry: { FreeForm: 'Accounting', NAICS2017: '541211', Description: 'Offices of CPAs' },
          },
        },
      ]);
  });

  it('appends nothing when the form is saved unchanged', () => {
    spec
      .given([business])
      .when(
        command('UpdateTenantProfile', {
          name: 'Acme Ltd',
          classification: 'BUSINESS',
          businessModel: 'B2B',
        }),
      )
      .then([]);
  });

  it('requires a client display name to make a tenant a FIRM', () => {
    const error = spec
      .given([business])
      .when(command('UpdateTenantProfile', { classification: 'FIRM' }))
      .thenFails(
        'validation',
        'Please enter a client display name: an advisory firm needs one for client reports.',
      );
    expect(error.properties).toEqual({ FriendlyName: 'required' });
  });

  it('refuses clearing the client display name of a FIRM', () => {
    spec
      .given([firm])
      .when(command('UpdateTenantProfile', { friendlyName: '  ' }))
      .thenFails('validation', /client display name/);
  });

  it('allows clearing the client display name when the firm becomes a business', () => {
    spec
      .given([firm])
      .when(command('UpdateTenantProfile', { classification: 'BUSINESS', friendlyName: null }))
      .then([
        { type: 'TenantFriendlyNameChanged', data: { TenantId: 42, FriendlyName: null } },
        { type: 'TenantClassificationChanged', data: { TenantId: 42, Classification: 'BUSINESS' } },
      ]);
  });

  it('locks a demo tenant’s settings for its own admins but not for platform admins', () => {
    spec
      .given([demo])
      .when(command('RenameTenant', { name: 'My demo' }))
      .thenFails('conflict', 'Billing is disabled while in a demo tenant. Please switch.');
    spec
      .given([demo])
      .when(command('RenameTenant', { name: 'Demo Client 2' }, platformAdmin))
      .then([{ type: 'TenantRenamed', data: { TenantId: 42, Name: 'Demo Client 2' } }]);
  });

  it('refuses changes to a disabled tenant until it is restored', () => {
    spec
      .given([business, disabled])
      .when(command('RenameTenant', { name: 'Other' }, platformAdmin))
      .thenFails('conflict', 'This company is disabled. Restore it before changing it.');
  });

  it('reports an unknown or purged tenant as not found', () => {
    spec
      .given([])
      .when(command('RenameTenant', { name: 'X' }))
      .thenFails('not_found', 'Tenant not found.');
    spec
      .given([business, disabled, purged])
      .when(command('RenameTenant', { name: 'X' }, platformAdmin))
      .thenFails('not_found', 'Tenant not found.');
  });
});

describe('platform-admin fields: usage type, partner link, referral', () => {
  it('changes the usage type', () => {
    spec
      .given([business])
      .when(command('ChangeTenantUsageType', { usageType: 'INTERNAL' }, platformAdmin))
      .then([{ type: 'TenantUsageTypeChanged', data: { TenantId: 42, UsageType: 'INTERNAL' } }]);
  });

  it('links and unlinks an advisory partner', () => {
    spec
      .given([business])
      .when(command('ChangeTenantPartner', { partnerId: 5 }, platformAdmin))
      .then([{ type: 'TenantPartnerChanged', data: { TenantId: 42, PartnerId: 5 } }]);
    spec
      .given([created({ PartnerId: 5 })])
      .when(command('ChangeTenantPartner', { partnerId: null }, platformAdmin))
      .then([{ type: 'TenantPartnerChanged', data: { TenantId: 42, PartnerId: null } }]);
    spec
      .given([created({ PartnerId: 5 })])
      .when(command('ChangeTenantPartner', { partnerId: 5 }, platformAdmin))
      .then([]);
  });

  it('changes referrer, referrer identifier and landing page, blanks meaning none', () => {
    spec
      .given([business])
      .when(
        command(
          'ChangeTenantReferral',
          { referrer: 'podcast', referrerIdentifier: ' ', landingPage: '/ar' },
          platformAdmin,
        ),
      )
      .then([
        {
          type: 'TenantReferralChanged',
          data: { TenantId: 42, Referrer: 'podcast', ReferrerIdentifier: null, LandingPage: '/ar' },
        },
      ]);
    spec
      .given([business])
      .when(
        command(
          'ChangeTenantReferral',
          { referrer: '', referrerIdentifier: null, landingPage: null },
          platformAdmin,
        ),
      )
      .then([]);
  });

  it.each([
    ['ChangeTenantUsageType', { usageType: 'TEST' }],
    ['ChangeTenantPartner', { partnerId: 5 }],
    ['ChangeTenantReferral', { referrer: 'x', referrerIdentifier: null, landingPage: null }],
    ['ChangeTenantActiveCampaignId', { activeCampaignId: '12' }],
  ] as const)('refuses %s to a tenant admin', (type, data) => {
    spec
      .given([business])
      .when(command(type, data as never, tenantAdmin))
      .thenFails('forbidden', 'Only a platform administrator can do this.');
  });
});

describe('ChangeTenantActiveCampaignId', () => {
  it('records the account id once, clears it on blank, and refuses one too long', () => {
    spec
      .given([business])
      .when(command('ChangeTenantActiveCampaignId', { activeCampaignId: ' 42 ' }, platformAdmin))
      .then([
        {
          type: 'TenantActiveCampaignIdChanged',
          data: { TenantId: business.data.TenantId, ActiveCampaignId: '42' },
        },
      ]);
    const set = {
      type: 'TenantActiveCampaignIdChanged',
      data: { TenantId: business.data.TenantId, ActiveCampaignId: '42' },
    } as const;
    spec
      .given([business, set])
      .when(command('ChangeTenantActiveCampaignId', { activeCampaignId: '42' }, platformAdmin))
      .then([]);
    spec
      .given([business, set])
      .when(command('ChangeTenantActiveCampaignId', { activeCampaignId: '' }, platformAdmin))
      .then([
        {
          type: 'TenantActiveCampaignIdChanged',
          data: { TenantId: business.data.TenantId, ActiveCampaignId: null },
        },
      ]);
    spec
      .given([business])
      .when(command('ChangeTenantActiveCampaignId', { activeCampaignId: 'x'.repeat(65) }, platformAdmin))
      .thenFails('validation', 'The ActiveCampaign id is too long.');
  });
});

describe('ChangeReportingSettings', () => {
  it('changes the given settings and records the whole resulting settings', () => {
    spec
      .given([business])
      .when(
        command('ChangeReportingSettings', {
          weeklyDay: 0,
          monthlyDay: 28,
          currency: 'GBP',
          retentionPeriod: 'TRAILING3MONTHS',
          monthlyEmailsDisabled: true,
        }),
      )
      .then([
        {
          type: 'TenantReportingSettingsChanged',
          data: {
            TenantId: 42,
            Reporting: {
              RetentionPeriod: 'TRAILING3MONTHS',
              WeeklyDay: 0,
              MonthlyDay: 28,
              Currency: 'GBP',
              WeeklyEmailsDisabled: false,
              MonthlyEmailsDisabled: true,
            },
          },
        },
      ]);
  });

  it('builds on earlier changes and appends nothing when nothing changes', () => {
    const earlier: TenantEvent = {
      type: 'TenantReportingSettingsChanged',
      data: { TenantId: 42, Reporting: { ...defaults, WeeklyDay: 5 } },
    };
    spec
      .given([business, earlier])
      .when(command('ChangeReportingSettings', { weeklyDay: 5, currency: 'USD' }))
      .then([]);
    expect(spec.stateAfter([business, earlier])).toMatchObject({
      reporting: { WeeklyDay: 5, MonthlyDay: 7 },
    });
  });

  it('keeps the time zone the scheduled sends follow, and refuses an unknown one', () => {
    spec
      .given([business])
      .when(command('ChangeReportingSettings', { timeZone: 'Europe/London' }))
      .then([
        {
          type: 'TenantReportingSettingsChanged',
          data: { TenantId: 42, Reporting: { ...defaults, TimeZone: 'Europe/London' } },
        },
      ]);
    const error = spec
      .given([business])
      .when(command('ChangeReportingSettings', { timeZone: 'Mars/Olympus' }))
      .thenFails('validation', 'Choose a time zone from the list');
    expect(error.properties).toEqual({ TimeZone: 'invalid' });
  });

  it.each([-1, 7, 2.5])('rejects weekly day %p', (weeklyDay) => {
    const error = spec
      .given([business])
      .when(command('ChangeReportingSettings', { weeklyDay }))
      .thenFails('validation', 'WeeklyDay must be a whole number from 0 (Sunday) to 6 (Saturday).');
    expect(error.properties).toEqual({ WeeklyDay: 'out_of_range' });
  });

  it.each([0, 29, 31])('rejects monthly day %p', (monthlyDay) => {
    const error = spec
      .given([business])
      .when(command('ChangeReportingSettings', { monthlyDay }))
      .thenFails('validation', 'MonthlyDay must be a whole number from 1 to 28.');
    expect(error.properties).toEqual({ MonthlyDay: 'out_of_range' });
  });

  it('rejects an unknown currency or retention period that slipped past the request schema', () => {
    const error = spec
      .given([business])
      .when(
        command('ChangeReportingSettings', { currency: 'JPY' as never, retentionPeriod: 'FOREVER' as never }),
      )
      .thenFails('validation');
    expect(error.properties).toEqual({ RetentionPeriod: 'invalid', Currency: 'invalid' });
    expect(error.userMessage).toBe(
      'RetentionPeriod must be one of AUTO, TRAILING24MONTHS, TRAILING12MONTHS, TRAILING3MONTHS, TRAILING1MONTH.\n' +
        'Currency must be one of USD, GBP, EUR.',
    );
  });

  it('is for tenant admins and platform admins, and locked in a demo tenant', () => {
    spec
      .given([business])
      .when(command('ChangeReportingSettings', { weeklyDay: 1 }, plainUser))
      .thenFails('forbidden', 'Only an administrator of this company can change its settings.');
    spec
      .given([demo])
      .when(command('ChangeReportingSettings', { weeklyDay: 1 }))
      .thenFails('conflict', 'Billing is disabled while in a demo tenant. Please switch.');
  });
});

describe('logo', () => {
  const submitted: TenantEvent = {
    type: 'TenantLogoSubmitted',
    data: { TenantId: 42, LogoURL: 'logos/42/a.png', ContentType: 'image/png', SubmittedAt: at },
  };

  it('records a submitted logo as waiting for review', () => {
    spec
      .given([business])
      .when(command('SubmitTenantLogo', { logoUrl: 'logos/42/a.png', contentType: 'image/png' }))
      .then([submitted]);
    expect(spec.stateAfter([business, submitted])).toMatchObject({
      logo: { approvedUrl: null, pending: { url: 'logos/42/a.png' } },
    });
  });

  it('accepts jpeg, gif and svg and refuses other file types', () => {
    for (const contentType of ['image/jpeg', 'image/gif', 'image/svg+xml']) {
      const events = tenantDecider.decide(
        command('SubmitTenantLogo', { logoUrl: 'l', contentType }),
        spec.stateAfter([business]),
      );
      expect(events).toHaveLength(1);
    }
    const error = spec
      .given([business])
      .when(command('SubmitTenantLogo', { logoUrl: 'logos/42/a.pdf', contentType: 'application/pdf' }))
      .thenFails('validation', 'The logo must be a JPEG, PNG, GIF or SVG image.');
    expect(error.properties).toEqual({ file: 'invalid' });
  });

  it('refuses a submission without a stored file', () => {
    spec
      .given([business])
      .when(command('SubmitTenantLogo', { logoUrl: ' ', contentType: 'image/png' }))
      .thenFails('validation', 'The logo upload is missing its file location.');
  });

  it('is for tenant admins and platform admins only', () => {
    spec
      .given([business])
      .when(command('SubmitTenantLogo', { logoUrl: 'l', contentType: 'image/png' }, plainUser))
      .thenFails('forbidden', 'Only an administrator of this company can change its settings.');
  });

  it('makes an approved logo the report logo', () => {
    const review = command(
      'ReviewTenantLogo',
      { logoUrl: 'logos/42/a.png', decision: 'APPROVED' },
      platformAdmin,
    );
    const reviewed: TenantEvent = {
      type: 'TenantLogoReviewed',
      data: { TenantId: 42, LogoURL: 'logos/42/a.png', Decision: 'APPROVED', ReviewedAt: at },
    };
    spec.given([business, submitted]).when(review).then([reviewed]);
    expect(spec.stateAfter([business, submitted, reviewed])).toMatchObject({
      logo: { approvedUrl: 'logos/42/a.png', pending: null },
    });
  });

  it('keeps the previous logo when a new one is rejected', () => {
    const approved: TenantEvent = {
      type: 'TenantLogoReviewed',
      data: { TenantId: 42, LogoURL: 'logos/42/a.png', Decision: 'APPROVED', ReviewedAt: at },
    };
    const second: TenantEvent = {
      ...submitted,
      data: { ...submitted.data, LogoURL: 'logos/42/b.png' },
    };
    const rejected: TenantEvent = {
      type: 'TenantLogoReviewed',
      data: { TenantId: 42, LogoURL: 'logos/42/b.png', Decision: 'REJECTED', ReviewedAt: at },
    };
    expect(spec.stateAfter([business, submitted, approved, second, rejected])).toMatchObject({
      logo: { approvedUrl: 'logos/42/a.png', pending: null },
    });
  });

  it('refuses a review with nothing waiting, of a replaced upload, or by a non platform admin', () => {
    spec
      .given([business])
      .when(command('ReviewTenantLogo', { logoUrl: 'x', decision: 'APPROVED' }, platformAdmin))
      .thenFails('conflict', 'There is no logo waiting for review.');
    spec
      .given([business, submitted])
      .when(command('ReviewTenantLogo', { logoUrl: 'logos/42/old.png', decision: 'APPROVED' }, platformAdmin))
      .thenFails('conflict', 'This logo was replaced by a newer upload; review the newer one.');
    spec
      .given([business, submitted])
      .when(command('ReviewTenantLogo', { logoUrl: 'logos/42/a.png', decision: 'APPROVED' }, tenantAdmin))
      .thenFails('forbidden', 'Only a platform administrator can do this.');
  });
});

describe('ChangeTenantPlan', () => {
  it('records the new plan identifier', () => {
    spec
      .given([business])
      .when(command('ChangeTenantPlan', { planIdentifier: 'growth_business' }))
      .then([{ type: 'TenantPlanChanged', data: { TenantId: 42, PlanIdentifier: 'growth_business' } }]);
    spec
      .given([created({ PlanIdentifier: 'free_business' })])
      .when(command('ChangeTenantPlan', { planIdentifier: 'free_business' }))
      .then([]);
  });

  it('requires a plan, an admin, and a tenant that is not a demo (not even for platform admins)', () => {
    spec
      .given([business])
      .when(command('ChangeTenantPlan', { planIdentifier: ' ' }))
      .thenFails('validation', 'Please choose a plan.');
    spec
      .given([business])
      .when(command('ChangeTenantPlan', { planIdentifier: 'x' }, plainUser))
      .thenFails('forbidden', 'Only an administrator of this company can change its settings.');
    spec
      .given([demo])
      .when(command('ChangeTenantPlan', { planIdentifier: 'x' }, platformAdmin))
      .thenFails('conflict', 'Billing is disabled while in a demo tenant. Please switch.');
  });
});

describe('disable, restore, purge', () => {
  it('disables a tenant with or without a reason', () => {
    spec
      .given([business])
      .when(command('DisableTenant', { reason: 'STOPPED_PAYING' }, platformAdmin))
      .then([{ type: 'TenantDisabled', data: { TenantId: 42, Reason: 'STOPPED_PAYING', DisabledAt: at } }]);
    spec
      .given([business])
      .when(command('DisableTenant', { reason: null }, platformAdmin))
      .then([{ type: 'TenantDisabled', data: { TenantId: 42, Reason: null, DisabledAt: at } }]);
  });

  it('never disables an INTERNAL tenant', () => {
    spec
      .given([created({ UsageType: 'INTERNAL' })])
      .when(command('DisableTenant', { reason: 'TESTING' }, platformAdmin))
      .thenFails('conflict', 'Internal tenants cannot be disabled.');
  });

  it('refuses disabling twice, and disabling by anyone but a platform admin', () => {
    spec
      .given([business, disabled])
      .when(command('DisableTenant', { reason: 'DUPLICATE' }, platformAdmin))
      .thenFails('conflict', 'The tenant is already disabled.');
    spec
      .given([business])
      .when(command('DisableTenant', { reason: null }, tenantAdmin))
      .thenFails('forbidden', 'Only a platform administrator can do this.');
  });

  it('restores only a disabled tenant', () => {
    const restored: TenantEvent = { type: 'TenantRestored', data: { TenantId: 42, RestoredAt: at } };
    spec
      .given([business, disabled])
      .when(command('RestoreTenant', {}, platformAdmin))
      .then([restored]);
    expect(spec.stateAfter([business, disabled, restored])).toMatchObject({
      status: 'active',
      disableReason: null,
    });
    spec
      .given([business])
      .when(command('RestoreTenant', {}, platformAdmin))
      .thenFails('conflict', 'Only a disabled tenant can be restored.');
    spec
      .given([business, disabled])
      .when(command('RestoreTenant', {}, tenantAdmin))
      .thenFails('forbidden', 'Only a platform administrator can do this.');
  });

  it('purges only a disabled tenant, permanently if asked', () => {
    spec
      .given([business, disabled])
      .when(command('PurgeTenant', { permanent: false }, platformAdmin))
      .then([purged]);
    spec
      .given([business, disabled])
      .when(command('PurgeTenant', { permanent: true }, platformAdmin))
      .then([purgedForGood]);
    spec
      .given([business])
      .when(command('PurgeTenant', { permanent: true }, platformAdmin))
      .thenFails('conflict', 'Only a disabled tenant can be purged.');
    spec
      .given([business, disabled])
      .when(command('PurgeTenant', { permanent: true }, tenantAdmin))
      .thenFails('forbidden', 'Only a platform administrator can do this.');
  });

  it('lets a purged tenant be purged permanently later, and then nothing more', () => {
    spec
      .given([business, disabled, purged])
      .when(command('PurgeTenant', { permanent: true }, platformAdmin))
      .then([purgedForGood]);
    spec
      .given([business, disabled, purged])
      .when(command('PurgeTenant', { permanent: false }, platformAdmin))
      .thenFails('conflict', 'Only a disabled tenant can be purged.');
    spec
      .given([business, disabled, purgedForGood])
      .when(command('PurgeTenant', { permanent: true }, platformAdmin))
      .thenFails('not_found', 'Tenant not found.');
    spec
      .given([business, disabled, purged])
      .when(command('RestoreTenant', {}, platformAdmin))
      .thenFails('not_found', 'Tenant not found.');
  });
});

describe('event schemas', () => {
  it('accept what the decider emits', () => {
    const decisions: [TenantEvent[], TenantCommand][] = [
      [[], command('CreateTenant', { tenantId: 42, name: 'Acme', classification: 'FIRM' }, newUser)],
      [
        [business],
        command('UpdateTenantProfile', { classification: 'FIRM', friendlyName: 'A', industry: null }),
      ],
      [[business], command('ChangeReportingSettings', { weeklyDay: 6, monthlyDay: 1 })],
      [[business], command('SubmitTenantLogo', { logoUrl: 'l', contentType: 'image/gif' })],
      [[business, disabled], command('PurgeTenant', { permanent: true }, platformAdmin)],
    ];
    for (const [history, when] of decisions) {
      const events = tenantDecider.decide(when, spec.stateAfter(history));
      expect(events.length).toBeGreaterThan(0);
      for (const event of events) expect(TenantEvent.parse(event)).toEqual(event);
    }
  });

  it('reject reporting settings out of bounds', () => {
    const bad = {
      type: 'TenantReportingSettingsChanged',
      data: { TenantId: 42, Reporting: { ...defaults, MonthlyDay: 31 } },
    };
    expect(TenantEvent.safeParse(bad).success).toBe(false);
  });
});
