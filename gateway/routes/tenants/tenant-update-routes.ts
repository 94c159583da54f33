import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParam } from '../../../contracts/api/common';
import {
  BatchUpdateTenantsRequest,
  BatchUpdateTenantsResponse,
  Tenant,
  UpdateTenantRequest,
} from '../../../contracts/api/tenants';
import { AppError } from '../../../contracts/errors';
import type { PartnerCommand } from '../../../domain/partner/decide';
import { partnerDecider } from '../../../domain/partner/partner-decider';
import { tenantDecider } from '../../../domain/tenant/tenant-decider';
import { isPartnerNameTaken } from '../../../projections/partners/query-partners';
import { queryTenant } from '../../../projections/tenants/query-tenant';
import { executeCommand, ifMatchOf, loadAggregate } from '../../execute-command';
import { requireTenantAccess } from '../../plugins/access';
import { checkCommands, runCommands } from '../../use-cases/run-commands';
import { batchUpdateTenants } from '../../use-cases/tenants/batch-update-tenants';
import { tenantEditCommands } from '../../use-cases/tenants/tenant-edit-commands';
import { clientsPartnerOf } from '../../use-cases/tenants/tenant-facts';
import { partnerStream, tenantStream } from '../../../contracts/stream-ids';

const notFound = () => new AppError('not_found', 'Tenant not found.');

/** The Company and Reporting tabs (PUT or PATCH /api/tenants/{id}) and the clients' bulk edit. */
export const tenantUpdateRoutes: FastifyPluginAsyncZod = (app) => {
  const { services } = app;

  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/api/tenants/:id',
      config: { access: 'session' },
      schema: { tags: ['tenants'], params: IdParam, body: UpdateTenantRequest, response: { 200: Tenant } },
      handler: async (request, reply) => {
        const tenantId = request.params.id;
        const caller = await requireTenantAccess(request, tenantId, 'tenantAdmin');
        const body = request.body;
        const streamId = tenantStream(tenantId);
        const { state } = await loadAggregate(request, tenantDecider, streamId);
        if (state.status === 'none' || state.status === 'purged') throw notFound();
        const commands = await tenantEditCommands(request, { body, tenant: state, actor: caller.actor });

        // The firm's client defaults live on its partner; checked before anything is appended.
        let partnerEdit: { streamId: string; command: PartnerCommand } | null = null;
        if (body.ClientsPartner) {
          const partner = await clientsPartnerOf(request, tenantId);
          if (!partner)
            throw new AppError('validation', 'This company has no client partner to update.', {
              properties: { ClientsPartner: 'not_found' },
            });
          const edit = body.ClientsPartner;
          const command: PartnerCommand = {
            type: 'UpdatePartner',
            data: {
              name: edit.Name,
              clientPlanIdentifier: edit.ClientPlanIdentifier,
              logoUrl: edit.LogoURL,
              clientWeeklyDay: edit.WeeklyDay,
              clientMonthlyDay: edit.MonthlyDay,
              nameTakenInTenant:
                edit.Name !== undefined &&
                (await isPartnerNameTaken(services.db, {
                  tenantId,
                  name: edit.Name,
                  exceptPartnerId: partner.Id,
                })),
            },
            now: services.now(),
            actor: caller.actor,
          };
          partnerEdit = { streamId: partnerStream(partner.Id), command };
          const current = await loadAggregate(request, partnerDecider, partnerEdit.streamId);
          checkCommands(partnerDecider, current.state, [command]);
        }

        const done = await runCommands(reply, tenantDecider, {
          streamId,
          commands,
          ifMatch: ifMatchOf(request),
          tenantId,
        });
        let position = done.position;
        if (partnerEdit) {
          const partnerDone = await executeCommand(reply, partnerDecider, { ...partnerEdit, tenantId });
          position = partnerDone.position;
        }
        void reply.header('etag', `"${done.revision}"`);
        const { tenant } = await queryTenant(services.db, {
          tenantId,
          ...(position === null ? request.readAfter : { afterPosition: position }),
        });
        if (!tenant) throw notFound();
        return tenant;
      },
    });
  }

  app.put(
    '/api/tenants/batch',
    {
      config: { access: 'member' },
      schema: {
        tags: ['tenants'],
        body: BatchUpdateTenantsRequest,
        response: { 200: BatchUpdateTenantsResponse },
      },
    },
    async (request, reply) => ({ tenants: await batchUpdateTenants(reply, request.body) }),
  );

  return Promise.resolve();
};
