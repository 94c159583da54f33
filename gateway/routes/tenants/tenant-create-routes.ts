import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CreateTenantRequest, Tenant, tenantMessages } from '../../../contracts/api/tenants';
import { AppError, type FieldErrors } from '../../../contracts/errors';
import type { TenantClassification } from '../../../contracts/events/tenant';
import { tenantDecider } from '../../../domain/tenant/tenant-decider';
import { userDecider } from '../../../domain/user/user-decider';
import { queryTenant } from '../../../projections/tenants/query-tenant';
import { tenantsCollection } from '../../../projections/tenants/tenant-view';
import { allocateIdFor, executeCommand } from '../../execute-command';
import { isAdvisorIn, requireCaller, type Caller } from '../../plugins/access';
import { clientsPartnerOf, industryOf, requirePartner } from '../../use-cases/tenants/tenant-facts';
import { tenantStream, userStream } from '../../../contracts/stream-ids';
import { startTenantSubscription } from '../../use-cases/billing/start-tenant-subscription';

/** portal.md section 9: a plan identifier ending _business, or free, lite, plus, max, is a business's. */
const classificationOfPlan = (plan: string): TenantClassification =>
  /_business$/.test(plan) || ['free', 'lite', 'plus', 'max'].includes(plan) ? 'BUSINESS' : 'FIRM';

const onlyPlatformAdmin = () => new AppError('forbidden', 'Only a platform administrator can do this.');

/** An advisor adding a business from their firm: the client joins the firm's partner and its client plan. */
const advisorClientOf = async (
  request: Parameters<typeof clientsPartnerOf>[0],
  caller: Caller,
): Promise<{ partnerId: number | null; plan: string } | null> => {
  if (caller.tenantId === null || !isAdvisorIn(caller.facts)) return null;
  const current = await (
    await tenantsCollection(request.server.services.db)
  ).findOne({ _id: caller.tenantId }, { projection: { Classification: 1 } });
  if (current?.Classification !== 'FIRM') return null;
  const partner = await clientsPartnerOf(request, caller.tenantId);
  // portal.md section 9: free_client is the advisors' default new-client plan.
  return { partnerId: partner?.Id ?? null, plan: partner?.ClientPlanIdentifier ?? 'free_client' };
};

/** POST /api/tenants: the welcome modal, the new-client modal and the admin's new tenant. */
export const tenantCreateRoutes: FastifyPluginAsyncZod = (app) => {
  const { services } = app;

  app.post(
    '/api/tenants',
    {
      config: { access: 'session' },
      schema: { tags: ['tenants'], body: CreateTenantRequest, response: { 201: Tenant } },
    },
    async (request, reply) => {
      const caller = requireCaller(request);
      const body = request.body;
      const adminFields = [
        body.skipUserTenant,
        body.PartnerId,
        body.Referrer,
        body.ReferrerIdentifier,
        body.LandingPage,
      ];
      if (!caller.isPlatformAdmin && adminFields.some((value) => value !== undefined && value !== false))
        throw onlyPlatformAdmin();

      const classification =
        body.Classification ??
        (body.planIdentifier ? classificationOfPlan(body.planIdentifier) : undefined) ??
        (body.BusinessModel ? 'BUSINESS' : undefined);
      const problems: FieldErrors = {};
      if (!classification) problems.Classification = tenantMessages.classificationRequired;
      // An admin's new tenant needs only a name and a usage type (admin.md section 5).
      if (!caller.isPlatformAdmin && !body.Industry?.FreeForm)
        problems['Industry.FreeForm'] = tenantMessages.industryRequired;
      if (!classification || Object.keys(problems).length > 0)
        throw new AppError('validation', tenantMessages.updateFailed, { properties: problems });
      if (body.PartnerId) await requirePartner(request, body.PartnerId);

      const advisorClient = classification === 'BUSINESS' ? await advisorClientOf(request, caller) : null;
      // portal.md section 9: a new client's plan is growth_business, free_client for advisors; the
      // welcome modal (no company yet) keeps the plan of the sign-up link, if any.
      const plan =
        body.planIdentifier ?? advisorClient?.plan ?? (caller.tenantId === null ? null : 'growth_business');
      const tenantId = await allocateIdFor(reply, 'tenant');
      const now = services.now();
      const created = await executeCommand(reply, tenantDecider, {
        streamId: tenantStream(tenantId),
        tenantId,
        command: {
          type: 'CreateTenant',
          data: {
            tenantId,
            name: body.Name,
            classification,
            friendlyName: body.FriendlyName,
            usageType: body.UsageType,
            businessModel: body.BusinessModel ?? null,
            industry: body.Industry ? industryOf(body.Industry) : null,
            partnerId: body.PartnerId ?? advisorClient?.partnerId ?? null,
            referrer: body.Referrer,
            referrerIdentifier: body.ReferrerIdentifier,
            landingPage: body.LandingPage,
            planIdentifier: plan,
          },
          now,
          actor: caller.actor,
        },
      });
      let position = created.position;
      if (!body.skipUserTenant) {
        // The creator becomes its ADMIN (and, for a FIRM, an advisor whose default firm it is).
        const joined = await executeCommand(reply, userDecider, {
          streamId: userStream(caller.userId),
          tenantId,
          command: {
            type: 'JoinCreatedTenant',
            data: { tenantId, tenantClassification: classification },
            now,
            actor: caller.actor,
          },
        });
        position = joined.position;
      }
      // Every company has a billing subscription from its creation (docs/adr/0039-billing.md).
      const subscription = await startTenantSubscription(
        reply,
        tenantId,
        advisorClient ? caller.tenantId : null,
      );
      if (subscription.outcome === 'started') position = Math.max(position, subscription.position);
      const { tenant } = await queryTenant(services.db, { tenantId, afterPosition: position });
      if (!tenant) throw new AppError('internal', 'The created tenant is not readable.');
      void reply.header('etag', `"${created.nextRevision}"`);
      return reply.code(201).send(tenant);
    },
  );

  return Promise.resolve();
};
