import { createHash, randomBytes, randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { decimal, mix } from './seeded';

/**
 * A local Xero: the connections endpoint, the Accounting API's Contacts, Items, Invoices, Payments
 * and CreditNotes (api.xro/2.0, JSON, xero-tenant-id, If-Modified-Since, page and pageSize, where and
 * order) and the identity server's refresh grant with refresh-token rotation, from fixtures in Xero's
 * own JSON. Faults on demand: 429 with Retry-After and X-Rate-Limit-Problem (minute or day), 5xx
 * bursts, tokens expiring mid-sync, refresh refused, a hook before each answer, malformed records.
 */

type Json = Record<string, unknown>;
export const XERO_ENTITIES = ['Contacts', 'Items', 'Invoices', 'Payments', 'CreditNotes'] as const;
export type XeroEntity = (typeof XERO_ENTITIES)[number];
const idField: Record<XeroEntity, string> = {
  Contacts: 'ContactID',
  Items: 'ItemID',
  Invoices: 'InvoiceID',
  Payments: 'PaymentID',
  CreditNotes: 'CreditNoteID',
};

/** Xero's JSON date. */
export const xeroJsonDate = (ms: number) => `/Date(${ms}+0000)/`;
const msOf = (value: unknown) => Number(/\/Date\((\d+)/.exec(String(value))?.[1] ?? 0);

/** A stable GUID for fixtures. */
export const guid = (...parts: (string | number)[]) => {
  const h = createHash('sha1').update(parts.join(':')).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

export type XeroOrganisation = {
  tenantId: string;
  name: string;
  records: Record<XeroEntity, Map<string, Json>>;
};

const DAY = 86_400_000;

/** An organisation of `contacts`, `items` and `invoices`; six invoices in ten paid, one in ten in EUR. */
export const xeroOrganisation = (
  name: string,
  shape: { contacts: number; items: number; invoices: number; creditNotes: number },
  updated = Date.parse('2024-06-01T00:00:00Z'),
): XeroOrganisation => {
  const tenantId = guid('tenant', name);
  const records = Object.fromEntries(XERO_ENTITIES.map((e) => [e, new Map<string, Json>()])) as Record<
    XeroEntity,
    Map<string, Json>
  >;
  const put = (entity: XeroEntity, record: Json) =>
    records[entity].set(String(record[idField[entity]]), record);
  const start = Date.parse('2023-03-01T00:00:00Z');
  for (let i = 0; i < shape.contacts; i += 1)
    put('Contacts', {
      ContactID: guid(name, 'contact', i),
      ContactStatus: 'ACTIVE',
      Name: `Client ${i + 1} Pty`,
      EmailAddress: `ap@client${i + 1}.example`,
      IsCustomer: true,
      IsSupplier: false,
      UpdatedDateUTC: xeroJsonDate(updated),
    });
  for (let i = 0; i < shape.items; i += 1)
    put('Items', {
      ItemID: guid(name, 'item', i),
      Code: `SKU-${i + 1}`,
      Name: `Product ${i + 1}`,
      SalesDetails: { UnitPrice: decimal(2000 + i * 500), AccountCode: '200' },
      UpdatedDateUTC: xeroJsonDate(updated),
    });
  for (let i = 0; i < shape.invoices; i += 1) {
    const lines = 1 + Math.floor(mix(i, 11) * 3);
    const items = Array.from({ length: lines }, (_, l) => {
      const item = Math.floor(mix(i, l, 12) * shape.items);
      const qty = 1 + Math.floor(mix(i, l, 13) * 3);
      return { item, qty, unit: 2000 + item * 500 };
    });
    const subtotal = items.reduce((n, l) => n + l.qty * l.unit, 0);
    const tax = Math.round(subtotal * 0.15);
    const total = subtotal + tax;
    const paid = i % 10 < 6;
    const euro = i % 10 === 9;
    const date = start + (i % 400) * DAY;
    const contact = guid(name, 'contact', (i * 5) % shape.contacts);
    const invoiceId = guid(name, 'invoice', i);
    put('Invoices', {
      Type: 'ACCREC',
      InvoiceID: invoiceId,
      InvoiceNumber: `INV-${String(i + 1).padStart(4, '0')}`,
      Contact: { ContactID: contact, Name: `Client ${((i * 5) % shape.contacts) + 1} Pty` },
      Date: xeroJsonDate(date),
      DateString: new Date(date).toISOString().slice(0, 19),
      DueDate: xeroJsonDate(date + 20 * DAY),
      Status: paid ? 'PAID' : 'AUTHORISED',
      LineAmountTypes: 'Exclusive',
      LineItems: items.map((l, n) => ({
        LineItemID: guid(name, 'line', i, n),
        ItemCode: `SKU-${l.item + 1}`,
        Description: `Product ${l.item + 1}`,
        Quantity: l.qty,
        UnitAmount: decimal(l.unit),
        LineAmount: decimal(l.qty * l.unit),
        TaxAmount: 0,
        AccountCode: '200',
      })),
      SubTotal: decimal(subtotal),
      TotalTax: decimal(tax),
      Total: decimal(total),
      AmountDue: paid ? 0 : decimal(total),
      AmountPaid: paid ? decimal(total) : 0,
      AmountCredited: 0,
      CurrencyCode: euro ? 'EUR' : 'NZD',
      CurrencyRate: euro ? 0.5 : 1,
      UpdatedDateUTC: xeroJsonDate(updated),
    });
    if (paid)
      put('Payments', {
        PaymentID: guid(name, 'payment', i),
        Date: xeroJsonDate(date + 15 * DAY),
        Amount: decimal(total),
        CurrencyRate: euro ? 0.5 : 1,
        PaymentType: 'ACCRECPAYMENT',
        Status: 'AUTHORISED',
        IsReconciled: true,
        Invoice: { InvoiceID: invoiceId, InvoiceNumber: `INV-${i + 1}`, Contact: { ContactID: contact } },
        UpdatedDateUTC: xeroJsonDate(updated),
      });
  }
  for (let i = 0; i < shape.creditNotes; i += 1)
    put('CreditNotes', {
      Type: 'ACCRECCREDIT',
      CreditNoteID: guid(name, 'credit', i),
      CreditNoteNumber: `CN-${i + 1}`,
      Contact: { ContactID: guid(name, 'contact', i % shape.contacts) },
      Date: xeroJsonDate(start + i * 7 * DAY),
      Status: 'AUTHORISED',
      Total: decimal(1500 + i * 100),
      CurrencyRate: 1,
      Allocations: [],
      UpdatedDateUTC: xeroJsonDate(updated),
    });
  return { tenantId, name, records };
};

/** A record changed now, as Xero moves UpdatedDateUTC. */
export const xeroTouched = (record: Json, changes: Json, at = Date.now()): Json => ({
  ...record,
  ...changes,
  UpdatedDateUTC: xeroJsonDate(at),
});

export type XeroFake = {
  url: string;
  configValues: Record<string, string>;
  addOrganisation: (organisation: XeroOrganisation) => void;
  issueTokens: (tenantIds: string[]) => { accessToken: string; refreshToken: string };
  throttle: (count: number, retryAfterSeconds: number, problem: 'minute' | 'day' | 'concurrent') => void;
  failNext: (count: number, status?: number) => void;
  expireAccessTokens: () => void;
  refuseRefresh: (refuse?: boolean) => void;
  beforeAnswer: (hook: ((entity: string, query: Record<string, string>) => void) | null) => void;
  requests: {
    path: string;
    query: Record<string, string>;
    headers: Record<string, string>;
    status: number;
  }[];
  refreshes: () => number;
  close: () => Promise<void>;
};

export const startXeroFake = async (): Promise<XeroFake> => {
  const app: FastifyInstance = Fastify({ logger: false });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  const clientId = 'xero-fake-client';
  const clientSecret = 'xero-fake-secret';
  const organisations = new Map<string, XeroOrganisation>();
  const access = new Map<string, { tenants: string[]; expiresAt: number }>();
  const refresh = new Map<string, string[]>();
  const requests: XeroFake['requests'] = [];
  let throttled = { count: 0, retryAfter: 0, problem: 'minute' };
  let failing = { count: 0, status: 503 };
  let refusing = false;
  let refreshCount = 0;
  let hook: ((entity: string, query: Record<string, string>) => void) | null = null;

  const issue = (tenants: string[]) => {
    const accessToken = `xero-at-${randomBytes(16).toString('hex')}`;
    const refreshToken = `xero-rt-${randomBytes(16).toString('hex')}`;
    access.set(accessToken, { tenants, expiresAt: Date.now() + 1800_000 });
    refresh.set(refreshToken, tenants);
    return { accessToken, refreshToken };
  };

  app.post('/connect/token', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, string>;
    const basic = Buffer.from(`${clientId}:${clientSecret}`).toString('base64');
    if (request.headers.authorization !== `Basic ${basic}`)
      return reply.code(401).send({ error: 'invalid_client' });
    const tenants = refresh.get(body.refresh_token ?? '');
    if (body.grant_type !== 'refresh_token' || refusing || !tenants)
      return reply.code(400).send({ error: 'invalid_grant' });
    // Rotation: the used refresh token stops working.
    refresh.delete(body.refresh_token!);
    refreshCount += 1;
    const tokens = issue(tenants);
    return {
      id_token: undefined,
      access_token: tokens.accessToken,
      expires_in: 1800,
      token_type: 'Bearer',
      refresh_token: tokens.refreshToken,
      scope: 'offline_access accounting.transactions.read accounting.contacts.read',
    };
  });

  const bearer = (authorization: string | undefined) => {
    const grant = access.get(authorization?.replace(/^Bearer /, '') ?? '');
    return grant && grant.expiresAt > Date.now() ? grant : null;
  };

  app.get('/connections', async (request, reply) => {
    const grant = bearer(request.headers.authorization);
    if (!grant) return reply.code(401).send({ Title: 'Unauthorized', Status: 401, Detail: 'TokenExpired' });
    return grant.tenants.map((tenantId) => ({
      id: guid('connection', tenantId),
      authEventId: guid('auth', tenantId),
      tenantId,
      tenantType: 'ORGANISATION',
      tenantName: organisations.get(tenantId)?.name ?? null,
      createdDateUtc: '2024-01-01T00:00:00.0000000',
      updatedDateUtc: '2024-01-01T00:00:00.0000000',
    }));
  });

  app.get<{ Params: { entity: string }; Querystring: Record<string, string> }>(
    '/api.xro/2.0/:entity',
    async (request, reply) => {
      const headers = request.headers as Record<string, string>;
      const log = { path: request.params.entity, query: request.query, headers, status: 200 };
      requests.push(log);
      const send = (status: number, body: unknown, extra: Record<string, string> = {}) => {
        log.status = status;
        return reply.code(status).headers(extra).send(body);
      };
      const grant = bearer(headers.authorization);
      if (!grant)
        return send(401, { Title: 'Unauthorized', Status: 401, Detail: 'TokenExpired: token expired' });
      const tenantId = headers['xero-tenant-id'] ?? '';
      const organisation = organisations.get(tenantId);
      if (!organisation || !grant.tenants.includes(tenantId))
        return send(403, { Title: 'Forbidden', Status: 403, Detail: 'AuthenticationUnsuccessful' });
      if (throttled.count > 0) {
        throttled.count -= 1;
        return send(
          429,
          { Title: 'Too Many Requests' },
          {
            'retry-after': String(throttled.retryAfter),
            'x-rate-limit-problem': throttled.problem,
          },
        );
      }
      if (failing.count > 0) {
        failing.count -= 1;
        return send(failing.status, { Title: 'Service Unavailable' });
      }
      const entity = XERO_ENTITIES.find((e) => e === request.params.entity);
      if (!entity) return send(404, { Title: 'Not Found' });
      hook?.(entity, request.query);
      let rows = [...organisation.records[entity].values()];
      const since = headers['if-modified-since'];
      if (since) {
        const sinceMs = Date.parse(/Z|[+-]\d\d:\d\d$/.test(since) || /GMT/.test(since) ? since : `${since}Z`);
        rows = rows.filter((r) => msOf(r.UpdatedDateUTC) > sinceMs);
      }
      const where = /^(\w+)=="([^"]*)"$/.exec(request.query.where ?? '');
      if (where) rows = rows.filter((r) => String(r[where[1]!]) === where[2]);
      if (request.query.includeArchived !== 'true') rows = rows.filter((r) => r.ContactStatus !== 'ARCHIVED');
      const order = /^(\w+)(?:\s+(ASC|DESC))?$/i.exec(request.query.order ?? '');
      if (order) {
        const field = order[1]!;
        rows.sort((a, b) => String(a[field]).localeCompare(String(b[field])));
        if (order[2]?.toUpperCase() === 'DESC') rows.reverse();
      }
      if (request.query.page) {
        const size = Math.min(Number(request.query.pageSize ?? 100), 1000);
        const page = Number(request.query.page);
        rows = rows.slice((page - 1) * size, page * size);
      }
      return {
        Id: randomUUID(),
        Status: 'OK',
        ProviderName: 'Ledgerwise',
        DateTimeUTC: xeroJsonDate(Date.now()),
        [entity]: rows,
      };
    },
  );

  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url,
    configValues: {
      XERO_API_URL: url,
      OAUTH_XERO_TOKEN_URL: `${url}/connect/token`,
      OAUTH_XERO_CLIENT_ID: clientId,
      OAUTH_XERO_CLIENT_SECRET: clientSecret,
    },
    addOrganisation: (organisation) => organisations.set(organisation.tenantId, organisation),
    issueTokens: issue,
    throttle: (count, retryAfter, problem) => {
      throttled = { count, retryAfter, problem };
    },
    failNext: (count, status = 503) => {
      failing = { count, status };
    },
    expireAccessTokens: () => {
      for (const grant of access.values()) grant.expiresAt = 0;
    },
    refuseRefresh: (refuse = true) => {
      refusing = refuse;
    },
    beforeAnswer: (next) => {
      hook = next;
    },
    requests,
    refreshes: () => refreshCount,
    close: () => app.close(),
  };
};
