import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  qboCreditMemoAt,
  qboCustomerAt,
  qboInvoiceAt,
  qboItemAt,
  qboPaymentAt,
  qboPaymentCount,
  qboTime,
  type QboCompanyShape,
} from './quickbooks-online-fixtures';

/**
 * A local QuickBooks Online: the Accounting API's query and CDC endpoints (v3, JSON, minorversion
 * required) and the OAuth 2.0 token endpoint's refresh grant with refresh-token rotation, serving
 * companies built from fixtures in QBO's own JSON. Faults on demand: 429 with Retry-After, 5xx
 * bursts, access tokens expiring mid-sync, refresh refused, records changing between pages (a hook
 * before each answer), malformed records (put as they are), very large pages (many lines per
 * invoice). Tests and benchmarks start it; production never does.
 */

type Json = Record<string, unknown>;
export const QBO_ENTITIES = ['Customer', 'Item', 'Invoice', 'Payment', 'CreditMemo'] as const;
export type FakeQboEntity = (typeof QBO_ENTITIES)[number];

type Filter = { includeInactive: boolean; updatedAfterMs: number | null };

/** One entity of a company: records ordered by numeric Id. */
type Table = {
  count: (filter: Filter) => number;
  page: (filter: Filter, start: number, max: number) => Json[];
  changedSince: (ms: number) => { active: Json[]; deleted: { Id: string; deletedMs: number }[] };
};

const idNumber = (record: Json) => Number(record.Id);
const updatedMs = (record: Json) => {
  const meta = record.MetaData as { LastUpdatedTime?: string } | undefined;
  return meta?.LastUpdatedTime ? Date.parse(meta.LastUpdatedTime) : 0;
};
const matches = (record: Json, filter: Filter) =>
  (filter.includeInactive || record.Active !== false) &&
  (filter.updatedAfterMs === null || updatedMs(record) > filter.updatedAfterMs);

/** A company whose records tests change: put, void, delete. */
export class MaterializedTable implements Table {
  readonly records = new Map<string, Json>();
  readonly deleted: { Id: string; deletedMs: number }[] = [];
  private sorted: Json[] | null = null;

  put(record: Json) {
    this.records.set(String(record.Id), record);
    this.sorted = null;
  }

  remove(id: string, at = Date.now()) {
    if (this.records.delete(id)) this.deleted.push({ Id: id, deletedMs: at });
    this.sorted = null;
  }

  private all() {
    this.sorted ??= [...this.records.values()].sort((a, b) => idNumber(a) - idNumber(b));
    return this.sorted;
  }

  count(filter: Filter) {
    return this.all().filter((r) => matches(r, filter)).length;
  }

  page(filter: Filter, start: number, max: number) {
    return this.all()
      .filter((r) => matches(r, filter))
      .slice(start - 1, start - 1 + max);
  }

  changedSince(ms: number) {
    return {
      active: this.all()
        .filter((r) => updatedMs(r) > ms)
        .sort((a, b) => updatedMs(a) - updatedMs(b)),
      deleted: this.deleted.filter((d) => d.deletedMs > ms),
    };
  }
}

/** A company computed by index (benchmarks): a million invoices without holding them. */
class GeneratedTable implements Table {
  constructor(
    private readonly size: number,
    private readonly at: (index: number) => Json,
    private readonly updated: number,
  ) {}

  count(filter: Filter) {
    return filter.updatedAfterMs !== null && this.updated <= filter.updatedAfterMs ? 0 : this.size;
  }

  page(filter: Filter, start: number, max: number) {
    const n = this.count(filter);
    const out: Json[] = [];
    for (let i = start - 1; i < Math.min(n, start - 1 + max); i += 1) out.push(this.at(i));
    return out;
  }

  changedSince(ms: number) {
    return {
      active: this.updated > ms ? this.page({ includeInactive: true, updatedAfterMs: null }, 1, 1000) : [],
      deleted: [],
    };
  }
}

export type FakeQboCompany = { realmId: string; tables: Record<FakeQboEntity, Table> };

export type MaterializedCompany = FakeQboCompany & { tables: Record<FakeQboEntity, MaterializedTable> };

/** Every record of a fixture company, held and changeable. */
export const materializedCompany = (
  realmId: string,
  shape: QboCompanyShape,
  updated = Date.parse('2024-06-01T00:00:00Z'),
): MaterializedCompany => {
  const tables = Object.fromEntries(QBO_ENTITIES.map((e) => [e, new MaterializedTable()])) as Record<
    FakeQboEntity,
    MaterializedTable
  >;
  for (let i = 0; i < shape.customers; i += 1) tables.Customer.put(qboCustomerAt(shape, i, updated));
  for (let i = 0; i < shape.items; i += 1) tables.Item.put(qboItemAt(shape, i, updated));
  for (let i = 0; i < shape.invoices; i += 1) tables.Invoice.put(qboInvoiceAt(shape, i, updated));
  for (let i = 0; i < qboPaymentCount(shape); i += 1) tables.Payment.put(qboPaymentAt(shape, i, updated));
  for (let i = 0; i < (shape.creditMemos ?? 0); i += 1)
    tables.CreditMemo.put(qboCreditMemoAt(shape, i, updated));
  return { realmId, tables };
};

export const generatedCompany = (
  realmId: string,
  shape: QboCompanyShape,
  updated = Date.parse('2024-06-01T00:00:00Z'),
): FakeQboCompany => ({
  realmId,
  tables: {
    Customer: new GeneratedTable(shape.customers, (i) => qboCustomerAt(shape, i, updated), updated),
    Item: new GeneratedTable(shape.items, (i) => qboItemAt(shape, i, updated), updated),
    Invoice: new GeneratedTable(shape.invoices, (i) => qboInvoiceAt(shape, i, updated), updated),
    Payment: new GeneratedTable(qboPaymentCount(shape), (i) => qboPaymentAt(shape, i, updated), updated),
    CreditMemo: new GeneratedTable(
      shape.creditMemos ?? 0,
      (i) => qboCreditMemoAt(shape, i, updated),
      updated,
    ),
  },
});

/** A record changed now: its MetaData.LastUpdatedTime moves, as QBO's does. */
export const touched = (record: Json, changes: Json, at = Date.now()): Json => ({
  ...record,
  ...changes,
  SyncToken: String(Number(record.SyncToken ?? 0) + 1),
  MetaData: { ...(record.MetaData as Json), LastUpdatedTime: qboTime(at) },
});

export type QboRequestLog = { path: string; query: Record<string, string>; status: number };

export type QuickBooksOnlineFake = {
  url: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** QBO_API_URL and the OAUTH_QBO_* values pointing at this fake. */
  configValues: Record<string, string>;
  addCompany: (company: FakeQboCompany) => void;
  /** Tokens for a realm, as a finished connect would have stored them. */
  issueTokens: (realmId: string, accessTtlSeconds?: number) => { accessToken: string; refreshToken: string };
  /** The next `count` API calls answer 429 with Retry-After (seconds). */
  throttle: (count: number, retryAfterSeconds: number) => void;
  /** The next `count` API calls answer this 5xx. */
  failNext: (count: number, status?: number) => void;
  /** Every access token issued so far expires now (mid-sync): the next call answers 401. */
  expireAccessTokens: () => void;
  /** Refresh grants answer invalid_grant from now on (the user disconnected the app). */
  refuseRefresh: (refuse?: boolean) => void;
  /** Runs before each query or CDC answer: changes records between pages. */
  /** Runs before each API answer; a hook that returns a promise delays the answer (platform latency). */
  beforeAnswer: (hook: ((request: QboRequestLog & { count: number }) => void | Promise<void>) | null) => void;
  /** Sends authorizations and code exchanges to the local OAuth server (browser journeys). */
  setUpstream: (next: QboUpstreamOAuth) => void;
  /** Lifts the per-realm rate limit (500 calls a minute, as QBO's) for benchmarks. */
  setRateLimit: (perMinute: number | null) => void;
  requests: QboRequestLog[];
  refreshes: () => number;
  close: () => Promise<void>;
};

const FAULT_BODY = (message: string, detail: string, code: string, type: string) => ({
  Fault: { Error: [{ Message: message, Detail: detail, code }], type },
  time: new Date().toISOString(),
});

/**
 * The statements the connector sends: SELECT * | COUNT(*) | Id FROM entity [WHERE ...] [ORDERBY Id]
 * [STARTPOSITION n] [MAXRESULTS n]. `SELECT Id` answers sparse records (only the Id), as QBO answers
 * a query that names its properties.
 */
const STATEMENT =
  /^SELECT\s+(\*|COUNT\(\*\)|Id)\s+FROM\s+(\w+)(?:\s+WHERE\s+(.+?))?(?:\s+ORDERBY\s+(\w+))?(?:\s+STARTPOSITION\s+(\d+))?(?:\s+MAXRESULTS\s+(\d+))?\s*$/i;

/**
 * Where the authorization-code half of OAuth goes (a browser journey): the local OAuth server of
 * test/oauth, whose client this fake stands in front of, since the product starts before that
 * server knows the product's address.
 */
export type QboUpstreamOAuth = {
  authorizeUrl: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
};

export const startQuickBooksOnlineFake = async (): Promise<QuickBooksOnlineFake> => {
  const app: FastifyInstance = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  const clientId = 'qbo-fake-client';
  const clientSecret = 'qbo-fake-secret';
  const companies = new Map<string, FakeQboCompany>();
  const accessTokens = new Map<string, { realmId: string; expiresAt: number }>();
  const refreshTokens = new Map<string, string>();
  const requests: QboRequestLog[] = [];
  let throttled = { count: 0, retryAfter: 0 };
  let failing = { count: 0, status: 503 };
  let refusing = false;
  let hook: ((request: QboRequestLog & { count: number }) => void | Promise<void>) | null = null;
  let rateLimit: number | null = 500;
  let refreshCount = 0;
  const calls = new Map<string, number[]>();
  let upstream: QboUpstreamOAuth | null = null;

  const issue = (realmId: string, accessTtlSeconds = 3600) => {
    const accessToken = `qbo-at-${randomBytes(16).toString('hex')}`;
    const refreshToken = `qbo-rt-${randomBytes(16).toString('hex')}`;
    accessTokens.set(accessToken, { realmId, expiresAt: Date.now() + accessTtlSeconds * 1000 });
    // Rotation: one refresh token per realm is good at a time.
    for (const [token, realm] of refreshTokens) if (realm === realmId) refreshTokens.delete(token);
    refreshTokens.set(refreshToken, realmId);
    return { accessToken, refreshToken };
  };

  app.get<{ Querystring: Record<string, string> }>('/authorize', (request, reply) => {
    if (!upstream) return reply.code(404).send({ error: 'no upstream authorization server' });
    const next = new URL(upstream.authorizeUrl);
    for (const [name, value] of Object.entries(request.query)) next.searchParams.set(name, value);
    next.searchParams.set('client_id', upstream.clientId);
    return reply.redirect(next.href);
  });

  app.post('/oauth2/v1/tokens/bearer', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, string>;
    if (body.grant_type === 'authorization_code' && upstream) {
      // The code came from the upstream server: exchange it there as its client; its tokens become
      // the tokens of this fake's company.
      const forwarded = await fetch(upstream.tokenUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${upstream.clientId}:${upstream.clientSecret}`).toString('base64')}`,
        },
        body: new URLSearchParams(
          Object.entries(body).filter(([name]) => name !== 'client_id' && name !== 'client_secret'),
        ).toString(),
      });
      const answer = (await forwarded.json()) as Record<string, unknown>;
      if (forwarded.status === 200 && typeof answer.access_token === 'string') {
        const realmId = [...companies.keys()][0] ?? 'unknown';
        accessTokens.set(answer.access_token, { realmId, expiresAt: Date.now() + 3600_000 });
        if (typeof answer.refresh_token === 'string') refreshTokens.set(answer.refresh_token, realmId);
      }
      return reply.code(forwarded.status).send(answer);
    }
    const basic = Buffer.from(`${clientId}:${clientSecret}`).toString('base64');
    if (request.headers.authorization !== `Basic ${basic}`)
      return reply.code(401).send({ error: 'invalid_client' });
    if (body.grant_type !== 'refresh_token') return reply.code(400).send({ error: 'unsupported_grant_type' });
    const realmId = refreshTokens.get(body.refresh_token ?? '');
    if (refusing || !realmId) return reply.code(400).send({ error: 'invalid_grant' });
    refreshCount += 1;
    const tokens = issue(realmId);
    return {
      token_type: 'bearer',
      access_token: tokens.accessToken,
      refresh_token: tokens.refreshToken,
      expires_in: 3600,
      x_refresh_token_expires_in: 8_726_400,
    };
  });

  const guard = (
    realmId: string,
    authorization: string | undefined,
    log: QboRequestLog,
  ): { status: number; headers?: Record<string, string>; body: unknown } | null => {
    const token = authorization?.replace(/^Bearer /, '') ?? '';
    const grant = accessTokens.get(token);
    if (!grant || grant.expiresAt <= Date.now() || grant.realmId !== realmId)
      return {
        status: 401,
        body: FAULT_BODY(
          'message=AuthenticationFailed; errorCode=003200; statusCode=401',
          'Token expired',
          '3200',
          'AUTHENTICATION',
        ),
      };
    if (throttled.count > 0) {
      throttled.count -= 1;
      return {
        status: 429,
        headers: { 'retry-after': String(throttled.retryAfter) },
        body: FAULT_BODY(
          'message=ThrottleExceeded; errorCode=003001; statusCode=429',
          'The request limit was reached.',
          '003001',
          'SERVICE',
        ),
      };
    }
    if (rateLimit !== null) {
      const now = Date.now();
      const recent = (calls.get(realmId) ?? []).filter((t) => t > now - 60_000);
      recent.push(now);
      calls.set(realmId, recent);
      if (recent.length > rateLimit)
        return {
          status: 429,
          headers: { 'retry-after': '60' },
          body: FAULT_BODY(
            'message=ThrottleExceeded; errorCode=003001; statusCode=429',
            'The request limit was reached.',
            '003001',
            'SERVICE',
          ),
        };
    }
    if (failing.count > 0) {
      failing.count -= 1;
      return { status: failing.status, body: { error: 'Service Unavailable' } };
    }
    if (!log.query.minorversion)
      return {
        status: 400,
        body: FAULT_BODY(
          'minorversion is required by this fake',
          'pin the minor version',
          '4000',
          'ValidationFault',
        ),
      };
    return null;
  };

  const companyOf = (realmId: string) => {
    const company = companies.get(realmId);
    if (!company) throw new Error(`no company ${realmId}`);
    return company;
  };

  app.get<{ Params: { realmId: string }; Querystring: Record<string, string> }>(
    '/v3/company/:realmId/query',
    async (request, reply) => {
      const log: QboRequestLog = { path: 'query', query: request.query, status: 200 };
      requests.push(log);
      const refused = guard(request.params.realmId, request.headers.authorization, log);
      if (refused) {
        log.status = refused.status;
        return reply
          .code(refused.status)
          .headers(refused.headers ?? {})
          .send(refused.body);
      }
      await hook?.({ ...log, count: requests.length });
      const match = STATEMENT.exec(request.query.query ?? '');
      const entity = match?.[2] as FakeQboEntity | undefined;
      if (!match || !entity || !QBO_ENTITIES.includes(entity)) {
        log.status = 400;
        return reply
          .code(400)
          .send(
            FAULT_BODY(
              'Error parsing query',
              `QueryParserError: ${request.query.query}`,
              '4000',
              'ValidationFault',
            ),
          );
      }
      const where = match[3] ?? '';
      const after = /MetaData\.LastUpdatedTime\s*>\s*'([^']+)'/i.exec(where)?.[1];
      const filter: Filter = {
        includeInactive: /Active\s+IN\s*\(\s*true\s*,\s*false\s*\)/i.test(where),
        updatedAfterMs: after ? Date.parse(after) : null,
      };
      const table = companyOf(request.params.realmId).tables[entity];
      if (/^COUNT/i.test(match[1]!))
        return { QueryResponse: { totalCount: table.count(filter) }, time: qboTime(Date.now()) };
      const start = Number(match[5] ?? 1);
      const max = Math.min(Number(match[6] ?? 100), 1000);
      const whole = table.page(filter, start, max);
      const records =
        match[1] === '*' ? whole : whole.map((r) => ({ Id: r.Id, domain: 'QBO', sparse: true }));
      return {
        QueryResponse:
          records.length > 0 ? { [entity]: records, startPosition: start, maxResults: records.length } : {},
        time: qboTime(Date.now()),
      };
    },
  );

  app.get<{ Params: { realmId: string }; Querystring: Record<string, string> }>(
    '/v3/company/:realmId/cdc',
    async (request, reply) => {
      const log: QboRequestLog = { path: 'cdc', query: request.query, status: 200 };
      requests.push(log);
      const refused = guard(request.params.realmId, request.headers.authorization, log);
      if (refused) {
        log.status = refused.status;
        return reply
          .code(refused.status)
          .headers(refused.headers ?? {})
          .send(refused.body);
      }
      await hook?.({ ...log, count: requests.length });
      const since = Date.parse(request.query.changedSince ?? '');
      if (Number.isNaN(since) || since < Date.now() - 30 * 86_400_000) {
        log.status = 400;
        return reply
          .code(400)
          .send(
            FAULT_BODY(
              'Invalid changedSince',
              'changedSince must be within the last 30 days',
              '2010',
              'ValidationFault',
            ),
          );
      }
      const company = companyOf(request.params.realmId);
      let left = 1000;
      const responses = (request.query.entities ?? '')
        .split(',')
        .map((name) => QBO_ENTITIES.find((e) => e.toLowerCase() === name.trim().toLowerCase()))
        .filter((e): e is FakeQboEntity => e !== undefined)
        .map((entity) => {
          const { active, deleted } = company.tables[entity].changedSince(since);
          // Deleted objects come after the active ones, all within the 1,000-object cap.
          const all = [
            ...active,
            ...deleted.map((d) => ({
              domain: 'QBO',
              status: 'Deleted',
              Id: d.Id,
              MetaData: { LastUpdatedTime: qboTime(d.deletedMs) },
            })),
          ].slice(0, left);
          left -= all.length;
          return { [entity]: all, startPosition: 1, maxResults: all.length, totalCount: all.length };
        });
      return { CDCResponse: [{ QueryResponse: responses }], time: qboTime(Date.now()) };
    },
  );

  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const tokenUrl = `${address}/oauth2/v1/tokens/bearer`;
  return {
    url: address,
    tokenUrl,
    clientId,
    clientSecret,
    configValues: {
      QBO_API_URL: address,
      OAUTH_QBO_AUTHORIZE_URL: `${address}/authorize`,
      OAUTH_QBO_TOKEN_URL: tokenUrl,
      OAUTH_QBO_CLIENT_ID: clientId,
      OAUTH_QBO_CLIENT_SECRET: clientSecret,
    },
    addCompany: (company) => companies.set(company.realmId, company),
    issueTokens: issue,
    throttle: (count, retryAfterSeconds) => {
      throttled = { count, retryAfter: retryAfterSeconds };
    },
    failNext: (count, status = 503) => {
      failing = { count, status };
    },
    expireAccessTokens: () => {
      for (const grant of accessTokens.values()) grant.expiresAt = 0;
    },
    refuseRefresh: (refuse = true) => {
      refusing = refuse;
    },
    beforeAnswer: (next) => {
      hook = next;
    },
    setUpstream: (next) => {
      upstream = next;
    },
    setRateLimit: (perMinute) => {
      rateLimit = perMinute;
    },
    requests,
    refreshes: () => refreshCount,
    close: () => app.close(),
  };
};
