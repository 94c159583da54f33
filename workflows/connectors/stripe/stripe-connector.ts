import Stripe from 'stripe';
import type { Db } from 'mongodb';
import type { CommandHandlerDeps } from '../../../commands/command-handler';
import type { CredentialVault } from '../../../commands/credential-vault';
import type { Config } from '../../../contracts/config';
import { emptyLedgerPage, type LedgerPage } from '../../../contracts/ledger';
import { sellerStream } from '../../../contracts/stream-ids';
import { sellerDecider } from '../../../domain/seller/seller-decider';
import type { FetchedPage, FetchPageRequest, LedgerConnector } from '../../sync/ledger-connector';
import { runSystemCommand } from '../../sync/system-commands';
import { failureTypes, userFailure } from '../shared/connector-failure';
import {
  adjustmentsProduct,
  defaultMalformedLog,
  defaultWarn,
  mapOrSkip,
  recordDeletions,
  type MalformedLog,
} from '../shared/ledger-mapping';
import { createOAuthTokens, type OAuthTokens } from '../shared/oauth-tokens';
import { forgetInvoicePayments, recordInvoicePayments } from './stripe-invoice-payments';
import {
  mapStripeCharge,
  mapStripeCreditNote,
  mapStripeCustomer,
  mapStripeInvoice,
  mapStripeInvoicePayment,
  mapStripeProduct,
  type StripeChargeApplication,
  StripeInvoice,
  stripeCounts,
} from './stripe-mapping';

/**
 * Stripe behind the sync's LedgerConnector seam (docs/adr/0043-accounting-connectors.md), with the
 * official `stripe` package on behalf of the connected account (Stripe Connect: the platform's key
 * and the Stripe-Account the connect flow stored in the vault; Stripe's Connect tokens never expire,
 * so there is nothing to renew). Populate lists products, customers, invoices, invoice payments,
 * charges and credit notes with starting_after; invoice payments say which charge paid which invoice
 * (stripe-invoice-payments.ts). A sync reads the events since the CollectionDate (Stripe keeps 30 days)
 * and retrieves each changed object as it is now, so events arriving newest first never write an
 * older state over a newer one; an older CollectionDate lists everything again (unchanged rows are
 * skipped by the writer). 5xx answers are retried by the package with its back-off; a 429 only when
 * Stripe-Should-Retry says so, otherwise the attempt fails and resumes from its checkpoint. An account
 * that withdrew our access (a permission error) marks the seller REVOKED.
 */

export const STRIPE_NAME = 'Stripe';
/** Invoice payments before charges: a charge read takes the applications they recorded. */
const steps = ['products', 'customers', 'invoices', 'invoice_payments', 'charges', 'credit_notes'] as const;
/** An invoice payment names a PaymentIntent; expanded, it names the charge (latest_charge). */
const INVOICE_PAYMENT_EXPAND = ['payment.payment_intent'];
type Step = (typeof steps)[number];
const EVENTS_LOOKBACK_MS = 29 * 24 * 3600 * 1000;
const MAX_LIMIT = 100;

type StripeCursor = {
  mode: 'list' | 'events';
  step: number;
  after: string | null;
  skipped: number;
  done: number;
};

type Lister = (
  params: Stripe.PaginationParams,
  options: Stripe.RequestOptions,
) => Promise<Stripe.ApiList<unknown>>;

export const createStripeLedgerConnector = (deps: {
  db: Db;
  stripe: Stripe;
  tokens: Pick<OAuthTokens, 'current' | 'forget'>;
  revoke: (sellerId: number, why: string) => Promise<never>;
  now: () => Date;
  log?: MalformedLog;
}): LedgerConnector => {
  const log = deps.log ?? defaultMalformedLog;
  const { stripe } = deps;
  const listers: Record<Step, Lister> = {
    products: (p, o) => stripe.products.list(p, o),
    customers: (p, o) => stripe.customers.list(p, o),
    invoices: (p, o) => stripe.invoices.list(p, o),
    invoice_payments: (p, o) =>
      stripe.invoicePayments.list({ ...p, expand: INVOICE_PAYMENT_EXPAND.map((e) => `data.${e}`) }, o),
    charges: (p, o) => stripe.charges.list(p, o),
    credit_notes: (p, o) => stripe.creditNotes.list(p, o),
  };

  /** The object as it is now, for a changed id (events carry the state at their time). */
  const current = (
    objectType: string,
    id: string,
    options: Stripe.RequestOptions,
  ): Promise<unknown> | null => {
    if (objectType === 'customer') return stripe.customers.retrieve(id, {}, options);
    if (objectType === 'invoice') return stripe.invoices.retrieve(id, {}, options);
    if (objectType === 'charge') return stripe.charges.retrieve(id, {}, options);
    if (objectType === 'invoice_payment')
      return stripe.invoicePayments.retrieve(id, { expand: INVOICE_PAYMENT_EXPAND }, options);
    if (objectType === 'credit_note') return stripe.creditNotes.retrieve(id, {}, options);
    if (objectType === 'product') return stripe.products.retrieve(id, {}, options);
    return null;
  };

  /** Every line of an invoice: the list holds the first ten. */
  const withAllLines = async (raw: unknown, options: Stripe.RequestOptions): Promise<unknown> => {
    const invoice = raw as { id?: string; lines?: { data: unknown[]; has_more?: boolean } };
    if (!invoice.id || !invoice.lines?.has_more) return raw;
    const data: unknown[] = [];
    for await (const line of stripe.invoices.listLineItems(invoice.id, { limit: MAX_LIMIT }, options))
      data.push(line);
    return { ...invoice, lines: { data, has_more: false } };
  };

  const mapInto = async (
    context: { sellerId: number; options: Stripe.RequestOptions },
    objects: unknown[],
    page: LedgerPage,
  ): Promise<number> => {
    const { sellerId } = context;
    let skipped = 0;
    const gone: { entity: 'invoices' | 'creditMemos'; providerId: string }[] = [];
    const invoicePayments = new Map<string, StripeChargeApplication | null>();
    for (const raw of objects) {
      const object = raw as { id?: string; object?: string; status?: string; deleted?: boolean };
      const id = object.id ?? '(no id)';
      if (object.deleted) continue;
      if ((object.object === 'invoice' || object.object === 'credit_note') && !stripeCounts(object)) {
        if (object.status !== 'draft')
          gone.push({ entity: object.object === 'invoice' ? 'invoices' : 'creditMemos', providerId: id });
        continue;
      }
      const full = object.object === 'invoice' ? await withAllLines(raw, context.options) : raw;
      const mapped = mapOrSkip(log, { platform: STRIPE_NAME, entity: object.object ?? 'object', id }, () => {
        switch (object.object ?? '') {
          case 'customer':
            return page.customers.push(mapStripeCustomer(sellerId, full));
          case 'product':
            return page.products.push(mapStripeProduct(sellerId, full));
          case 'invoice':
            return page.invoices.push(mapStripeInvoice(sellerId, StripeInvoice.parse(full)));
          case 'charge': {
            const payment = mapStripeCharge(sellerId, full);
            return payment ? page.payments.push(payment) : 0;
          }
          case 'credit_note':
            return page.creditMemos.push(mapStripeCreditNote(sellerId, full));
          case 'invoice_payment':
            return invoicePayments.set(id, mapStripeInvoicePayment(full)).size;
          default:
            return 0;
        }
      });
      if (mapped === null) skipped += 1;
    }
    if (gone.length > 0) await recordDeletions({ sellerId }, gone, page);
    await recordInvoicePayments({ db: deps.db, sellerId }, invoicePayments, page);
    return skipped;
  };

  const accountOf = async (sellerId: number) => {
    const tokens = await deps.tokens.current(sellerId);
    const account = tokens.secret.accountId;
    if (!account)
      throw userFailure(
        `${STRIPE_NAME} did not say which account was connected. Reconnect it on the Platforms page.`,
        failureTypes.noCredentials,
      );
    return account;
  };

  const fetchPage = async (request: FetchPageRequest): Promise<FetchedPage> => {
    const { sellerId } = request;
    const page = emptyLedgerPage();
    let cursor: StripeCursor;
    if (request.cursor === null) {
      deps.tokens.forget(sellerId);
      const useEvents =
        request.since !== null && deps.now().getTime() - request.since.getTime() < EVENTS_LOOKBACK_MS;
      cursor = { mode: useEvents ? 'events' : 'list', step: 0, after: null, skipped: 0, done: 0 };
      if (request.since === null) await forgetInvoicePayments(deps.db, sellerId);
      page.products.push(adjustmentsProduct(sellerId));
    } else cursor = JSON.parse(request.cursor) as StripeCursor;
    const options: Stripe.RequestOptions = { stripeAccount: await accountOf(sellerId) };
    const limit = Math.max(1, Math.min(request.pageSize, MAX_LIMIT));
    const paging = { limit, ...(cursor.after ? { starting_after: cursor.after } : {}) };
    let list: Stripe.ApiList<unknown>;
    let objects: unknown[];
    if (cursor.mode === 'events') {
      list = await stripe.events.list(
        {
          ...paging,
          created: { gt: Math.floor(request.since!.getTime() / 1000) },
          types: ['customer.*', 'product.*', 'invoice.*', 'invoice_payment.*', 'charge.*', 'credit_note.*'],
        },
        options,
      );
      const changed = new Map<string, string>();
      for (const event of list.data as Stripe.Event[]) {
        const object = event.data.object as { id?: string; object?: string };
        if (object.id && object.object && !changed.has(object.id)) changed.set(object.id, object.object);
      }
      objects = [];
      for (const [id, type] of changed) {
        const now = current(type, id, options);
        if (now) objects.push(await now);
      }
    } else {
      list = await listers[steps[cursor.step]!](paging, options);
      objects = list.data;
    }
    const skipped = cursor.skipped + (await mapInto({ sellerId, options }, objects, page));
    const last = (list.data.at(-1) as { id?: string } | undefined)?.id ?? null;
    const done = cursor.done + 1;
    let next: StripeCursor | null;
    if (list.has_more && last) next = { ...cursor, after: last, skipped, done };
    else if (cursor.mode === 'list' && cursor.step + 1 < steps.length)
      next = { ...cursor, step: cursor.step + 1, after: null, skipped, done };
    else next = null;
    if (next === null && skipped > 0)
      defaultWarn(`${STRIPE_NAME}: seller ${sellerId}: ${skipped} malformed records were skipped`);
    // Stripe lists do not count: progress is by kind of object.
    const total = cursor.mode === 'events' ? 1 : steps.length;
    return {
      page,
      nextCursor: next === null ? null : JSON.stringify(next),
      done: next === null ? total : Math.min(next.step, total),
      total,
    };
  };

  return {
    fetchPage: async (request) => {
      try {
        return await fetchPage(request);
      } catch (error) {
        if (error instanceof Stripe.errors.StripePermissionError)
          return deps.revoke(request.sellerId, error.message);
        if (error instanceof Stripe.errors.StripeAuthenticationError)
          throw userFailure(
            `${STRIPE_NAME} refused our platform key (${error.message}). An operator must set STRIPE_SECRET_KEY.`,
            failureTypes.refused,
          );
        throw error;
      }
    },
  };
};

/** The Stripe connector as the sync worker builds it: STRIPE_API_URL and the platform's secret key. */
export const createStripeConnector = (deps: {
  db: Db;
  vault: CredentialVault;
  config: Config;
  writeSide: CommandHandlerDeps;
  now: () => Date;
}): LedgerConnector => {
  const { config } = deps;
  const api = new URL(config.STRIPE_API_URL);
  const protocol = api.protocol === 'http:' ? 'http' : 'https';
  const stripe = new Stripe(config.STRIPE_SECRET_KEY, {
    host: api.hostname,
    port: Number(api.port || (protocol === 'http' ? 80 : 443)),
    protocol,
    // 5xx (and 429 with Stripe-Should-Retry: true): the package retries with back-off. Another 429
    // fails the attempt; the activity retries from its checkpoint (test/connectors/stripe-fake-sync).
    maxNetworkRetries: 4,
  });
  // The vault holds the connected account's id (stripe_user_id); nothing to renew.
  const tokens = createOAuthTokens({
    writeSide: deps.writeSide,
    vault: deps.vault,
    now: deps.now,
    http: { platform: STRIPE_NAME, maxRetryWaitMs: 0 },
    neverExpire: true,
    endpoint: {
      tokenUrl: config.OAUTH_STRIPE_TOKEN_URL,
      clientId: undefined,
      clientSecret: undefined,
      clientAuth: 'post',
    },
  });
  const revoke = async (sellerId: number, why: string): Promise<never> => {
    const seller = await tokens.current(sellerId).catch(() => null);
    if (seller)
      await runSystemCommand(
        {
          writeSide: deps.writeSide,
          workflowId: `token-${sellerId}`,
          tenantId: seller.tenantId,
          process: 'sync-seller',
        },
        sellerDecider,
        {
          streamId: sellerStream(sellerId),
          step: `revoke:${seller.credentialsRef}`,
          command: { type: 'RevokeSellerAuthToken', now: deps.now(), data: {} },
        },
      );
    throw userFailure(
      `${STRIPE_NAME} no longer gives us access to ${seller?.companyName ?? 'this account'} (${why}). ` +
        'Reconnect it on the Platforms page, then sync again.',
      failureTypes.revoked,
    );
  };
  return createStripeLedgerConnector({ db: deps.db, stripe, tokens, revoke, now: deps.now });
};
