import { UserEvent } from '../../contracts/events/user';
import type { Actor } from '../actor';
import { deciderSpec } from '../decider-spec';
import type { UserCommand } from './decide';
import { userDecider } from './user-decider';

const spec = deciderSpec(userDecider);
const now = new Date('2025-03-04T10:00:00.000Z');
const at = now.toISOString();
const minutesLater = (minutes: number) => new Date(now.getTime() + minutes * 60_000);

const actor = (overrides: Partial<Actor>): Actor => ({
  userId: 9,
  isPlatformAdmin: false,
  tenantRole: null,
  isAdvisor: false,
  ...overrides,
});
const self = actor({});
const selfAsAdmin = actor({ tenantRole: 'ADMIN' });
const otherUser = actor({ userId: 10 });
const tenantAdmin = actor({ userId: 10, tenantRole: 'ADMIN' });
const tenantUser = actor({ userId: 10, tenantRole: 'USER' });
const platformAdmin = actor({ userId: 1, isPlatformAdmin: true });
const system: Actor = { userId: null, isPlatformAdmin: true, tenantRole: null, isAdvisor: false };

type CommandOf<T extends UserCommand['type']> = Extract<UserCommand, { type: T }>;
const command = <T extends UserCommand['type']>(
  type: T,
  data: CommandOf<T>['data'],
  by: Actor = self,
  when: Date = now,
): UserCommand => ({ type, data, now: when, actor: by }) as CommandOf<T>;

type EventData<T extends UserEvent['type']> = Extract<UserEvent, { type: T }>['data'];

const registered = (overrides: Partial<EventData<'UserRegistered'>> = {}): UserEvent => ({
  type: 'UserRegistered',
  data: {
    UserId: 9,
    Email: 'ada@example.com',
    GivenName: 'Ada',
    FamilyName: 'Lovelace',
    PasswordHash: 'hash-1',
    AuthProvider: 'password',
    EmailVerified: false,
    Referrer: null,
    ReferrerIdentifier: null,
    LandingPage: null,
    PlanIdentifier: null,
    RegisteredAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  },
});
const ada = registered();
const adaWithoutPassword = registered({ PasswordHash: null, AuthProvider: null });

const joined = (overrides: Partial<EventData<'UserJoinedTenant'>> = {}): UserEvent => ({
  type: 'UserJoinedTenant',
  data: {
    UserId: 9,
    TenantId: 42,
    Role: 'USER',
    Status: 'ACTIVE',
    Classification: 'MEMBER',
    JobTitle: null,
    SendWeekly: true,
    SendMonthly: false,
    InviteId: null,
    JoinedAt: at,
    ...overrides,
  },
});
const deleted: UserEvent = { type: 'UserDeleted', data: { UserId: 9, DeletedAt: at } };

const registration = (overrides: Partial<CommandOf<'RegisterUser'>['data']> = {}) =>
  command(
    'RegisterUser',
    {
      userId: 9,
      email: '  Ada@Example.com ',
      givenName: ' Ada ',
      familyName: 'Lovelace',
      authProvider: 'password',
      passwordHash: 'hash-1',
      emailVerified: false,
      emailInUse: false,
      ...overrides,
    },
    actor({ userId: null }),
  );

describe('RegisterUser', () => {
  it('registers with a normalised email and trimmed names', () => {
    spec
      .given([])
      .when(registration())
      .then([registered({ RegisteredAt: at })]);
  });

  it('keeps the sign-up referral and plan, blanks meaning none', () => {
    spec
      .given([])
      .when(
        registration({
          referrer: 'partner',
          referrerIdentifier: '',
          landingPage: '/x',
          planIdentifier: 'free_client',
        }),
      )
      .then([
        registered({
          RegisteredAt: at,
          Referrer: 'partner',
          LandingPage: '/x',
          PlanIdentifier: 'free_client',
        }),
      ]);
  });

  it('registers a Google sign-up without a password, verified by the provider', () => {
    spec
      .given([])
      .when(registration({ authProvider: 'google', passwordHash: null, emailVerified: true }))
      .then([
        registered({ RegisteredAt: at, AuthProvider: 'google', PasswordHash: null, EmailVerified: true }),
      ]);
  });

  it('names every missing field', () => {
    const error = spec
      .given([])
      .when(registration({ givenName: ' ', familyName: '', email: '', passwordHash: null }))
      .thenFails(
        'validation',
        'First name is required\nLast name is required\nEmail is required\nPassword is required',
      );
    expect(error.properties).toEqual({
      givenName: 'required',
      familyName: 'required',
      email: 'required',
      password: 'required',
    });
  });

  it('rejects an invalid email', () => {
    const error = spec
      .given([])
      .when(registration({ email: 'ada@' }))
      .thenFails('validation', 'Please enter a valid email address.');
    expect(error.properties).toEqual({ email: 'invalid' });
  });

  it('rejects an email already in use', () => {
    const error = spec
      .given([])
      .when(registration({ emailInUse: true }))
      .thenFails('validation', 'The email is already in use.');
    expect(error.properties).toEqual({ email: 'not_unique' });
  });

  it('refuses a second registration on the same stream', () => {
    spec.given([ada]).when(registration()).thenFails('conflict', 'A user with this id already exists.');
  });
});

describe('VerifyUserEmail', () => {
  it('verifies the current address, once', () => {
    const verified: UserEvent = {
      type: 'UserEmailVerified',
      data: { UserId: 9, Email: 'ada@example.com', VerifiedAt: at },
    };
    spec
      .given([ada])
      .when(command('VerifyUserEmail', { email: 'ADA@example.com' }))
      .then([verified]);
    spec
      .given([ada, verified])
      .when(command('VerifyUserEmail', { email: 'ada@example.com' }))
      .then([]);
  });

  it('refuses a link sent to an address the user no longer has', () => {
    const changed: UserEvent = { type: 'UserEmailChanged', data: { UserId: 9, Email: 'ada@new.example' } };
    spec
      .given([ada, changed])
      .when(command('VerifyUserEmail', { email: 'ada@example.com' }))
      .thenFails('conflict', 'Oops! It seems that this verification link is no longer valid');
  });
});

describe('RecordLogin', () => {
  it('counts logins and remembers the last time and method', () => {
    const first: UserEvent = {
      type: 'UserLoggedIn',
      data: { UserId: 9, Method: 'password', Logins: 1, LoggedInAt: at },
    };
    spec
      .given([ada])
      .when(command('RecordLogin', { method: 'password' }))
      .then([first]);
    spec
      .given([ada, first])
      .when(command('RecordLogin', { method: 'google' }))
      .then([{ type: 'UserLoggedIn', data: { UserId: 9, Method: 'google', Logins: 2, LoggedInAt: at } }]);
    expect(spec.stateAfter([ada, first])).toMatchObject({ logins: 1, lastLogin: { at, method: 'password' } });
  });

  it('refuses a password login for an account without a password', () => {
    spec
      .given([adaWithoutPassword])
      .when(command('RecordLogin', { method: 'password' }))
      .thenFails('unauthorized', 'Invalid credentials supplied.');
  });

  it('treats a deleted or unknown user as not found', () => {
    spec
      .given([ada, deleted])
      .when(command('RecordLogin', { method: 'google' }))
      .thenFails('not_found', 'User not found.');
    spec
      .given([])
      .when(command('RecordLogin', { method: 'google' }))
      .thenFails('not_found', 'User not found.');
  });
});

describe('ChangePassword', () => {
  it('sets a first password without asking for a current one (complete registration)', () => {
    spec
      .given([adaWithoutPassword])
      .when(command('ChangePassword', { passwordHash: 'hash-2', currentPassword: 'not_given' }))
      .then([{ type: 'UserPasswordSet', data: { UserId: 9, PasswordHash: 'hash-2', SetAt: at } }]);
  });

  it('changes the password when the current one was confirmed', () => {
    spec
      .given([ada])
      .when(command('ChangePassword', { passwordHash: 'hash-2', currentPassword: 'verified' }))
      .then([{ type: 'UserPasswordChanged', data: { UserId: 9, PasswordHash: 'hash-2', ChangedAt: at } }]);
  });

  it('asks for the current password, and refuses a wrong one', () => {
    const missing = spec
      .given([ada])
      .when(command('ChangePassword', { passwordHash: 'hash-2', currentPassword: 'not_given' }))
      .thenFails('validation', 'Please enter your current password.');
    expect(missing.properties).toEqual({ currentPassword: 'required' });
    const wrong = spec
      .given([ada])
      .when(command('ChangePassword', { passwordHash: 'hash-2', currentPassword: 'wrong' }))
      .thenFails('validation', 'The current password is incorrect.');
    expect(wrong.properties).toEqual({ currentPassword: 'invalid' });
  });

  it('does not ask a user flagged for a mandatory reset, and clears the flag', () => {
    const required: UserEvent = { type: 'UserPasswordResetRequired', data: { UserId: 9, RequiredAt: at } };
    const changed: UserEvent = {
      type: 'UserPasswordChanged',
      data: { UserId: 9, PasswordHash: 'hash-2', ChangedAt: at },
    };
    spec
      .given([ada, required])
      .when(command('ChangePassword', { passwordHash: 'hash-2', currentPassword: 'not_given' }))
      .then([changed]);
    expect(spec.stateAfter([ada, required])).toMatchObject({ passwordResetRequired: true });
    expect(spec.stateAfter([ada, required, changed])).toMatchObject({ passwordResetRequired: false });
  });

  it('needs a new password hash, and is for the user themselves only', () => {
    spec
      .given([ada])
      .when(command('ChangePassword', { passwordHash: ' ', currentPassword: 'verified' }))
      .thenFails('validation', 'Password is required');
    spec
      .given([ada])
      .when(command('ChangePassword', { passwordHash: 'h', currentPassword: 'verified' }, platformAdmin))
      .thenFails('forbidden', 'Only the user themselves can do this.');
  });
});

describe('password recovery', () => {
  const requested: UserEvent = {
    type: 'UserPasswordRecoveryRequested',
    data: { UserId: 9, TokenHash: 't1', RequestedAt: at, ExpiresAt: minutesLater(30).toISOString() },
  };
  const recover = (tokenHash: string, when: Date) =>
    command('RecoverPassword', { tokenHash, passwordHash: 'hash-3' }, actor({ userId: null }), when);

  it('records a recovery request valid for 30 minutes', () => {
    spec
      .given([ada])
      .when(command('RequestPasswordRecovery', { tokenHash: 't1' }, actor({ userId: null })))
      .then([requested]);
  });

  it('resets the password with the emailed link within 30 minutes', () => {
    spec
      .given([ada, requested])
      .when(recover('t1', minutesLater(29)))
      .then([
        {
          type: 'UserPasswordReset',
          data: { UserId: 9, PasswordHash: 'hash-3', ResetAt: minutesLater(29).toISOString() },
        },
      ]);
  });

  it('refuses an expired, unknown, superseded or already used link', () => {
    const message = 'This password recovery link is no longer valid. Please request a new one.';
    spec
      .given([ada, requested])
      .when(recover('t1', minutesLater(30)))
      .thenFails('conflict', message);
    spec
      .given([ada, requested])
      .when(recover('guess', minutesLater(1)))
      .thenFails('conflict', message);
    spec
      .given([ada])
      .when(recover('t1', minutesLater(1)))
      .thenFails('conflict', message);
    const newer: UserEvent = { ...requested, data: { ...requested.data, TokenHash: 't2' } };
    spec
      .given([ada, requested, newer])
      .when(recover('t1', minutesLater(1)))
      .thenFails('conflict', message);
    const used: UserEvent = {
      type: 'UserPasswordReset',
      data: { UserId: 9, PasswordHash: 'hash-3', ResetAt: at },
    };
    spec
      .given([ada, requested, used])
      .when(recover('t1', minutesLater(1)))
      .thenFails('conflict', message);
  });
});

describe('platform-admin account actions', () => {
  it('flags a mandatory password reset once', () => {
    const required: UserEvent = { type: 'UserPasswordResetRequired', data: { UserId: 9, RequiredAt: at } };
    spec
      .given([ada])
      .when(command('RequirePasswordReset', {}, platformAdmin))
      .then([required]);
    spec
      .given([ada, required])
      .when(command('RequirePasswordReset', {}, platformAdmin))
      .then([]);
  });

  it('resets auth: the password and provider are dropped, so a password login fails', () => {
    const reset: UserEvent = { type: 'UserAuthReset', data: { UserId: 9, ResetAt: at } };
    spec
      .given([ada])
      .when(command('ResetUserAuth', {}, platformAdmin))
      .then([reset]);
    expect(spec.stateAfter([ada, reset])).toMatchObject({ passwordHash: null, authProvider: null });
    spec
      .given([ada, reset])
      .when(command('RecordLogin', { method: 'password' }))
      .thenFails('unauthorized', 'Invalid credentials supplied.');
  });

  it('renames a user, requiring both names', () => {
    spec
      .given([ada])
      .when(command('RenameUser', { givenName: 'Augusta', familyName: 'King' }, platformAdmin))
      .then([{ type: 'UserRenamed', data: { UserId: 9, GivenName: 'Augusta', FamilyName: 'King' } }]);
    spec
      .given([ada])
      .when(command('RenameUser', { givenName: 'Ada', familyName: 'Lovelace' }, platformAdmin))
      .then([]);
    spec
      .given([ada])
      .when(command('RenameUser', { givenName: 'Ada', familyName: ' ' }, platformAdmin))
      .thenFails('validation', 'Last name is required');
  });

  it('changes the email, which then needs verifying again', () => {
    const changed: UserEvent = { type: 'UserEmailChanged', data: { UserId: 9, Email: 'ada@new.example' } };
    const verified: UserEvent = {
      type: 'UserEmailVerified',
      data: { UserId: 9, Email: 'ada@example.com', VerifiedAt: at },
    };
    spec
      .given([ada, verified])
      .when(command('ChangeUserEmail', { email: 'Ada@New.example', emailInUse: false }, platformAdmin))
      .then([changed]);
    expect(spec.stateAfter([ada, verified, changed])).toMatchObject({
      email: 'ada@new.example',
      emailVerified: false,
    });
    spec
      .given([ada])
      .when(command('ChangeUserEmail', { email: 'ada@example.com', emailInUse: true }, platformAdmin))
      .then([]);
    spec
      .given([ada])
      .when(command('ChangeUserEmail', { email: 'bob@example.com', emailInUse: true }, platformAdmin))
      .thenFails('validation', 'The email is already in use.');
  });

  it('changes the primary classification', () => {
    spec
      .given([ada])
      .when(command('ChangePrimaryClassification', { classification: 'ADVISOR' }, platformAdmin))
      .then([
        { type: 'UserPrimaryClassificationChanged', data: { UserId: 9, PrimaryClassification: 'ADVISOR' } },
      ]);
    spec
      .given([ada])
      .when(command('ChangePrimaryClassification', { classification: 'MEMBER' }, platformAdmin))
      .then([]);
  });

  it('sets the default partner tenant only to a tenant the user belongs to', () => {
    spec
      .given([ada, joined()])
      .when(command('ChangeDefaultPartnerTenant', { tenantId: 42 }, platformAdmin))
      .then([{ type: 'UserDefaultPartnerTenantChanged', data: { UserId: 9, DefaultPartnerTenantId: 42 } }]);
    spec
      .given([ada])
      .when(command('ChangeDefaultPartnerTenant', { tenantId: 42 }, platformAdmin))
      .thenFails('not_found', 'The user is not a member of this company.');
    spec
      .given([ada])
      .when(command('ChangeDefaultPartnerTenant', { tenantId: null }, platformAdmin))
      .then([]);
  });

  it('deletes a user, after which nothing else applies; never oneself', () => {
    spec
      .given([ada])
      .when(command('DeleteUser', {}, platformAdmin))
      .then([deleted]);
    spec
      .given([ada, deleted])
      .when(command('DeleteUser', {}, platformAdmin))
      .thenFails('not_found', 'User not found.');
    spec
      .given([ada])
      .when(command('DeleteUser', {}, actor({ isPlatformAdmin: true })))
      .thenFails('forbidden', 'You cannot delete your own account.');
  });

  it.each([
    ['RequirePasswordReset', {}],
    ['ResetUserAuth', {}],
    ['RenameUser', { givenName: 'A', familyName: 'B' }],
    ['ChangeUserEmail', { email: 'a@b.co', emailInUse: false }],
    ['ChangePrimaryClassification', { classification: 'ADVISOR' }],
    ['ChangeDefaultPartnerTenant', { tenantId: null }],
    ['DeleteUser', {}],
  ] as const)('refuses %s to anyone but a platform admin', (type, data) => {
    spec
      .given([ada])
      .when(command(type, data as never, tenantAdmin))
      .thenFails('forbidden', 'Only a platform administrator can do this.');
  });
});

describe('JoinTenant', () => {
  const join = (by: Actor, inviteId: string | null = null) =>
    command(
      'JoinTenant',
      {
        tenantId: 42,
        role: 'ADMIN',
        classification: 'ADVISOR',
        jobTitle: ' Bookkeeper ',
        sendWeekly: true,
        sendMonthly: true,
        inviteId,
      },
      by,
    );
  const expected = (inviteId: string | null) =>
    joined({
      Role: 'ADMIN',
      Classification: 'ADVISOR',
      JobTitle: 'Bookkeeper',
      SendMonthly: true,
      InviteId: inviteId,
    });

  it('lets the invited user join through their invite', () => {
    spec
      .given([ada])
      .when(join(self, 'inv-1'))
      .then([expected('inv-1')]);
  });

  it('lets a tenant admin or the system add a user', () => {
    spec
      .given([ada])
      .when(join(tenantAdmin))
      .then([expected(null)]);
    spec
      .given([ada])
      .when(join(system))
      .then([expected(null)]);
  });

  it('refuses a user joining without an invite, and someone else using an invite', () => {
    const message = 'Only an administrator of this company can change its team.';
    spec.given([ada]).when(join(self)).thenFails('forbidden', message);
    spec.given([ada]).when(join(otherUser, 'inv-1')).thenFails('forbidden', message);
  });

  it('refuses a second membership of the same tenant', () => {
    spec
      .given([ada, joined()])
      .when(join(self, 'inv-2'))
      .thenFails('conflict', 'The user is already a member of this company.');
  });
});

describe('JoinCreatedTenant (welcome flow)', () => {
  it('makes the creator of a FIRM its admin and an advisor whose default partner tenant is the firm', () => {
    spec
      .given([ada])
      .when(command('JoinCreatedTenant', { tenantId: 42, tenantClassification: 'FIRM' }))
      .then([
        joined({ Role: 'ADMIN', Classification: 'ADVISOR' }),
        { type: 'UserPrimaryClassificationChanged', data: { UserId: 9, PrimaryClassification: 'ADVISOR' } },
        { type: 'UserDefaultPartnerTenantChanged', data: { UserId: 9, DefaultPartnerTenantId: 42 } },
      ]);
  });

  it('keeps an advisor’s existing default firm when they create another', () => {
    const advisor: UserEvent[] = [
      ada,
      joined({ TenantId: 41, Role: 'ADMIN', Classification: 'ADVISOR' }),
      { type: 'UserPrimaryClassificationChanged', data: { UserId: 9, PrimaryClassification: 'ADVISOR' } },
      { type: 'UserDefaultPartnerTenantChanged', data: { UserId: 9, DefaultPartnerTenantId: 41 } },
    ];
    spec
      .given(advisor)
      .when(command('JoinCreatedTenant', { tenantId: 42, tenantClassification: 'FIRM' }))
      .then([joined({ Role: 'ADMIN', Classification: 'ADVISOR' })]);
  });

  it('makes the creator of a business its admin; an advisor adding a client is its advisor', () => {
    spec
      .given([ada])
      .when(command('JoinCreatedTenant', { tenantId: 42, tenantClassification: 'BUSINESS' }))
      .then([joined({ Role: 'ADMIN', Classification: 'MEMBER' })]);
    spec
      .given([
        ada,
        { type: 'UserPrimaryClassificationChanged', data: { UserId: 9, PrimaryClassification: 'ADVISOR' } },
      ])
      .when(command('JoinCreatedTenant', { tenantId: 42, tenantClassification: 'BUSINESS' }))
      .then([joined({ Role: 'ADMIN', Classification: 'ADVISOR' })]);
  });

  it('is issued for the creator themselves or by the system, once', () => {
    spec
      .given([ada])
      .when(command('JoinCreatedTenant', { tenantId: 42, tenantClassification: 'BUSINESS' }, tenantAdmin))
      .thenFails('forbidden', 'Only a platform administrator can do this.');
    spec
      .given([ada, joined()])
      .when(command('JoinCreatedTenant', { tenantId: 42, tenantClassification: 'BUSINESS' }, system))
      .thenFails('conflict', 'The user is already a member of this company.');
  });
});

describe('membership edits', () => {
  const member = [ada, joined()];

  it('changes role, status, classification, job title and report preferences', () => {
    spec
      .given(member)
      .when(command('ChangeMembershipRole', { tenantId: 42, role: 'ADMIN' }, tenantAdmin))
      .then([{ type: 'UserTenantRoleChanged', data: { UserId: 9, TenantId: 42, Role: 'ADMIN' } }]);
    spec
      .given(member)
      .when(
        command(
          'ChangeMembershipStatus',
          { tenantId: 42, status: 'INACTIVE', toggleReports: true },
          tenantAdmin,
        ),
      )
      .then([
        {
          type: 'UserTenantStatusChanged',
          data: { UserId: 9, TenantId: 42, Status: 'INACTIVE', ToggleReports: true },
        },
      ]);
    spec
      .given(member)
      .when(
        command('ChangeMembershipClassification', { tenantId: 42, classification: 'ADVISOR' }, platformAdmin),
      )
      .then([
        {
          type: 'UserTenantClassificationChanged',
          data: { UserId: 9, TenantId: 42, Classification: 'ADVISOR' },
        },
      ]);
    spec
      .given(member)
      .when(command('ChangeMembershipJobTitle', { tenantId: 42, jobTitle: 'Sales' }, tenantAdmin))
      .then([{ type: 'UserTenantJobTitleChanged', data: { UserId: 9, TenantId: 42, JobTitle: 'Sales' } }]);
    spec
      .given(member)
      .when(command('ChangeMembershipReportPreferences', { tenantId: 42, sendMonthly: true }, tenantAdmin))
      .then([
        {
          type: 'UserTenantReportPreferencesChanged',
          data: { UserId: 9, TenantId: 42, SendWeekly: true, SendMonthly: true },
        },
      ]);
  });

  it('folds the changes into the membership', () => {
    const state = spec.stateAfter([
      ...member,
      { type: 'UserTenantRoleChanged', data: { UserId: 9, TenantId: 42, Role: 'ADMIN' } },
      {
        type: 'UserTenantStatusChanged',
        data: { UserId: 9, TenantId: 42, Status: 'INACTIVE', ToggleReports: false },
      },
      { type: 'UserTenantJobTitleChanged', data: { UserId: 9, TenantId: 42, JobTitle: 'Sales' } },
    ]);
    expect(state).toMatchObject({
      memberships: { 42: { role: 'ADMIN', status: 'INACTIVE', jobTitle: 'Sales' } },
    });
  });

  it('appends nothing when nothing changes', () => {
    spec
      .given(member)
      .when(command('ChangeMembershipRole', { tenantId: 42, role: 'USER' }, tenantAdmin))
      .then([]);
    spec
      .given(member)
      .when(
        command(
          'ChangeMembershipStatus',
          { tenantId: 42, status: 'ACTIVE', toggleReports: true },
          tenantAdmin,
        ),
      )
      .then([]);
    spec
      .given(member)
      .when(
        command('ChangeMembershipClassification', { tenantId: 42, classification: 'MEMBER' }, tenantAdmin),
      )
      .then([]);
    spec
      .given(member)
      .when(command('ChangeMembershipJobTitle', { tenantId: 42, jobTitle: ' ' }, tenantAdmin))
      .then([]);
    spec
      .given(member)
      .when(command('ChangeMembershipReportPreferences', { tenantId: 42, sendWeekly: true }, self))
      .then([]);
  });

  it('lets users change their own job title and report preferences but not their role', () => {
    spec
      .given(member)
      .when(command('ChangeMembershipJobTitle', { tenantId: 42, jobTitle: 'Executive' }, self))
      .then([
        { type: 'UserTenantJobTitleChanged', data: { UserId: 9, TenantId: 42, JobTitle: 'Executive' } },
      ]);
    spec
      .given(member)
      .when(command('ChangeMembershipReportPreferences', { tenantId: 42, sendWeekly: false }, self))
      .then([
        {
          type: 'UserTenantReportPreferencesChanged',
          data: { UserId: 9, TenantId: 42, SendWeekly: false, SendMonthly: false },
        },
      ]);
    spec
      .given(member)
      .when(command('ChangeMembershipRole', { tenantId: 42, role: 'ADMIN' }, self))
      .thenFails('forbidden', 'Only an administrator of this company can change its team.');
  });

  it('refuses a standard user editing someone else', () => {
    spec
      .given(member)
      .when(command('ChangeMembershipJobTitle', { tenantId: 42, jobTitle: 'Other' }, tenantUser))
      .thenFails('forbidden', 'Only an administrator of this company can change its team.');
  });

  it('refuses an admin disabling their own access', () => {
    spec
      .given([ada, joined({ Role: 'ADMIN' })])
      .when(
        command(
          'ChangeMembershipStatus',
          { tenantId: 42, status: 'INACTIVE', toggleReports: false },
          selfAsAdmin,
        ),
      )
      .thenFails('forbidden', 'You cannot disable or enable your own access.');
  });

  it('reports a tenant the user does not belong to', () => {
    spec
      .given(member)
      .when(command('ChangeMembershipRole', { tenantId: 43, role: 'ADMIN' }, tenantAdmin))
      .thenFails('not_found', 'The user is not a member of this company.');
  });
});

describe('LeaveTenant', () => {
  const advisorMember = [ada, joined({ Role: 'ADMIN', Classification: 'ADVISOR' })];
  const leave = (
    otherActiveAdvisorsOrAdmins: number,
    tenantClassification: 'BUSINESS' | 'FIRM' = 'BUSINESS',
    by = self,
  ) => command('LeaveTenant', { tenantId: 42, tenantClassification, otherActiveAdvisorsOrAdmins }, by);
  const left: UserEvent = { type: 'UserLeftTenant', data: { UserId: 9, TenantId: 42, LeftAt: at } };

  it('lets an advisor leave a company when another active advisor or admin remains', () => {
    spec.given(advisorMember).when(leave(1)).then([left]);
    expect(spec.stateAfter([...advisorMember, left])).toMatchObject({ memberships: {} });
  });

  it('counts an advisor by primary classification too', () => {
    spec
      .given([
        ada,
        joined(),
        { type: 'UserPrimaryClassificationChanged', data: { UserId: 9, PrimaryClassification: 'ADVISOR' } },
      ])
      .when(leave(2))
      .then([left]);
  });

  it('refuses leaving when no other active advisor or admin remains', () => {
    spec
      .given(advisorMember)
      .when(leave(0))
      .thenFails(
        'conflict',
        'You cannot leave this company: no other active advisor or administrator would remain.',
      );
  });

  it('never lets anyone leave an advisory firm', () => {
    spec
      .given(advisorMember)
      .when(leave(5, 'FIRM'))
      .thenFails('conflict', 'You cannot leave an advisory firm.');
  });

  it('refuses a member who is not an advisor', () => {
    spec
      .given([ada, joined({ Role: 'ADMIN' })])
      .when(leave(3))
      .thenFails('forbidden', 'Only an advisor can leave a company.');
  });

  it('is the user’s own action, for a tenant they belong to', () => {
    spec
      .given(advisorMember)
      .when(leave(1, 'BUSINESS', platformAdmin))
      .thenFails('forbidden', 'Only the user themselves can do this.');
    spec.given([ada]).when(leave(1)).thenFails('not_found', 'The user is not a member of this company.');
  });
});

describe('CRM contact id and advisor assignment', () => {
  it('lets only a platform admin set the ActiveCampaign contact id; blank clears it', () => {
    spec
      .given([ada])
      .when(command('ChangeUserActiveCampaignId', { activeCampaignId: ' 812 ' }, platformAdmin))
      .then([{ type: 'UserActiveCampaignIdChanged', data: { UserId: 9, ActiveCampaignId: '812' } }]);
    const withId: UserEvent = {
      type: 'UserActiveCampaignIdChanged',
      data: { UserId: 9, ActiveCampaignId: '812' },
    };
    spec
      .given([ada, withId])
      .when(command('ChangeUserActiveCampaignId', { activeCampaignId: '' }, platformAdmin))
      .then([{ type: 'UserActiveCampaignIdChanged', data: { UserId: 9, ActiveCampaignId: null } }]);
    spec
      .given([ada, withId])
      .when(command('ChangeUserActiveCampaignId', { activeCampaignId: '812' }, platformAdmin))
      .then([]);
    spec
      .given([ada])
      .when(command('ChangeUserActiveCampaignId', { activeCampaignId: '812' }, tenantAdmin))
      .thenFails('forbidden', 'Only a platform administrator can do this.');
  });

  const firmAdvisor: UserEvent[] = [
    ada,
    joined({ Role: 'ADMIN', Classification: 'ADVISOR' }),
    { type: 'UserPrimaryClassificationChanged', data: { UserId: 9, PrimaryClassification: 'ADVISOR' } },
  ];
  const assign = (tenantClassification: 'FIRM' | 'BUSINESS', assignToAllClients: boolean) =>
    command(
      'ChangeAssignToAllClients',
      { tenantId: 42, tenantClassification, assignToAllClients },
      tenantAdmin,
    );

  it('assigns an advisor who administers a firm to all its clients, and unassigns them', () => {
    const assigned: UserEvent = {
      type: 'UserAssignToAllClientsChanged',
      data: { UserId: 9, TenantId: 42, AssignToAllClients: true },
    };
    spec.given(firmAdvisor).when(assign('FIRM', true)).then([assigned]);
    spec
      .given([...firmAdvisor, assigned])
      .when(assign('FIRM', true))
      .then([]);
    spec
      .given([...firmAdvisor, assigned])
      .when(assign('FIRM', false))
      .then([
        {
          type: 'UserAssignToAllClientsChanged',
          data: { UserId: 9, TenantId: 42, AssignToAllClients: false },
        },
      ]);
  });

  it('refuses the assignment outside a firm, for a non-advisor or a standard user, and by a non-admin', () => {
    const refusal =
      'Only an advisor who is an administrator of an advisory firm can be assigned to all of its clients.';
    spec.given(firmAdvisor).when(assign('BUSINESS', true)).thenFails('validation', refusal);
    spec
      .given([ada, joined({ Role: 'ADMIN' })])
      .when(assign('FIRM', true))
      .thenFails('validation', refusal);
    spec
      .given([...firmAdvisor.slice(0, 1), joined({ Role: 'USER' }), firmAdvisor[2] as UserEvent])
      .when(assign('FIRM', true))
      .thenFails('validation', refusal);
    spec
      .given(firmAdvisor)
      .when(
        command(
          'ChangeAssignToAllClients',
          { tenantId: 42, tenantClassification: 'FIRM', assignToAllClients: true },
          tenantUser,
        ),
      )
      .thenFails('forbidden', 'Only an administrator of this company can change its team.');
  });
});

describe('event schemas', () => {
  it('accept what the decider emits', () => {
    const decisions: [UserEvent[], UserCommand][] = [
      [[], registration()],
      [[ada], command('RecordLogin', { method: 'microsoft' })],
      [[ada], command('RequestPasswordRecovery', { tokenHash: 't' })],
      [[ada], command('JoinCreatedTenant', { tenantId: 42, tenantClassification: 'FIRM' })],
      [
        [ada, joined()],
        command(
          'ChangeMembershipStatus',
          { tenantId: 42, status: 'INACTIVE', toggleReports: true },
          tenantAdmin,
        ),
      ],
    ];
    for (const [history, when] of decisions) {
      const events = userDecider.decide(when, spec.stateAfter(history));
      expect(events.length).toBeGreaterThan(0);
      for (const event of events) expect(UserEvent.parse(event)).toEqual(event);
    }
  });
});
