import {
  PendingInvitesResponse,
  TeamMember,
  TeamResponse,
  UserListResponse,
  UserWithTenants,
} from '../../contracts/api/users';
import { ErrorResponse } from '../../contracts/errors';
import { useGatewayWorld } from './gateway-world';
import { companyFor, platformAdmin } from './fixtures';
import { joinAs, person, type Person } from './team-fixtures';

const world = useGatewayWorld(__filename);

let adminPromise: ReturnType<typeof platformAdmin> | undefined;
const theAdmin = () => (adminPromise ??= platformAdmin(world));

let count = 0;
/** A business with its ADMIN owner and a plain USER; a second business with its own admin. */
const team = async () => {
  count += 1;
  const owner = await person(world, {
    name: `owner${count}`,
    givenName: 'Olive',
    familyName: `Owner${count}`,
  });
  const tenantId = await companyFor(world, owner, { name: `Team ${count}` });
  const member = await person(world, {
    name: `member${count}`,
    givenName: 'Max',
    familyName: `Member${count}`,
  });
  await joinAs(world, member, { tenantId, role: 'USER' });
  const stranger = await person(world, { name: `stranger${count}` });
  const otherTenantId = await companyFor(world, stranger, { name: `Elsewhere ${count}` });
  return { tenantId, owner, member, stranger, otherTenantId };
};

const idOf = (person: Person) => person.session.user.Id;

describe('GET /api/users: the team, pending invites, the admin list', () => {
  it('lists the current company’s team with each membership, to every member', async () => {
    const { owner, member, stranger } = await team();
    for (const viewer of [owner, member]) {
      const response = await viewer.browser.get('/api/users');
      expect(response.statusCode).toBe(200);
      const { members } = TeamResponse.parse(response.json());
      expect(members.map((m) => [m.Id, m.Membership.Role])).toEqual(
        expect.arrayContaining([
          [idOf(owner), 'ADMIN'],
          [idOf(member), 'USER'],
        ]),
      );
      expect(members).toHaveLength(2);
    }
    // Another company's admin sees their own team only.
    const theirs = TeamResponse.parse((await stranger.browser.get('/api/users')).json());
    expect(theirs.members.map((m) => m.Id)).toEqual([idOf(stranger)]);
    expect((await world.browser().get('/api/users')).statusCode).toBe(401);
  });

  it('shows pending invites to the tenant admin only', async () => {
    const { owner, member } = await team();
    const email = world.email(`invitee${count}`);
    const invited = await owner.browser.post('/api/auth/invite', {
      name: 'Ivy Invitee',
      email,
      role: 'USER',
    });
    expect(invited.statusCode).toBe(200);
    const response = await owner.browser.get('/api/users?pending=1');
    expect(response.statusCode).toBe(200);
    expect(PendingInvitesResponse.parse(response.json()).invites).toEqual([
      expect.objectContaining({ Email: email, Name: 'Ivy Invitee', Role: 'USER' }),
    ]);
    expect((await member.browser.get('/api/users?pending=1')).statusCode).toBe(403);
  });

  it('lists every user for a platform admin, searched and paged; refuses anyone else', async () => {
    const { owner } = await team();
    const admin = await theAdmin();
    const response = await admin.browser.get(`/api/users?scope=all&search=Owner${count}&pageSize=5`);
    expect(response.statusCode).toBe(200);
    const page = UserListResponse.parse(response.json());
    expect(page.users.map((u) => u.Id)).toEqual([idOf(owner)]);
    expect(page).toMatchObject({ total: 1, page: 1, pageSize: 5 });
    expect(page.users[0]?.TenantCount).toBe(1);
    // A NUL byte in the search box (found by schemathesis) is ignored rather than failing the query.
    const withNul = await admin.browser.get(`/api/users?scope=all&search=Owner${count}%00&pageSize=5`);
    expect(withNul.statusCode).toBe(200);
    expect(UserListResponse.parse(withNul.json()).users.map((u) => u.Id)).toEqual([idOf(owner)]);

    expect((await owner.browser.get('/api/users?scope=all')).statusCode).toBe(403);
    const bad = await admin.browser.get('/api/users?scope=all&page=0&sort=Shoe');
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(ErrorResponse.parse(bad.json()).properties ?? {})).toEqual(
      expect.arrayContaining(['page', 'sort']),
    );
  });
});

describe('GET /api/users/:id', () => {
  it('shows a colleague with only the companies shared with the viewer; others get 404', async () => {
    const { tenantId, owner, member, stranger, otherTenantId } = await team();
    // The member also works for the stranger's company, which the owner must not learn about.
    await joinAs(world, member, { tenantId: otherTenantId, role: 'USER' });
    const seen = await owner.browser.get(`/api/users/${idOf(member)}`);
    expect(seen.statusCode).toBe(200);
    expect(UserWithTenants.parse(seen.json()).Tenants.map((t) => t.Id)).toEqual([tenantId]);

    const own = UserWithTenants.parse((await member.browser.get(`/api/users/${idOf(member)}`)).json());
    expect(own.Tenants.map((t) => t.Id).sort()).toEqual([tenantId, otherTenantId].sort());

    expect((await stranger.browser.get(`/api/users/${idOf(owner)}`)).statusCode).toBe(404);
    const admin = await theAdmin();
    const all = UserWithTenants.parse((await admin.browser.get(`/api/users/${idOf(member)}`)).json());
    expect(all.Tenants).toHaveLength(2);
    expect((await owner.browser.get('/api/users/abc')).statusCode).toBe(422);
  });
});

describe('PUT and PATCH /api/users/:id', () => {
  it('lets a tenant admin change a member’s job title and role, by PUT or PATCH', async () => {
    const { tenantId, owner, member } = await team();
    const put = await owner.browser.put(`/api/users/${idOf(member)}`, {
      JobTitle: 'Bookkeeper',
      Role: 'ADMIN',
    });
    expect(put.statusCode).toBe(200);
    const membership = UserWithTenants.parse(put.json()).Tenants.find((t) => t.Id === tenantId)?.Membership;
    expect(membership).toMatchObject({ JobTitle: 'Bookkeeper', Role: 'ADMIN' });

    const patch = await owner.browser.patch(`/api/users/${idOf(member)}`, { Role: 'USER' });
    expect(patch.statusCode).toBe(200);
    expect(UserWithTenants.parse(patch.json()).Tenants[0]?.Membership).toMatchObject({
      JobTitle: 'Bookkeeper',
      Role: 'USER',
    });
  });

  it('lets members edit their own job title but not their role, nor others', async () => {
    const { owner, member } = await team();
    const own = await member.browser.put(`/api/users/${idOf(member)}`, { JobTitle: 'Sales' });
    expect(own.statusCode).toBe(200);
    expect(UserWithTenants.parse(own.json()).Tenants[0]?.Membership.JobTitle).toBe('Sales');

    const promote = await member.browser.put(`/api/users/${idOf(member)}`, { Role: 'ADMIN' });
    expect(promote.statusCode).toBe(403);
    expect((await member.browser.put(`/api/users/${idOf(owner)}`, { JobTitle: 'Other' })).statusCode).toBe(
      403,
    );
  });

  it('keeps account fields for platform admins, and fails a mixed save whole', async () => {
    const { owner, member } = await team();
    const refused = await owner.browser.put(`/api/users/${idOf(member)}`, {
      JobTitle: 'Executive',
      Name: 'Renamed Person',
    });
    expect(refused.statusCode).toBe(403);
    const after = UserWithTenants.parse((await owner.browser.get(`/api/users/${idOf(member)}`)).json());
    expect(after.Tenants[0]?.Membership.JobTitle).toBeNull();

    const admin = await theAdmin();
    const email = world.email(`renamed${count}`);
    const edited = await admin.browser.put(`/api/users/${idOf(member)}`, {
      Name: 'Mary Ann Member',
      Email: email,
      PrimaryClassification: 'ADVISOR',
      ActiveCampaignId: 'ac-42',
    });
    expect(edited.statusCode).toBe(200);
    expect(UserWithTenants.parse(edited.json())).toMatchObject({
      GivenName: 'Mary',
      FamilyName: 'Ann Member',
      Email: email,
      PrimaryClassification: 'ADVISOR',
      ActiveCampaignId: 'ac-42',
    });
  });

  it('answers an address in use with not_unique, bad fields with 422, another company with 404', async () => {
    const { owner, member, stranger } = await team();
    const admin = await theAdmin();
    const taken = await admin.browser.put(`/api/users/${idOf(member)}`, { Email: owner.email });
    expect(taken.statusCode).toBe(422);
    expect(ErrorResponse.parse(taken.json())).toMatchObject({
      message: 'The email is already in use.',
      properties: { email: 'not_unique' },
    });

    const bad = await owner.browser.put(`/api/users/${idOf(member)}`, { Role: 'OWNER', Shoe: 1 });
    expect(bad.statusCode).toBe(422);
    const properties = ErrorResponse.parse(bad.json()).properties ?? {};
    expect(properties.Shoe).toBe('unknown field');
    expect(properties).toHaveProperty('Role');

    expect((await stranger.browser.put(`/api/users/${idOf(member)}`, { JobTitle: 'Spy' })).statusCode).toBe(
      404,
    );
  });

  it('refuses an edit made from a stale page with 412', async () => {
    const { owner, member } = await team();
    const first = await owner.browser.put(`/api/users/${idOf(member)}`, { JobTitle: 'Marketing' });
    const etag = String(first.headers.etag);
    await owner.browser.put(`/api/users/${idOf(member)}`, { JobTitle: 'Sales' });
    const stale = await owner.browser.request({
      method: 'PUT',
      url: `/api/users/${idOf(member)}`,
      body: { JobTitle: 'Consultant' },
      headers: { 'if-match': etag },
    });
    expect(stale.statusCode).toBe(412);
  });

  it('assigns a firm’s advisor administrator to all clients; nobody in a business', async () => {
    const advisor = await person(world, { name: `advisor${count}` });
    await companyFor(world, advisor, { name: `Firm ${count}`, classification: 'FIRM' });
    const assigned = await advisor.browser.put(`/api/users/${idOf(advisor)}`, { AssignToAllClients: true });
    expect(assigned.statusCode).toBe(200);
    expect(UserWithTenants.parse(assigned.json()).AssignToAllClients).toBe(true);

    const { owner } = await team();
    const refused = await owner.browser.put(`/api/users/${idOf(owner)}`, { AssignToAllClients: true });
    expect(refused.statusCode).toBe(422);
    expect(ErrorResponse.parse(refused.json()).properties).toHaveProperty('AssignToAllClients');
  });
});

describe('PUT /api/users/:id/status', () => {
  it('disables a member’s access, which the access check then refuses, and enables it again', async () => {
    const { owner, member } = await team();
    const disabled = await owner.browser.put(`/api/users/${idOf(member)}/status`, {
      Status: 'INACTIVE',
      ToggleReports: true,
    });
    expect(disabled.statusCode).toBe(200);
    expect(TeamMember.parse(disabled.json()).Membership.Status).toBe('INACTIVE');
    expect((await member.browser.get('/api/users')).statusCode).toBe(403);

    const enabled = await owner.browser.put(`/api/users/${idOf(member)}/status`, { Status: 'ACTIVE' });
    expect(TeamMember.parse(enabled.json()).Membership.Status).toBe('ACTIVE');
    expect((await member.browser.get('/api/users')).statusCode).toBe(200);
  });

  it('with ToggleReports takes the member’s report subscriptions along, and gives back only those', async () => {
    const { owner, member } = await team();
    const seller = await owner.browser.post('/api/sellers', { provider: 'DEMO' });
    expect(seller.statusCode).toBe(200);
    const sellerId = seller.json<{ Id: number }>().Id;
    const subscribed = await member.browser.post('/api/subscriptions', { userId: idOf(member), sellerId });
    expect(subscribed.statusCode).toBe(200);
    const stateOfMember = async () => {
      const rows = (await owner.browser.get('/api/subscriptions')).json<{
        rows: { SubscriberId: number; STATE: string }[];
      }>().rows;
      return rows.find((row) => row.SubscriberId === idOf(member))?.STATE;
    };

    await owner.browser.put(`/api/users/${idOf(member)}/status`, { Status: 'INACTIVE', ToggleReports: true });
    expect(await stateOfMember()).toBe('DEACTIVATED');
    await owner.browser.put(`/api/users/${idOf(member)}/status`, { Status: 'ACTIVE', ToggleReports: true });
    expect(await stateOfMember()).toBe('ACTIVE');
    // Without ToggleReports the subscriptions stay as they are.
    await owner.browser.put(`/api/users/${idOf(member)}/status`, {
      Status: 'INACTIVE',
      ToggleReports: false,
    });
    expect(await stateOfMember()).toBe('ACTIVE');
  });

  it('is for tenant admins, not on themselves, about their own company, with a valid status', async () => {
    const { owner, member, stranger } = await team();
    expect(
      (await member.browser.put(`/api/users/${idOf(owner)}/status`, { Status: 'INACTIVE' })).statusCode,
    ).toBe(403);
    expect(
      (await owner.browser.put(`/api/users/${idOf(owner)}/status`, { Status: 'INACTIVE' })).statusCode,
    ).toBe(403);
    expect(
      (await stranger.browser.put(`/api/users/${idOf(member)}/status`, { Status: 'INACTIVE' })).statusCode,
    ).toBe(404);
    const bad = await owner.browser.put(`/api/users/${idOf(member)}/status`, { Status: 'GONE' });
    expect(bad.statusCode).toBe(422);
    expect(ErrorResponse.parse(bad.json()).properties).toHaveProperty('Status');
  });
});

describe('DELETE /api/users/:id and /api/users/:id/auth (platform admin)', () => {
  it('deletes a user: their sessions end and they are gone from the team', async () => {
    const { owner, member } = await team();
    expect((await owner.browser.delete(`/api/users/${idOf(member)}`)).statusCode).toBe(403);
    const admin = await theAdmin();
    const deleted = await admin.browser.delete(`/api/users/${idOf(member)}`);
    expect(deleted.statusCode).toBe(200);
    expect((await member.browser.get('/api/auth/self')).statusCode).toBe(401);
    expect((await admin.browser.get(`/api/users/${idOf(member)}`)).statusCode).toBe(404);
    const { members } = TeamResponse.parse((await owner.browser.get('/api/users')).json());
    expect(members.map((m) => m.Id)).toEqual([idOf(owner)]);
    expect((await admin.browser.delete(`/api/users/${idOf(admin)}`)).statusCode).toBe(403);
  });

  it('resets a user’s auth: signed out, the old password no longer works', async () => {
    const { owner, member } = await team();
    expect((await owner.browser.delete(`/api/users/${idOf(member)}/auth`)).statusCode).toBe(403);
    const admin = await theAdmin();
    expect((await admin.browser.delete(`/api/users/${idOf(member)}/auth`)).statusCode).toBe(200);
    expect((await member.browser.get('/api/auth/self')).statusCode).toBe(401);
    const login = await world
      .browser()
      .post('/api/auth/login', { email: member.email, password: member.password });
    expect(login.statusCode).toBe(401);
    expect((await admin.browser.delete('/api/users/0/auth')).statusCode).toBe(422);
  });
});

describe('GET and PUT /api/browser/:key', () => {
  it('keeps a UI value per user and per company', async () => {
    const { owner, member, otherTenantId } = await team();
    const progress = { firstReport: 'dismissed', recipient: 'completed', steps: [1, 2] };
    const saved = await owner.browser.put('/api/browser/dashboard-progress', { value: progress });
    expect(saved.statusCode).toBe(200);
    expect((await owner.browser.get('/api/browser/dashboard-progress')).json()).toEqual({
      key: 'dashboard-progress',
      value: progress,
    });
    // Another user of the same company, and the same user in another company, have their own.
    expect((await member.browser.get('/api/browser/dashboard-progress')).json()).toMatchObject({
      value: null,
    });
    await joinAs(world, owner, { tenantId: otherTenantId, role: 'USER' });
    expect((await owner.browser.get('/api/browser/dashboard-progress')).json()).toMatchObject({
      value: null,
    });
    expect((await world.browser().get('/api/browser/dashboard-progress')).statusCode).toBe(401);
  });

  it('refuses a bad key, a missing value and more than 16 KB', async () => {
    const { owner } = await team();
    const badKey = await owner.browser.put('/api/browser/..%2Fsecret', { value: 1 });
    expect(badKey.statusCode).toBe(422);
    expect(ErrorResponse.parse(badKey.json()).properties).toHaveProperty('key');
    const missing = await owner.browser.put('/api/browser/dashboard-progress', {});
    expect(ErrorResponse.parse(missing.json()).properties).toHaveProperty('value');
    const huge = await owner.browser.put('/api/browser/dashboard-progress', { value: 'x'.repeat(17 * 1024) });
    expect(huge.statusCode).toBe(422);
    expect(ErrorResponse.parse(huge.json()).properties).toHaveProperty('value');
  });
});
