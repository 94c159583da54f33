import type { RecipientResponse } from '../../../contracts/api/recipients';
import type { Tenant } from '../../../contracts/api/tenants';
import type { TeamMember } from '../../../contracts/api/users';

/** One tenant as GET /api/tenants/:id answers it: by default business 7, created by user 3, no plan. */
export const tenantFixture = (overrides: Partial<Tenant> = {}): Tenant => ({
  Id: 7,
  Name: 'Acme Ltd',
  FriendlyName: null,
  Classification: 'BUSINESS',
  UsageType: 'NORMAL',
  BusinessModel: 'B2B',
  Industry: { FreeForm: 'Bakeries', NAICS2017: null, Description: null },
  PartnerId: null,
  Referrer: null,
  ReferrerIdentifier: null,
  LandingPage: null,
  PlanIdentifier: null,
  AdvisoryPartner: null,
  ClientsPartner: null,
  Settings: {
    Reporting: {
      RetentionPeriod: 'AUTO',
      WeeklyDay: 2,
      MonthlyDay: 7,
      Currency: 'USD',
      WeeklyEmailsDisabled: false,
      MonthlyEmailsDisabled: false,
    },
    Partner: { Logo: null },
    PlanIdentifier: null,
  },
  Logo: {
    URL: null,
    PendingURL: null,
    PendingContentType: null,
    SubmittedAt: null,
    LastDecision: null,
    ReviewedAt: null,
  },
  Subscription: null,
  CreatedBy: 3,
  createdAt: '2030-01-01T00:00:00.000Z',
  status: 'active',
  deletedAt: null,
  DisableReason: null,
  purged: false,
  purgedAt: null,
  ...overrides,
});

export const teamMember = (
  overrides: Partial<Omit<TeamMember, 'Membership'>> & {
    Membership?: Partial<TeamMember['Membership']>;
  } = {},
): TeamMember => {
  const { Membership, ...user } = overrides;
  return {
    Id: 3,
    Email: 'ada@example.com',
    GivenName: 'Ada',
    FamilyName: 'Lovelace',
    Name: 'Ada Lovelace',
    JobTitle: null,
    PrimaryClassification: 'MEMBER',
    AuthProvider: 'password',
    Logins: 1,
    LastLogin: null,
    LastLoginMethod: 'password',
    createdAt: '2030-01-01T00:00:00.000Z',
    DefaultPartnerTenantId: null,
    ActiveCampaignId: null,
    AssignToAllClients: false,
    EmailVerified: true,
    PasswordResetRequired: false,
    deleted: false,
    ...user,
    Membership: {
      TenantId: 7,
      Status: 'ACTIVE',
      Role: 'ADMIN',
      Classification: 'MEMBER',
      JobTitle: null,
      SendWeekly: true,
      SendMonthly: true,
      joinedAt: '2030-01-01T00:00:00.000Z',
      ...Membership,
    },
  };
};

export const recipient = (overrides: Partial<RecipientResponse> = {}): RecipientResponse => ({
  Id: 1,
  TenantId: 7,
  SellerId: 1,
  Seller: { Id: 1, CompanyName: 'Acme Demo' },
  SubscriberId: 3,
  Subscriber: { Id: 3, Email: 'ada@example.com', GivenName: 'Ada', FamilyName: 'Lovelace', JobTitle: null },
  STATE: 'ACTIVE',
  SendWeekly: true,
  SendMonthly: true,
  TrackWelcomeDate: null,
  TrackWeeklyDate: null,
  TrackMonthlyDate: null,
  createdAt: '2030-01-01T00:00:00.000Z',
  Danger: false,
  StateAction: 'deactivate',
  ...overrides,
});

export const listOf = <T>(rows: T[]) => ({ rows, total: rows.length, filtered: rows.length });
