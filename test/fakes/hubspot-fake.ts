import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * A local HubSpot: the CRM v3 objects API (companies, contacts, tasks, notes: list with properties,
 * associations and `after` paging, get, create, update, delete, batch create/update/read/archive,
 * search with filterGroups), owners, properties and property groups, v3 timeline events (ids
 * unique per template, a second event with the same id refused with 409) and OAuth 2.0 (authorize
 * with auto-consent, /oauth/v1/token with client_id and client_secret as form fields, access tokens
 * for 30 minutes, refresh tokens that do not rotate, the access-token metadata endpoint). Data comes
 * from fixtures in HubSpot's own JSON (test/fakes/fixtures/hubspot/) or from a generator of N
 * companies and M contacts computed by index (the benchmark), with created, changed and deleted
 * objects kept in memory, so searches and deletes are real.
 *
 * Like HubSpot, writing a property the portal does not define is a 400 (PROPERTY_DOESNT_EXIST), and
 * the rolling ten-second limit answers 429 with X-HubSpot-RateLimit-* headers. Faults on demand: 429
 * (with or without Retry-After, ten-secondly or daily policy), 5xx bursts, expired access tokens,
 * refused refreshes. `setRateLimit(null)` lifts the limit.
 */

type Json = Record<string, unknown>;
export type HubSpotObjectType = 'companies' | 'contacts' | 'tasks' | 'notes';
export const HUBSPOT_OBJECT_TYPES: readonly HubSpotObjectType[] = ['companies', 'contacts', 'tasks', 'notes'];

/** HubSpot-defined association type ids (v4 association types, category HUBSPOT_DEFINED). */
export const hubSpotAssociationTypes = {
  contactToCompanyPrimary: 1,
  contactToCompany: 279,
  noteToCompany: 190,
  taskToCompany: 192,
} as const;

export type HubSpotAssociation = { toType: HubSpotObjectType; toId: string; typeId: number };

/** An object as the fake keeps it; `properties` holds strings (HubSpot's wire format) or null. */
export type HubSpotStoredObject = {
  id: string;
  properties: Record<string, string | null>;
  createdAt: string;
  updatedAt: string;
  associations: HubSpotAssociation[];
};

export type HubSpotProperty = {
  name: string;
  label: string;
  type: string;
  fieldType: string;
  groupName: string;
  description?: string;
  hasUniqueValue?: boolean;
  hubspotDefined?: boolean;
  [more: string]: unknown;
};
export type HubSpotPropertyGroup = { name: string; label: string; displayOrder?: number; archived?: boolean };

export type HubSpotTimelineEvent = {
  id: string;
  eventTemplateId: string;
  objectId: string;
  objectType: string;
  tokens: Record<string, string>;
  timestamp: string;
  createdAt: string;
  extraData?: unknown;
};

export type HubSpotFakeOptions = {
  /** Generated companies (by index, not kept in memory until changed); 0 or absent: none. */
  companies?: number;
  /** Generated contacts, contact j belonging to company j % companies. */
  contacts?: number;
  /** Load the fixture portal (the default when nothing is generated). */
  fixtures?: boolean;
  /** The company property that holds the accounting id on generated companies. */
  accountingIdProperty?: string;
  /** Every how many generated companies carries an accounting id (2: every second one). 0: none. */
  accountingIdEvery?: number;
  /** Requests per rolling window; null lifts the limit (default 100 per 10 s, HubSpot's app limit). */
  rateLimit?: { max: number; intervalMs: number } | null;
  /** Access token lifetime in seconds (HubSpot: 1800). */
  accessTokenSeconds?: number;
  /** Refuse calls the token's scopes do not cover (403 MISSING_SCOPES), as HubSpot does; default off. */
  enforceScopes?: boolean;
  /** How long a write stays invisible to search (HubSpot's index trails writes by seconds); default 0. */
  searchLagMs?: number;
};

export type HubSpotFake = {
  url: string;
  /** Configuration values pointing the product at this fake (API, token endpoint, both OAuth apps). */
  configValues: Record<string, string>;
  portalId: number;
  /** Tokens for the portal, as if the user had connected (default lifetime: accessTokenSeconds). */
  /** Scopes default to every scope the connector may need (HUBSPOT_FAKE_ALL_SCOPES). */
  issueTokens: (options?: { ttlSeconds?: number; clientId?: string; scopes?: string[] }) => {
    accessToken: string;
    refreshToken: string;
    expiresIn: number;
  };
  /** The next `count` CRM calls answer 429; retryAfterSeconds null sends no Retry-After (as HubSpot's ten-secondly limit does). */
  throttle: (
    count: number,
    retryAfterSeconds: number | null,
    policy?: 'TEN_SECONDLY_ROLLING' | 'DAILY',
  ) => void;
  /** The next `count` CRM calls answer `status` (default 502). */
  failNext: (count: number, status?: number) => void;
  /** Every access token issued so far has expired: the next CRM call answers 401 EXPIRED_AUTHENTICATION. */
  expireAccessTokens: () => void;
  /** The token endpoint refuses every refresh (400 BAD_REFRESH_TOKEN / invalid_grant). */
  refuseRefresh: (refuse?: boolean) => void;
  /** null lifts the rate limit (benchmarks). */
  setRateLimit: (limit: { max: number; intervalMs: number } | null) => void;
  /** Writes reach search only this long after they are made (0: at once). */
  setSearchLag: (ms: number) => void;
  /** Adds a company; answers its id. */
  addCompany: (properties: Record<string, string | null>) => string;
  /** Adds a contact associated with companies (the first one primary); answers its id. */
  addContact: (properties: Record<string, string | null>, companyIds?: string[]) => string;
  /** An object by id (generated, fixture or created), null when absent or deleted. */
  object: (type: HubSpotObjectType, id: string) => HubSpotStoredObject | null;
  /** Objects created through the API since the start (not fixtures, not generated), still present. */
  created: (type: HubSpotObjectType) => HubSpotStoredObject[];
  /** Every present object of a type that is kept in memory (fixtures, added, created, changed). */
  stored: (type: HubSpotObjectType) => HubSpotStoredObject[];
  timelineEvents: () => HubSpotTimelineEvent[];
  properties: (type: HubSpotObjectType) => HubSpotProperty[];
  propertyGroups: (type: HubSpotObjectType) => HubSpotPropertyGroup[];
  /** Counts of what the API was asked to do, for assertions. */
  counters: () => {
    creates: Record<HubSpotObjectType, number>;
    updates: Record<HubSpotObjectType, number>;
    deletes: Record<HubSpotObjectType, number>;
    searches: number;
    timelineEvents: number;
    refreshes: number;
    throttled: number;
  };
  requests: { method: string; path: string; status: number }[];
  close: () => Promise<void>;
};

/** A JSON scalar as text; anything else as the fallback. */
const text = (value: unknown, fallback = ''): string =>
  typeof value === 'string'
    ? value
    : typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : fallback;

const fixturesDir = join(__dirname, 'fixtures', 'hubspot');
const fixture = <T>(file: string): T => JSON.parse(readFileSync(join(fixturesDir, file), 'utf8')) as T;

/** Ids of generated objects: a number range per type, so they never meet fixture or created ids. */
const GENERATED_BASE: Record<HubSpotObjectType, number> = {
  companies: 20_000_000_000,
  contacts: 50_000_000_000,
  tasks: 0,
  notes: 0,
};
const CREATED_BASE: Record<HubSpotObjectType, number> = {
  companies: 30_000_000_000,
  contacts: 60_000_000_000,
  tasks: 70_000_000_000,
  notes: 80_000_000_000,
};

const legalSuffixes = ['Inc.', 'LLC', 'Ltd', 'GmbH', 'S.A.', 'Corp.', 'Pty Ltd', ''];
const GENERATED_AT = '2024-01-15T09:30:00.000Z';
const GENERATED_OWNERS = ['41629779', '41629780', '41629781'];

/** The generated company number `index` (0-based), as the benchmark's customers can rebuild it. */
export const hubSpotGeneratedCompany = (
  index: number,
  options: { accountingIdProperty?: string; accountingIdEvery?: number } = {},
) => {
  const every = options.accountingIdEvery ?? 2;
  const suffix = legalSuffixes[index % legalSuffixes.length]!;
  const name = `Generated Company ${index + 1}${suffix ? ` ${suffix}` : ''}`;
  const accountingId = every > 0 && index % every === 0 ? `CUST-${String(index + 1).padStart(6, '0')}` : null;
  return {
    id: String(GENERATED_BASE.companies + index),
    name,
    domain: `company${index + 1}.example`,
    accountingId,
    accountingIdProperty: options.accountingIdProperty ?? 'accounting_id',
    ownerId: GENERATED_OWNERS[index % GENERATED_OWNERS.length]!,
  };
};

/** The generated contact number `index`, belonging to company `index % companies`. */
export const hubSpotGeneratedContact = (index: number, companies: number) => ({
  id: String(GENERATED_BASE.contacts + index),
  companyId: companies > 0 ? String(GENERATED_BASE.companies + (index % companies)) : null,
  email: `person${index + 1}@company${companies > 0 ? (index % companies) + 1 : 0}.example`,
  firstName: `Person${index + 1}`,
  lastName: `Surname${index % 997}`,
  ownerId: GENERATED_OWNERS[index % GENERATED_OWNERS.length]!,
});

/** Objects of one type: a generated range computed by index, then everything kept in memory. */
class ObjectStore {
  /** In memory: fixtures, added, created, and generated objects once changed. null: deleted. */
  readonly kept = new Map<string, HubSpotStoredObject | null>();
  /** Ids kept in memory that are not generated, in creation order (paging). */
  readonly order: string[] = [];
  nextId: number;

  constructor(
    readonly type: HubSpotObjectType,
    readonly generatedCount: number,
    readonly generate: (index: number) => HubSpotStoredObject,
    /** Properties that generated objects may carry: a search on others skips the generated range. */
    readonly generatedProperties: ReadonlySet<string>,
  ) {
    this.nextId = CREATED_BASE[type];
  }

  private generatedIndex(id: string): number | null {
    if (this.generatedCount === 0 || !/^\d+$/.test(id)) return null;
    const index = Number(id) - GENERATED_BASE[this.type];
    return index >= 0 && index < this.generatedCount ? index : null;
  }

  get(id: string): HubSpotStoredObject | null {
    if (this.kept.has(id)) return this.kept.get(id) ?? null;
    const index = this.generatedIndex(id);
    return index === null ? null : this.generate(index);
  }

  put(object: HubSpotStoredObject) {
    if (!this.kept.has(object.id) && this.generatedIndex(object.id) === null) this.order.push(object.id);
    this.kept.set(object.id, object);
  }

  remove(id: string): boolean {
    if (!this.get(id)) return false;
    this.kept.set(id, null);
    return true;
  }

  newId() {
    this.nextId += 1;
    return String(this.nextId);
  }

  get size() {
    return this.generatedCount + this.order.length;
  }

  /** The object at a paging position (generated first), null when deleted. */
  at(position: number): HubSpotStoredObject | null {
    if (position < this.generatedCount) return this.get(String(GENERATED_BASE[this.type] + position));
    const id = this.order[position - this.generatedCount];
    return id === undefined ? null : (this.kept.get(id) ?? null);
  }

  /** Every present object, the generated range only when a filter may match it. */
  *all(includeGenerated: boolean): Generator<HubSpotStoredObject> {
    if (includeGenerated) {
      for (let i = 0; i < this.size; i += 1) {
        const object = this.at(i);
        if (object) yield object;
      }
      return;
    }
    for (const object of this.kept.values()) if (object) yield object;
  }
}

type Grant = { clientId: string; scopes: string[]; expiresAt: number };

/** Every scope the HubSpot connector may use, reads and writes (the default of issueTokens). */
export const HUBSPOT_FAKE_ALL_SCOPES = [
  'oauth',
  'crm.objects.companies.read',
  'crm.objects.companies.write',
  'crm.objects.contacts.read',
  'crm.objects.contacts.write',
  'crm.objects.owners.read',
  'crm.schemas.companies.read',
  'crm.schemas.companies.write',
  'crm.schemas.contacts.read',
  'crm.schemas.contacts.write',
  'timeline',
];

/** The scope HubSpot asks for a call (tasks and notes are engagements, under the contacts scopes). */
export const hubSpotScopeFor = (method: string, path: string): string | null => {
  const objects = /^\/crm\/v3\/objects\/(\w+)(\/.*)?$/.exec(path);
  if (objects) {
    const type = objects[1] === 'companies' ? 'companies' : 'contacts';
    const rest = objects[2] ?? '';
    const reading = method === 'GET' || rest === '/search' || rest === '/batch/read';
    return `crm.objects.${type}.${reading ? 'read' : 'write'}`;
  }
  const schema = /^\/crm\/v3\/properties\/(\w+)/.exec(path);
  if (schema)
    return `crm.schemas.${schema[1] === 'companies' ? 'companies' : 'contacts'}.${method === 'GET' ? 'read' : 'write'}`;
  if (path.startsWith('/crm/v3/owners')) return 'crm.objects.owners.read';
  if (path.startsWith('/integrators/timeline/') || path.startsWith('/crm/v3/timeline/')) return 'timeline';
  return null;
};

export const startHubSpotFake = async (options: HubSpotFakeOptions = {}): Promise<HubSpotFake> => {
  const app: FastifyInstance = Fastify({ logger: false, bodyLimit: 10 * 1024 * 1024 });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  const portalId = 24681357;
  const hubDomain = 'northbeam-trading.example';
  const accessSeconds = options.accessTokenSeconds ?? 1800;
  const clients = new Map([
    ['hubspot-fake-client', 'hubspot-fake-secret'],
    ['revops-fake-client', 'revops-fake-secret'],
  ]);
  const generatedCompanies = options.companies ?? 0;
  const generatedContacts = options.contacts ?? 0;
  const useFixtures = options.fixtures ?? (generatedCompanies === 0 && generatedContacts === 0);
  const accountingIdProperty = options.accountingIdProperty ?? 'accounting_id';

  const generatedCompany = (index: number): HubSpotStoredObject => {
    const company = hubSpotGeneratedCompany(index, options);
    return {
      id: company.id,
      properties: {
        name: company.name,
        domain: company.domain,
        hubspot_owner_id: company.ownerId,
        [accountingIdProperty]: company.accountingId,
        createdate: GENERATED_AT,
        hs_lastmodifieddate: GENERATED_AT,
        hs_object_id: company.id,
      },
      createdAt: GENERATED_AT,
      updatedAt: GENERATED_AT,
      associations: [],
    };
  };
  const generatedContact = (index: number): HubSpotStoredObject => {
    const contact = hubSpotGeneratedContact(index, generatedCompanies);
    return {
      id: contact.id,
      properties: {
        email: contact.email,
        firstname: contact.firstName,
        lastname: contact.lastName,
        hubspot_owner_id: contact.ownerId,
        createdate: GENERATED_AT,
        lastmodifieddate: GENERATED_AT,
        hs_object_id: contact.id,
      },
      createdAt: GENERATED_AT,
      updatedAt: GENERATED_AT,
      associations: contact.companyId
        ? [
            {
              toType: 'companies',
              toId: contact.companyId,
              typeId: hubSpotAssociationTypes.contactToCompanyPrimary,
            },
          ]
        : [],
    };
  };
  const none = () => {
    throw new Error('nothing generated');
  };
  const stores: Record<HubSpotObjectType, ObjectStore> = {
    companies: new ObjectStore(
      'companies',
      generatedCompanies,
      generatedCompany,
      new Set(['name', 'domain', 'hubspot_owner_id', accountingIdProperty, 'hs_object_id']),
    ),
    contacts: new ObjectStore(
      'contacts',
      generatedContacts,
      generatedContact,
      new Set(['email', 'firstname', 'lastname', 'hubspot_owner_id', 'hs_object_id']),
    ),
    tasks: new ObjectStore('tasks', 0, none, new Set()),
    notes: new ObjectStore('notes', 0, none, new Set()),
  };
  /** When each object was last written, for the search index's lag. */
  const written: Record<HubSpotObjectType, Map<string, number>> = {
    companies: new Map(),
    contacts: new Map(),
    tasks: new Map(),
    notes: new Map(),
  };
  let searchLag = options.searchLagMs ?? 0;
  const createdIds: Record<HubSpotObjectType, Set<string>> = {
    companies: new Set(),
    contacts: new Set(),
    tasks: new Set(),
    notes: new Set(),
  };

  const definitions = fixture<Record<HubSpotObjectType, { results: HubSpotProperty[] }>>('properties.json');
  const properties = Object.fromEntries(
    HUBSPOT_OBJECT_TYPES.map((type) => [
      type,
      new Map(definitions[type].results.map((p) => [p.name, { ...p }])),
    ]),
  ) as Record<HubSpotObjectType, Map<string, HubSpotProperty>>;
  if (!properties.companies.has(accountingIdProperty))
    properties.companies.set(accountingIdProperty, {
      ...properties.companies.get('accounting_id')!,
      name: accountingIdProperty,
    });
  const groupFixture =
    fixture<Record<HubSpotObjectType, { results: HubSpotPropertyGroup[] }>>('property-groups.json');
  const groups = Object.fromEntries(
    HUBSPOT_OBJECT_TYPES.map((type) => [
      type,
      new Map(groupFixture[type].results.map((g) => [g.name, { ...g }])),
    ]),
  ) as Record<HubSpotObjectType, Map<string, HubSpotPropertyGroup>>;
  const templates = new Map(
    fixture<{ results: { id: string; objectType: string; tokens: { name: string; type: string }[] }[] }>(
      'timeline-event-templates.json',
    ).results.map((t) => [t.id, t]),
  );
  const owners = fixture<{ results: Json[] }>('owners.json').results;
  const events = new Map<string, HubSpotTimelineEvent>();

  const toAssociationType = (type: string): HubSpotObjectType | null =>
    (HUBSPOT_OBJECT_TYPES as readonly string[]).includes(type) ? (type as HubSpotObjectType) : null;

  if (useFixtures) {
    for (const company of fixture<{ results: (Json & { id: string; properties: Json })[] }>('companies.json')
      .results)
      stores.companies.put({
        id: company.id,
        properties: company.properties as Record<string, string | null>,
        createdAt: String(company.createdAt),
        updatedAt: String(company.updatedAt),
        associations: [],
      });
    type FixtureContact = Json & {
      id: string;
      properties: Json;
      associations?: { companies?: { results: { id: string; type: string }[] } };
    };
    for (const contact of fixture<{ results: FixtureContact[] }>('contacts.json').results) {
      const associations: HubSpotAssociation[] = [];
      for (const a of contact.associations?.companies?.results ?? []) {
        const typeId =
          a.type === 'contact_to_company'
            ? hubSpotAssociationTypes.contactToCompanyPrimary
            : hubSpotAssociationTypes.contactToCompany;
        // The primary label implies the unlabeled one: keep one association per company.
        if (associations.some((b) => b.toId === a.id)) continue;
        associations.push({ toType: 'companies', toId: a.id, typeId });
      }
      stores.contacts.put({
        id: contact.id,
        properties: contact.properties as Record<string, string | null>,
        createdAt: String(contact.createdAt),
        updatedAt: String(contact.updatedAt),
        associations,
      });
    }
  }

  // --- OAuth ---------------------------------------------------------------------------------
  const access = new Map<string, Grant>();
  const refresh = new Map<string, { clientId: string; scopes: string[] }>();
  const codes = new Map<string, { clientId: string; scopes: string[]; redirectUri: string }>();
  let refusing = false;
  let refreshCount = 0;

  const issue = (clientId: string, scopes: string[], ttlSeconds = accessSeconds, refreshToken?: string) => {
    const accessToken = `hs-at-${randomBytes(18).toString('hex')}`;
    const rt = refreshToken ?? `hs-rt-${randomUUID()}`;
    access.set(accessToken, { clientId, scopes, expiresAt: Date.now() + ttlSeconds * 1000 });
    refresh.set(rt, { clientId, scopes });
    return { accessToken, refreshToken: rt, expiresIn: ttlSeconds };
  };

  const oauthError = (
    reply: FastifyReply,
    status: number,
    hubStatus: string,
    error: string,
    message: string,
  ) =>
    reply.code(status).send({
      status: hubStatus,
      message,
      correlationId: randomUUID(),
      error,
      error_description: message,
    });

  app.get<{ Querystring: Record<string, string> }>('/oauth/authorize', async (request, reply) => {
    const { client_id: clientId = '', redirect_uri: redirectUri = '', state, scope = '' } = request.query;
    if (!clients.has(clientId)) return reply.code(400).send('Unknown client_id');
    const code = `hs-code-${randomBytes(12).toString('hex')}`;
    codes.set(code, { clientId, scopes: scope.split(/[ +]/).filter(Boolean), redirectUri });
    const target = new URL(redirectUri);
    target.searchParams.set('code', code);
    if (state) target.searchParams.set('state', state);
    return reply.redirect(target.href, 302);
  });

  app.post('/oauth/v1/token', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, string>;
    const secret = clients.get(body.client_id ?? '');
    if (!secret || secret !== body.client_secret)
      return oauthError(reply, 400, 'BAD_CLIENT_ID', 'invalid_client', 'missing or unknown client id');
    if (body.grant_type === 'authorization_code') {
      const grant = codes.get(body.code ?? '');
      codes.delete(body.code ?? '');
      if (!grant || grant.clientId !== body.client_id)
        return oauthError(reply, 400, 'BAD_AUTH_CODE', 'invalid_grant', 'missing or unknown auth code');
      const tokens = issue(grant.clientId, grant.scopes);
      return {
        token_type: 'bearer',
        refresh_token: tokens.refreshToken,
        access_token: tokens.accessToken,
        expires_in: tokens.expiresIn,
      };
    }
    if (body.grant_type !== 'refresh_token')
      return oauthError(reply, 400, 'BAD_GRANT_TYPE', 'unsupported_grant_type', 'unsupported grant type');
    const known = refresh.get(body.refresh_token ?? '');
    if (refusing || !known || known.clientId !== body.client_id)
      return oauthError(reply, 400, 'BAD_REFRESH_TOKEN', 'invalid_grant', 'missing or unknown refresh token');
    refreshCount += 1;
    // HubSpot keeps the refresh token: only the access token is new.
    const tokens = issue(known.clientId, known.scopes, accessSeconds, body.refresh_token);
    return {
      token_type: 'bearer',
      refresh_token: tokens.refreshToken,
      access_token: tokens.accessToken,
      expires_in: tokens.expiresIn,
    };
  });

  // --- CRM plumbing: auth, limits, faults ----------------------------------------------------
  const requests: HubSpotFake['requests'] = [];
  let rateLimit = options.rateLimit === undefined ? { max: 100, intervalMs: 10_000 } : options.rateLimit;
  const window: number[] = [];
  let throttled: { count: number; retryAfter: number | null; policy: string } = {
    count: 0,
    retryAfter: null,
    policy: 'TEN_SECONDLY_ROLLING',
  };
  let failing = { count: 0, status: 502 };
  const zero = () => ({ companies: 0, contacts: 0, tasks: 0, notes: 0 });
  const counts = {
    creates: zero(),
    updates: zero(),
    deletes: zero(),
    searches: 0,
    timelineEvents: 0,
    throttledCount: 0,
  };

  const hubError = (
    reply: FastifyReply,
    status: number,
    category: string,
    message: string,
    extra: Json = {},
  ) => reply.code(status).send({ status: 'error', message, correlationId: randomUUID(), category, ...extra });

  /** Answers a fault or a refusal, or null to go on; logs the call. */
  const gate = (request: FastifyRequest, reply: FastifyReply): FastifyReply | null => {
    const log = { method: request.method, path: request.url.split('?')[0]!, status: 200 };
    requests.push(log);
    reply.raw.on('finish', () => {
      log.status = reply.statusCode;
    });
    const token = request.headers.authorization?.replace(/^Bearer\s+/i, '') ?? '';
    const grant = access.get(token);
    if (!grant)
      return hubError(
        reply,
        401,
        'INVALID_AUTHENTICATION',
        'Authentication credentials not found. This API supports OAuth 2.0 authentication.',
      );
    if (grant.expiresAt <= Date.now())
      return hubError(
        reply,
        401,
        'EXPIRED_AUTHENTICATION',
        `The OAuth token used to make this call expired ${Math.max(0, Math.round((Date.now() - grant.expiresAt) / 60_000))} minute(s) ago.`,
      );
    const scope = options.enforceScopes ? hubSpotScopeFor(request.method, log.path) : null;
    if (scope && !grant.scopes.includes(scope))
      return hubError(
        reply,
        403,
        'MISSING_SCOPES',
        "This app hasn't been granted all required scopes to make this call.",
        {
          errors: [
            {
              message: 'One or more of the following scopes are required.',
              context: { requiredGrantedScopes: [scope] },
            },
          ],
        },
      );
    if (throttled.count > 0) {
      throttled.count -= 1;
      counts.throttledCount += 1;
      const headers: Record<string, string> =
        throttled.policy === 'DAILY'
          ? { 'x-hubspot-ratelimit-daily': '500000', 'x-hubspot-ratelimit-daily-remaining': '0' }
          : {
              'x-hubspot-ratelimit-interval-milliseconds': '10000',
              'x-hubspot-ratelimit-max': '100',
              'x-hubspot-ratelimit-remaining': '0',
            };
      if (throttled.retryAfter !== null) headers['retry-after'] = String(throttled.retryAfter);
      reply.headers(headers);
      return hubError(
        reply,
        429,
        'RATE_LIMITS',
        `You have reached your ${throttled.policy === 'DAILY' ? 'daily' : 'ten_secondly_rolling'} limit.`,
        { errorType: 'RATE_LIMIT', policyName: throttled.policy },
      );
    }
    if (rateLimit) {
      const now = Date.now();
      while (window.length > 0 && window[0]! <= now - rateLimit.intervalMs) window.shift();
      if (window.length >= rateLimit.max) {
        counts.throttledCount += 1;
        const wait = Math.max(1, Math.ceil((window[0]! + rateLimit.intervalMs - now) / 1000));
        reply.headers({
          'x-hubspot-ratelimit-interval-milliseconds': String(rateLimit.intervalMs),
          'x-hubspot-ratelimit-max': String(rateLimit.max),
          'x-hubspot-ratelimit-remaining': '0',
          'retry-after': String(wait),
        });
        return hubError(reply, 429, 'RATE_LIMITS', 'You have reached your ten_secondly_rolling limit.', {
          errorType: 'RATE_LIMIT',
          policyName: 'TEN_SECONDLY_ROLLING',
        });
      }
      window.push(now);
      reply.headers({
        'x-hubspot-ratelimit-interval-milliseconds': String(rateLimit.intervalMs),
        'x-hubspot-ratelimit-max': String(rateLimit.max),
        'x-hubspot-ratelimit-remaining': String(rateLimit.max - window.length),
      });
    }
    if (failing.count > 0) {
      failing.count -= 1;
      return reply.code(failing.status).send({
        status: 'error',
        message: 'internal error',
        correlationId: randomUUID(),
        category: 'UNKNOWN',
      });
    }
    return null;
  };

  const typeOf = (reply: FastifyReply, value: string): HubSpotObjectType | null => {
    const type = toAssociationType(value);
    if (!type) {
      hubError(reply, 400, 'OBJECT_TYPE_NOT_FOUND', `Unable to infer object type from: ${value}`);
      return null;
    }
    return type;
  };

  /** SimplePublicObject with only the requested properties (and the defaults HubSpot adds). */
  const defaults: Record<HubSpotObjectType, string[]> = {
    companies: ['name', 'domain', 'createdate', 'hs_lastmodifieddate', 'hs_object_id'],
    contacts: ['email', 'firstname', 'lastname', 'createdate', 'lastmodifieddate', 'hs_object_id'],
    tasks: ['hs_task_subject', 'hs_task_status', 'hs_timestamp', 'hs_createdate', 'hs_object_id'],
    notes: ['hs_note_body', 'hs_timestamp', 'hs_createdate', 'hs_object_id'],
  };
  const publicObject = (
    type: HubSpotObjectType,
    object: HubSpotStoredObject,
    requested: string[] | null,
    associations: HubSpotObjectType[] = [],
  ): Json => {
    const names = requested && requested.length > 0 ? requested : defaults[type];
    const modified = type === 'contacts' ? 'lastmodifieddate' : 'hs_lastmodifieddate';
    const props: Record<string, string | null> = {
      createdate: object.properties.createdate ?? object.createdAt,
      [modified]: object.properties[modified] ?? object.updatedAt,
      hs_object_id: object.id,
    };
    for (const name of names)
      if (!(name in props) && properties[type].has(name)) props[name] = object.properties[name] ?? null;
    const answer: Json = {
      id: object.id,
      properties: props,
      createdAt: object.createdAt,
      updatedAt: object.updatedAt,
      archived: false,
    };
    const linked: Json = {};
    for (const to of associations) {
      const results: { id: string; type: string }[] = [];
      for (const a of object.associations.filter((x) => x.toType === to)) {
        const base = `${type.replace(/s$/, '').replace(/ie$/, 'y')}_to_${to.replace(/ies$/, 'y').replace(/s$/, '')}`;
        if (a.typeId === hubSpotAssociationTypes.contactToCompanyPrimary)
          results.push({ id: a.toId, type: base });
        results.push({ id: a.toId, type: `${base}_unlabeled` });
      }
      if (results.length > 0) linked[to] = { results };
    }
    if (Object.keys(linked).length > 0) answer.associations = linked;
    return answer;
  };

  const listOf = (value: string | undefined) =>
    (value ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);

  /** Validates property values as HubSpot does: unknown names, read-only ones, unique values. */
  const invalidProperties = (
    type: HubSpotObjectType,
    values: Record<string, unknown>,
    selfId: string | null,
  ): string | null => {
    const unknown = Object.keys(values).filter((name) => !properties[type].has(name));
    if (unknown.length > 0)
      return `Property values were not valid: ${JSON.stringify(
        unknown.map((name) => ({
          isValid: false,
          message: `Property "${name}" does not exist`,
          error: 'PROPERTY_DOESNT_EXIST',
          name,
        })),
      )}`;
    for (const [name, value] of Object.entries(values)) {
      const definition = properties[type].get(name)!;
      if (!definition.hasUniqueValue || value === null || value === '') continue;
      for (const other of stores[type].all(stores[type].generatedProperties.has(name)))
        if (other.id !== selfId && other.properties[name] === text(value))
          return `Property values were not valid: ${JSON.stringify([
            {
              isValid: false,
              message: `${text(value)} already has that value on ${type} ${other.id}.`,
              error: 'INVALID_OPTION',
              name,
            },
          ])}`;
    }
    return null;
  };

  const stringValues = (values: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries(values).map(([k, v]) => [
        k,
        v === null || v === undefined ? null : text(v, JSON.stringify(v)),
      ]),
    ) as Record<string, string | null>;

  type AssociationInput = {
    to?: { id?: string };
    types?: { associationCategory?: string; associationTypeId?: number }[];
  };
  const associationTargets: Record<number, HubSpotObjectType> = {
    [hubSpotAssociationTypes.contactToCompanyPrimary]: 'companies',
    [hubSpotAssociationTypes.contactToCompany]: 'companies',
    [hubSpotAssociationTypes.noteToCompany]: 'companies',
    [hubSpotAssociationTypes.taskToCompany]: 'companies',
  };

  /** Creates one object; answers the object or an error text. */
  const createObject = (
    type: HubSpotObjectType,
    input: { properties?: Record<string, unknown>; associations?: AssociationInput[] },
  ): HubSpotStoredObject | { error: string; category: string; status?: number } => {
    const values = input.properties ?? {};
    const invalid = invalidProperties(type, values, null);
    if (invalid) return { error: invalid, category: 'VALIDATION_ERROR' };
    // Contacts are unique by email: HubSpot answers 409 naming the contact that has it.
    const email = type === 'contacts' && typeof values.email === 'string' ? values.email.toLowerCase() : null;
    if (email)
      for (const other of stores.contacts.all(true))
        if (other.properties.email?.toLowerCase() === email)
          return {
            error: `Contact already exists. Existing ID: ${other.id}`,
            category: 'CONFLICT',
            status: 409,
          };
    const associations: HubSpotAssociation[] = [];
    for (const a of input.associations ?? []) {
      for (const t of a.types ?? []) {
        const toType = associationTargets[t.associationTypeId ?? -1];
        if (!toType || !a.to?.id)
          return {
            error: `Unknown association type ${String(t.associationTypeId)}`,
            category: 'VALIDATION_ERROR',
          };
        if (!stores[toType].get(a.to.id))
          return { error: `No ${toType} with id ${a.to.id} exists`, category: 'VALIDATION_ERROR' };
        associations.push({ toType, toId: a.to.id, typeId: t.associationTypeId! });
      }
    }
    const now = new Date().toISOString();
    const id = stores[type].newId();
    const object: HubSpotStoredObject = {
      id,
      properties: { ...stringValues(values), hs_object_id: id },
      createdAt: now,
      updatedAt: now,
      associations,
    };
    stores[type].put(object);
    written[type].set(id, Date.now());
    createdIds[type].add(id);
    counts.creates[type] += 1;
    return object;
  };

  const updateObject = (
    type: HubSpotObjectType,
    id: string,
    values: Record<string, unknown>,
  ): HubSpotStoredObject | { error: string; category: string; status: number } => {
    const current = stores[type].get(id);
    if (!current) return { error: `resource not found`, category: 'OBJECT_NOT_FOUND', status: 404 };
    const invalid = invalidProperties(type, values, id);
    if (invalid) return { error: invalid, category: 'VALIDATION_ERROR', status: 400 };
    const now = new Date().toISOString();
    const next: HubSpotStoredObject = {
      ...current,
      properties: {
        ...current.properties,
        ...stringValues(values),
        ...(type === 'contacts' ? { lastmodifieddate: now } : { hs_lastmodifieddate: now }),
      },
      updatedAt: now,
    };
    stores[type].put(next);
    written[type].set(id, Date.now());
    counts.updates[type] += 1;
    return next;
  };

  // --- CRM routes ----------------------------------------------------------------------------
  app.get<{ Params: { token: string } }>('/oauth/v1/access-tokens/:token', async (request, reply) => {
    const grant = access.get(request.params.token);
    if (!grant || grant.expiresAt <= Date.now())
      return hubError(reply, 404, 'EXPIRED_AUTHENTICATION', 'Token not found or expired');
    return {
      token: request.params.token,
      user: 'maria.lopez@northbeam.example',
      hub_domain: hubDomain,
      scopes: grant.scopes,
      hub_id: portalId,
      app_id: grant.clientId === 'revops-fake-client' ? 1160452 : 1160451,
      expires_in: Math.round((grant.expiresAt - Date.now()) / 1000),
      user_id: 9586504,
      token_type: 'access',
    };
  });

  app.get<{ Params: { type: string }; Querystring: Record<string, string> }>(
    '/crm/v3/objects/:type',
    async (request, reply) => {
      if (gate(request, reply)) return reply;
      const type = typeOf(reply, request.params.type);
      if (!type) return reply;
      const limit = Math.min(Math.max(Number(request.query.limit ?? 10) || 10, 1), 100);
      const requested = listOf(request.query.properties);
      const associations = listOf(request.query.associations)
        .map(toAssociationType)
        .filter((t): t is HubSpotObjectType => t !== null);
      const store = stores[type];
      let position = Number(request.query.after ?? 0);
      if (!Number.isInteger(position) || position < 0)
        return hubError(reply, 400, 'VALIDATION_ERROR', `Invalid paging cursor: ${request.query.after}`);
      const results: Json[] = [];
      while (results.length < limit && position < store.size) {
        const object = store.at(position);
        position += 1;
        if (object) results.push(publicObject(type, object, requested, associations));
      }
      const answer: Json = { results };
      if (position < store.size) {
        const next = new URL(`${address}/crm/v3/objects/${type}`);
        for (const [k, v] of Object.entries(request.query)) next.searchParams.set(k, v);
        next.searchParams.set('after', String(position));
        answer.paging = { next: { after: String(position), link: next.href } };
      }
      return answer;
    },
  );

  app.get<{ Params: { type: string; id: string }; Querystring: Record<string, string> }>(
    '/crm/v3/objects/:type/:id',
    async (request, reply) => {
      if (gate(request, reply)) return reply;
      const type = typeOf(reply, request.params.type);
      if (!type) return reply;
      const object = stores[type].get(request.params.id);
      if (!object) return reply.code(404).send();
      const associations = listOf(request.query.associations)
        .map(toAssociationType)
        .filter((t): t is HubSpotObjectType => t !== null);
      return publicObject(type, object, listOf(request.query.properties), associations);
    },
  );

  app.post<{ Params: { type: string }; Body: { properties?: Json; associations?: AssociationInput[] } }>(
    '/crm/v3/objects/:type',
    async (request, reply) => {
      if (gate(request, reply)) return reply;
      const type = typeOf(reply, request.params.type);
      if (!type) return reply;
      const made = createObject(type, request.body ?? {});
      if ('error' in made) return hubError(reply, made.status ?? 400, made.category, made.error);
      return reply.code(201).send(publicObject(type, made, Object.keys(made.properties)));
    },
  );

  app.patch<{ Params: { type: string; id: string }; Body: { properties?: Json } }>(
    '/crm/v3/objects/:type/:id',
    async (request, reply) => {
      if (gate(request, reply)) return reply;
      const type = typeOf(reply, request.params.type);
      if (!type) return reply;
      const updated = updateObject(type, request.params.id, request.body?.properties ?? {});
      if ('error' in updated) return hubError(reply, updated.status, updated.category, updated.error);
      return publicObject(type, updated, Object.keys(request.body?.properties ?? {}));
    },
  );

  app.delete<{ Params: { type: string; id: string } }>(
    '/crm/v3/objects/:type/:id',
    async (request, reply) => {
      if (gate(request, reply)) return reply;
      const type = typeOf(reply, request.params.type);
      if (!type) return reply;
      if (!stores[type].remove(request.params.id))
        return hubError(reply, 404, 'OBJECT_NOT_FOUND', 'resource not found');
      counts.deletes[type] += 1;
      return reply.code(204).send();
    },
  );

  const batchAnswer = (results: Json[], errors: Json[], startedAt: string) => ({
    status: 'COMPLETE',
    results,
    ...(errors.length > 0 ? { numErrors: errors.length, errors } : {}),
    startedAt,
    completedAt: new Date().toISOString(),
  });

  app.post<{ Params: { type: string; action: string }; Body: { inputs?: Json[]; properties?: string[] } }>(
    '/crm/v3/objects/:type/batch/:action',
    async (request, reply) => {
      if (gate(request, reply)) return reply;
      const type = typeOf(reply, request.params.type);
      if (!type) return reply;
      const inputs = request.body?.inputs ?? [];
      if (inputs.length > 100)
        return hubError(reply, 400, 'VALIDATION_ERROR', 'Batch input cannot exceed 100 items');
      const startedAt = new Date().toISOString();
      const results: Json[] = [];
      const errors: Json[] = [];
      const fail = (message: string, category: string, context: Json) =>
        errors.push({ status: 'error', category, message, context });
      switch (request.params.action) {
        case 'create':
          for (const input of inputs) {
            const made = createObject(type, input);
            if ('error' in made) fail(made.error, made.category, {});
            else results.push(publicObject(type, made, Object.keys(made.properties)));
          }
          break;
        case 'update':
          for (const input of inputs as { id?: string; properties?: Json }[]) {
            const updated = updateObject(type, String(input.id), input.properties ?? {});
            if ('error' in updated) fail(updated.error, updated.category, { ids: [String(input.id)] });
            else results.push(publicObject(type, updated, Object.keys(input.properties ?? {})));
          }
          break;
        case 'read':
          for (const input of inputs as { id?: string }[]) {
            const object = stores[type].get(String(input.id));
            if (!object)
              fail('Could not get some objects, they may be deleted or not exist.', 'OBJECT_NOT_FOUND', {
                ids: [String(input.id)],
              });
            else results.push(publicObject(type, object, request.body?.properties ?? null));
          }
          break;
        case 'archive':
          for (const input of inputs as { id?: string }[])
            if (stores[type].remove(String(input.id))) counts.deletes[type] += 1;
          return reply.code(204).send();
        default:
          return hubError(reply, 404, 'NOT_FOUND', `Unknown batch action ${request.params.action}`);
      }
      if (results.length === 0 && errors.length > 0)
        return hubError(reply, 400, String(errors[0]!.category), String(errors[0]!.message));
      return reply
        .code(errors.length > 0 ? 207 : request.params.action === 'create' ? 201 : 200)
        .send(batchAnswer(results, errors, startedAt));
    },
  );

  type Filter = { propertyName?: string; operator?: string; value?: unknown; values?: unknown[] };
  const matches = (object: HubSpotStoredObject, filter: Filter) => {
    const name = filter.propertyName ?? '';
    const actual = name === 'hs_object_id' ? object.id : (object.properties[name] ?? null);
    const value = filter.value === undefined ? undefined : text(filter.value);
    switch (filter.operator ?? 'EQ') {
      case 'EQ':
        return actual !== null && value !== undefined && actual.toLowerCase() === value.toLowerCase();
      case 'NEQ':
        return actual === null || actual.toLowerCase() !== value?.toLowerCase();
      case 'IN':
        return (
          actual !== null &&
          (filter.values ?? []).some((v) => String(v).toLowerCase() === actual.toLowerCase())
        );
      case 'HAS_PROPERTY':
        return actual !== null && actual !== '';
      case 'NOT_HAS_PROPERTY':
        return actual === null || actual === '';
      case 'CONTAINS_TOKEN':
        return (
          actual !== null &&
          value !== undefined &&
          actual.toLowerCase().split(/\W+/).includes(value.toLowerCase())
        );
      default:
        return false;
    }
  };

  app.post<{
    Params: { type: string };
    Body: {
      filterGroups?: { filters?: Filter[] }[];
      properties?: string[];
      limit?: number;
      after?: string | number;
    };
  }>('/crm/v3/objects/:type/search', async (request, reply) => {
    if (gate(request, reply)) return reply;
    const type = typeOf(reply, request.params.type);
    if (!type) return reply;
    counts.searches += 1;
    const body = request.body ?? {};
    const groupsOf = body.filterGroups ?? [];
    if (groupsOf.length > 5 || groupsOf.some((g) => (g.filters ?? []).length > 10))
      return hubError(reply, 400, 'VALIDATION_ERROR', 'Too many filter groups or filters');
    for (const filter of groupsOf.flatMap((g) => g.filters ?? []))
      if (filter.propertyName !== 'hs_object_id' && !properties[type].has(filter.propertyName ?? ''))
        return hubError(
          reply,
          400,
          'VALIDATION_ERROR',
          `There was a problem with the request: property ${String(filter.propertyName)} does not exist`,
        );
    const store = stores[type];
    // Generated objects only carry some properties: an equality on any other cannot match them.
    const needsGenerated =
      groupsOf.length === 0 ||
      groupsOf.some((g) =>
        (g.filters ?? []).every(
          (f) =>
            !['EQ', 'IN', 'HAS_PROPERTY', 'CONTAINS_TOKEN'].includes(f.operator ?? 'EQ') ||
            store.generatedProperties.has(f.propertyName ?? ''),
        ),
      );
    const found: HubSpotStoredObject[] = [];
    const indexedBefore = Date.now() - searchLag;
    for (const object of store.all(needsGenerated))
      if (
        (written[type].get(object.id) ?? 0) <= indexedBefore &&
        (groupsOf.length === 0 || groupsOf.some((g) => (g.filters ?? []).every((f) => matches(object, f))))
      )
        found.push(object);
    const limit = Math.min(Math.max(Number(body.limit ?? 10) || 10, 1), 200);
    const offset = Number(body.after ?? 0) || 0;
    if (offset >= 10_000)
      return hubError(
        reply,
        400,
        'VALIDATION_ERROR',
        'The search API returns at most 10,000 results per query',
      );
    const page = found.slice(offset, offset + limit);
    return {
      total: found.length,
      results: page.map((o) => publicObject(type, o, body.properties ?? null)),
      ...(offset + limit < found.length
        ? { paging: { next: { after: String(offset + limit), link: '' } } }
        : {}),
    };
  });

  const ownersPage = (request: FastifyRequest<{ Querystring: Record<string, string> }>) => {
    const limit = Math.min(Math.max(Number(request.query.limit ?? 100) || 100, 1), 500);
    const offset = Number(request.query.after ?? 0) || 0;
    const rows = owners.filter((o) => !request.query.email || o.email === request.query.email);
    const page = rows.slice(offset, offset + limit);
    return {
      results: page,
      ...(offset + limit < rows.length
        ? { paging: { next: { after: String(offset + limit), link: '' } } }
        : {}),
    };
  };
  app.get<{ Querystring: Record<string, string> }>('/crm/v3/owners', async (request, reply) =>
    gate(request, reply) ? reply : ownersPage(request),
  );
  app.get<{ Querystring: Record<string, string> }>('/crm/v3/owners/', async (request, reply) =>
    gate(request, reply) ? reply : ownersPage(request),
  );

  // Properties and groups
  app.get<{ Params: { type: string } }>('/crm/v3/properties/:type', async (request, reply) => {
    if (gate(request, reply)) return reply;
    const type = typeOf(reply, request.params.type);
    if (!type) return reply;
    return { results: [...properties[type].values()] };
  });
  app.get<{ Params: { type: string } }>('/crm/v3/properties/:type/groups', async (request, reply) => {
    if (gate(request, reply)) return reply;
    const type = typeOf(reply, request.params.type);
    if (!type) return reply;
    return { results: [...groups[type].values()] };
  });
  app.get<{ Params: { type: string; name: string } }>(
    '/crm/v3/properties/:type/:name',
    async (request, reply) => {
      if (gate(request, reply)) return reply;
      const type = typeOf(reply, request.params.type);
      if (!type) return reply;
      const property = properties[type].get(request.params.name);
      if (!property)
        return hubError(reply, 404, 'OBJECT_NOT_FOUND', `Unable to find property ${request.params.name}`);
      return property;
    },
  );
  app.get<{ Params: { type: string; name: string } }>(
    '/crm/v3/properties/:type/groups/:name',
    async (request, reply) => {
      if (gate(request, reply)) return reply;
      const type = typeOf(reply, request.params.type);
      if (!type) return reply;
      const group = groups[type].get(request.params.name);
      if (!group)
        return hubError(reply, 404, 'OBJECT_NOT_FOUND', `Unable to find group ${request.params.name}`);
      return group;
    },
  );
  app.post<{ Params: { type: string }; Body: Json }>(
    '/crm/v3/properties/:type/groups',
    async (request, reply) => {
      if (gate(request, reply)) return reply;
      const type = typeOf(reply, request.params.type);
      if (!type) return reply;
      const body = request.body ?? {};
      const name = text(body.name, '');
      if (!/^[a-z][a-z0-9_]*$/.test(name) || typeof body.label !== 'string')
        return hubError(reply, 400, 'VALIDATION_ERROR', 'A group needs a lower-case name and a label');
      if (groups[type].has(name))
        return hubError(
          reply,
          409,
          'OBJECT_ALREADY_EXISTS',
          `A property group named ${name} already exists.`,
        );
      const group = {
        name,
        label: body.label,
        displayOrder: Number(body.displayOrder ?? -1),
        archived: false,
      };
      groups[type].set(name, group);
      return reply.code(201).send(group);
    },
  );
  app.post<{ Params: { type: string }; Body: Json }>('/crm/v3/properties/:type', async (request, reply) => {
    if (gate(request, reply)) return reply;
    const type = typeOf(reply, request.params.type);
    if (!type) return reply;
    const body = request.body ?? {};
    const name = text(body.name, '');
    if (!/^[a-z][a-z0-9_]*$/.test(name))
      return hubError(reply, 400, 'VALIDATION_ERROR', `Invalid property name: ${name}`);
    if (properties[type].has(name))
      return hubError(reply, 409, 'OBJECT_ALREADY_EXISTS', `A property named '${name}' already exists.`);
    if (!groups[type].has(text(body.groupName, '')))
      return hubError(reply, 400, 'VALIDATION_ERROR', `Unknown property group ${text(body.groupName)}`);
    if (!['string', 'number', 'date', 'datetime', 'enumeration', 'bool'].includes(text(body.type)))
      return hubError(reply, 400, 'VALIDATION_ERROR', `Invalid property type ${text(body.type)}`);
    const now = new Date().toISOString();
    const property: HubSpotProperty = {
      name,
      label: text(body.label, name),
      type: text(body.type),
      fieldType: text(body.fieldType, 'text'),
      groupName: text(body.groupName),
      description: text(body.description, ''),
      hasUniqueValue: body.hasUniqueValue === true,
      hubspotDefined: false,
      options: [],
      createdAt: now,
      updatedAt: now,
      archived: false,
    };
    properties[type].set(name, property);
    return reply.code(201).send(property);
  });

  // Timeline events (v3 app events): the current path and the older /crm/v3/timeline one.
  const createEvent = async (request: FastifyRequest<{ Body: Json }>, reply: FastifyReply) => {
    if (gate(request, reply)) return reply;
    const body = request.body ?? {};
    const template = templates.get(text(body.eventTemplateId, ''));
    if (!template)
      return hubError(
        reply,
        404,
        'OBJECT_NOT_FOUND',
        `Event template ${text(body.eventTemplateId)} not found`,
      );
    const objectType = template.objectType as HubSpotObjectType;
    const objectId = text(body.objectId, '');
    if (!stores[objectType]?.get(objectId))
      return hubError(reply, 400, 'VALIDATION_ERROR', `No ${objectType} object with id ${objectId}`);
    const tokens = (body.tokens ?? {}) as Json;
    const unknownTokens = Object.keys(tokens).filter((t) => !template.tokens.some((d) => d.name === t));
    if (unknownTokens.length > 0)
      return hubError(
        reply,
        400,
        'VALIDATION_ERROR',
        `Unknown tokens for the template: ${unknownTokens.join(', ')}`,
      );
    const id = typeof body.id === 'string' && body.id !== '' ? body.id : randomUUID();
    const key = `${template.id}/${id}`;
    if (events.has(key))
      return hubError(
        reply,
        409,
        'CONFLICT',
        `An event with id ${id} already exists for template ${template.id}.`,
      );
    const event: HubSpotTimelineEvent = {
      id,
      eventTemplateId: template.id,
      objectId,
      objectType,
      tokens: Object.fromEntries(Object.entries(tokens).map(([k, v]) => [k, String(v)])),
      timestamp: typeof body.timestamp === 'string' ? body.timestamp : new Date().toISOString(),
      createdAt: new Date().toISOString(),
      ...(body.extraData === undefined ? {} : { extraData: body.extraData }),
    };
    events.set(key, event);
    counts.timelineEvents += 1;
    return reply.code(201).send(event);
  };
  app.post<{ Body: Json }>('/integrators/timeline/v3/events', createEvent);
  app.post<{ Body: Json }>('/crm/v3/timeline/events', createEvent);
  app.get<{ Params: { templateId: string; eventId: string } }>(
    '/integrators/timeline/v3/events/:templateId/:eventId',
    async (request, reply) => {
      if (gate(request, reply)) return reply;
      const event = events.get(`${request.params.templateId}/${request.params.eventId}`);
      if (!event) return hubError(reply, 404, 'OBJECT_NOT_FOUND', 'Event not found');
      return event;
    },
  );

  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const everything = (type: HubSpotObjectType) => [...stores[type].all(false)];

  return {
    url: address,
    portalId,
    configValues: {
      HUBSPOT_API_URL: address,
      OAUTH_HUBSPOT_AUTHORIZE_URL: `${address}/oauth/authorize`,
      OAUTH_HUBSPOT_TOKEN_URL: `${address}/oauth/v1/token`,
      OAUTH_HUBSPOT_CLIENT_ID: 'hubspot-fake-client',
      OAUTH_HUBSPOT_CLIENT_SECRET: 'hubspot-fake-secret',
      OAUTH_REVOPS_AUTHORIZE_URL: `${address}/oauth/authorize`,
      OAUTH_REVOPS_TOKEN_URL: `${address}/oauth/v1/token`,
      OAUTH_REVOPS_CLIENT_ID: 'revops-fake-client',
      OAUTH_REVOPS_CLIENT_SECRET: 'revops-fake-secret',
    },
    issueTokens: (opts = {}) =>
      issue(opts.clientId ?? 'hubspot-fake-client', opts.scopes ?? HUBSPOT_FAKE_ALL_SCOPES, opts.ttlSeconds),
    throttle: (count, retryAfterSeconds, policy = 'TEN_SECONDLY_ROLLING') => {
      throttled = { count, retryAfter: retryAfterSeconds, policy };
    },
    failNext: (count, status = 502) => {
      failing = { count, status };
    },
    expireAccessTokens: () => {
      for (const grant of access.values()) grant.expiresAt = Math.min(grant.expiresAt, Date.now() - 1);
    },
    refuseRefresh: (refuse = true) => {
      refusing = refuse;
    },
    setSearchLag: (ms) => {
      searchLag = ms;
    },
    setRateLimit: (limit) => {
      rateLimit = limit;
      window.length = 0;
    },
    addCompany: (values) => {
      const id = stores.companies.newId();
      const now = new Date().toISOString();
      stores.companies.put({
        id,
        properties: { ...values, hs_object_id: id },
        createdAt: now,
        updatedAt: now,
        associations: [],
      });
      return id;
    },
    addContact: (values, companyIds = []) => {
      const id = stores.contacts.newId();
      const now = new Date().toISOString();
      stores.contacts.put({
        id,
        properties: { ...values, hs_object_id: id },
        createdAt: now,
        updatedAt: now,
        associations: companyIds.map((toId, n) => ({
          toType: 'companies',
          toId,
          typeId:
            n === 0
              ? hubSpotAssociationTypes.contactToCompanyPrimary
              : hubSpotAssociationTypes.contactToCompany,
        })),
      });
      return id;
    },
    object: (type, id) => stores[type].get(id),
    created: (type) => everything(type).filter((o) => createdIds[type].has(o.id)),
    stored: everything,
    timelineEvents: () => [...events.values()],
    properties: (type) => [...properties[type].values()],
    propertyGroups: (type) => [...groups[type].values()],
    counters: () => ({
      creates: { ...counts.creates },
      updates: { ...counts.updates },
      deletes: { ...counts.deletes },
      searches: counts.searches,
      timelineEvents: counts.timelineEvents,
      refreshes: refreshCount,
      throttled: counts.throttledCount,
    }),
    requests,
    close: () => app.close(),
  };
};

/**
 * Run on its own, the fake serves a generated portal with the rate limit lifted, so a benchmark can
 * keep the fake's JSON work off the worker's event loop:
 *   node --import tsx test/fakes/hubspot-fake.ts <companies> <contacts>
 * It writes one JSON line (configValues, url, tokens for a day); on SIGTERM one more with its counters.
 */
const runAlone = async () => {
  const [companies = 1000, contacts = 3000] = process.argv.slice(2).map(Number);
  const fake = await startHubSpotFake({ companies, contacts, rateLimit: null });
  const tokens = fake.issueTokens({ ttlSeconds: 24 * 3600 });
  process.stdout.write(`${JSON.stringify({ url: fake.url, configValues: fake.configValues, tokens })}\n`);
  process.on('SIGTERM', () => {
    process.stdout.write(
      `${JSON.stringify({ requests: fake.requests.length, counters: fake.counters() })}\n`,
    );
    void fake.close().then(() => process.exit(0));
  });
};

if (require.main === module)
  runAlone().catch((error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  });
