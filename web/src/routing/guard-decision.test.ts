import type { SessionFacts } from '../session/session-facts';
import { afterLoginPath, guardDecision } from './guard-decision';
import type { RouteMeta } from './route-access';

const user = (overrides: Partial<SessionFacts> = {}): SessionFacts => ({
  isPlatformAdmin: false,
  isTenantAdmin: false,
  isAdvisor: false,
  isFirm: false,
  isDemo: false,
  tenantCount: 1,
  hasTenant: true,
  resetPasswordRequired: false,
  ...overrides,
});

const route = (access: RouteMeta['access'], extra: Partial<RouteMeta> = {}): RouteMeta => ({
  name: 'Page',
  access,
  ...extra,
});

describe('route guards (portal.md section 2.2)', () => {
  it('sends a guest to /login keeping the page as the return address', () => {
    expect(
      guardDecision({ route: route('signedIn'), path: '/platforms?connected=QBO', session: null }),
    ).toEqual({
      kind: 'redirect',
      to: '/login?returnTo=%2Fplatforms%3Fconnected%3DQBO',
    });
  });

  it('sends a user who has just logged in on to the return address, or a platform admin to the admin area', () => {
    const login = route('guestOnly');
    expect(guardDecision({ route: login, path: '/login?returnTo=%2Fplatforms', session: user() })).toEqual({
      kind: 'redirect',
      to: '/platforms',
    });
    expect(guardDecision({ route: login, path: '/login', session: user({ isPlatformAdmin: true }) })).toEqual(
      {
        kind: 'redirect',
        to: '/admin/overview',
      },
    );
    expect(guardDecision({ route: login, path: '/login', session: user() })).toEqual({
      kind: 'redirect',
      to: '/overview',
    });
  });

  it('shows signed-in pages to a signed-in user', () => {
    expect(guardDecision({ route: route('signedIn'), path: '/platforms', session: user() })).toEqual({
      kind: 'show',
    });
  });

  it('sends a signed-in user away from the guest-only pages to /', () => {
    expect(guardDecision({ route: route('guestOnly'), path: '/register', session: user() })).toEqual({
      kind: 'redirect',
      to: '/',
    });
    expect(guardDecision({ route: route('guestOnly'), path: '/forgot', session: user() })).toEqual({
      kind: 'redirect',
      to: '/',
    });
    expect(guardDecision({ route: route('guestOnly'), path: '/register', session: null })).toEqual({
      kind: 'show',
    });
  });

  it('sends a user who must reset their password to /reset-password from every other page', () => {
    const session = user({ resetPasswordRequired: true });
    for (const access of ['signedIn', 'guestOnly', 'any', 'tenantAdmin'] as const) {
      expect(guardDecision({ route: route(access), path: '/overview', session })).toEqual({
        kind: 'redirect',
        to: '/reset-password',
      });
    }
    expect(guardDecision({ route: route('signedIn'), path: '/reset-password', session })).toEqual({
      kind: 'show',
    });
  });

  it('logs out on a force-logout page, and shows it to a guest', () => {
    const invite = route('any', { forceLogout: true });
    expect(guardDecision({ route: invite, path: '/invite-cancelled', session: user() })).toEqual({
      kind: 'logout',
    });
    expect(guardDecision({ route: invite, path: '/invite-cancelled', session: null })).toEqual({
      kind: 'show',
    });
  });

  it('sends non-platform-admins away from admin-only pages', () => {
    const admin = route('platformAdmin');
    expect(
      guardDecision({ route: admin, path: '/admin/overview', session: user({ isTenantAdmin: true }) }),
    ).toEqual({
      kind: 'redirect',
      to: '/',
    });
    expect(
      guardDecision({ route: admin, path: '/admin/overview', session: user({ isPlatformAdmin: true }) }),
    ).toEqual({
      kind: 'show',
    });
  });

  it('keeps advisor pages for advisors and settings for tenant admins; platform admins pass both', () => {
    expect(guardDecision({ route: route('advisor'), path: '/clients', session: user() }).kind).toBe(
      'redirect',
    );
    expect(
      guardDecision({ route: route('advisor'), path: '/clients', session: user({ isAdvisor: true }) }).kind,
    ).toBe('show');
    expect(guardDecision({ route: route('tenantAdmin'), path: '/settings', session: user() }).kind).toBe(
      'redirect',
    );
    expect(
      guardDecision({
        route: route('tenantAdmin'),
        path: '/settings',
        session: user({ isTenantAdmin: true }),
      }).kind,
    ).toBe('show');
    expect(
      guardDecision({
        route: route('tenantAdmin'),
        path: '/settings',
        session: user({ isPlatformAdmin: true }),
      }).kind,
    ).toBe('show');
  });

  it('shows the pages open to anyone to guests and users alike', () => {
    expect(guardDecision({ route: route('any'), path: '/nowhere', session: null })).toEqual({ kind: 'show' });
    expect(guardDecision({ route: route('any'), path: '/nowhere', session: user() })).toEqual({
      kind: 'show',
    });
  });
});

describe('where login goes', () => {
  it('goes to the return address, else /admin/overview for platform admins, else /overview', () => {
    expect(afterLoginPath({ returnTo: '/platforms', isPlatformAdmin: false })).toBe('/platforms');
    expect(afterLoginPath({ returnTo: null, isPlatformAdmin: true })).toBe('/admin/overview');
    expect(afterLoginPath({ returnTo: null, isPlatformAdmin: false })).toBe('/overview');
  });

  it('never follows a return address to another site', () => {
    expect(afterLoginPath({ returnTo: '//evil.example/x', isPlatformAdmin: false })).toBe('/overview');
    expect(afterLoginPath({ returnTo: 'https://evil.example', isPlatformAdmin: false })).toBe('/overview');
  });
});
