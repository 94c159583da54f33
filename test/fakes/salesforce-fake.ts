import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { serveFakeOAuthProvider } from './fake-oauth-provider';

/**
 * A local Salesforce org for tests and the CRM benchmark (ADR 48): the OAuth 2.0 authorize page
 * (consent at once) and token endpoint (authorization_code and refresh_token grants, answering
 * `instance_url` pointing back here; refresh tokens are not rotated, as Salesforce's are not) and the
 * REST API's Query resource (a small SOQL reader: SELECT fields FROM object [WHERE a = 'x' AND b LIKE '%y%']
 * [ORDER BY field] [LIMIT n], with `nextRecordsUrl` paging and the Sforce-Query-Options batch size),
 * sObject create, update, delete, describe and upsert by external id, and sObject Collections
 * (composite/sobjects create, upsert and delete, up to 200 records). Records are kept in memory in
 * Salesforce's own JSON (fixtures in test/fakes/fixtures/salesforce/). Errors answer Salesforce's
 * array `[{ message, errorCode }]`. Faults on demand: 429 with Retry-After, 403
 * REQUEST_LIMIT_EXCEEDED, 5xx bursts, expired sessions (401 INVALID_SESSION_ID), refused refresh
 * (400 invalid_grant); a per-second rate limit that the benchmark lifts.
 */

type Json = Record<string, unknown>;
export type SalesforceRecord = Json & { Id: string };

/** The key prefixes Salesforce gives each object's ids. */
const prefixes: Record<string, string> = {
  Account: '001',
  Contact: '003',
  User: '005',
  Task: '00T',
  Organization: '00D',
};
export const SALESFORCE_OBJECTS = Object.keys(prefixes);

/** The external id field an org may have on Account, Contact and Task (ADR 48). */
export const SALESFORCE_KEY_FIELD = 'Ledgerwise_Key__c';

/** An 18-character id with the object's prefix. */
export const salesforceId = (type: string, ...parts: (string | number)[]) => {
  const hash = createHash('sha1').update(parts.join(':')).digest('base64url').replace(/[-_]/g, 'x');
  return `${prefixes[type] ?? '0XX'}${hash.slice(0, 15)}`;
};

const FIXTURES = join(__dirname, 'fixtures', 'salesforce');

/** The records of a fixture file, in the Query resource's shape (`{ totalSize, done, records }`). */
export const salesforceFixture = (name: string): SalesforceRecord[] =>
  (JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as { records: SalesforceRecord[] }).records;

/** An org of `accounts` Accounts, three Contacts each, and five Users, as the benchmark needs. */
export const generatedSalesforceOrg = (shape: { accounts: number; contactsPerAccount: number }) => {
  const users = Array.from({ length: 5 }, (_, i) => ({
    attributes: { type: 'User' },
    Id: salesforceId('User', 'gen', i),
    Name: `Rep ${i + 1}`,
    Email: `rep${i + 1}@seller.example`,
    IsActive: true,
  }));
  const accounts: SalesforceRecord[] = [];
  const contacts: SalesforceRecord[] = [];
  for (let i = 0; i < shape.accounts; i += 1) {
    const accountId = salesforceId('Account', 'gen', i);
    accounts.push({
      attributes: { type: 'Account' },
      Id: accountId,
      Name: `Customer ${i + 1} Ltd`,
      OwnerId: users[i % users.length]!.Id,
      Website: `https://customer${i + 1}.example`,
      AccountNumber: i % 2 === 0 ? `C-${i + 1}` : null,
      LastModifiedDate: '2026-01-05T10:00:00.000+0000',
    });
    for (let c = 0; c < shape.contactsPerAccount; c += 1)
      contacts.push({
        attributes: { type: 'Contact' },
        Id: salesforceId('Contact', 'gen', i, c),
        AccountId: accountId,
        Email: `person${c + 1}@customer${i + 1}.example`,
        FirstName: `Person${c + 1}`,
        LastName: `Customer${i + 1}`,
        OwnerId: users[i % users.length]!.Id,
      });
  }
  return { users, accounts, contacts };
};

/** Salesforce's error body. */
const sfError = (errorCode: string, message: string, fields: string[] = []) => [
  { message, errorCode, fields },
];

type Condition = { field: string; op: '=' | 'LIKE' | '!=' | '>'; value: string | null | boolean };
type Soql = {
  fields: string[];
  object: string;
  where: Condition[];
  orderBy: string | null;
  limit: number | null;
};

/** The conditions of a WHERE joined by AND, an AND inside a quoted literal left alone. */
const splitAnd = (where: string): string[] => {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < where.length; i += 1) {
    const ch = where[i]!;
    if (quoted && ch === '\\') {
      current += ch + (where[i + 1] ?? '');
      i += 1;
      continue;
    }
    if (ch === "'") quoted = !quoted;
    const and = !quoted && /^\s+AND\s+/i.exec(where.slice(i));
    if (and) {
      parts.push(current);
      current = '';
      i += and[0].length - 1;
      continue;
    }
    current += ch;
  }
  parts.push(current);
  return parts;
};

/** The SOQL the connector writes: enough to read, page and look up, nothing more. */
export const parseSoql = (text: string): Soql => {
  const match =
    /^\s*SELECT\s+(.+?)\s+FROM\s+(\w+)(?:\s+WHERE\s+(.+?))?(?:\s+ORDER\s+BY\s+(\w+)(?:\s+ASC)?)?(?:\s+LIMIT\s+(\d+))?\s*$/i.exec(
      text,
    );
  if (!match) throw new Error(`MALFORMED_QUERY: ${text}`);
  const where: Condition[] = [];
  if (match[3]) {
    for (const part of splitAnd(match[3])) {
      const c = /^(\w+)\s*(=|!=|>|LIKE)\s*(?:'((?:[^'\\]|\\.)*)'|(null|true|false))$/i.exec(part.trim());
      if (!c) throw new Error(`MALFORMED_QUERY: ${part}`);
      const literal = c[4]?.toLowerCase();
      where.push({
        field: c[1]!,
        op: c[2]!.toUpperCase() as Condition['op'],
        value:
          literal === 'null'
            ? null
            : literal === 'true'
              ? true
              : literal === 'false'
                ? false
                : c[3]!.replace(/\\(.)/g, '$1'),
      });
    }
  }
  return {
    fields: match[1]!.split(',').map((f) => f.trim()),
    object: match[2]!,
    where,
    orderBy: match[4] ?? null,
    limit: match[5] ? Number(match[5]) : null,
  };
};

const likeToRegExp = (pattern: string) =>
  new RegExp(
    `^${pattern
      .split('')
      .map((ch) => (ch === '%' ? '.*' : ch === '_' ? '.' : ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('')}$`,
    'is',
  );

export type SalesforceFake = {
  url: string;
  instanceUrl: string;
  tokenUrl: string;
  configValues: Record<string, string>;
  /** Puts records (Salesforce JSON, with attributes.type or the given type). */
  load: (type: string, records: Json[]) => void;
  records: (type: string) => SalesforceRecord[];
  /** Whether Account, Contact and Task have the Ledgerwise_Key__c external id field. */
  setKeyField: (present: boolean) => void;
  /** A custom field the org has on Account (the settings' AccountingIdentifier), besides AccountNumber. */
  addAccountField: (name: string) => void;
  issueTokens: () => { accessToken: string; refreshToken: string; instanceUrl: string };
  throttle: (count: number, retryAfterSeconds: number) => void;
  exceedLimit: (count: number, limit?: 'TotalRequests' | 'ConcurrentPerOrgLongTxn') => void;
  failNext: (count: number, status?: number) => void;
  expireAccessTokens: () => void;
  refuseRefresh: (refuse?: boolean) => void;
  /** Query locators lapse (Salesforce drops them after some idle minutes). */
  expireQueryLocators: () => void;
  /** Requests per second before 429; null lifts the limit (the default). */
  limitRate: (perSecond: number | null) => void;
  requests: { method: string; path: string; status: number }[];
  refreshes: () => number;
  close: () => Promise<void>;
};

export const startSalesforceFake = async (): Promise<SalesforceFake> => {
  const app: FastifyInstance = Fastify({ logger: false, bodyLimit: 50 * 1024 * 1024 });
  const clientId = 'salesforce-fake-client';
  const clientSecret = 'salesforce-fake-secret';
  const store = new Map<string, Map<string, SalesforceRecord>>(SALESFORCE_OBJECTS.map((t) => [t, new Map()]));
  const deleted = new Set<string>();
  const accountFields = new Set([
    'Id',
    'Name',
    'OwnerId',
    'Website',
    'AccountNumber',
    'Description',
    'LastModifiedDate',
  ]);
  const locators = new Map<string, { rows: Json[]; position: number; batch: number }>();
  let keyField = true;
  let limitExceeded = { count: 0, limit: 'TotalRequests' };
  let rate: number | null = null;
  let window = { second: 0, count: 0 };
  let sequence = 0;
  let url = '';

  const table = (type: string) => {
    const t = store.get(type);
    if (!t) throw Object.assign(new Error(`sObject type '${type}' is not supported.`), { code: 'NOT_FOUND' });
    return t;
  };
  const fieldsOf = (type: string): { name: string; externalId: boolean }[] => {
    const base: Record<string, string[]> = {
      Account: [...accountFields],
      Contact: ['Id', 'AccountId', 'Email', 'FirstName', 'LastName', 'OwnerId', 'Description'],
      User: ['Id', 'Name', 'Email', 'IsActive'],
      Task: [
        'Id',
        'Subject',
        'Description',
        'ActivityDate',
        'WhatId',
        'OwnerId',
        'Status',
        'Priority',
        'TaskSubtype',
      ],
      Organization: ['Id', 'Name'],
    };
    const fields = (base[type] ?? []).map((name) => ({ name, externalId: false }));
    if (keyField && ['Account', 'Contact', 'Task'].includes(type))
      fields.push({ name: SALESFORCE_KEY_FIELD, externalId: true });
    return fields;
  };
  const checkFields = (type: string, record: Json) => {
    const known = new Set(fieldsOf(type).map((f) => f.name));
    for (const field of Object.keys(record))
      if (field !== 'attributes' && !known.has(field))
        throw Object.assign(new Error(`No such column '${field}' on sobject of type ${type}`), {
          code: 'INVALID_FIELD',
        });
  };
  const stamp = (type: string, record: Json): SalesforceRecord => {
    sequence += 1;
    return {
      ...record,
      Id: String(record.Id),
      attributes: { type, url: `/services/data/v60.0/sobjects/${type}/${String(record.Id)}` },
      LastModifiedDate: new Date(Date.UTC(2026, 0, 1) + sequence * 1000).toISOString().replace('Z', '+0000'),
    };
  };
  const create = (type: string, fields: Json): SalesforceRecord => {
    checkFields(type, fields);
    if (type === 'Contact' && !fields.LastName)
      throw Object.assign(new Error('Required fields are missing: [LastName]'), {
        code: 'REQUIRED_FIELD_MISSING',
      });
    if (type === 'Account' && !fields.Name)
      throw Object.assign(new Error('Required fields are missing: [Name]'), {
        code: 'REQUIRED_FIELD_MISSING',
      });
    const { attributes: _a, ...rest } = fields;
    const id = salesforceId(type, 'new', sequence, randomBytes(4).toString('hex'));
    const record = stamp(type, { ...rest, Id: id });
    table(type).set(id, record);
    return record;
  };

  const load = (type: string, records: Json[]) => {
    for (const record of records) {
      const t = (record.attributes as { type?: string } | undefined)?.type ?? type;
      table(t).set(String(record.Id), { ...record, Id: String(record.Id), attributes: { type: t } });
    }
  };

  // Salesforce's OAuth 2.0 endpoints: the token answers name the org's instance (`instance_url`),
  // refresh tokens are not rotated, and sessions last two hours.
  const tokenFields = () => ({
    signature: randomBytes(16).toString('base64'),
    scope: 'refresh_token api',
    instance_url: url,
    id: `https://login.salesforce.com/id/00Dfake/${salesforceId('User', 'integration')}`,
    token_type: 'Bearer',
    issued_at: String(Date.now()),
  });
  const { guard, controls } = serveFakeOAuthProvider(app, {
    accessTokenPrefix: '00Dfake!',
    refreshTokenPrefix: '5Aep861fake',
    refusedGrantDescription: 'expired access/refresh token',
    tokenPath: '/services/oauth2/token',
    accessTokenLifetimeMs: 2 * 3600_000,
    grantBody: (accessToken) => ({ access_token: accessToken, ...tokenFields() }),
    oauthApp: {
      clientId,
      clientSecret,
      authorizePath: '/services/oauth2/authorize',
      refuseClient: (reply) =>
        reply.code(400).send({ error: 'invalid_client_id', error_description: 'client identifier invalid' }),
      codeGrantBody: (tokens) => ({
        access_token: tokens.accessToken,
        refresh_token: tokens.refreshToken,
        ...tokenFields(),
      }),
    },
    errors: {
      unauthenticated: (reply) =>
        reply.code(401).send(sfError('INVALID_SESSION_ID', 'Session expired or invalid')),
      throttled: (reply) => reply.code(429).send(sfError('REQUEST_LIMIT_EXCEEDED', 'Too many requests')),
      unavailable: (reply, status) =>
        reply.code(status).send(sfError('SERVER_UNAVAILABLE', 'Service temporarily unavailable')),
    },
  });

  /** Auth, faults and the rate limit before every data call; answers the reply when it refuses. */
  const gate = (request: { headers: Record<string, unknown> }, reply: FastifyReply): boolean => {
    const header = request.headers.authorization;
    if (guard(typeof header === 'string' ? header : undefined, reply)) return false;
    if (limitExceeded.count > 0) {
      limitExceeded.count -= 1;
      void reply.code(403).send(sfError('REQUEST_LIMIT_EXCEEDED', `${limitExceeded.limit} Limit exceeded.`));
      return false;
    }
    if (rate !== null) {
      const second = Math.floor(Date.now() / 1000);
      if (window.second !== second) window = { second, count: 0 };
      window.count += 1;
      if (window.count > rate) {
        void reply
          .code(429)
          .header('retry-after', '1')
          .send(sfError('REQUEST_LIMIT_EXCEEDED', 'Too many requests'));
        return false;
      }
    }
    return true;
  };

  const failure = (reply: FastifyReply, error: unknown) => {
    const code = (error as { code?: string }).code ?? 'UNKNOWN_EXCEPTION';
    const status = code === 'NOT_FOUND' ? 404 : 400;
    return reply.code(status).send(sfError(code, (error as Error).message));
  };

  const select = (record: Json, fields: string[]) => {
    const out: Json = { attributes: record.attributes };
    for (const field of fields) out[field] = record[field] ?? null;
    return out;
  };

  const page = (locator: string) => {
    const cursor = locators.get(locator)!;
    const rows = cursor.rows.slice(cursor.position, cursor.position + cursor.batch);
    cursor.position += rows.length;
    const done = cursor.position >= cursor.rows.length;
    if (done) locators.delete(locator);
    return {
      totalSize: cursor.rows.length,
      done,
      ...(done ? {} : { nextRecordsUrl: `/services/data/v60.0/query/${locator}-${cursor.position}` }),
      records: rows,
    };
  };

  app.get<{ Params: { version: string }; Querystring: { q?: string } }>(
    '/services/data/:version/query',
    async (request, reply) => {
      if (!gate(request, reply)) return reply;
      let soql: Soql;
      try {
        soql = parseSoql(request.query.q ?? '');
        if (!store.has(soql.object))
          throw Object.assign(new Error(`sObject type '${soql.object}' is not supported.`), {
            code: 'INVALID_TYPE',
          });
        const known = new Set(fieldsOf(soql.object).map((f) => f.name));
        for (const field of [...soql.fields, ...soql.where.map((c) => c.field)])
          if (!known.has(field))
            throw Object.assign(new Error(`No such column '${field}' on entity '${soql.object}'.`), {
              code: 'INVALID_FIELD',
            });
      } catch (error) {
        return reply
          .code(400)
          .send(sfError((error as { code?: string }).code ?? 'MALFORMED_QUERY', (error as Error).message));
      }
      let rows = [...table(soql.object).values()];
      for (const c of soql.where) {
        const like = c.op === 'LIKE' && typeof c.value === 'string' ? likeToRegExp(c.value) : null;
        rows = rows.filter((r) => {
          const v = r[c.field] ?? null;
          if (like) return typeof v === 'string' && like.test(v);
          if (c.op === '>') return typeof v === 'string' && v > String(c.value);
          const equal =
            typeof c.value === 'string' && typeof v === 'string'
              ? v.toLowerCase() === c.value.toLowerCase()
              : v === c.value;
          return c.op === '!=' ? !equal : equal;
        });
      }
      if (soql.orderBy) {
        const f = soql.orderBy;
        const key = (r: Json) => (typeof r[f] === 'string' ? r[f] : '');
        rows.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
      }
      if (soql.limit !== null) rows = rows.slice(0, soql.limit);
      const options = String(request.headers['sforce-query-options'] ?? '');
      const asked = Number(/batchSize=(\d+)/.exec(options)?.[1] ?? 2000);
      const batch = Math.min(2000, Math.max(200, asked));
      const locator = `01g${randomBytes(6).toString('hex')}`;
      locators.set(locator, { rows: rows.map((r) => select(r, soql.fields)), position: 0, batch });
      return page(locator);
    },
  );

  app.get<{ Params: { version: string; locator: string } }>(
    '/services/data/:version/query/:locator',
    async (request, reply) => {
      if (!gate(request, reply)) return reply;
      const [locator, position] = request.params.locator.split('-');
      const cursor = locators.get(locator ?? '');
      if (!cursor || Number(position) !== cursor.position)
        return reply.code(400).send(sfError('INVALID_QUERY_LOCATOR', 'invalid query locator'));
      return page(locator!);
    },
  );

  app.get<{ Params: { version: string; type: string } }>(
    '/services/data/:version/sobjects/:type/describe',
    async (request, reply) => {
      if (!gate(request, reply)) return reply;
      if (!store.has(request.params.type))
        return reply.code(404).send(sfError('NOT_FOUND', `The requested resource does not exist`));
      return {
        name: request.params.type,
        fields: fieldsOf(request.params.type).map((f) => ({
          name: f.name,
          externalId: f.externalId,
          idLookup: f.externalId || f.name === 'Id',
          type: f.name === 'Id' ? 'id' : 'string',
        })),
      };
    },
  );

  app.post<{ Params: { version: string; type: string }; Body: Json }>(
    '/services/data/:version/sobjects/:type',
    async (request, reply) => {
      if (!gate(request, reply)) return reply;
      try {
        const record = create(request.params.type, request.body ?? {});
        return reply.code(201).send({ id: record.Id, success: true, errors: [] });
      } catch (error) {
        return failure(reply, error);
      }
    },
  );

  const gone = (reply: FastifyReply, id: string) =>
    deleted.has(id)
      ? reply.code(404).send(sfError('ENTITY_IS_DELETED', 'entity is deleted'))
      : reply.code(404).send(sfError('NOT_FOUND', 'The requested resource does not exist'));

  app.patch<{ Params: { version: string; type: string; id: string }; Body: Json }>(
    '/services/data/:version/sobjects/:type/:id',
    async (request, reply) => {
      if (!gate(request, reply)) return reply;
      const { type, id } = request.params;
      try {
        const existing = table(type).get(id);
        if (!existing) return gone(reply, id);
        checkFields(type, request.body ?? {});
        table(type).set(id, stamp(type, { ...existing, ...request.body, Id: id }));
        return reply.code(204).send();
      } catch (error) {
        return failure(reply, error);
      }
    },
  );

  app.delete<{ Params: { version: string; type: string; id: string } }>(
    '/services/data/:version/sobjects/:type/:id',
    async (request, reply) => {
      if (!gate(request, reply)) return reply;
      const { type, id } = request.params;
      if (!table(type).delete(id)) return gone(reply, id);
      deleted.add(id);
      return reply.code(204).send();
    },
  );

  /** Upsert by external id: 201 with created true, or 200 with created false. */
  const upsert = (type: string, field: string, value: string, fields: Json) => {
    if (!fieldsOf(type).some((f) => f.name === field && f.externalId))
      throw Object.assign(
        new Error(`Provided external ID field does not exist or is not accessible: ${field}`),
        {
          code: 'NOT_FOUND',
        },
      );
    const matches = [...table(type).values()].filter((r) => r[field] === value);
    if (matches.length > 1)
      throw Object.assign(new Error('More than one record found for external id field'), {
        code: 'MULTIPLE_CHOICES',
      });
    if (matches[0]) {
      checkFields(type, fields);
      const { attributes: _a, ...rest } = fields;
      table(type).set(matches[0].Id, stamp(type, { ...matches[0], ...rest, Id: matches[0].Id }));
      return { id: matches[0].Id, created: false };
    }
    return { id: create(type, { ...fields, [field]: value }).Id, created: true };
  };

  app.patch<{ Params: { version: string; type: string; field: string; value: string }; Body: Json }>(
    '/services/data/:version/sobjects/:type/:field/:value',
    async (request, reply) => {
      if (!gate(request, reply)) return reply;
      const { type, field, value } = request.params;
      try {
        const result = upsert(type, field, value, request.body ?? {});
        return reply.code(result.created ? 201 : 200).send({ ...result, success: true, errors: [] });
      } catch (error) {
        return failure(reply, error);
      }
    },
  );

  type Collection = { allOrNone?: boolean; records?: Json[] };
  const itemError = (error: unknown) => ({
    success: false,
    errors: [
      {
        statusCode: (error as { code?: string }).code ?? 'UNKNOWN_EXCEPTION',
        message: (error as Error).message,
        fields: [],
      },
    ],
  });

  app.post<{ Params: { version: string }; Body: Collection }>(
    '/services/data/:version/composite/sobjects',
    async (request, reply) => {
      if (!gate(request, reply)) return reply;
      const records = request.body?.records ?? [];
      if (records.length > 200)
        return reply
          .code(400)
          .send(
            sfError(
              'EXCEEDED_ID_LIMIT',
              'record limit reached. cannot submit more than 200 records into this call',
            ),
          );
      return records.map((record) => {
        try {
          const type = (record.attributes as { type?: string } | undefined)?.type ?? '';
          return { id: create(type, record).Id, success: true, errors: [] };
        } catch (error) {
          return { id: null, ...itemError(error) };
        }
      });
    },
  );

  app.patch<{ Params: { version: string; type: string; field: string }; Body: Collection }>(
    '/services/data/:version/composite/sobjects/:type/:field',
    async (request, reply) => {
      if (!gate(request, reply)) return reply;
      const { type, field } = request.params;
      const records = request.body?.records ?? [];
      if (records.length > 200)
        return reply
          .code(400)
          .send(
            sfError(
              'EXCEEDED_ID_LIMIT',
              'record limit reached. cannot submit more than 200 records into this call',
            ),
          );
      return records.map((record) => {
        try {
          const { [field]: value, ...rest } = record;
          return { ...upsert(type, field, String(value), rest), success: true, errors: [] };
        } catch (error) {
          return { id: null, ...itemError(error) };
        }
      });
    },
  );

  app.delete<{ Params: { version: string }; Querystring: { ids?: string; allOrNone?: string } }>(
    '/services/data/:version/composite/sobjects',
    async (request, reply) => {
      if (!gate(request, reply)) return reply;
      const ids = (request.query.ids ?? '').split(',').filter(Boolean);
      if (ids.length > 200)
        return reply
          .code(400)
          .send(
            sfError(
              'EXCEEDED_ID_LIMIT',
              'record limit reached. cannot submit more than 200 records into this call',
            ),
          );
      return ids.map((id) => {
        for (const records of store.values())
          if (records.delete(id)) {
            deleted.add(id);
            return { id, success: true, errors: [] };
          }
        return {
          id,
          success: false,
          errors: [
            deleted.has(id)
              ? { statusCode: 'ENTITY_IS_DELETED', message: 'entity is deleted', fields: [] }
              : {
                  statusCode: 'INVALID_CROSS_REFERENCE_KEY',
                  message: 'invalid cross reference id',
                  fields: [],
                },
          ],
        };
      });
    },
  );

  url = await app.listen({ host: '127.0.0.1', port: 0 });
  table('Organization').set(
    salesforceId('Organization', 'org'),
    stamp('Organization', { Id: salesforceId('Organization', 'org'), Name: 'Fake Org Inc.' }),
  );
  return {
    url,
    instanceUrl: url,
    tokenUrl: `${url}/services/oauth2/token`,
    configValues: {
      OAUTH_SALESFORCE_AUTHORIZE_URL: `${url}/services/oauth2/authorize`,
      OAUTH_SALESFORCE_TOKEN_URL: `${url}/services/oauth2/token`,
      OAUTH_SALESFORCE_CLIENT_ID: clientId,
      OAUTH_SALESFORCE_CLIENT_SECRET: clientSecret,
    },
    load,
    records: (type) => [...table(type).values()],
    setKeyField: (present) => {
      keyField = present;
    },
    addAccountField: (name) => {
      accountFields.add(name);
    },
    ...controls,
    issueTokens: () => ({ ...controls.issueTokens(), instanceUrl: url }),
    exceedLimit: (count, limit = 'TotalRequests') => {
      limitExceeded = { count, limit };
    },
    expireQueryLocators: () => locators.clear(),
    limitRate: (perSecond) => {
      rate = perSecond;
    },
    close: () => app.close(),
  };
};
