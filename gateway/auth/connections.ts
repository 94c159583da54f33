import type { ConnectProvider } from '../../contracts/api/oidc';
import type { Config } from '../../contracts/config';
import type { IntegrationProduct, IntegrationProvider } from '../../contracts/events/integration';
import type { SellerProvider } from '../../contracts/events/seller';
import type { OAuthEndpoints } from './oauth-clients';

/**
 * The platform connections made by browser redirect (portal.md section 7): the start route of each,
 * the provider's production scopes, and what the connection records. Google and Microsoft reuse the
 * sign-in issuers (OpenID Connect, so the account's email names the credentials' owner); the others
 * are plain OAuth 2.0 apps whose endpoints come from the configuration.
 */
export type Connection = {
  /** The start route, exactly as registered. */
  route: string;
  /** The callback's path segment: /api/connect/<callback>/callback. */
  callback: ConnectProvider;
  /** As the portal names the platform in messages. */
  name: string;
  target:
    | { kind: 'seller'; provider: SellerProvider }
    | { kind: 'integration'; provider: IntegrationProvider; product: IntegrationProduct | null };
  scopes: readonly string[];
  /** Extra authorization parameters (offline access, forced consent for a refresh token). */
  extraParams?: Readonly<Record<string, string>>;
  /** 'openid': the sign-in issuer of that provider; otherwise the configured endpoints. */
  endpoints: { openid: 'google' | 'microsoft' } | ((config: Config) => OAuthEndpoints);
  /** Only platform administrators may start it (the Stripe card, portal.md section 6). */
  platformAdminOnly?: boolean;
};

const googleOffline = { access_type: 'offline', prompt: 'consent' } as const;

export const connections: readonly Connection[] = [
  {
    route: '/api/connect/qbo',
    callback: 'qbo',
    name: 'QuickBooks Online',
    target: { kind: 'seller', provider: 'QBO' },
    scopes: ['com.intuit.quickbooks.accounting'],
    endpoints: (config) => ({
      authorizeUrl: config.OAUTH_QBO_AUTHORIZE_URL,
      tokenUrl: config.OAUTH_QBO_TOKEN_URL,
      clientId: config.OAUTH_QBO_CLIENT_ID,
      clientSecret: config.OAUTH_QBO_CLIENT_SECRET,
      clientAuth: 'basic',
    }),
  },
  {
    route: '/api/connect/xero',
    callback: 'xero',
    name: 'Xero',
    target: { kind: 'seller', provider: 'XERO' },
    scopes: [
      'offline_access',
      'accounting.transactions.read',
      'accounting.contacts.read',
      'accounting.settings.read',
      'accounting.reports.read',
    ],
    endpoints: (config) => ({
      authorizeUrl: config.OAUTH_XERO_AUTHORIZE_URL,
      tokenUrl: config.OAUTH_XERO_TOKEN_URL,
      clientId: config.OAUTH_XERO_CLIENT_ID,
      clientSecret: config.OAUTH_XERO_CLIENT_SECRET,
      clientAuth: 'basic',
    }),
  },
  {
    route: '/api/connect/stripe',
    callback: 'stripe',
    name: 'Stripe',
    target: { kind: 'seller', provider: 'STRIPE' },
    scopes: ['read_only'],
    platformAdminOnly: true,
    endpoints: (config) => ({
      authorizeUrl: config.OAUTH_STRIPE_AUTHORIZE_URL,
      tokenUrl: config.OAUTH_STRIPE_TOKEN_URL,
      clientId: config.OAUTH_STRIPE_CLIENT_ID,
      clientSecret: config.OAUTH_STRIPE_CLIENT_SECRET,
      clientAuth: 'post',
    }),
  },
  {
    route: '/api/auth/hubspot/connect',
    callback: 'hubspot',
    name: 'HubSpot',
    target: { kind: 'integration', provider: 'HUBSPOT', product: null },
    // Reads companies, contacts and owners; writes back tasks, notes, missing companies and contacts,
    // and the Ledgerwise properties it creates on first use (ADR 47).
    scopes: [
      'oauth',
      'crm.objects.contacts.read',
      'crm.objects.contacts.write',
      'crm.objects.companies.read',
      'crm.objects.companies.write',
      'crm.objects.deals.read',
      'crm.objects.owners.read',
      'crm.schemas.companies.read',
      'crm.schemas.companies.write',
      'crm.schemas.contacts.read',
      'crm.schemas.contacts.write',
    ],
    endpoints: (config) => ({
      authorizeUrl: config.OAUTH_HUBSPOT_AUTHORIZE_URL,
      tokenUrl: config.OAUTH_HUBSPOT_TOKEN_URL,
      clientId: config.OAUTH_HUBSPOT_CLIENT_ID,
      clientSecret: config.OAUTH_HUBSPOT_CLIENT_SECRET,
      clientAuth: 'post',
    }),
  },
  {
    route: '/api/auth/revops/connect',
    callback: 'revops',
    name: 'HubSpot RevOps Pro',
    target: { kind: 'integration', provider: 'HUBSPOT', product: 'REVOPS' },
    // RevOps Pro writes what plain HubSpot writes, plus its property group and timeline events.
    scopes: [
      'oauth',
      'crm.objects.contacts.read',
      'crm.objects.contacts.write',
      'crm.objects.companies.read',
      'crm.objects.companies.write',
      'crm.objects.deals.read',
      'crm.objects.owners.read',
      'crm.schemas.companies.read',
      'crm.schemas.companies.write',
      'crm.schemas.contacts.read',
      'crm.schemas.contacts.write',
      'timeline',
    ],
    endpoints: (config) => ({
      authorizeUrl: config.OAUTH_REVOPS_AUTHORIZE_URL,
      tokenUrl: config.OAUTH_REVOPS_TOKEN_URL,
      clientId: config.OAUTH_REVOPS_CLIENT_ID,
      clientSecret: config.OAUTH_REVOPS_CLIENT_SECRET,
      clientAuth: 'post',
    }),
  },
  {
    route: '/api/auth/salesforce/connect',
    callback: 'salesforce',
    name: 'Salesforce',
    target: { kind: 'integration', provider: 'SALESFORCE', product: null },
    scopes: ['api', 'refresh_token'],
    endpoints: (config) => ({
      authorizeUrl: config.OAUTH_SALESFORCE_AUTHORIZE_URL,
      tokenUrl: config.OAUTH_SALESFORCE_TOKEN_URL,
      clientId: config.OAUTH_SALESFORCE_CLIENT_ID,
      clientSecret: config.OAUTH_SALESFORCE_CLIENT_SECRET,
      clientAuth: 'post',
    }),
  },
  // connect: the account and the file access Live Reports write with (the reason to connect it);
  // authorise: the same file access asked again, for an account connected without it.
  {
    route: '/api/auth/google/connect',
    callback: 'google',
    name: 'Google',
    target: { kind: 'integration', provider: 'GOOGLE', product: null },
    scopes: ['openid', 'email', 'profile', 'https://www.googleapis.com/auth/drive.file'],
    extraParams: googleOffline,
    endpoints: { openid: 'google' },
  },
  {
    route: '/api/auth/google/authorise',
    callback: 'google',
    name: 'Google',
    target: { kind: 'integration', provider: 'GOOGLE', product: null },
    scopes: ['openid', 'email', 'https://www.googleapis.com/auth/drive.file'],
    extraParams: { ...googleOffline, include_granted_scopes: 'true' },
    endpoints: { openid: 'google' },
  },
  {
    route: '/api/auth/microsoft/connect',
    callback: 'microsoft',
    name: 'Microsoft',
    target: { kind: 'integration', provider: 'MICROSOFT', product: null },
    scopes: ['openid', 'email', 'profile', 'offline_access', 'User.Read', 'Files.ReadWrite'],
    endpoints: { openid: 'microsoft' },
  },
  {
    route: '/api/auth/microsoft/authorise',
    callback: 'microsoft',
    name: 'Microsoft',
    target: { kind: 'integration', provider: 'MICROSOFT', product: null },
    scopes: ['openid', 'email', 'offline_access', 'Files.ReadWrite'],
    extraParams: { prompt: 'consent' },
    endpoints: { openid: 'microsoft' },
  },
];

export const connectionByRoute = (route: string): Connection | undefined =>
  connections.find((connection) => connection.route === route);
