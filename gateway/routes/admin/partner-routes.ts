import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CreatePartnerRequest,
  Partner,
  PartnersQuery,
  PartnersResponse,
  PartnerTenantParam,
  UpdatePartnerRequest,
} from '../../../contracts/api/partners';
import { AppError } from '../../../contracts/errors';
import { partnerDecider } from '../../../domain/partner/partner-decider';
import {
  getPartner,
  isPartnerNameTaken,
  listPartners,
  listTenantPartners,
} from '../../../projections/partners/query-partners';
import { PARTNERS } from '../../../projections/partners/partners-projection';
import { waitUntilRead } from '../../../projections/read-after';
import { tenantSummaries } from '../../../projections/tenant-lookup';
import { allocateIdFor, executeCommand } from '../../execute-command';
import { requireCaller } from '../../plugins/access';
import { partnerStream } from '../../../contracts/stream-ids';

const partnerNotFound = () => new AppError('not_found', 'Partner not found.');

/** The admin partners table and partner form (admin.md sections 2, 5 and 7); platform admins only. */
export const partnerRoutes: FastifyPluginAsyncZod = (app) => {
  const { services } = app;

  app.get(
    '/api/partners',
    {
      config: { access: 'platformAdmin' },
      schema: { tags: ['admin'], querystring: PartnersQuery, response: { 200: PartnersResponse } },
    },
    async (request) => {
      const { rows, total, filtered } = await listPartners(services.db, {
        search: request.query.search,
        readAfter: request.readAfter,
      });
      return { rows, total, filtered };
    },
  );

  app.post(
    '/api/partners',
    {
      config: { access: 'platformAdmin' },
      schema: { tags: ['admin'], body: CreatePartnerRequest, response: { 200: Partner } },
    },
    async (request, reply) => {
      const body = request.body;
      if (body.TenantId !== null) {
        const tenant = (await tenantSummaries(services.db, [body.TenantId])).get(body.TenantId);
        if (!tenant)
          throw new AppError('validation', 'Tenant not found.', { properties: { TenantId: 'not_found' } });
      }
      const nameTakenInTenant =
        body.TenantId !== null &&
        (await isPartnerNameTaken(services.db, { tenantId: body.TenantId, name: body.Name }));
      const partnerId = await allocateIdFor(reply, 'partner');
      const result = await executeCommand(reply, partnerDecider, {
        streamId: partnerStream(partnerId),
        tenantId: body.TenantId,
        command: {
          type: 'CreatePartner',
          data: {
            partnerId,
            tenantId: body.TenantId,
            name: body.Name,
            clientPlanIdentifier: body.ClientPlanIdentifier,
            logoUrl: body.LogoURL ?? null,
            nameTakenInTenant,
          },
          now: services.now(),
          actor: requireCaller(request).actor,
        },
      });
      return partnerAfter(result.position, partnerId);
    },
  );

  // The partner is named by its tenant (a firm's ClientsPartner); `Id` picks one when it has several.
  app.patch(
    '/api/partners/:TenantId',
    {
      config: { access: 'platformAdmin' },
      schema: {
        tags: ['admin'],
        params: PartnerTenantParam,
        body: UpdatePartnerRequest,
        response: { 200: Partner },
      },
    },
    async (request, reply) => {
      const { TenantId } = request.params;
      const body = request.body;
      const { partners } = await listTenantPartners(services.db, {
        tenantId: TenantId,
        readAfter: request.readAfter,
      });
      const candidates = body.Id === undefined ? partners : partners.filter((p) => p.Id === body.Id);
      if (candidates.length === 0) throw partnerNotFound();
      const [partner] = candidates;
      if (!partner || candidates.length > 1)
        throw new AppError('validation', 'The tenant has several partners: say which one.', {
          properties: { Id: 'required' },
        });
      const nameTakenInTenant =
        body.Name !== undefined &&
        (await isPartnerNameTaken(services.db, {
          tenantId: TenantId,
          name: body.Name,
          exceptPartnerId: partner.Id,
        }));
      const result = await executeCommand(reply, partnerDecider, {
        streamId: partnerStream(partner.Id),
        tenantId: TenantId,
        command: {
          type: 'UpdatePartner',
          data: {
            name: body.Name,
            clientPlanIdentifier: body.ClientPlanIdentifier,
            logoUrl: body.LogoURL,
            clientWeeklyDay: body.WeeklyDay,
            clientMonthlyDay: body.MonthlyDay,
            nameTakenInTenant,
          },
          now: services.now(),
          actor: requireCaller(request).actor,
        },
      });
      return partnerAfter(result.position, partner.Id);
    },
  );

  /** The partner as the table will show it once the read model has the command's events. */
  const partnerAfter = async (position: number, partnerId: number) => {
    await waitUntilRead(services.db, PARTNERS, { afterPosition: position });
    const partner = await getPartner(services.db, { partnerId });
    if (!partner) throw partnerNotFound();
    return partner;
  };

  return Promise.resolve();
};
