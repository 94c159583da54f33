import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AdminSubscriptionsQuery,
  AdminSubscriptionsResponse,
  BillingSessionRequest,
  BillingSessionResponse,
  BillingSubscription,
  BillingTenantParam,
  BillingTenantsResponse,
  CancelSubscriptionRequest,
  PlansQuery,
  PlansResponse,
  ProductsResponse,
  TenantSubscriptionResponse,
  UpdateSubscriptionQuery,
  UpdateSubscriptionRequest,
  billingMessages,
  type BillingSubscription as BillingSubscriptionView,
  type UpdateSubscriptionRequest as UpdateSubscriptionBody,
} from '../../../contracts/api/billing';
import { AppError } from '../../../contracts/errors';
import { PaymentStatus, type BillingPlan } from '../../../contracts/events/billing';
import { billingStream } from '../../../contracts/stream-ids';
import { billingDecider } from '../../../domain/billing/billing-decider';
import { checkCancellationForm, type ProductChange } from '../../../domain/billing/decide';
import { catalogueProducts } from '../../../domain/plan/catalogue';
import {
  getPushedStripeSubscription,
  getTenantSubscription,
  listAdminSubscriptions,
  quickstartCounts,
} from '../../../projections/billing/query-billing-subscriptions';
import { getPlanByIdentifier, listPlans } from '../../../projections/plans/query-plans';
import { hasPaymentMethod, needsQuickstartSupport } from '../../../domain/billing/subscription-rules';
import { tenantSummaries } from '../../../projections/tenant-lookup';
import { tenantsCollection } from '../../../projections/tenants/tenant-view';
import {
  billingPortalUrl,
  currentPeriodEnd,
  ensureStripeCustomer,
  readStripePayment,
  type StripeSubscriptionFacts,
} from '../../../workflows/billing/stripe-billing';
import { pushStripeSubscription } from '../../../workflows/billing/stripe-subscription';
import { createStripeClient } from '../../../workflows/billing/stripe-client';
import { executeCommand } from '../../execute-command';
import { requireCaller, requireTenantAccess, type Caller } from '../../plugins/access';

/** Billing needs a numeric tenant id (admin.md section 5), with the spec's text otherwise. */
export const billingTenantIdOf = (value: unknown): number => {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^\d{1,12}$/.test(text) || Number(text) <= 0)
    throw new AppError('validation', billingMessages.invalidTenantId, {
      properties: { tenantId: 'invalid' },
    });
  return Number(text);
};

const tenantFacts = async (request: FastifyRequest, tenantId: number) => {
  const tenant = await (
    await tenantsCollection(request.server.services.db)
  ).findOne({ _id: tenantId }, { projection: { Name: 1, UsageType: 1 } });
  if (!tenant) throw new AppError('not_found', 'Not Found', { message: `tenant ${tenantId}` });
  return { isDemo: tenant.UsageType === 'DEMO', name: tenant.Name ?? null };
};

/**
 * Who may see or change a tenant's billing (portal.md and admin.md section 6): a platform admin for
 * every tenant; an ADMIN of the tenant for its own; an ADMIN of the tenant that pays for it (the
 * advisory firm of a client). Anyone else: 403, as for other tenant-named routes. The routes declare
 * tenantAdmin (an ADMIN of the current tenant); this checks the tenant the path names.
 */
const requireBillingAccess = async (
  request: FastifyRequest,
  tenantId: number,
  subscription: BillingSubscriptionView | null,
): Promise<Caller> => {
  try {
    return await requireTenantAccess(request, tenantId, 'tenantAdmin');
  } catch (error) {
    if (!subscription || subscription.BillingTenantId === tenantId) throw error;
    // The payer's admin, with its role in the paying tenant (the decider checks which tenant pays).
    return requireTenantAccess(request, subscription.BillingTenantId, 'tenantAdmin');
  }
};

/**
 * Who decides a plan change: the paying tenant's admin when the caller is one (an advisor who created
 * a client is the ADMIN of both, and changes the client's plan as its firm), else the caller as is.
 */
const payingActor = async (
  request: FastifyRequest,
  caller: Caller,
  subscription: BillingSubscriptionView,
): Promise<Caller> => {
  if (caller.isPlatformAdmin || subscription.BillingTenantId === subscription.TenantId) return caller;
  try {
    return await requireTenantAccess(request, subscription.BillingTenantId, 'tenantAdmin');
  } catch {
    return caller;
  }
};

const subscriptionOf = async (request: FastifyRequest, tenantId: number) =>
  (
    await getTenantSubscription(request.server.services.db, {
      tenantId,
      now: request.server.services.now(),
      readAfter: request.readAfter,
    })
  ).subscription;

const requireSubscription = (subscription: BillingSubscriptionView | null): BillingSubscriptionView => {
  if (!subscription) throw new AppError('not_found', billingMessages.noSubscription);
  return subscription;
};

/** A plan to move to; a retired plan is a platform admin's choice only (ADR 39: customers get active plans). */
const planById = async (request: FastifyRequest, planId: number, field: string): Promise<BillingPlan> => {
  const { plans } = await listPlans(request.server.services.db);
  const plan = plans.find(
    (candidate) => candidate.Id === planId && (candidate.Active || requireCaller(request).isPlatformAdmin),
  );
  if (!plan)
    throw new AppError('validation', billingMessages.unknownPlan, { properties: { [field]: 'not_found' } });
  return { id: plan.Id, name: plan.Name, identifier: plan.Identifier };
};

const knownProducts = new Set(catalogueProducts.map((product) => product.Identifier));

const productChanges = (rows: UpdateSubscriptionBody['Products']): ProductChange[] | undefined => {
  if (rows === undefined) return undefined;
  const unknown = rows.findIndex((row) => !row.Delete && !knownProducts.has(row.Identifier));
  if (unknown >= 0)
    throw new AppError('validation', billingMessages.unknownProduct, {
      properties: { [`products.${unknown}.identifier`]: 'not_found' },
    });
  return rows.map((row) => ({
    identifier: row.Identifier,
    ...(row.Quantity !== undefined ? { quantity: row.Quantity } : {}),
    ...(row.Active !== undefined ? { active: row.Active } : {}),
    ...(row.ExpiresAt !== undefined
      ? { expiresAt: row.ExpiresAt === null ? null : new Date(row.ExpiresAt) }
      : {}),
    ...(row.Delete ? { delete: true } : {}),
  }));
};

const stripeFacts = (
  subscription: BillingSubscriptionView,
  name: string | null,
): StripeSubscriptionFacts => ({
  subscriptionId: subscription.Id,
  tenantId: subscription.TenantId,
  tenantName: name,
  stripeCustomerId: subscription.StripeCustomerId,
  startedAt: subscription.StartedAt,
});

/** Creates and links the payment provider's customer once; answers its id. */
const linkCustomer = async (
  reply: FastifyReply,
  stripe: ReturnType<typeof createStripeClient>,
  { subscription, name }: { subscription: BillingSubscriptionView; name: string | null },
): Promise<{ customerId: string; position: number }> => {
  const { customerId, created } = await ensureStripeCustomer(stripe, stripeFacts(subscription, name));
  if (!created) return { customerId, position: -1 };
  const linked = await executeCommand(reply, billingDecider, {
    streamId: billingStream(subscription.Id),
    tenantId: subscription.TenantId,
    command: {
      type: 'LinkStripeCustomer',
      data: { stripeCustomerId: customerId },
      now: reply.server.services.now(),
    },
    part: 'link-customer',
  });
  return { customerId, position: linked.position };
};

/**
 * A platform admin's resync pushes the subscription, as just updated, to the provider's monthly
 * subscription (workflows/billing/stripe-subscription.ts) and records its id and items.
 */
const pushToStripe = async (
  reply: FastifyReply,
  stripe: ReturnType<typeof createStripeClient>,
  input: { subscriptionId: number; tenantId: number; customerId: string; after: number },
): Promise<{ position: number }> => {
  const { db, now } = reply.server.services;
  const readAfter = { afterPosition: input.after };
  const { subscription } = await getTenantSubscription(db, {
    tenantId: input.tenantId,
    now: now(),
    readAfter,
  });
  if (!subscription) return { position: -1 };
  const current = await getPushedStripeSubscription(db, { subscriptionId: input.subscriptionId, readAfter });
  const pushed = await pushStripeSubscription(stripe, {
    subscription,
    customerId: input.customerId,
    current,
    now: now(),
  });
  if (!pushed) return { position: -1 };
  const linked = await executeCommand(reply, billingDecider, {
    streamId: billingStream(input.subscriptionId),
    tenantId: input.tenantId,
    command: { type: 'LinkStripeSubscription', data: pushed, now: now() },
    part: 'link-stripe-subscription',
  });
  return { position: linked.position };
};

const commaList = (value: string | undefined) =>
  value
    ?.split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '') ?? [];

/**
 * The billing routes of portal.md section 2.3 and admin.md sections 2 and 7
 * (docs/adr/0039-billing.md). The Stripe webhook is in stripe-webhook-routes.ts.
 */
export const billingRoutes: FastifyPluginAsyncZod = (app) => {
  const { services } = app;
  const stripe = createStripeClient(services.config);

  app.get(
    '/api/billing/subscriptions/:tenantId',
    {
      config: { access: 'tenantAdmin' },
      schema: {
        tags: ['billing'],
        params: BillingTenantParam,
        response: { 200: TenantSubscriptionResponse },
      },
    },
    async (request) => {
      const tenantId = billingTenantIdOf(request.params.tenantId);
      const subscription = await subscriptionOf(request, tenantId);
      await requireBillingAccess(request, tenantId, subscription);
      const { isDemo } = await tenantFacts(request, tenantId);
      if (isDemo || !subscription)
        return { Subscription: null, Demo: isDemo, Quickstart: null, PaymentMethodProvided: false };
      const plan = await getPlanByIdentifier(services.db, { identifier: subscription.Plan.Identifier });
      const counts = await quickstartCounts(services.db, {
        tenantId,
        subscription,
        planProducts: plan?.Products ?? [],
      });
      return {
        Subscription: subscription,
        Demo: false,
        Quickstart: counts && { ...counts, NeedsSupport: needsQuickstartSupport(counts) },
        PaymentMethodProvided: hasPaymentMethod(subscription.PaymentMethod),
      };
    },
  );

  app.patch(
    '/api/billing/subscriptions/:tenantId',
    {
      config: { access: 'tenantAdmin' },
      schema: {
        tags: ['billing'],
        params: BillingTenantParam,
        querystring: UpdateSubscriptionQuery,
        body: UpdateSubscriptionRequest,
        response: { 200: BillingSubscription },
      },
    },
    async (request, reply) => {
      const tenantId = billingTenantIdOf(request.params.tenantId);
      const body = request.body;
      const found = await subscriptionOf(request, tenantId);
      const allowed = await requireBillingAccess(request, tenantId, found);
      if (billingTenantIdOf(body.TenantId) !== tenantId)
        throw new AppError('validation', billingMessages.invalidTenantId, {
          properties: { TenantId: 'invalid' },
        });
      const { isDemo, name } = await tenantFacts(request, tenantId);
      if (isDemo) throw new AppError('conflict', billingMessages.demoUpdate);
      const subscription = requireSubscription(found);
      const caller = await payingActor(request, allowed, subscription);
      // Refused before anything is written: a refused request must change nothing.
      if (request.query.resyncStripe === 'true' && !caller.isPlatformAdmin)
        throw new AppError('forbidden', 'Only a platform administrator can resync payments.');
      if (
        body.BillingTenantId !== undefined &&
        !(await tenantSummaries(services.db, [body.BillingTenantId])).size
      )
        throw new AppError('validation', billingMessages.updateFailed, {
          properties: { BillingTenantId: 'not_found' },
        });
      const plan = body.PlanId === undefined ? undefined : await planById(request, body.PlanId, 'PlanId');
      const products = productChanges(body.Products);
      const now = services.now();
      const updatedBy = await executeCommand(reply, billingDecider, {
        streamId: billingStream(subscription.Id),
        tenantId,
        command: {
          type: 'UpdateBillingSubscription',
          data: {
            tenantId,
            actor: caller.actor,
            tenantIsDemo: isDemo,
            ...(caller.tenantId !== null ? { actorTenantId: caller.tenantId } : {}),
            ...(body.BillingTenantId !== undefined ? { billingTenantId: body.BillingTenantId } : {}),
            ...(plan ? { plan } : {}),
            ...(body.StartedAt !== undefined ? { startedAt: new Date(body.StartedAt) } : {}),
            ...(body.ResumesAt !== undefined
              ? { resumesAt: body.ResumesAt === null ? null : new Date(body.ResumesAt) }
              : {}),
            ...(body.PaymentMethod !== undefined ? { paymentMethod: body.PaymentMethod } : {}),
            ...(products ? { products } : {}),
          },
          now,
        },
      });
      let position = updatedBy.position;
      if (request.query.resyncStripe === 'true') {
        const linked = await linkCustomer(reply, stripe, { subscription, name });
        position = Math.max(position, linked.position);
        const pushed = await pushToStripe(reply, stripe, {
          subscriptionId: subscription.Id,
          tenantId,
          customerId: linked.customerId,
          after: position,
        });
        position = Math.max(position, pushed.position);
        const payment = await readStripePayment(stripe, linked.customerId);
        if (payment.paymentStatus) {
          const recorded = await executeCommand(reply, billingDecider, {
            streamId: billingStream(subscription.Id),
            tenantId,
            command: { type: 'RecordPaymentStatus', data: { paymentStatus: payment.paymentStatus }, now },
            part: 'resync-status',
          });
          position = Math.max(position, recorded.position);
        }
      }
      const { subscription: updated } = await getTenantSubscription(services.db, {
        tenantId,
        now,
        readAfter: { afterPosition: position },
      });
      return requireSubscription(updated);
    },
  );

  app.get(
    '/api/billing/subscriptions',
    {
      config: { access: 'platformAdmin' },
      schema: {
        tags: ['billing'],
        querystring: AdminSubscriptionsQuery,
        response: { 200: AdminSubscriptionsResponse },
      },
    },
    async (request) => {
      const { query } = request;
      const statuses = commaList(query.paymentStatus).filter(
        (status): status is PaymentStatus => PaymentStatus.safeParse(status).success,
      );
      const { rows, total, filtered } = await listAdminSubscriptions(services.db, {
        now: services.now(),
        classification: query.classification,
        planIdentifiers: commaList(query.plan),
        paymentStatuses: statuses,
        search: query.search,
        readAfter: request.readAfter,
      });
      return { rows, total, filtered };
    },
  );

  app.get(
    '/api/billing/plans',
    {
      config: { access: 'tenantAdmin' },
      schema: { tags: ['billing'], querystring: PlansQuery, response: { 200: PlansResponse } },
    },
    async (request) => {
      const caller = requireCaller(request);
      const { query } = request;
      // How many subscribe to each plan is the operator's business, not a tenant's.
      const include =
        query.include === 'Subscriptions' && caller.isPlatformAdmin ? (['Subscriptions'] as const) : [];
      const { plans } = await listPlans(services.db, {
        include,
        classification: query.classification,
        active: query.active === undefined ? undefined : query.active === 'true',
        readAfter: request.readAfter,
      });
      return { plans };
    },
  );

  app.get(
    '/api/billing/products',
    { config: { access: 'tenantAdmin' }, schema: { tags: ['billing'], response: { 200: ProductsResponse } } },
    () =>
      Promise.resolve({
        products: catalogueProducts.map(({ MonthlyPriceCents: _price, ...product }) => product),
      }),
  );

  app.get(
    '/api/billing/tenants',
    {
      config: { access: 'platformAdmin' },
      schema: { tags: ['billing'], response: { 200: BillingTenantsResponse } },
    },
    async () => {
      const docs = await (
        await tenantsCollection(services.db)
      )
        .find({ deletedAt: null }, { projection: { Name: 1, Classification: 1, UsageType: 1 } })
        .sort({ Name: 1, _id: 1 })
        .toArray();
      return {
        tenants: docs.map((doc) => ({
          Id: doc._id,
          Name: doc.Name ?? null,
          Classification: doc.Classification ?? null,
          UsageType: doc.UsageType ?? null,
        })),
      };
    },
  );

  app.post(
    '/api/billing/session',
    {
      config: { access: 'tenantAdmin' },
      schema: { tags: ['billing'], body: BillingSessionRequest, response: { 200: BillingSessionResponse } },
    },
    async (request, reply) => {
      const tenantId = billingTenantIdOf(request.body.tenantId);
      const found = await subscriptionOf(request, tenantId);
      await requireBillingAccess(request, tenantId, found);
      const { isDemo, name } = await tenantFacts(request, tenantId);
      if (isDemo) throw new AppError('conflict', billingMessages.demoDisabled);
      const subscription = requireSubscription(found);
      const { customerId } = await linkCustomer(reply, stripe, { subscription, name });
      const url = await billingPortalUrl(stripe, {
        customerId,
        returnUrl: new URL('/settings', services.config.PUBLIC_URL).toString(),
      });
      return { url };
    },
  );

  app.post(
    '/api/billing/subscriptions/:tenantId/cancel',
    {
      config: { access: 'tenantAdmin' },
      schema: {
        tags: ['billing'],
        params: BillingTenantParam,
        body: CancelSubscriptionRequest,
        response: { 200: BillingSubscription },
      },
    },
    async (request, reply) => {
      const tenantId = billingTenantIdOf(request.params.tenantId);
      const found = await subscriptionOf(request, tenantId);
      const allowed = await requireBillingAccess(request, tenantId, found);
      const { isDemo, name } = await tenantFacts(request, tenantId);
      if (isDemo) throw new AppError('conflict', billingMessages.demoDisabled);
      const subscription = requireSubscription(found);
      const caller = await payingActor(request, allowed, subscription);
      const body = request.body;
      const downgradeTo =
        body.DowngradeToPlanId == null
          ? null
          : await planById(request, body.DowngradeToPlanId, 'DowngradeToPlanId');
      checkCancellationForm({
        intent: body.Intent,
        reason: body.Reason,
        details: body.Details ?? null,
        confirmed: body.Confirmed,
        downgradeTo,
      });
      const now = services.now();
      const periodEnd = await currentPeriodEnd(stripe, stripeFacts(subscription, name), now);
      const cancelled = await executeCommand(reply, billingDecider, {
        streamId: billingStream(subscription.Id),
        tenantId,
        command: {
          type: 'CancelBillingSubscription',
          data: {
            intent: body.Intent,
            reason: body.Reason,
            details: body.Details ?? null,
            confirmed: body.Confirmed,
            downgradeTo,
            currentPeriodEndsAt: periodEnd,
            actor: caller.actor,
            ...(caller.tenantId !== null ? { actorTenantId: caller.tenantId } : {}),
            tenantIsDemo: isDemo,
          },
          now,
        },
      });
      const { subscription: updated } = await getTenantSubscription(services.db, {
        tenantId,
        now,
        readAfter: { afterPosition: cancelled.position },
      });
      return requireSubscription(updated);
    },
  );

  return Promise.resolve();
};
