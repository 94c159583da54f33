import type { EventStore } from '../../commands/event-store/event-store';
import { ERASED, userSubject } from '../../commands/personal-data';
import { rebuildProjection } from '../../projections/framework/rebuild-projection';
import { ProjectionProcessor } from '../../projections/framework/projection-processor';
import { currentVersion } from '../../projections/framework/read-model-versions';
import { tenantsProjection } from '../../projections/tenants/tenants-projection';
import { queryTeam } from '../../projections/users/query-team';
import { queryUserList, queryUserWithTenants, type UserListQuery } from '../../projections/users/query-users';
import { emailInUse, otherActiveAdvisorsOrAdmins, userIdByEmail } from '../../projections/users/user-facts';
import { usersProjection } from '../../projections/users/users-projection';
import { platformAdmin, portalCommands, self, tenantAdmin, type PortalCommands } from './portal-commands';
import { useProjectionTestSetup } from './projection-test-setup';
import { versionChecksums } from './read-model-checksum';
import { replayTwice } from './replay-twice';

const { context, openStore } = useProjectionTestSetup(__filename);

let store: EventStore;
let commands: PortalCommands;

const catchUp = () =>
  Promise.all(
    [tenantsProjection, usersProjection].map((projection) =>
      new ProjectionProcessor({ db: context.db, store, decode: context.decode, projection }).catchUp(),
    ),
  );

const teamOf = async (tenantId: number) =>
  (await queryTeam(context.db, { tenantId })).members.map((m) => [m.Id, m.Name, m.Membership.Role]);
const listed = async (query: UserListQuery) =>
  (await queryUserList(context.db, query)).rows.map((row) => row.Id);
const others = async (tenantId: number, userId: number) =>
  (await otherActiveAdvisorsOrAdmins(context.db, { tenantId, userId })).count;

beforeAll(async () => {
  store = openStore();
  commands = portalCommands(store, context.keys);
  const c = commands;
  await c.registerUser(10, { email: 'ann@acme.example', givenName: 'Ann', familyName: 'Archer' });
  await c.registerUser(11, { email: 'bob@acme.example', givenName: 'Bob', familyName: 'Brown' });
  await c.registerUser(12, { email: 'cara@cole.example', givenName: 'Cara', familyName: 'Cole' });
  await c.registerUser(13, { email: 'dan@acme.example', givenName: 'Dan', familyName: 'Drew' });
  await c.registerUser(14, { email: 'eve@acme.example', givenName: 'Eve', familyName: 'Evans' });
  await c.registerUser(20, { email: 'zed@other.example', givenName: 'Zed', familyName: 'Zimmer' });
  await c.registerUser(21, { email: 'yan@other.example', givenName: 'Yan', familyName: 'Young' });

  await c.createTenant(1, { name: 'Acme', classification: 'BUSINESS' }, 10);
  await c.createTenant(2, { name: 'Cole Advisory', classification: 'FIRM' }, 12);
  await c.createTenant(3, { name: 'Other Co', classification: 'BUSINESS' }, 20);
  await c.addMember(11, 1, { role: 'USER', jobTitle: 'Bookkeeper' });
  await c.addMember(12, 1, { role: 'USER', classification: 'ADVISOR', jobTitle: 'Advisor' });
  await c.addMember(13, 1, { role: 'USER' });
  await c.addMember(14, 1, { role: 'USER', jobTitle: 'Sales' });
  await c.addMember(21, 3, { role: 'USER', classification: 'ADVISOR' });

  await c.user(10, { type: 'VerifyUserEmail', actor: self(10), data: { email: 'ann@acme.example' } });
  await c.user(10, { type: 'RecordLogin', actor: self(10), data: { method: 'password' } });
  await c.user(10, { type: 'RecordLogin', actor: self(10), data: { method: 'password' } });
  await c.user(10, {
    type: 'RenameUser',
    actor: platformAdmin,
    data: { givenName: 'Annabel', familyName: 'Archer' },
  });
  await c.user(10, {
    type: 'ChangeUserEmail',
    actor: platformAdmin,
    data: { email: 'Annabel@Acme.example', emailInUse: false },
  });
  await c.user(10, { type: 'RequirePasswordReset', actor: platformAdmin, data: {} });

  const ann = tenantAdmin(10);
  await c.user(11, { type: 'ResetUserAuth', actor: platformAdmin, data: {} });
  await c.user(11, {
    type: 'ChangeMembershipJobTitle',
    actor: self(11),
    data: { tenantId: 1, jobTitle: 'Controller' },
  });
  await c.user(11, {
    type: 'ChangeMembershipReportPreferences',
    actor: self(11),
    data: { tenantId: 1, sendMonthly: true },
  });
  await c.user(11, { type: 'ChangeMembershipRole', actor: ann, data: { tenantId: 1, role: 'ADMIN' } });
  await c.user(13, {
    type: 'ChangePrimaryClassification',
    actor: platformAdmin,
    data: { classification: 'ADVISOR' },
  });
  await catchUp();
});

describe('the users read model', () => {
  it("holds a user's account: names, address and its verification, logins, sign-in method and flags", async () => {
    const { user } = await queryUserWithTenants(context.db, { userId: 10 });

    expect(user).toMatchObject({
      Id: 10,
      Email: 'annabel@acme.example',
      GivenName: 'Annabel',
      FamilyName: 'Archer',
      Name: 'Annabel Archer',
      // The changed address is unverified until confirmed.
      EmailVerified: false,
      Logins: 2,
      LastLogin: expect.stringMatching(/^2026-01-05T/) as string,
      LastLoginMethod: 'password',
      AuthProvider: 'password',
      PasswordResetRequired: true,
      PrimaryClassification: 'MEMBER',
      DefaultPartnerTenantId: null,
      deleted: false,
    });
    expect((await queryUserWithTenants(context.db, { userId: 11 })).user).toMatchObject({
      AuthProvider: null,
      JobTitle: 'Controller',
    });
  });

  it('lists all tenants of a user, by name, with the membership in each (admin expandable row)', async () => {
    const { user } = await queryUserWithTenants(context.db, { userId: 12 });

    expect(user).toMatchObject({ PrimaryClassification: 'ADVISOR', DefaultPartnerTenantId: 2 });
    expect(user?.Tenants.map((t) => [t.Id, t.Name, t.Membership.Role, t.Membership.Classification])).toEqual([
      [1, 'Acme', 'USER', 'ADVISOR'],
      [2, 'Cole Advisory', 'ADMIN', 'ADVISOR'],
    ]);
    expect(user?.Tenants[0]?.Membership.JobTitle).toBe('Advisor');
    expect((await queryUserWithTenants(context.db, { userId: 99 })).user).toBeNull();
  });

  it("shows a tenant's team with each member's role, status, job title and report choices, and no one else's", async () => {
    const { members } = await queryTeam(context.db, { tenantId: 1 });

    expect(members.map((m) => m.Name)).toEqual([
      'Annabel Archer',
      'Bob Brown',
      'Cara Cole',
      'Dan Drew',
      'Eve Evans',
    ]);
    expect(members.find((m) => m.Id === 11)?.Membership).toMatchObject({
      TenantId: 1,
      Role: 'ADMIN',
      Status: 'ACTIVE',
      Classification: 'MEMBER',
      JobTitle: 'Controller',
      SendWeekly: true,
      SendMonthly: true,
    });
    expect(await teamOf(3)).toEqual([
      [21, 'Yan Young', 'USER'],
      [20, 'Zed Zimmer', 'ADMIN'],
    ]);
    expect(await teamOf(2)).toEqual([[12, 'Cara Cole', 'ADMIN']]);
    expect(await teamOf(404)).toEqual([]);
  });

  it('lists users across tenants for admins: search by name, address or id, sorted and paged', async () => {
    expect(await listed({})).toEqual([10, 11, 12, 13, 14, 21, 20]);
    expect(await listed({ search: 'ACME.example' })).toEqual([10, 11, 13, 14]);
    expect(await listed({ search: 'cole' })).toEqual([12]);
    expect(await listed({ search: '20' })).toEqual([20]);
    expect(await listed({ search: 'nobody at all' })).toEqual([]);
    expect(await listed({ sort: { field: 'Logins', direction: 'desc' } })).toEqual([
      10, 11, 12, 13, 14, 20, 21,
    ]);

    const page = await queryUserList(context.db, {
      pageSize: 3,
      page: 2,
      sort: { field: 'Id', direction: 'asc' },
    });
    expect(page).toMatchObject({ total: 7, page: 2, pageSize: 3 });
    expect(page.rows.map((row) => [row.Id, row.TenantCount])).toEqual([
      [13, 1],
      [14, 1],
      [20, 1],
    ]);
    expect((await queryUserList(context.db, { search: 'cara' })).rows[0]?.TenantCount).toBe(2);
  });

  it('answers emailInUse for the normalised address, ignoring the user being edited', async () => {
    const inUse = async (email: string, exceptUserId?: number) =>
      (await emailInUse(context.db, { email, exceptUserId })).inUse;

    expect(await inUse('  ANNABEL@acme.EXAMPLE ')).toBe(true);
    expect(await inUse('ann@acme.example')).toBe(false);
    expect(await inUse('annabel@acme.example', 10)).toBe(false);
    expect((await userIdByEmail(context.db, { email: 'Zed@Other.example' })).userId).toBe(20);
  });

  it('counts the other active advisors and admins of a tenant, for LeaveTenant', async () => {
    // Acme: Annabel and Bob are admins, Cara is classified advisor there, Dan is an advisor by primary classification.
    expect(await others(1, 12)).toBe(3);
    expect(await others(1, 10)).toBe(3);
    expect(await others(3, 21)).toBe(1);
    expect(await others(2, 12)).toBe(0);

    await commands.user(11, {
      type: 'ChangeMembershipStatus',
      actor: tenantAdmin(10),
      data: { tenantId: 1, status: 'INACTIVE', toggleReports: true },
    });
    await catchUp();
    expect(await others(1, 12)).toBe(2);
  });

  it('lets an advisor leave while another active advisor or admin remains, and refuses the last one', async () => {
    const leave = async (userId: number, tenantId: number) =>
      commands.user(userId, {
        type: 'LeaveTenant',
        actor: self(userId),
        data: {
          tenantId,
          tenantClassification: 'BUSINESS',
          otherActiveAdvisorsOrAdmins: await others(tenantId, userId),
        },
      });

    await leave(12, 1);
    await commands.user(20, {
      type: 'ChangeMembershipStatus',
      actor: platformAdmin,
      data: { tenantId: 3, status: 'INACTIVE', toggleReports: false },
    });
    await catchUp();

    await expect(leave(21, 3)).rejects.toMatchObject({ code: 'conflict' });
    expect((await teamOf(1)).map(([id]) => id)).not.toContain(12);
    expect((await queryUserWithTenants(context.db, { userId: 12 })).user?.Tenants.map((t) => t.Id)).toEqual([
      2,
    ]);
  });

  it('forgets a deleted user everywhere, and a rebuild after the key erasure gives the same documents', async () => {
    await commands.user(14, { type: 'DeleteUser', actor: platformAdmin, data: {} });
    await context.keys.erase(userSubject(14));
    await catchUp();

    expect((await teamOf(1)).map(([id]) => id)).not.toContain(14);
    expect(await listed({ search: 'eve' })).toEqual([]);
    expect((await emailInUse(context.db, { email: 'eve@acme.example' })).inUse).toBe(false);
    expect((await queryUserWithTenants(context.db, { userId: 14 })).user).toMatchObject({
      deleted: true,
      Email: ERASED,
      Name: ERASED,
      JobTitle: ERASED,
      Tenants: [{ Id: 1, Membership: { JobTitle: ERASED } }],
    });

    const live = await versionChecksums(
      context.db,
      usersProjection,
      await currentVersion(context.db, 'users'),
    );
    const rebuilt = await rebuildProjection({ ...context, store }, usersProjection);
    expect(await versionChecksums(context.db, usersProjection, rebuilt.version)).toEqual(live);
  });

  it('writes the same documents when every event is delivered twice and the history replayed', async () => {
    const { live, twice, replayed } = await replayTwice({ ...context, store }, usersProjection);

    expect(live.users?.count).toBe(7);
    expect(twice).toEqual(live);
    expect(replayed).toEqual(live);
  });
});
