import { PendingInvitesResponse } from '../../contracts/api/users';
import {
  AcceptInvitationResponse,
  SessionResponse,
  invitationForAnotherAccount,
  invitationNoLongerValid,
} from '../../contracts/auth';
import { ErrorResponse } from '../../contracts/errors';
import { invitationTokenHash } from '../../gateway/auth/signed-links';
import { companyFor, platformAdmin, signUp, strongPassword } from './fixtures';
import type { Browser } from './gateway-world';
import { useGatewayWorld } from './gateway-world';
import { invitationLinkOf, type InvitationLink } from './invitation-link';
import { placesHolding } from './secret-scan';

/**
 * Issue 12, defect 2: invitation links carry a secret token that only the email holds, expire after
 * 7 days, work once, and never open a session for an account that already exists
 * (docs/adr/0020-invitation-tokens.md). On the real servers, reading the links from MailDev.
 */
const world = useGatewayWorld(__filename);

const dayMs = 24 * 3_600_000;

const companyAdmin = async (name: string) => {
  const owner = await signUp(world, { name });
  const tenantId = await companyFor(world, owner, { name: `${name} Co` });
  return { ...owner, tenantId };
};

const invite = async (inviter: { browser: Browser }, email: string, role = 'USER') => {
  const response = await inviter.browser.post('/api/auth/invite', { name: 'Ivy Invitee', email, role });
  expect([response.statusCode, response.statusCode === 200 ? '' : response.body]).toEqual([200, '']);
  return response;
};

const accept = (browser: Browser, link: Pick<InvitationLink, 'inviteId' | 'token'>) =>
  browser.post('/api/auth/invitation/accept', { inviteId: link.inviteId, token: link.token });

const sessionOf = async (browser: Browser) => {
  const response = await browser.get('/api/auth/self');
  return response.statusCode === 200 ? SessionResponse.parse(response.json()) : null;
};

const pendingOf = async (admin: { browser: Browser }) =>
  PendingInvitesResponse.parse((await admin.browser.get('/api/users?pending=1')).json()).invites;

const refusedAsNoLongerValid = (response: { statusCode: number; json: () => unknown }) => {
  expect(response.statusCode).toBe(409);
  expect(ErrorResponse.parse(response.json()).message).toBe(invitationNoLongerValid);
};

describe('invitation links', () => {
  it('a new address: the emailed token creates the account, joins the company, asks for a password; once', async () => {
    const owner = await companyAdmin('inviter');
    const email = world.email('newcomer');
    await invite(owner, email);
    const again = await owner.browser.post('/api/auth/invite', { name: 'Ivy', email, role: 'USER' });
    expect(again.statusCode).toBe(409);
    const link = await invitationLinkOf(world, email);
    expect(link.path).toBe('/invitation');

    const invitee = world.browser();
    const accepted = await accept(invitee, link);
    expect(AcceptInvitationResponse.parse(accepted.json())).toEqual({
      outcome: 'joined',
      tenantId: owner.tenantId,
      next: '/reset-password',
    });
    expect(await sessionOf(invitee)).toMatchObject({
      user: { Email: email },
      resetPasswordRequired: true,
      tenant: { Id: owner.tenantId },
      membership: { Role: 'USER' },
    });
    expect((await invitee.post('/api/auth/resetPassword', { password: 'Invitee-Pass-1' })).statusCode).toBe(
      200,
    );
    const login = await world.browser().post('/api/auth/login', { email, password: 'Invitee-Pass-1' });
    expect(login.statusCode).toBe(200);

    // Used once: the same link in another browser opens nothing.
    const stranger = world.browser();
    refusedAsNoLongerValid(await accept(stranger, link));
    expect(await sessionOf(stranger)).toBeNull();
    expect(await pendingOf(owner)).toEqual([]);
  });

  it('the takeover chain fails: a company that invites the platform admin gets no session of theirs', async () => {
    const admin = await platformAdmin(world);
    const attacker = await companyAdmin('attacker');
    const invited = await invite(attacker, admin.email, 'ADMIN');
    const { Uuid } = invited.json<{ Uuid: string }>();

    // The id from the invite answer opens nothing: no GET accepts, and no token is known to the attacker.
    const fresh = world.browser();
    expect((await fresh.get(`/api/auth/invitation/${Uuid}`)).statusCode).toBe(404);
    refusedAsNoLongerValid(await accept(fresh, { inviteId: Uuid, token: 'A'.repeat(43) }));
    expect(fresh.cookies.has('lw_session')).toBe(false);

    // Even the genuine emailed link, opened signed out, asks the account's owner to sign in first.
    const link = await invitationLinkOf(world, admin.email);
    expect(link.inviteId).toBe(Uuid);
    const signedOut = world.browser();
    expect((await accept(signedOut, link)).json()).toEqual({ outcome: 'signInRequired', email: admin.email });
    expect(signedOut.cookies.has('lw_session')).toBe(false);
    expect(await sessionOf(signedOut)).toBeNull();

    // Signed in as someone else (the attacker), the link is refused and the session stays theirs.
    const asAttacker = await accept(attacker.browser, link);
    expect(asAttacker.statusCode).toBe(403);
    expect(ErrorResponse.parse(asAttacker.json()).message).toBe(invitationForAnotherAccount);
    expect((await sessionOf(attacker.browser))?.user.Email).toBe(attacker.email);
    expect((await pendingOf(attacker)).map((i) => i.Uuid)).toEqual([Uuid]);
  });

  it('an existing user accepts after signing in as themselves and lands in the company', async () => {
    const owner = await companyAdmin('host');
    const member = await signUp(world, { name: 'existing' });
    await invite(owner, member.email, 'ADMIN');
    const link = await invitationLinkOf(world, member.email);

    const browser = world.browser();
    expect((await accept(browser, link)).json()).toEqual({ outcome: 'signInRequired', email: member.email });
    const login = await browser.post('/api/auth/login', { email: member.email, password: strongPassword });
    expect(login.statusCode).toBe(200);
    expect((await accept(browser, link)).json()).toEqual({
      outcome: 'joined',
      tenantId: owner.tenantId,
      next: '/overview',
    });
    expect(await sessionOf(browser)).toMatchObject({
      user: { Id: member.session.user.Id },
      resetPasswordRequired: false,
      tenant: { Id: owner.tenantId },
      membership: { Role: 'ADMIN' },
    });
    expect(await pendingOf(owner)).toEqual([]);
  });

  it('expires 7 days after the invitation; the address can then be invited again', async () => {
    const owner = await companyAdmin('patient');
    const email = world.email('late');
    await invite(owner, email);
    const link = await invitationLinkOf(world, email);
    world.clock.advance(7 * dayMs + 60_000);
    try {
      const late = world.browser();
      refusedAsNoLongerValid(await accept(late, link));
      expect(await sessionOf(late)).toBeNull();
      expect(await pendingOf(owner)).toEqual([]);
      await invite(owner, email);
      const renewed = await invitationLinkOf(world, email, 1);
      expect(renewed.token).not.toBe(link.token);
      expect((await accept(world.browser(), renewed)).statusCode).toBe(200);
    } finally {
      world.clock.reset();
    }
  });

  it('a cancelled invitation opens nothing', async () => {
    const owner = await companyAdmin('canceller');
    const email = world.email('cancelled');
    const { Uuid } = (await invite(owner, email, 'ADMIN')).json<{ Uuid: string }>();
    expect((await owner.browser.delete(`/api/auth/invite/${Uuid}`)).statusCode).toBe(200);
    const link = await invitationLinkOf(world, email);
    const browser = world.browser();
    refusedAsNoLongerValid(await accept(browser, link));
    expect(await sessionOf(browser)).toBeNull();
  });

  it('the token is in no answer, no pending list, no event and no read model', async () => {
    const owner = await companyAdmin('secretive');
    const email = world.email('secret');
    const invited = await invite(owner, email);
    const link = await invitationLinkOf(world, email);
    expect(link.token).toMatch(/^[\w-]{43}$/);
    expect(Object.keys(invited.json<object>()).sort()).toEqual(['Email', 'Name', 'Uuid', 'status']);
    const pendingList = (await owner.browser.get('/api/users?pending=1')).body;
    expect(pendingList).toContain(link.inviteId);
    for (const text of [invited.body, pendingList]) {
      expect(text).not.toContain(link.token);
      expect(text).not.toContain(invitationTokenHash(link.token));
    }
    expect(await placesHolding(world, link.token)).toEqual([]);
    // Accepting records the request without its token either.
    expect((await accept(world.browser(), link)).statusCode).toBe(200);
    expect(await placesHolding(world, link.token)).toEqual([]);
  });

  it('lets only tenant admins invite', async () => {
    const owner = await companyAdmin('boss');
    const email = world.email('plainuser');
    await invite(owner, email);
    const user = world.browser();
    await accept(user, await invitationLinkOf(world, email));
    await user.post('/api/auth/resetPassword', { password: 'Plain-User-Pass-1' });
    const refused = await user.post('/api/auth/invite', {
      name: 'Other',
      email: world.email('other'),
      role: 'USER',
    });
    expect(refused.statusCode).toBe(403);
  });
});

describe('logout', () => {
  it('answers the GET of the spec only with the anti-forgery header; the web app POSTs', async () => {
    const { browser } = await signUp(world, { name: 'leaver' });
    // What a cross-site <img src=".../api/auth/logout"> sends: the cookies, no header.
    const forged = await browser.get('/api/auth/logout?reason=Session%20Idle');
    expect(forged.statusCode).toBe(403);
    expect(await sessionOf(browser)).not.toBeNull();

    const { csrfToken } = (await browser.get('/api/auth/token')).json<{ csrfToken: string }>();
    const withHeader = await browser.request({
      method: 'GET',
      url: '/api/auth/logout?reason=Session%20Idle',
      headers: { 'x-csrf-token': csrfToken },
    });
    expect(withHeader.json()).toEqual({ loggedOut: true, reason: 'Session Idle' });
    expect(await sessionOf(browser)).toBeNull();

    const again = await signUp(world, { name: 'poster' });
    const refused = await again.browser.request({
      method: 'POST',
      url: '/api/auth/logout',
      body: {},
      withoutCsrf: true,
    });
    expect(refused.statusCode).toBe(403);
    expect(await sessionOf(again.browser)).not.toBeNull();
    expect((await again.browser.post('/api/auth/logout', { reason: 'Access Denied' })).json()).toEqual({
      loggedOut: true,
      reason: 'Access Denied',
    });
    expect(await sessionOf(again.browser)).toBeNull();
  });
});
