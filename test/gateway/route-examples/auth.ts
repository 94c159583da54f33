import { person } from '../team-fixtures';
import { systemActor } from '../../../domain/actor';
import { userDecider } from '../../../domain/user/user-decider';
import { strongPassword } from '../fixtures';
import { invitationLinkOf } from '../invitation-link';
import type { Browser } from '../gateway-world';
import type { Cast, RouteExample } from './types';
import { userStream } from '../../../contracts/stream-ids';

let count = 0;
const unique = (cast: Cast, name: string) => cast.world.email(`${name}${(count += 1)}`);
const fresh = (cast: Cast, name: string) => person(cast.world, { name: `${name}${(count += 1)}` });

/** A pending invitation of tenant A, made by A's admin. */
const inviteInA = async (cast: Cast) => {
  const response = await cast.a.admin.browser.post('/api/auth/invite', {
    name: 'Ina',
    email: unique(cast, 'ina'),
    role: 'USER',
  });
  return response.json<{ Uuid: string }>().Uuid;
};

/** A fresh invitation into tenant A and the inviteId and token of its emailed link. */
const emailedInvitationInA = async (cast: Cast) => {
  const email = unique(cast, 'acc');
  await cast.a.admin.browser.post('/api/auth/invite', { name: 'Acc Epter', email, role: 'USER' });
  const { inviteId, token } = await invitationLinkOf(cast.world, email);
  return { inviteId, token };
};

/** The browser and the header carrying its anti-forgery token. */
const withCsrfHeader = async (browser: Browser) => {
  const { csrfToken } = (await browser.get('/api/auth/token')).json<{ csrfToken: string }>();
  return { as: browser, headers: { 'x-csrf-token': csrfToken } };
};

export const examples: RouteExample[] = [
  {
    method: 'POST',
    route: '/api/auth/login',
    access: 'public',
    happy: (cast) =>
      Promise.resolve({
        url: '/api/auth/login',
        body: { email: cast.a.user.email, password: strongPassword },
      }),
    badInput: () => Promise.resolve({ url: '/api/auth/login', body: { email: 'nope' } }),
    otherTenant: { notTenantData: 'signs in; the account is the credential' },
  },
  {
    method: 'GET',
    route: '/api/auth/self',
    access: 'session',
    happy: () => Promise.resolve({ url: '/api/auth/self' }),
    badInput: { none: 'takes no input' },
    otherTenant: { sameForEveryTenant: "answers the caller's own session" },
  },
  {
    method: 'GET',
    route: '/api/auth/logout',
    access: 'public',
    // Only with the anti-forgery header (tested without it in test/gateway/auth-routes.test.ts).
    happy: async (cast) => ({
      url: '/api/auth/logout?reason=Access%20Denied',
      ...(await withCsrfHeader((await fresh(cast, 'out')).browser)),
    }),
    // Sent by A's user (the route's least privileged caller): the header must be that browser's token.
    badInput: async (cast) => ({
      url: `/api/auth/logout?reason=${'x'.repeat(300)}`,
      ...(await withCsrfHeader(cast.a.user.browser)),
    }),
    otherTenant: { notTenantData: "ends the caller's own session" },
  },
  {
    method: 'POST',
    route: '/api/auth/logout',
    access: 'public',
    happy: async (cast) => ({
      url: '/api/auth/logout',
      body: { reason: 'Session Idle' },
      as: (await fresh(cast, 'out')).browser,
    }),
    badInput: () => Promise.resolve({ url: '/api/auth/logout', body: { reason: 'x'.repeat(300) } }),
    otherTenant: { notTenantData: "ends the caller's own session" },
  },
  {
    method: 'POST',
    route: '/api/auth/switchTenant',
    access: 'session',
    happy: (cast) => Promise.resolve({ url: '/api/auth/switchTenant', body: { tenantId: cast.a.tenantId } }),
    badInput: () => Promise.resolve({ url: '/api/auth/switchTenant', body: { tenantId: 'first' } }),
  },
  {
    method: 'POST',
    route: '/api/auth/leaveTenant',
    access: 'session',
    // An advisor of A who is not its only admin may leave it.
    happy: async (cast) => {
      const leaver = await fresh(cast, 'leaver');
      await cast.world.run(userDecider, userStream(leaver.session.user.Id), {
        type: 'JoinTenant',
        data: {
          tenantId: cast.a.tenantId,
          role: 'ADMIN',
          classification: 'ADVISOR',
          jobTitle: null,
          sendWeekly: false,
          sendMonthly: false,
          inviteId: null,
        },
        now: cast.world.clock.now(),
        actor: systemActor,
      });
      await cast.world.settle();
      return {
        url: '/api/auth/leaveTenant',
        body: { tenantId: cast.a.tenantId, confirmed: true },
        as: leaver.browser,
      };
    },
    badInput: (cast) =>
      Promise.resolve({ url: '/api/auth/leaveTenant', body: { tenantId: cast.a.tenantId } }),
    otherTenant: {
      notTenantData: 'B’s admin is not a member of A: the user decider refuses (tested in domain/user)',
    },
  },
  {
    method: 'POST',
    route: '/api/auth/register',
    access: 'public',
    happy: (cast) =>
      Promise.resolve({
        url: '/api/auth/register',
        body: { givenName: 'Reg', familyName: 'Ister', email: unique(cast, 'reg'), password: strongPassword },
        // Registering signs the browser in as the new account: not one of the cast's browsers.
        as: cast.world.browser(),
      }),
    badInput: () =>
      Promise.resolve({ url: '/api/auth/register', body: { givenName: 'X', email: 'x', password: 'weak' } }),
    otherTenant: { notTenantData: 'creates an account' },
  },
  {
    method: 'POST',
    route: '/api/auth/verify/resend',
    access: 'session',
    happy: () => Promise.resolve({ url: '/api/auth/verify/resend', body: {} }),
    badInput: () => Promise.resolve({ url: '/api/auth/verify/resend', body: { to: 'someone@else.test' } }),
    otherTenant: { sameForEveryTenant: "emails the caller's own address" },
  },
  {
    method: 'GET',
    route: '/api/auth/verify',
    access: 'public',
    status: 302,
    happy: () => Promise.resolve({ url: '/api/auth/verify?token=not-a-valid-token-at-all' }),
    badInput: () => Promise.resolve({ url: '/api/auth/verify' }),
    otherTenant: { notTenantData: 'the signed link is the credential' },
  },
  {
    method: 'POST',
    route: '/api/auth/recoverPassword',
    access: 'public',
    happy: (cast) =>
      Promise.resolve({ url: '/api/auth/recoverPassword', body: { email: cast.a.user.email } }),
    badInput: () => Promise.resolve({ url: '/api/auth/recoverPassword', body: { email: 'not an email' } }),
    otherTenant: { notTenantData: 'answers the same for every address' },
  },
  {
    method: 'GET',
    route: '/api/auth/recover',
    access: 'public',
    status: 302,
    happy: () => Promise.resolve({ url: '/api/auth/recover?token=1.not-a-real-recovery-token' }),
    badInput: () => Promise.resolve({ url: '/api/auth/recover?token=' }),
    otherTenant: { notTenantData: 'the emailed token is the credential' },
  },
  {
    method: 'POST',
    route: '/api/auth/resetPassword',
    access: 'session',
    happy: async (cast) => {
      const changer = await fresh(cast, 'changer');
      return {
        url: '/api/auth/resetPassword',
        body: { password: 'Changed-Pass-1', currentPassword: strongPassword },
        as: changer.browser,
      };
    },
    badInput: () => Promise.resolve({ url: '/api/auth/resetPassword', body: { password: 'alllowercase' } }),
    otherTenant: { sameForEveryTenant: "changes the caller's own password" },
  },
  {
    method: 'POST',
    route: '/api/auth/invite',
    access: 'tenantAdmin',
    happy: (cast) =>
      Promise.resolve({
        url: '/api/auth/invite',
        body: { name: 'Ann', email: unique(cast, 'inv'), role: 'USER' },
      }),
    badInput: () =>
      Promise.resolve({ url: '/api/auth/invite', body: { name: '', email: 'not-an-email', role: 'OWNER' } }),
    otherTenant: { sameForEveryTenant: "invites into the caller's current tenant" },
  },
  {
    method: 'DELETE',
    route: '/api/auth/invite/:id',
    access: 'tenantAdmin',
    happy: async (cast) => ({ url: `/api/auth/invite/${await inviteInA(cast)}` }),
    badInput: () => Promise.resolve({ url: '/api/auth/invite/not-a-uuid' }),
  },
  {
    method: 'POST',
    route: '/api/auth/invitation/accept',
    access: 'public',
    // A new address: accepting creates its account and signs the (fresh) browser in.
    happy: async (cast) => ({
      url: '/api/auth/invitation/accept',
      body: await emailedInvitationInA(cast),
      as: cast.world.browser(),
    }),
    badInput: () =>
      Promise.resolve({
        url: '/api/auth/invitation/accept',
        body: { inviteId: 'not-a-uuid', token: 'short' },
      }),
    otherTenant: { notTenantData: 'the emailed token is the credential, whoever holds it' },
  },
  {
    method: 'GET',
    route: '/api/admin/streams/:streamId/history',
    access: 'platformAdmin',
    happy: (cast) => Promise.resolve({ url: `/api/admin/streams/tenant-${cast.a.tenantId}/history` }),
    badInput: () => Promise.resolve({ url: '/api/admin/streams/Not%20a%20stream/history' }),
    otherTenant: { notTenantData: 'platform admins only' },
  },
];
