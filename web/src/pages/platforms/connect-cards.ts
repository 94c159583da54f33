import type { IntegrationProvider } from '../../../../contracts/events/integration';
import type { SellerProvider } from '../../../../contracts/events/seller';

export type ConnectCardId =
  | 'QBD'
  | 'QBO'
  | 'XERO'
  | 'SAGE'
  | 'AUTOFY'
  | 'DEMO'
  | 'STRIPE'
  | 'HUBSPOT'
  | 'HUBSPOT_REVOPS'
  | 'SALESFORCE'
  | 'ACTIVE_CAMPAIGN'
  | 'GOOGLE'
  | 'MICROSOFT';

/** How a card connects: a browser redirect, a form of ours, the Web Connector file, or one click. */
export type ConnectMethod =
  | { kind: 'redirect'; href: string }
  | { kind: 'sage' }
  | { kind: 'activeCampaign' }
  | { kind: 'qbd' }
  | { kind: 'demo' }
  /** A platform with no published API: shown, so the user learns it plainly, never connectable. */
  | { kind: 'unavailable'; reason: string };

export type ConnectCard = {
  id: ConnectCardId;
  name: string;
  description: string;
  /** Sellers (accounting and payments) or integrations (CRM and cloud). */
  group: 'platform' | 'integration';
  method: ConnectMethod;
  /** The plan product that unlocks it (docs/adr/0016-credential-vault.md), when gated. */
  feature?: string;
  provider: SellerProvider | IntegrationProvider;
  product?: 'REVOPS';
};

/** The connect cards of portal.md section 2.3, in its order. */
export const connectCards: readonly ConnectCard[] = [
  {
    id: 'QBD',
    name: 'QuickBooks Desktop',
    description: 'Web Connector file for QuickBooks Desktop.',
    group: 'platform',
    method: { kind: 'qbd' },
    feature: 'platforms/qbd_web_connector',
    provider: 'QBD',
  },
  {
    id: 'QBO',
    name: 'QuickBooks Online',
    description: 'Connect your QuickBooks Online company.',
    group: 'platform',
    method: { kind: 'redirect', href: '/api/connect/qbo' },
    provider: 'QBO',
  },
  {
    id: 'XERO',
    name: 'Xero',
    description: 'Connect your Xero organisation.',
    group: 'platform',
    method: { kind: 'redirect', href: '/api/connect/xero' },
    provider: 'XERO',
  },
  {
    id: 'SAGE',
    name: 'Sage Intacct',
    description: 'Connect with your Web Services credentials.',
    group: 'platform',
    method: { kind: 'sage' },
    feature: 'platforms/sage',
    provider: 'SAGE',
  },
  {
    id: 'AUTOFY',
    name: 'Autofy',
    description: 'Autofy publishes no API that Ledgerwise could read your books through.',
    group: 'platform',
    method: { kind: 'unavailable', reason: 'Not available: Autofy has no public API to connect to.' },
    provider: 'AUTOFY',
  },
  {
    id: 'DEMO',
    name: 'Demo platform',
    description: 'Try Ledgerwise with realistic sample receivables.',
    group: 'platform',
    method: { kind: 'demo' },
    provider: 'DEMO',
  },
  {
    id: 'STRIPE',
    name: 'Stripe',
    description: 'Card payments (platform administrators only).',
    group: 'platform',
    method: { kind: 'redirect', href: '/api/connect/stripe' },
    provider: 'STRIPE',
  },
  {
    id: 'HUBSPOT',
    name: 'HubSpot',
    description: 'Push receivables insights to your CRM.',
    group: 'integration',
    method: { kind: 'redirect', href: '/api/auth/hubspot/connect' },
    feature: 'integrations/hubspot',
    provider: 'HUBSPOT',
  },
  {
    id: 'HUBSPOT_REVOPS',
    name: 'HubSpot RevOps Pro',
    description: 'Revenue operations for HubSpot.',
    group: 'integration',
    method: { kind: 'redirect', href: '/api/auth/revops/connect' },
    feature: 'integrations/hubspot_revops',
    provider: 'HUBSPOT',
    product: 'REVOPS',
  },
  {
    id: 'SALESFORCE',
    name: 'Salesforce',
    description: 'Push receivables insights to Salesforce.',
    group: 'integration',
    method: { kind: 'redirect', href: '/api/auth/salesforce/connect' },
    feature: 'integrations/salesforce',
    provider: 'SALESFORCE',
  },
  {
    id: 'ACTIVE_CAMPAIGN',
    name: 'ActiveCampaign',
    description: 'Connect with your account URL and API key.',
    group: 'integration',
    method: { kind: 'activeCampaign' },
    feature: 'integrations/active_campaign',
    provider: 'ACTIVE_CAMPAIGN',
  },
  {
    id: 'GOOGLE',
    name: 'Google',
    description: 'Sync report sheets to Google Drive.',
    group: 'integration',
    method: { kind: 'redirect', href: '/api/auth/google/connect' },
    provider: 'GOOGLE',
  },
  {
    id: 'MICROSOFT',
    name: 'Microsoft',
    description: 'Sync report sheets to OneDrive.',
    group: 'integration',
    method: { kind: 'redirect', href: '/api/auth/microsoft/connect' },
    provider: 'MICROSOFT',
  },
];

export const gateTexts = {
  upgrade: 'Upgrade plan to access',
  demo: 'Disabled for the demo client',
  adminOnly: 'Only a company administrator can connect platforms.',
} as const;

/** HubSpot (and its RevOps Pro variant) and ActiveCampaign stay locked on a demo tenant even for platform admins. */
const demoBlocked: ReadonlySet<ConnectCardId> = new Set(['HUBSPOT', 'HUBSPOT_REVOPS', 'ACTIVE_CAMPAIGN']);

/**
 * What the tenant's plan gives (GET /api/tenants/{id}/features): nothing is assumed while it is
 * asked; if the call failed the cards stay open, since the server refuses what the plan lacks anyway.
 */
export type PlanGate =
  { status: 'loading' } | { status: 'known'; features: ReadonlySet<string> } | { status: 'unavailable' };

export type CardContext = {
  isPlatformAdmin: boolean;
  isTenantAdmin: boolean;
  isDemo: boolean;
  hasConnectedSeller: boolean;
  plan: PlanGate;
};

export type CardState = { shown: false } | { shown: true; disabled: boolean; hint: string | null };

const usable: CardState = { shown: true, disabled: false, hint: null };
const locked = (hint: string | null): CardState => ({ shown: true, disabled: true, hint });

/**
 * Whether a card shows and can be used (portal.md section 6). Stripe is for platform admins only;
 * other users see the platform cards only while no platform is connected and never on a demo tenant.
 * A demo tenant has every plan feature but no connections: HubSpot and ActiveCampaign are locked
 * there for everyone, the rest for all but platform admins (the server refuses them too). Elsewhere a
 * gated card needs its feature in the plan, platform admins included (the server checks the tenant's
 * plan, not the caller), and browser redirects need a company administrator.
 */
export const cardState = (card: ConnectCard, context: CardContext): CardState => {
  const { isPlatformAdmin, plan } = context;
  if (card.id === 'STRIPE' && !isPlatformAdmin) return { shown: false };
  if (card.group === 'platform' && !isPlatformAdmin && (context.hasConnectedSeller || context.isDemo))
    return { shown: false };
  if (card.method.kind === 'unavailable') return locked(card.method.reason);
  if (context.isDemo) return demoBlocked.has(card.id) || !isPlatformAdmin ? locked(gateTexts.demo) : usable;
  if (card.feature && plan.status === 'loading') return locked(null);
  if (card.feature && plan.status === 'known' && !plan.features.has(card.feature))
    return locked(gateTexts.upgrade);
  if (card.method.kind === 'redirect' && !context.isTenantAdmin && !isPlatformAdmin)
    return locked(gateTexts.adminOnly);
  return usable;
};
