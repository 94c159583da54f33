import { cardState, connectCards, gateTexts, type CardContext, type ConnectCardId } from './connect-cards';
import { companyUrlOf, sellerStatusText } from './seller-status';

const now = new Date('2030-03-01T12:00:00.000Z');
const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();
const daysAgo = (days: number) => minutesAgo(days * 24 * 60);
const day = (iso: string) => new Date(iso).toLocaleDateString();

describe('seller status texts', () => {
  it("shows the server's status, the day of the last sync in the user's own format", () => {
    const synced = daysAgo(2);
    expect(sellerStatusText({ kind: 'synced', text: 'Last sync on 2030-02-27', lastSync: synced })).toBe(
      `Last sync on ${day(synced)}`,
    );
    expect(sellerStatusText({ kind: 'revoked', text: 'Authentication Revoked' })).toBe(
      'Authentication Revoked',
    );
    expect(sellerStatusText({ kind: 'pending_installation', text: 'Pending installation...' })).toBe(
      'Pending installation...',
    );
  });

  it('adds http:// to a company URL without a scheme', () => {
    expect(companyUrlOf('acme.com')).toBe('http://acme.com');
    expect(companyUrlOf('https://acme.com')).toBe('https://acme.com');
    expect(companyUrlOf(null)).toBeNull();
  });
});

describe('connect card gating', () => {
  const noFeatures = { status: 'known', features: new Set<string>() } as const;
  const admin: CardContext = {
    isPlatformAdmin: false,
    isTenantAdmin: true,
    isDemo: false,
    hasConnectedSeller: false,
    plan: noFeatures,
  };
  const platformAdmin: CardContext = { ...admin, isTenantAdmin: false, isPlatformAdmin: true };
  const stateOf = (id: ConnectCardId, context: CardContext) =>
    cardState(
      connectCards.find((card) => card.id === id)!,
      context,
    );
  const usable = { shown: true, disabled: false, hint: null };
  const upgrade = { shown: true, disabled: true, hint: gateTexts.upgrade };
  const demoLocked = { shown: true, disabled: true, hint: gateTexts.demo };
  const gated = ['QBD', 'SAGE', 'HUBSPOT', 'HUBSPOT_REVOPS', 'SALESFORCE', 'ACTIVE_CAMPAIGN'] as const;

  it('locks the plan-gated cards with Upgrade plan to access, and only those', () => {
    for (const id of gated) expect(stateOf(id, admin)).toEqual(upgrade);
    for (const id of ['QBO', 'XERO', 'DEMO', 'GOOGLE', 'MICROSOFT'] as const)
      expect(stateOf(id, admin)).toEqual(usable);
  });

  it('shows Autofy, which has no public API, locked for everyone with the plain reason', () => {
    const unavailable = {
      shown: true,
      disabled: true,
      hint: 'Not available: Autofy has no public API to connect to.',
    };
    expect(stateOf('AUTOFY', admin)).toEqual(unavailable);
    expect(stateOf('AUTOFY', platformAdmin)).toEqual(unavailable);
  });

  it('opens each gated card by its own feature of the plan', () => {
    const features = new Set(['platforms/sage', 'integrations/hubspot_revops']);
    const withSome = { ...admin, plan: { status: 'known', features } } as const;
    expect(stateOf('SAGE', withSome)).toEqual(usable);
    expect(stateOf('HUBSPOT_REVOPS', withSome)).toEqual(usable);
    // RevOps Pro is a product of its own: it does not open plain HubSpot.
    expect(stateOf('HUBSPOT', withSome)).toEqual(upgrade);
    expect(stateOf('QBD', withSome)).toEqual(upgrade);
  });

  it('keeps the plan gate for platform admins, since the server checks the company plan', () => {
    expect(stateOf('SAGE', platformAdmin)).toEqual(upgrade);
    expect(stateOf('QBO', platformAdmin)).toEqual(usable);
  });

  it('shows Stripe to platform admins only, and the platform cards to them even with a seller', () => {
    expect(stateOf('STRIPE', admin)).toEqual({ shown: false });
    const withSeller = { ...platformAdmin, hasConnectedSeller: true };
    expect(stateOf('STRIPE', withSeller)).toEqual(usable);
    expect(stateOf('QBO', withSeller)).toEqual(usable);
  });

  it('hides the platform cards once a platform is connected, keeping the integrations', () => {
    const connected = { ...admin, hasConnectedSeller: true };
    expect(stateOf('QBO', connected)).toEqual({ shown: false });
    expect(stateOf('DEMO', connected)).toEqual({ shown: false });
    expect(stateOf('GOOGLE', connected)).toEqual(usable);
  });

  it('on a demo tenant hides the platforms and locks every connection for its users', () => {
    const demo = { ...admin, isDemo: true };
    expect(stateOf('QBO', demo)).toEqual({ shown: false });
    for (const id of ['HUBSPOT', 'HUBSPOT_REVOPS', 'ACTIVE_CAMPAIGN', 'SALESFORCE', 'GOOGLE'] as const)
      expect(stateOf(id, demo)).toEqual(demoLocked);
  });

  it('on a demo tenant gives platform admins every plan feature except HubSpot and ActiveCampaign', () => {
    const demo = { ...platformAdmin, isDemo: true, plan: { status: 'loading' } } as const;
    for (const id of ['QBD', 'SAGE', 'SALESFORCE', 'QBO'] as const) expect(stateOf(id, demo)).toEqual(usable);
    for (const id of ['HUBSPOT', 'HUBSPOT_REVOPS', 'ACTIVE_CAMPAIGN'] as const)
      expect(stateOf(id, demo)).toEqual(demoLocked);
  });

  it('locks the gated cards without a hint while the plan is asked, and opens them if it cannot be read', () => {
    const loading = { ...admin, plan: { status: 'loading' } } as const;
    expect(stateOf('SAGE', loading)).toEqual({ shown: true, disabled: true, hint: null });
    expect(stateOf('QBO', loading)).toEqual(usable);
    expect(stateOf('SAGE', { ...admin, plan: { status: 'unavailable' } })).toEqual(usable);
  });

  it('asks a standard user for an administrator on browser redirects only', () => {
    const user = { ...admin, isTenantAdmin: false };
    expect(stateOf('QBO', user)).toEqual({ shown: true, disabled: true, hint: gateTexts.adminOnly });
    expect(stateOf('DEMO', user)).toEqual(usable);
    // The plan comes first: an administrator could not connect it either.
    expect(stateOf('SALESFORCE', user)).toEqual(upgrade);
  });
});
