import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * A local ActiveCampaign account for tests (ADR 48): API v3 under /api/3 with the Api-Token header,
 * users/me (the connect check), users, contacts (limit and offset, `meta.total` as a string, the
 * account links sideloaded with include=accountContacts, `email` filter), contact/sync (upsert by
 * email), accounts (search, create with unique names: a duplicate answers 422), accountContacts,
 * notes on accounts, and deletes. Records live in memory in ActiveCampaign's JSON, loaded from
 * test/fakes/fixtures/active-campaign/. Faults on demand: a refused key (403), 429 with
 * Retry-After, 5xx bursts; a per-second limit (ActiveCampaign's is 5) the benchmark lifts.
 */

type Json = Record<string, unknown>;
type Store = Record<'contacts' | 'accounts' | 'accountContacts' | 'notes' | 'users', Map<string, Json>>;

/** An id as ActiveCampaign writes it: a string, though a client may send a number. */
const idOf = (value: unknown) =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : '';

const FIXTURES = join(__dirname, 'fixtures', 'active-campaign');

/** A fixture file's records under its collection name (`{ contacts: [...], meta }`). */
export const activeCampaignFixture = (name: string): Json =>
  JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as Json;

export type ActiveCampaignFake = {
  url: string;
  configValues: Record<string, string>;
  /** The keys the account accepts; `acceptAnyKey` takes every key but `refusedKeys`. */
  apiKeys: Set<string>;
  acceptAnyKey: (accept: boolean) => void;
  refusedKeys: Set<string>;
  /** Paths (without query) a good key may not use: the plan lacks the feature (403). */
  forbiddenPaths: Set<string>;
  load: (fixture: Json) => void;
  records: (collection: keyof Store) => Json[];
  throttle: (count: number, retryAfterSeconds: number) => void;
  failNext: (count: number, status?: number) => void;
  limitRate: (perSecond: number | null) => void;
  requests: { method: string; path: string; status: number }[];
  close: () => Promise<void>;
};

export const startActiveCampaignFake = async (): Promise<ActiveCampaignFake> => {
  const app: FastifyInstance = Fastify({ logger: false });
  const store: Store = {
    contacts: new Map(),
    accounts: new Map(),
    accountContacts: new Map(),
    notes: new Map(),
    users: new Map(),
  };
  const apiKeys = new Set<string>();
  const refusedKeys = new Set<string>();
  const forbiddenPaths = new Set<string>();
  const requests: ActiveCampaignFake['requests'] = [];
  let anyKey = false;
  let throttled = { count: 0, retryAfter: 0 };
  let failing = { count: 0, status: 503 };
  let rate: number | null = null;
  let window = { second: 0, count: 0 };
  let nextId = 1000;
  const now = () => new Date().toISOString().replace(/\.\d+Z$/, '-00:00');
  /** Collections in id order, kept until the next write (large accounts page in thousands of calls). */
  const sorted = new Map<keyof Store, Json[]>();
  const inOrder = (collection: keyof Store) => {
    let rows = sorted.get(collection);
    if (!rows) {
      rows = [...store[collection].values()].sort((a, b) => Number(a.id) - Number(b.id));
      sorted.set(collection, rows);
    }
    return rows;
  };
  const linksOf = new Map<string, Json[]>();
  const put = (collection: keyof Store, record: Json) => {
    const id = record.id === undefined ? String((nextId += 1)) : idOf(record.id);
    const stored: Json = { ...record, id };
    store[collection].set(id, stored);
    sorted.delete(collection);
    if (collection === 'accountContacts') {
      const contact = idOf(stored.contact);
      linksOf.set(contact, [...(linksOf.get(contact) ?? []).filter((l) => l.id !== id), stored]);
    }
    return stored;
  };
  const drop = (collection: keyof Store, id: string) => {
    const record = store[collection].get(id);
    if (!record) return false;
    store[collection].delete(id);
    sorted.delete(collection);
    if (collection === 'accountContacts') {
      const contact = idOf(record.contact);
      linksOf.set(
        contact,
        (linksOf.get(contact) ?? []).filter((l) => l.id !== id),
      );
    }
    return true;
  };

  app.addHook('onResponse', async (request, reply) => {
    requests.push({ method: request.method, path: request.url.split('?')[0]!, status: reply.statusCode });
  });

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const key = request.headers['api-token'];
    const accepted =
      typeof key === 'string' && !refusedKeys.has(key) && (apiKeys.has(key) || (anyKey && key !== ''));
    if (!accepted) return reply.code(403).send({ message: 'No Result found for User with id 0' });
    if (forbiddenPaths.has(request.url.split('?')[0]!))
      return reply.code(403).send({ message: 'You do not have permission to access this resource' });
    if (throttled.count > 0) {
      throttled.count -= 1;
      return reply
        .code(429)
        .header('retry-after', String(throttled.retryAfter))
        .send({ message: 'Too Many Requests' });
    }
    if (failing.count > 0) {
      failing.count -= 1;
      return reply.code(failing.status).send({ message: 'Service Unavailable' });
    }
    if (rate !== null) {
      const second = Math.floor(Date.now() / 1000);
      if (window.second !== second) window = { second, count: 0 };
      window.count += 1;
      if (window.count > rate)
        return reply.code(429).header('retry-after', '1').send({ message: 'Too Many Requests' });
    }
    return undefined;
  });

  const notFound = (reply: FastifyReply, what: string, id: string) =>
    reply.code(404).send({ message: `No Result found for ${what} with id ${id}` });
  const paged = (rows: Json[], query: { limit?: string; offset?: string }) => {
    const limit = Math.min(100, Math.max(1, Number(query.limit ?? 20)));
    const offset = Math.max(0, Number(query.offset ?? 0));
    return { rows: rows.slice(offset, offset + limit), total: String(rows.length) };
  };

  app.get('/api/3/users/me', () => ({
    user: [...store.users.values()][0] ?? { id: '1', username: 'admin', email: 'admin@account.example' },
  }));

  app.get<{ Querystring: { limit?: string; offset?: string } }>('/api/3/users', (request) => {
    const { rows, total } = paged([...store.users.values()], request.query);
    return { users: rows, meta: { total } };
  });

  app.get<{ Querystring: Record<string, string> }>('/api/3/contacts', (request) => {
    let rows = inOrder('contacts');
    if (request.query.email)
      rows = rows.filter((c) => String(c.email).toLowerCase() === request.query.email!.toLowerCase());
    const { rows: page, total } = paged(rows, request.query);
    const sideload = (request.query.include ?? '').split(',').includes('accountContacts')
      ? { accountContacts: page.flatMap((c) => linksOf.get(idOf(c.id)) ?? []) }
      : {};
    return { contacts: page, ...sideload, meta: { total, page_input: { limit: request.query.limit } } };
  });

  app.post<{ Body: { contact?: Json } }>('/api/3/contact/sync', (request, reply) => {
    const contact = request.body?.contact ?? {};
    const email = typeof contact.email === 'string' ? contact.email.toLowerCase() : '';
    if (!email)
      return reply.code(422).send({
        errors: [
          {
            title: 'Contact Email Address is not valid.',
            code: 'email_invalid',
            source: { pointer: '/data/attributes/email' },
          },
        ],
      });
    const existing = [...store.contacts.values()].find((c) => String(c.email).toLowerCase() === email);
    if (existing) {
      const updated = put('contacts', { ...existing, ...contact, email, id: existing.id, udate: now() });
      return reply.code(200).send({ contact: updated });
    }
    return reply
      .code(201)
      .send({ contact: put('contacts', { ...contact, email, cdate: now(), udate: now() }) });
  });

  app.get<{ Querystring: Record<string, string> }>('/api/3/accounts', (request) => {
    let rows = inOrder('accounts');
    const search = request.query.search?.toLowerCase();
    if (search) rows = rows.filter((a) => String(a.name).toLowerCase().includes(search));
    const { rows: page, total } = paged(rows, request.query);
    return { accounts: page, meta: { total } };
  });

  app.post<{ Body: { account?: Json } }>('/api/3/accounts', (request, reply) => {
    const account = request.body?.account ?? {};
    const name = typeof account.name === 'string' ? account.name.trim() : '';
    if (!name)
      return reply.code(422).send({ errors: [{ title: 'Account name is required', code: 'field_missing' }] });
    if ([...store.accounts.values()].some((a) => String(a.name).toLowerCase() === name.toLowerCase()))
      return reply.code(422).send({
        errors: [
          {
            title: `The account name "${name}" already exists`,
            code: 'duplicate',
            source: { pointer: '/data/attributes/name' },
          },
        ],
      });
    return reply.code(201).send({
      account: put('accounts', { ...account, name, createdTimestamp: now(), updatedTimestamp: now() }),
    });
  });

  app.post<{ Body: { accountContact?: Json } }>('/api/3/accountContacts', (request, reply) => {
    const link = request.body?.accountContact ?? {};
    const contact = idOf(link.contact);
    const account = idOf(link.account);
    if (!store.contacts.has(contact) || !store.accounts.has(account))
      return reply.code(422).send({
        errors: [{ title: 'The related contact or account does not exist', code: 'related_missing' }],
      });
    if ([...store.accountContacts.values()].some((l) => l.contact === contact && l.account === account))
      return reply.code(422).send({
        errors: [{ title: 'The contact is already associated with the account', code: 'duplicate' }],
      });
    return reply.code(201).send({
      accountContact: put('accountContacts', { contact, account, jobTitle: link.jobTitle ?? null }),
    });
  });

  app.get<{ Params: { id: string } }>('/api/3/accounts/:id/notes', (request, reply) => {
    if (!store.accounts.has(request.params.id)) return notFound(reply, 'Account', request.params.id);
    return {
      notes: [...store.notes.values()].filter(
        (n) => n.reltype === 'CustomerAccount' && n.relid === request.params.id,
      ),
    };
  });

  app.post<{ Body: { note?: Json } }>('/api/3/notes', (request, reply) => {
    const note = request.body?.note ?? {};
    const relid = idOf(note.relid);
    if (note.reltype === 'CustomerAccount' && !store.accounts.has(relid))
      return notFound(reply, 'Account', relid);
    return reply.code(201).send({ note: put('notes', { ...note, relid, cdate: now(), mdate: now() }) });
  });

  const removable: [string, keyof Store, string][] = [
    ['/api/3/notes/:id', 'notes', 'Note'],
    ['/api/3/accounts/:id', 'accounts', 'Account'],
    ['/api/3/contacts/:id', 'contacts', 'Subscriber'],
  ];
  for (const [path, collection, what] of removable)
    app.delete<{ Params: { id: string } }>(path, (request, reply) => {
      if (!drop(collection, request.params.id)) return notFound(reply, what, request.params.id);
      if (collection !== 'notes')
        for (const [id, link] of store.accountContacts)
          if (link[collection === 'accounts' ? 'account' : 'contact'] === request.params.id)
            drop('accountContacts', id);
      return reply.code(200).send({});
    });

  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url,
    configValues: { ACTIVE_CAMPAIGN_API_URL: url },
    apiKeys,
    refusedKeys,
    forbiddenPaths,
    acceptAnyKey: (accept) => {
      anyKey = accept;
    },
    load: (fixture) => {
      for (const collection of Object.keys(store) as (keyof Store)[]) {
        const rows = fixture[collection];
        if (Array.isArray(rows)) for (const row of rows as Json[]) put(collection, row);
      }
    },
    records: (collection) => [...store[collection].values()],
    throttle: (count, retryAfter) => {
      throttled = { count, retryAfter };
    },
    failNext: (count, status = 503) => {
      failing = { count, status };
    },
    limitRate: (perSecond) => {
      rate = perSecond;
    },
    requests,
    close: () => app.close(),
  };
};
