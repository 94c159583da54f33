import type { SessionResponse } from '../../../contracts/auth';

type Tenant = SessionResponse['tenants'][number];

export const tenantRow = (overrides: Partial<Tenant> = {}): Tenant => ({
  Id: 7,
  Name: 'Acme Ltd',
  Classification: 'BUSINESS',
  UsageType: 'NORMAL',
  Role: 'USER',
  MembershipClassification: 'MEMBER',
  ...overrides,
});

/** A signed-in session as GET /api/auth/self answers it: by default a standard user of one business. */
export const sessionFixture = (
  input: { tenants?: Tenant[]; user?: Partial<SessionResponse['user']> } & Partial<
    Pick<SessionResponse, 'resetPasswordRequired' | 'idleTimeoutSeconds'>
  > = {},
): SessionResponse => {
  const tenants = input.tenants ?? [tenantRow()];
  const current = tenants[0] ?? null;
  return {
    user: {
      Id: 3,
      Email: 'ada@example.com',
      GivenName: 'Ada',
      FamilyName: 'Lovelace',
      Name: 'Ada Lovelace',
      PrimaryClassification: 'MEMBER',
      AuthProvider: 'password',
      LastLoginMethod: 'password',
      Logins: 1,
      EmailVerified: true,
      DefaultPartnerTenantId: null,
      isPlatformAdmin: false,
      Role: current?.Role ?? null,
      ...input.user,
    },
    tenant: current && {
      Id: current.Id,
      Name: current.Name,
      FriendlyName: null,
      Classification: current.Classification,
      UsageType: current.UsageType,
    },
    membership: current && {
      Role: current.Role,
      Status: 'ACTIVE',
      Classification: current.MembershipClassification,
    },
    tenants,
    resetPasswordRequired: input.resetPasswordRequired ?? false,
    idleExpiresAt: '2030-01-01T00:30:00.000Z',
    idleTimeoutSeconds: input.idleTimeoutSeconds ?? 1800,
  };
};

export const noSellers = { rows: [], total: 0, filtered: 0 };

/** One connected DEMO seller as GET /api/sellers answers it. */
export const oneSeller = {
  rows: [
    {
      Id: 1,
      TenantId: 7,
      CompanyName: 'Acme Demo',
      URL: null,
      Provider: 'DEMO',
      Active: true,
      AuthMethod: 'none',
      AuthToken: { Owner: null, RefreshedAt: null, Status: 'ACTIVE' },
      CompanyFilePath: null,
      CollectionDate: null,
      MetricsDate: null,
      Forecasting: false,
      Sync: { running: null, last: null },
      createdAt: '2030-01-01T00:00:00.000Z',
      disconnected: false,
      Status: { kind: 'pending_sync', text: 'Pending sync...' },
      QbdSyncWarning: false,
      Progress: 'syncing',
      ProgressBadge: { stage: 'syncing', text: 'Syncing...' },
      CollectionRecency: 'stale',
      MetricsRecency: 'stale',
      SyncActions: [],
      Deletable: false,
    },
  ],
  total: 1,
  filtered: 1,
};
