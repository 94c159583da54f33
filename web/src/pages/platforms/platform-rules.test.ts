import { cardState, connectCards, gateTexts, type CardContext, type ConnectCardId } from './connect-cards';
import {
  companyUrlOf,
  isRecent,
  qbdSyncWarning,
  sellerProgressText,
  sellerStatusText,
} from './seller-status';

const now = new Date('2030-03-01T12:00:00.000Z');
const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();
const daysAgo = (days: number) => minutesAgo(days * 24 * 60);
const day = (iso: string) => new Date(iso).toLocaleDateString();

describe('seller status texts', () => {
  const seller = (overrides: Partial<Parameters<typeof sellerStatusText>[0]> = {}) => ({
    Provider: 'QBO' as const,
    AuthToken: { Owner: null, RefreshedAt: null, Status: 'ACTIVE' as const },
    CollectionDate: null,
    ...overrides,
  });

  it('says Authentication Revoked first, then the last sync, then pending installation or sync', () => {
    const synced = daysAgo(2);
    expect(
      sellerStatusText(
        seller({ CollectionDate: synced, AuthToken: { Owner: null, RefreshedAt: null, Status: 'REVOKED' } }),
      ),
    ).toBe('Authentication Revoked');
    expect(sellerStatusText(seller({ CollectionDate: synced }))).toBe(`Last sync on ${day(synced)}`);
    expect(sellerStatusText(seller({ Provider: 'QBD' }))).toBe('Pending installation...');
    expect(sellerStatusText(seller())).toBe('Pending sync...');
  });

  it('follows syncing, generating and completed', () => {
    expect(sellerProgressText({ CollectionDate: null, MetricsDate: null })).toBe('Syncing...');
    expect(sellerProgressText({ CollectionDate: daysAgo(1), MetricsDate: null })).toBe(
      'Generating metrics...',
    );
    expect(sellerProgressText({ CollectionDate: daysAgo(1), MetricsDate: daysAgo(1) })).toBe('Completed');
  });

  it('calls a date recent under 60 minutes, stale at 60 or when empty', () => {
    expect(isRecent(minutesAgo(59), now)).toBe(true);
    expect(isRecent(minutesAgo(60), now)).toBe(false);
    expect(isRecent(null, now)).toBe(false);
  });

  it('warns about a QBD seller not synced for more than 10 days, never about one not yet synced', () => {
    expect(qbdSyncWarning({ Provider: 'QBD', CollectionDate: daysAgo(11) }, now)).toBe(true);
    expect(qbdSyncWarning({ Provider: 'QBD', CollectionDate: daysAgo(9) }, now)).toBe(false);
    expect(qbdSyncWarning({ Provider: 'QBD', CollectionDate: null }, now)).toBe(false);
    expect(qbdSyncWarning({ Provider: 'QBO', CollectionDate: daysAgo(30) }, now)).toBe(false);
  });

  it('adds http:// to a company URL without a scheme', () => {
    expect(companyUrlOf('acme.com')).toBe('http://acme.com');
    expect(companyUrlOf('https://acme.com')).toBe('https://acme.com');
    expect(companyUrlOf(null)).toBeNull();
  });
});

describe('connect card gating', () => {
  const admin: CardContext = {
    isPlatformAdmin: false,
    isTenantAdmin: true,
    isDemo: false,
    hasConnectedSeller: false,
    features: new Set(),
  };
  const stateOf = (id: ConnectCardId, context: CardContext) =>
    cardState(
      connectCards.find((card) => card.id === id)!,
      context,
    );

  it('disables the plan-gated cards with Upgrade plan to access, and only those', () => {
    for (const id of ['QBD', 'SAGE', 'HUBSPOT', 'HUBSPOT_REVOPS', 'SALESFORCE', 'ACTIVE_CAMPAIGN'] as const)
      expect(stateOf(id, admin)).toEqual({ shown: true, disabled: true, hint: gateTexts.upgrade });
    for (const id of ['QBO', 'XERO', 'DEMO', 'GOOGLE', 'MICROSOFT'] as const)
      expect(stateOf(id, admin)).toEqual({ shown: true, disabled: false, hint: null });
    const withSage = { ...admin, features: new Set(['platforms/sage']) };
    expect(stateOf('SAGE', withSage)).toEqual({ shown: true, disabled: false, hint: null });
  });

  it('shows Stripe to platform admins only, and every card to them even with a seller', () => {
    expect(stateOf('STRIPE', admin)).toEqual({ shown: false });
    const platformAdmin = { ...admin, isPlatformAdmin: true, hasConnectedSeller: true };
    expect(stateOf('STRIPE', platformAdmin)).toEqual({ shown: true, disabled: false, hint: null });
    expect(stateOf('QBO', platformAdmin)).toEqual({ shown: true, disabled: false, hint: null });
  });

  it('hides the platform cards once a platform is connected, keeping the integrations', () => {
    const connected = { ...admin, hasConnectedSeller: true };
    expect(stateOf('QBO', connected)).toEqual({ shown: false });
    expect(stateOf('DEMO', connected)).toEqual({ shown: false });
    expect(stateOf('GOOGLE', connected).shown).toBe(true);
  });

  it('on a demo tenant hides platforms, disables HubSpot and ActiveCampaign, and enables the rest', () => {
    const demo = { ...admin, isDemo: true };
    expect(stateOf('QBO', demo)).toEqual({ shown: false });
    expect(stateOf('HUBSPOT', demo)).toEqual({ shown: true, disabled: true, hint: gateTexts.demo });
    expect(stateOf('ACTIVE_CAMPAIGN', demo)).toEqual({ shown: true, disabled: true, hint: gateTexts.demo });
    expect(stateOf('SALESFORCE', demo)).toEqual({ shown: true, disabled: false, hint: null });
  });

  it('leaves the cards open while the plan is unknown, and asks a standard user for an administrator', () => {
    expect(stateOf('SAGE', { ...admin, features: null })).toEqual({
      shown: true,
      disabled: false,
      hint: null,
    });
    const user = { ...admin, isTenantAdmin: false, features: null };
    expect(stateOf('QBO', user)).toEqual({ shown: true, disabled: true, hint: gateTexts.adminOnly });
    expect(stateOf('DEMO', user)).toEqual({ shown: true, disabled: false, hint: null });
  });
});
