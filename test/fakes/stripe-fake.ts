import type { IncomingHttpHeaders } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { mix } from './seeded';

/**
 * A local Stripe for syncs too long for stripe-mock (whose fixed answers never page): the list
 * endpoints the Stripe connector reads (products, customers, invoices, invoice payments, charges,
 * credit notes, events), retrieval by id, invoice line items, in Stripe's list envelope (`object:
 * "list"`, `data`, `has_more`, `url`; `limit` 1 to 100, default 10; `starting_after` and
 * `ending_before`; newest first) and Stripe's object shapes (copied from stripe-mock's bundled
 * fixtures: test/connectors/stripe-mock-server.ts). The connected account is the Stripe-Account
 * header; an unknown one answers Stripe's 403 permission error. A pace slows each answer, so a
 * sync lasts long enough to kill its worker; 429 rate_limit and 5xx api_error on demand. stripe-mock stays the format check
 * (test/connectors/stripe-sync.test.ts); tests and benchmarks start this one, production never does.
 */

type Json = Record<string, unknown>;

export const STRIPE_LISTS = [
  'products',
  'customers',
  'invoices',
  'invoice_payments',
  'charges',
  'credit_notes',
] as const;
export type StripeList = (typeof STRIPE_LISTS)[number];
type Stored = StripeList | 'payment_intents';

export type StripeAccountShape = {
  customers: number;
  products: number;
  invoices: number;
  /** Share of invoices paid in full by a charge (through an invoice payment): 0.6 pays six in ten. */
  paidShare?: number;
  /** Credit notes, each on an open invoice. */
  creditNotes?: number;
};

export type StripeEvent = Json & { id: string; type: string; created: number };

/** One connected account: its objects by id, and the events a sync reads. */
export type StripeAccount = {
  id: string;
  objects: Record<Stored, Map<string, Json>>;
  /** Customers deleted: retrieval answers `{ id, object, deleted: true }`. */
  deletedCustomers: Set<string>;
  events: StripeEvent[];
};

const pad = (n: number) => String(n).padStart(6, '0');
const BASE_CREATED = 1_719_800_000;

/** The figures of invoice `index` (integer cents): its lines, tax and total, as the fixture builds them. */
export const stripeInvoiceFigures = (shape: StripeAccountShape, index: number) => {
  const count = 1 + Math.floor(mix(index, 31) * 3);
  const lines = Array.from({ length: count }, (_, l) => {
    const product = Math.floor(mix(index, l, 32) * shape.products);
    const quantity = 1 + Math.floor(mix(index, l, 33) * 3);
    const unit = 1500 + product * 500;
    return { product, quantity, amount: quantity * unit };
  });
  const subtotal = lines.reduce((n, l) => n + l.amount, 0);
  const tax = Math.round(subtotal * 0.07);
  const paid = index % 10 < Math.round((shape.paidShare ?? 0.6) * 10);
  return { lines, subtotal, tax, total: subtotal + tax, paid };
};

const line = (invoiceId: string, l: number, productId: string, quantity: number, amount: number): Json => ({
  id: `il_${invoiceId.slice(3)}${l}`,
  object: 'line_item',
  amount,
  currency: 'usd',
  description: `${quantity} × product ${productId}`,
  discount_amounts: [],
  discountable: true,
  discounts: [],
  invoice: invoiceId,
  livemode: false,
  metadata: {},
  parent: null,
  period: { end: BASE_CREATED, start: BASE_CREATED },
  pretax_credit_amounts: [],
  pricing: {
    price_details: { price: `price_${productId.slice(5)}`, product: productId },
    type: 'price_details',
    unit_amount_decimal: String(amount / quantity),
  },
  quantity,
  taxes: [],
});

/** An invoice in Stripe's shape. */
export const stripeInvoiceOf = (fields: {
  id: string;
  customer: string;
  created: number;
  number: string;
  lines: Json[];
  total: number;
  subtotal: number;
  amountPaid: number;
  amountRemaining: number;
  status: string;
}): Json => ({
  id: fields.id,
  object: 'invoice',
  account_country: 'US',
  account_name: 'Kill Rides',
  amount_due: fields.total,
  amount_overpaid: 0,
  amount_paid: fields.amountPaid,
  amount_remaining: fields.amountRemaining,
  amount_shipping: 0,
  attempt_count: 0,
  attempted: fields.status === 'paid',
  auto_advance: false,
  billing_reason: 'manual',
  collection_method: 'send_invoice',
  created: fields.created,
  currency: 'usd',
  customer: fields.customer,
  customer_email: null,
  customer_name: null,
  default_payment_method: null,
  description: null,
  discounts: [],
  due_date: fields.created + 30 * 86_400,
  effective_at: fields.created,
  ending_balance: 0,
  hosted_invoice_url: null,
  lines: {
    object: 'list',
    data: fields.lines,
    has_more: false,
    total_count: fields.lines.length,
    url: `/v1/invoices/${fields.id}/lines`,
  },
  livemode: false,
  metadata: {},
  number: fields.number,
  paid_out_of_band: false,
  period_end: fields.created,
  period_start: fields.created,
  post_payment_credit_notes_amount: 0,
  pre_payment_credit_notes_amount: fields.total - fields.amountPaid - fields.amountRemaining,
  starting_balance: 0,
  status: fields.status,
  status_transitions: {
    finalized_at: fields.created,
    marked_uncollectible_at: null,
    paid_at: fields.status === 'paid' ? fields.created + 86_400 : null,
    voided_at: fields.status === 'void' ? fields.created + 86_400 : null,
  },
  subtotal: fields.subtotal,
  subtotal_excluding_tax: fields.subtotal,
  total: fields.total,
  total_excluding_tax: fields.subtotal,
  total_taxes: [],
});

/** A succeeded charge, its PaymentIntent and the invoice payment linking it to an invoice. */
export const stripePaymentOf = (fields: {
  key: string;
  customer: string;
  invoice: string;
  amount: number;
  created: number;
}) => {
  const charge: Json = {
    id: `ch_${fields.key}`,
    object: 'charge',
    amount: fields.amount,
    amount_captured: fields.amount,
    amount_refunded: 0,
    balance_transaction: `txn_${fields.key}`,
    billing_details: { address: null, email: null, name: null, phone: null },
    captured: true,
    created: fields.created,
    currency: 'usd',
    customer: fields.customer,
    description: null,
    disputed: false,
    livemode: false,
    metadata: {},
    outcome: {
      network_status: 'approved_by_network',
      risk_level: 'normal',
      seller_message: 'Payment complete.',
      type: 'authorized',
    },
    paid: true,
    payment_intent: `pi_${fields.key}`,
    payment_method: `pm_${fields.key}`,
    refunded: false,
    status: 'succeeded',
  };
  const intent: Json = {
    id: `pi_${fields.key}`,
    object: 'payment_intent',
    amount: fields.amount,
    amount_received: fields.amount,
    created: fields.created,
    currency: 'usd',
    customer: fields.customer,
    latest_charge: charge.id,
    livemode: false,
    metadata: {},
    status: 'succeeded',
  };
  const invoicePayment: Json = {
    id: `inpay_${fields.key}`,
    object: 'invoice_payment',
    amount_paid: fields.amount,
    amount_requested: fields.amount,
    created: fields.created,
    currency: 'usd',
    invoice: fields.invoice,
    is_default: true,
    livemode: false,
    payment: { type: 'payment_intent', payment_intent: intent.id },
    status: 'paid',
    status_transitions: { canceled_at: null, paid_at: fields.created },
  };
  return { charge, intent, invoicePayment };
};

/**
 * An account of `customers`, `products` and `invoices` built from the shape: invoices paid in full
 * by a charge through an invoice payment (the current API's link), the others open, a few credited.
 */
export const stripeAccount = (id: string, shape: StripeAccountShape): StripeAccount => {
  const objects = Object.fromEntries(
    [...STRIPE_LISTS, 'payment_intents'].map((r) => [r, new Map<string, Json>()]),
  ) as Record<Stored, Map<string, Json>>;
  const put = (resource: Stored, object: Json) => objects[resource].set(String(object.id), object);
  for (let i = 0; i < shape.products; i += 1)
    put('products', {
      id: `prod_K${pad(i)}`,
      object: 'product',
      active: true,
      created: BASE_CREATED - 86_400 + i,
      default_price: `price_K${pad(i)}`,
      description: null,
      images: [],
      livemode: false,
      metadata: {},
      name: `Plan ${i + 1}`,
      tax_code: null,
      type: 'service',
      updated: BASE_CREATED - 86_400 + i,
      url: null,
    });
  for (let i = 0; i < shape.customers; i += 1)
    put('customers', {
      id: `cus_K${pad(i)}`,
      object: 'customer',
      address: null,
      balance: 0,
      created: BASE_CREATED - 3600 + i,
      currency: 'usd',
      delinquent: false,
      description: null,
      email: `rider${i + 1}@example.test`,
      invoice_prefix: `K${pad(i)}`,
      livemode: false,
      metadata: {},
      name: `Rider ${i + 1}`,
      phone: null,
      preferred_locales: [],
      tax_exempt: 'none',
    });
  let credits = shape.creditNotes ?? 0;
  for (let i = 0; i < shape.invoices; i += 1) {
    const f = stripeInvoiceFigures(shape, i);
    const invoiceId = `in_K${pad(i)}`;
    const customer = `cus_K${pad((i * 7) % shape.customers)}`;
    const created = BASE_CREATED + i * 60;
    const credited = !f.paid && credits > 0 && i % 10 === 9 ? Math.round(f.total / 10) : 0;
    if (credited > 0) {
      credits -= 1;
      put('credit_notes', {
        id: `cn_K${pad(i)}`,
        object: 'credit_note',
        amount: credited,
        amount_shipping: 0,
        created: created + 3600,
        currency: 'usd',
        customer,
        customer_balance_transaction: null,
        discount_amount: 0,
        discount_amounts: [],
        invoice: invoiceId,
        lines: { object: 'list', data: [], has_more: false, url: `/v1/credit_notes/cn_K${pad(i)}/lines` },
        livemode: false,
        memo: null,
        metadata: {},
        number: `K${pad(i)}-CN-01`,
        out_of_band_amount: null,
        pdf: '',
        pre_payment_amount: credited,
        post_payment_amount: 0,
        reason: 'order_change',
        refunds: [],
        status: 'issued',
        subtotal: credited,
        subtotal_excluding_tax: credited,
        total: credited,
        total_excluding_tax: credited,
        type: 'pre_payment',
        voided_at: null,
      });
    }
    put(
      'invoices',
      stripeInvoiceOf({
        id: invoiceId,
        customer,
        created,
        number: `K${pad(i)}-0001`,
        lines: [
          ...f.lines.map((l, n) => line(invoiceId, n, `prod_K${pad(l.product)}`, l.quantity, l.amount)),
        ],
        total: f.total,
        subtotal: f.subtotal,
        amountPaid: f.paid ? f.total : 0,
        amountRemaining: f.paid ? 0 : f.total - credited,
        status: f.paid ? 'paid' : 'open',
      }),
    );
    if (f.paid) {
      const paid = stripePaymentOf({
        key: `K${pad(i)}`,
        customer,
        invoice: invoiceId,
        amount: f.total,
        created: created + 86_400,
      });
      put('charges', paid.charge);
      put('payment_intents', paid.intent);
      put('invoice_payments', paid.invoicePayment);
    }
  }
  return { id, objects, deletedCustomers: new Set(), events: [] };
};

/** Stripe's event for an object changed now. */
export const stripeEventOf = (account: StripeAccount, type: string, object: Json): StripeEvent => {
  const created = Math.floor(Date.now() / 1000);
  const event: StripeEvent = {
    id: `evt_K${pad(account.events.length)}${created}`,
    object: 'event',
    account: account.id,
    api_version: '2025-07-30.basil',
    created,
    data: { object },
    livemode: false,
    pending_webhooks: 0,
    request: { id: null, idempotency_key: null },
    type,
  };
  account.events.push(event);
  return event;
};

export type StripeRequestLog = { path: string; query: Record<string, string | string[]>; status: number };

export type StripeFake = {
  url: string;
  /** STRIPE_API_URL pointing at this fake. */
  configValues: Record<string, string>;
  addAccount: (account: StripeAccount) => void;
  /** Milliseconds each answer waits: a sync of a few thousand objects lasts seconds. */
  setPace: (ms: number) => void;
  /** The next `count` calls answer 429 rate_limit (without Stripe-Should-Retry). */
  throttle: (count: number) => void;
  /** The next `count` calls answer this 5xx api_error. */
  failNext: (count: number, status?: number) => void;
  /** Runs before each answer (changes objects between pages). */
  beforeAnswer: (hook: ((request: StripeRequestLog) => void) | null) => void;
  requests: StripeRequestLog[];
  close: () => Promise<void>;
};

const stripeError = (reply: FastifyReply, status: number, error: Json) =>
  reply.code(status).header('request-id', `req_fake${Date.now()}`).send({ error });

/** Stripe's query string: `expand[0]`, `types[1]`, `created[gt]` kept as Stripe's server reads them. */
const parseQuery = (url: string) => {
  const params = new URLSearchParams(url.split('?')[1] ?? '');
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of params) {
    const list = /^(\w+)\[\d*\]$/.exec(key);
    if (list && list[1] !== 'created') {
      const name = list[1]!;
      out[name] = [...((out[name] as string[] | undefined) ?? []), value];
    } else out[key] = value;
  }
  return out;
};

/** Newest first, as Stripe lists; ties by id. */
const newestFirst = (a: Json, b: Json) =>
  Number(b.created) - Number(a.created) || (String(b.id) < String(a.id) ? -1 : 1);

export const startStripeFake = async (): Promise<StripeFake> => {
  const app: FastifyInstance = Fastify({ logger: false });
  const accounts = new Map<string, StripeAccount>();
  const requests: StripeRequestLog[] = [];
  let pace = 0;
  let hook: ((request: StripeRequestLog) => void) | null = null;
  let throttled = 0;
  let failing = { count: 0, status: 500 };

  const expanded = (account: StripeAccount, object: Json, paths: string[]): Json => {
    if (object.object !== 'invoice_payment' || !paths.includes('payment.payment_intent')) return object;
    const payment = object.payment as { payment_intent?: string };
    const intent = payment.payment_intent
      ? account.objects.payment_intents.get(payment.payment_intent)
      : null;
    return intent ? { ...object, payment: { ...payment, payment_intent: intent } } : object;
  };

  const listOf = (
    reply: FastifyReply,
    url: string,
    all: Json[],
    query: Record<string, string | string[]>,
  ) => {
    const limit = Number(query.limit ?? 10);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      return stripeError(reply, 400, {
        type: 'invalid_request_error',
        code: 'parameter_invalid_integer',
        param: 'limit',
        message: 'Invalid integer: limit must be between 1 and 100',
      });
    const sorted = [...all].sort(newestFirst);
    let from = 0;
    let to = sorted.length;
    const cursor = (query.starting_after ?? query.ending_before) as string | undefined;
    if (cursor) {
      const at = sorted.findIndex((o) => o.id === cursor);
      if (at < 0)
        return stripeError(reply, 400, {
          type: 'invalid_request_error',
          code: 'resource_missing',
          param: query.starting_after ? 'starting_after' : 'ending_before',
          message: `No such object: '${cursor}'`,
        });
      if (query.starting_after) from = at + 1;
      else {
        to = at;
        from = Math.max(0, at - limit);
      }
    }
    const data = query.ending_before ? sorted.slice(from, to) : sorted.slice(from, from + limit);
    const has_more = query.ending_before ? from > 0 : from + limit < to;
    return { object: 'list', data, has_more, url };
  };

  const accountOf = (reply: FastifyReply, headers: IncomingHttpHeaders) => {
    const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? '';
    if (!/^Bearer sk_(test|live)_\w+/.test(header(headers.authorization))) {
      void stripeError(reply, 401, {
        type: 'invalid_request_error',
        message:
          'You did not provide an API key. You need to provide your API key in the Authorization header.',
      });
      return null;
    }
    const id = header(headers['stripe-account']);
    const account = accounts.get(id);
    if (!account) {
      void stripeError(reply, 403, {
        type: 'invalid_request_error',
        code: 'account_invalid',
        message: `The provided key does not have access to account '${id}' (or that account does not exist). Application access may have been revoked.`,
      });
      return null;
    }
    return account;
  };

  app.addHook('preHandler', async (request, reply) => {
    const log: StripeRequestLog = {
      path: request.url.split('?')[0]!,
      query: parseQuery(request.url),
      status: 200,
    };
    requests.push(log);
    hook?.(log);
    if (pace > 0) await new Promise((resolve) => setTimeout(resolve, pace));
    if (throttled > 0) {
      throttled -= 1;
      return stripeError(reply, 429, {
        type: 'invalid_request_error',
        code: 'rate_limit',
        message:
          'Too many requests hit the API too quickly. We recommend an exponential backoff of your requests.',
      });
    }
    if (failing.count > 0) {
      failing.count -= 1;
      return stripeError(reply, failing.status, {
        type: 'api_error',
        message: 'An unknown error occurred',
      });
    }
  });
  app.addHook('onSend', async (request, reply) => {
    const last = requests.findLast((r) => r.path === request.url.split('?')[0]);
    if (last) last.status = reply.statusCode;
  });

  const resourceOf = (name: string): Stored | null =>
    ([...STRIPE_LISTS, 'payment_intents'] as string[]).includes(name) ? (name as Stored) : null;

  app.get<{ Params: { resource: string } }>('/v1/:resource', async (request, reply) => {
    const account = accountOf(reply, request.headers);
    if (!account) return reply;
    const query = parseQuery(request.url);
    const url = `/v1/${request.params.resource}`;
    if (request.params.resource === 'events') {
      const after = Number(query['created[gt]'] ?? -Infinity);
      const types = (query.types as string[] | undefined) ?? [];
      const wanted = (type: string) =>
        types.length === 0 ||
        types.some((t) => (t.endsWith('.*') ? type.startsWith(t.slice(0, -1)) : t === type));
      return listOf(
        reply,
        url,
        account.events.filter((e) => e.created > after && wanted(e.type)),
        query,
      );
    }
    const resource = resourceOf(request.params.resource);
    if (!resource || resource === 'payment_intents')
      return stripeError(reply, 404, {
        type: 'invalid_request_error',
        message: `Unrecognized request URL (GET: ${url}).`,
      });
    const paths = ((query.expand as string[] | undefined) ?? [])
      .filter((p) => p.startsWith('data.'))
      .map((p) => p.slice(5));
    const page = listOf(reply, url, [...account.objects[resource].values()], query);
    if (!('object' in (page as Json))) return page;
    const list = page as { data: Json[] };
    return { ...list, data: list.data.map((o) => expanded(account, o, paths)) };
  });

  app.get<{ Params: { resource: string; id: string } }>('/v1/:resource/:id', async (request, reply) => {
    const account = accountOf(reply, request.headers);
    if (!account) return reply;
    const resource = resourceOf(request.params.resource);
    const { id } = request.params;
    if (resource === 'customers' && account.deletedCustomers.has(id))
      return { id, object: 'customer', deleted: true };
    const object = resource ? account.objects[resource].get(id) : undefined;
    if (!object)
      return stripeError(reply, 404, {
        type: 'invalid_request_error',
        code: 'resource_missing',
        param: 'id',
        message: `No such ${request.params.resource.replace(/s$/, '')}: '${id}'`,
      });
    const query = parseQuery(request.url);
    return expanded(account, object, (query.expand as string[] | undefined) ?? []);
  });

  app.get<{ Params: { id: string } }>('/v1/invoices/:id/lines', async (request, reply) => {
    const account = accountOf(reply, request.headers);
    if (!account) return reply;
    const invoice = account.objects.invoices.get(request.params.id);
    if (!invoice)
      return stripeError(reply, 404, {
        type: 'invalid_request_error',
        code: 'resource_missing',
        message: `No such invoice: '${request.params.id}'`,
      });
    // In the invoice's own order: the list sorts newest first.
    const lines = (invoice.lines as { data: Json[] }).data.map((l, n) => ({ ...l, created: -n }));
    return listOf(reply, `/v1/invoices/${request.params.id}/lines`, lines, parseQuery(request.url));
  });

  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url: address,
    configValues: { STRIPE_API_URL: address },
    addAccount: (account) => accounts.set(account.id, account),
    setPace: (ms) => {
      pace = ms;
    },
    throttle: (count) => {
      throttled = count;
    },
    failNext: (count, status = 500) => {
      failing = { count, status };
    },
    beforeAnswer: (next) => {
      hook = next;
    },
    requests,
    close: () => app.close(),
  };
};
