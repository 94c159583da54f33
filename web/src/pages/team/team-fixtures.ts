import type { TeamMember } from '../../../../contracts/api/users';

/** A row of GET /api/users as the team page reads it. */
export const teamMember = (
  input: { Id: number; Name: string } & Partial<Omit<TeamMember, 'Membership'>> & {
      Membership?: Partial<TeamMember['Membership']>;
    },
): TeamMember => {
  const { Membership, ...user } = input;
  const [given = input.Name, family = ''] = input.Name.split(' ');
  return {
    Email: `${given.toLowerCase()}@example.com`,
    GivenName: given,
    FamilyName: family,
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
      Role: 'USER',
      Classification: 'MEMBER',
      JobTitle: null,
      SendWeekly: false,
      SendMonthly: false,
      joinedAt: '2030-01-01T00:00:00.000Z',
      ...Membership,
    },
  };
};

/** The answer of PUT /api/users/{id} for a member: the user with their companies. */
export const userWithTenants = (member: TeamMember) => {
  const { Membership, ...user } = member;
  return {
    ...user,
    Tenants: [
      {
        Id: 7,
        Name: 'Acme Ltd',
        Classification: 'BUSINESS',
        UsageType: 'NORMAL',
        disabled: false,
        Membership,
      },
    ],
  };
};
