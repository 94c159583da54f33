import { z } from 'zod';

/**
 * Every process reads one configuration object, parsed from the environment once at start-up.
 * Defaults point at the local servers of deploy/local, so nothing needs configuring to run locally.
 * A bad variable stops the process with a message that names it (see loadConfig).
 */
const url = (protocols: readonly string[]) =>
  z
    .string()
    .trim()
    .refine((value) => protocols.some((p) => value.startsWith(`${p}://`)), {
      message: `must be a URL starting with ${protocols.map((p) => `${p}://`).join(' or ')}`,
    });

const port = z.coerce.number().int().min(1).max(65535);

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/** An OAuth client id or secret: unset until the operator registers the app with the provider. */
const oauthClientValue = z.string().trim().min(1).optional();

const DEV_SESSION_SECRET = 'ledgerwise-local-development-secret-do-not-use';
/** Public, so the webhook route refuses every delivery in production while it is still the secret. */
export const DEV_STRIPE_WEBHOOK_SECRET = 'whsec_ledgerwise_local_development';
const DEV_PLATFORM_ADMIN_EMAILS = 'admin@ledgerwise.local';
const DEV_SEED_ADMIN_PASSWORD = 'Ledgerwise-admin-1';
/** s3rver's fixed key pair (deploy/local); production names its own. */
const DEV_S3_KEY = 'S3RVER';

/** An IPv4 or IPv6 address, optionally with a /prefix (Fastify's trustProxy takes such a list). */
const addressOrCidr =
  /^(?:\d{1,3}(?:\.\d{1,3}){3}(?:\/\d{1,2})?|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*(?:\/\d{1,3})?)$/;

export const ConfigEnv = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    DATA_DIR: z.string().min(1).default('.data'),

    GATEWAY_HOST: z.string().min(1).default('127.0.0.1'),
    GATEWAY_PORT: port.default(3000),
    PUBLIC_URL: url(['http', 'https']).default('http://127.0.0.1:3000'),
    PROJECTOR_HEALTH_PORT: port.default(3001),
    WORKER_HEALTH_PORT: port.default(3002),
    ANALYTICS_HEALTH_PORT: port.default(3003),
    /**
     * The master secret; each use (cookie signatures, link signatures, the credential vault) gets its
     * own key derived from it with HKDF and a purpose label (gateway/auth/derived-keys.ts).
     */
    SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').default(DEV_SESSION_SECRET),
    /**
     * Addresses or CIDR ranges of the reverse proxies in front of the gateway, comma separated; only
     * their X-Forwarded-For is believed. None by default: the peer's address is the client's, so a
     * forged header cannot reset rate limits, lockout or the audit trail's IP.
     */
    TRUSTED_PROXIES: z
      .string()
      .default('')
      .transform((value) =>
        value
          .split(',')
          .map((entry) => entry.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.string().regex(addressOrCidr, 'must be IP addresses or CIDR ranges, comma separated'))),

    /** When set, events go to EventStoreDB; otherwise to the embedded SQLite store under DATA_DIR. */
    EVENTSTORE_URL: url(['esdb', 'esdb+discover']).optional(),
    /**
     * When set, read models go to MongoDB; otherwise to the embedded SQLite read store at
     * READ_STORE_PATH (default `<DATA_DIR>/read-models.sqlite`), which has real indexes on machines
     * without a MongoDB server (docs/adr/0028-embedded-read-store.md).
     */
    MONGO_URL: url(['mongodb', 'mongodb+srv']).optional(),
    READ_STORE_PATH: z.string().min(1).optional(),
    KAFKA_BROKERS: z
      .string()
      .default('127.0.0.1:9092')
      .transform((value) => value.split(',').map((broker) => broker.trim()))
      .pipe(z.array(z.string().regex(/^[^:\s]+:\d+$/, 'must be host:port[,host:port...]')).min(1)),
    TEMPORAL_ADDRESS: z
      .string()
      .regex(/^[^:\s]+:\d+$/, 'must be host:port')
      .default('127.0.0.1:7233'),
    TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
    TEMPORAL_UI_URL: url(['http', 'https']).default('http://127.0.0.1:8233'),
    /** Task queues are `<prefix>-<concern>` (sync, metrics, reports, datasets, system); tests use their own prefix. */
    TEMPORAL_TASK_QUEUE_PREFIX: z
      .string()
      .regex(/^[\w.-]+$/, 'letters, digits, dot, dash or underscore')
      .default('ledgerwise'),
    /** Kafka topics and consumer groups are prefixed too, so test runs never share them. */
    KAFKA_TOPIC_PREFIX: z
      .string()
      .regex(/^[\w.-]+$/, 'letters, digits, dot, dash or underscore')
      .default('ledgerwise'),
    SMTP_URL: url(['smtp', 'smtps']).default('smtp://127.0.0.1:1025'),
    MAIL_FROM: z.string().min(3).default('Ledgerwise <reports@ledgerwise.local>'),
    MAILDEV_URL: url(['http', 'https']).default('http://127.0.0.1:1080'),
    STRIPE_API_URL: url(['http', 'https']).default('http://127.0.0.1:12111'),
    STRIPE_SECRET_KEY: z.string().min(1).default('sk_test_123'),
    /** Signs the payment provider's webhook deliveries (docs/adr/0039-billing.md); production names its own. */
    STRIPE_WEBHOOK_SECRET: z.string().min(1).default(DEV_STRIPE_WEBHOOK_SECRET),
    /**
     * The report archive's object store (docs/adr/0035-report-archive.md): any S3-compatible service.
     * Locally s3rver from deploy/local, which takes only its fixed S3RVER key pair; the bucket is
     * created on first use. Path-style addressing (bucket in the path) suits local and most non-AWS servers.
     */
    S3_ENDPOINT: url(['http', 'https']).default('http://127.0.0.1:4568'),
    S3_BUCKET: z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
        'must be an S3 bucket name (3 to 63 lowercase letters, digits, dots, dashes)',
      )
      .default('ledgerwise-reports'),
    S3_REGION: z.string().min(1).default('us-east-1'),
    S3_ACCESS_KEY_ID: z.string().min(1).default(DEV_S3_KEY),
    S3_SECRET_ACCESS_KEY: z.string().min(1).default(DEV_S3_KEY),
    S3_FORCE_PATH_STYLE: booleanFlag.default(true),
    SEED_DEMO: booleanFlag.default(true),
    /** Requests per minute per client address on ordinary API routes (login, recovery and 404s have lower limits). */
    RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
    /**
     * Platform administrators are named by the operator, never granted through the API
     * (docs/adr/0013-gateway-access.md): accounts with these emails get the platform-admin flag
     * once they have verified the address.
     */
    PLATFORM_ADMIN_EMAILS: z
      .string()
      .default(DEV_PLATFORM_ADMIN_EMAILS)
      .transform((value) =>
        value
          .split(',')
          .map((email) => email.trim().toLowerCase())
          .filter(Boolean),
      ),
    /** Password of the seeded platform administrator on a local run (SEED_DEMO); never used in production. */
    SEED_ADMIN_PASSWORD: z.string().min(8).default(DEV_SEED_ADMIN_PASSWORD),

    /**
     * Sign-in with Google and Microsoft (OpenID Connect, discovered from the issuer) and the OAuth apps
     * of the platform connections (docs/adr/0014-oidc-and-provider-connect.md). Endpoints default to the
     * providers' production URLs; tests point them at a local server. Without a client id a provider's
     * buttons answer with an error instead of a redirect.
     */
    OAUTH_GOOGLE_ISSUER: url(['http', 'https']).default('https://accounts.google.com'),
    OAUTH_GOOGLE_CLIENT_ID: oauthClientValue,
    OAUTH_GOOGLE_CLIENT_SECRET: oauthClientValue,
    // The multi-tenant endpoint: work, school and personal accounts (openid-client checks the tenant's issuer).
    OAUTH_MICROSOFT_ISSUER: url(['http', 'https']).default('https://login.microsoftonline.com/common/v2.0'),
    OAUTH_MICROSOFT_CLIENT_ID: oauthClientValue,
    OAUTH_MICROSOFT_CLIENT_SECRET: oauthClientValue,
    OAUTH_QBO_AUTHORIZE_URL: url(['http', 'https']).default('https://appcenter.intuit.com/connect/oauth2'),
    OAUTH_QBO_TOKEN_URL: url(['http', 'https']).default(
      'https://oauth.platform.intuit.com/oauth2/v1/tokens/bearer',
    ),
    OAUTH_QBO_CLIENT_ID: oauthClientValue,
    OAUTH_QBO_CLIENT_SECRET: oauthClientValue,
    OAUTH_XERO_AUTHORIZE_URL: url(['http', 'https']).default(
      'https://login.xero.com/identity/connect/authorize',
    ),
    OAUTH_XERO_TOKEN_URL: url(['http', 'https']).default('https://identity.xero.com/connect/token'),
    OAUTH_XERO_CLIENT_ID: oauthClientValue,
    OAUTH_XERO_CLIENT_SECRET: oauthClientValue,
    OAUTH_STRIPE_AUTHORIZE_URL: url(['http', 'https']).default('https://connect.stripe.com/oauth/authorize'),
    OAUTH_STRIPE_TOKEN_URL: url(['http', 'https']).default('https://connect.stripe.com/oauth/token'),
    /** Stripe Connect's client id (ca_...); the token exchange authenticates with the platform's secret key. */
    OAUTH_STRIPE_CLIENT_ID: oauthClientValue,
    OAUTH_STRIPE_CLIENT_SECRET: oauthClientValue,
    /**
     * The accounting platforms' data APIs the sync connectors call (docs/adr/0040-accounting-connectors.md).
     * Production defaults; tests point them at the local fakes of test/fakes/. Stripe sellers use
     * STRIPE_API_URL and STRIPE_SECRET_KEY above, on behalf of the connected account.
     */
    QBO_API_URL: url(['http', 'https']).default('https://quickbooks.api.intuit.com'),
    XERO_API_URL: url(['http', 'https']).default('https://api.xero.com'),
    /**
     * Sage Intacct's XML gateway and our Web Services sender credentials (every request carries them
     * beside the company's login of the connect form). Without a sender the connect form cannot try
     * the login: production refuses Sage connections then, development connects untried.
     */
    SAGE_INTACCT_API_URL: url(['http', 'https']).default('https://api.intacct.com/ia/xml/xmlgw.phtml'),
    SAGE_SENDER_ID: oauthClientValue,
    SAGE_SENDER_PASSWORD: oauthClientValue,
    /** The longest a connector waits on a platform's Retry-After before failing the sync in words. */
    CONNECTOR_MAX_RETRY_WAIT_SECONDS: z.coerce.number().int().min(0).max(3600).default(120),
    OAUTH_HUBSPOT_AUTHORIZE_URL: url(['http', 'https']).default('https://app.hubspot.com/oauth/authorize'),
    OAUTH_HUBSPOT_TOKEN_URL: url(['http', 'https']).default('https://api.hubapi.com/oauth/v1/token'),
    OAUTH_HUBSPOT_CLIENT_ID: oauthClientValue,
    OAUTH_HUBSPOT_CLIENT_SECRET: oauthClientValue,
    /** HubSpot's CRM API (HubSpot and RevOps Pro integrations); tests point it at test/fakes/hubspot-fake.ts. */
    HUBSPOT_API_URL: url(['http', 'https']).default('https://api.hubapi.com'),
    /** RevOps Pro is a HubSpot app of its own (more scopes), with its own client. */
    OAUTH_REVOPS_AUTHORIZE_URL: url(['http', 'https']).default('https://app.hubspot.com/oauth/authorize'),
    OAUTH_REVOPS_TOKEN_URL: url(['http', 'https']).default('https://api.hubapi.com/oauth/v1/token'),
    OAUTH_REVOPS_CLIENT_ID: oauthClientValue,
    OAUTH_REVOPS_CLIENT_SECRET: oauthClientValue,
    OAUTH_SALESFORCE_AUTHORIZE_URL: url(['http', 'https']).default(
      'https://login.salesforce.com/services/oauth2/authorize',
    ),
    OAUTH_SALESFORCE_TOKEN_URL: url(['http', 'https']).default(
      'https://login.salesforce.com/services/oauth2/token',
    ),
    OAUTH_SALESFORCE_CLIENT_ID: oauthClientValue,
    OAUTH_SALESFORCE_CLIENT_SECRET: oauthClientValue,
    /** The Salesforce REST API version the CRM connector calls; the instance URL comes with each token. */
    SALESFORCE_API_VERSION: z
      .string()
      .trim()
      .regex(/^v\d+\.\d$/, 'must look like v60.0')
      .default('v60.0'),
    /**
     * ActiveCampaign calls go to each account's own URL (checked public, ADR 26); when set, every call
     * goes here instead (tests and local development point it at test/fakes/active-campaign-fake.ts).
     */
    ACTIVE_CAMPAIGN_API_URL: url(['http', 'https']).optional(),
    /**
     * Live Reports (docs/adr/0049-live-reports.md): Google Sheets and Drive for GOOGLE integrations,
     * Microsoft Graph (OneDrive) for MICROSOFT ones; tests point them at test/fakes/google-sheets-fake.ts
     * and test/fakes/microsoft-graph-fake.ts.
     */
    GOOGLE_SHEETS_API_URL: url(['http', 'https']).default('https://sheets.googleapis.com'),
    GOOGLE_DRIVE_API_URL: url(['http', 'https']).default('https://www.googleapis.com'),
    MICROSOFT_GRAPH_API_URL: url(['http', 'https']).default('https://graph.microsoft.com/v1.0'),
  })
  .superRefine((env, ctx) => {
    // The development defaults are public (they are in this file): production must name its own.
    if (env.NODE_ENV !== 'production') return;
    const refuse = (variable: string, message: string) =>
      ctx.addIssue({ code: 'custom', path: [variable], message });
    if (env.SESSION_SECRET === DEV_SESSION_SECRET)
      refuse('SESSION_SECRET', 'must be set to a secret of your own in production');
    if (env.PLATFORM_ADMIN_EMAILS.join(',') === DEV_PLATFORM_ADMIN_EMAILS)
      refuse('PLATFORM_ADMIN_EMAILS', 'must name your own administrators in production');
    if (env.SEED_DEMO && env.SEED_ADMIN_PASSWORD === DEV_SEED_ADMIN_PASSWORD)
      refuse('SEED_ADMIN_PASSWORD', 'must be set to a password of your own to seed demo data in production');
  });

export type Config = z.infer<typeof ConfigEnv>;

/** The embedded read store's file (used when MONGO_URL is not set): READ_STORE_PATH or under DATA_DIR. */
export const embeddedReadStorePath = (config: Pick<Config, 'DATA_DIR' | 'READ_STORE_PATH'>): string =>
  config.READ_STORE_PATH ?? `${config.DATA_DIR.replace(/\/+$/, '')}/read-models.sqlite`;

/** Raised when the environment does not describe a valid configuration; the message names each variable. */
export class ConfigError extends Error {
  readonly variables: string[];

  constructor(problems: { variable: string; problem: string }[]) {
    super(
      `Invalid configuration:\n${problems.map(({ variable, problem }) => `  ${variable}: ${problem}`).join('\n')}`,
    );
    this.name = 'ConfigError';
    this.variables = problems.map(({ variable }) => variable);
  }
}

export const loadConfig = (env: Record<string, string | undefined>): Config => {
  // Empty strings count as unset, as shells and .env files often leave them.
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const result = ConfigEnv.safeParse(present);
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((issue) => ({
      variable: String(issue.path[0] ?? '(environment)'),
      problem: issue.message,
    })),
  );
};
