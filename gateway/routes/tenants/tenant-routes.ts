import { deleteTenantLedger } from '../../../workflows/ledger/delete-tenant-ledger';
import { tenantArchivePrefix } from '../../../workflows/reports/archive/report-archive';
import { reportObjectStoreOf } from '../reports/report-object-store-of';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Done, IdParam } from '../../../contracts/api/common';
import {
  DeleteTenantQuery,
  Tenant,
  TenantDetailsResponse,
  TenantsQuery,
  TenantsResponse,
} from '../../../contracts/api/tenants';
import { AppError } from '../../../contracts/errors';
import { tenantSubject } from '../../../commands/personal-data';
import { tenantDecider } from '../../../domain/tenant/tenant-decider';
import { listTenantSellers, tenantSellerIds } from '../../../projections/sellers/query-sellers';
import { queryLinkedTenants, queryTenant } from '../../../projections/tenants/query-tenant';
import { queryTenantList, queryTenantSummary } from '../../../projections/tenants/query-tenants';
import { queryUserTenants } from '../../../projections/tenants/query-user-tenants';
import { queryTeam } from '../../../projections/users/query-team';
import { executeCommand, loadAggregate } from '../../execute-command';
import { requireCaller, requireTenantAccess } from '../../plugins/access';
import { credentialVaultOf } from '../../use-cases/platforms/credential-vault-of';
import { logosCollection } from '../../use-cases/tenants/logo-store';
import { tenantStream } from '../../../contracts/stream-ids';

const notFound = () => new AppError('not_found', 'Tenant not found.');

/**
 * The caller's companies, the admin tenants list and its expandable rows, one tenant, and the admin's
 * disable, restore or purge.
 */
export const tenantRoutes: FastifyPluginAsyncZod = (app) => {
  const { services } = app;
  const { db } = services;

  app.get(
    '/api/tenants',
    {
      config: { access: 'session' },
      schema: { tags: ['tenants'], querystring: TenantsQuery, response: { 200: TenantsResponse } },
    },
    async (request) => {
      const caller = requireCaller(request);
      const query = request.query;
      if (query.scope !== 'all') {
        const { tenants } = await queryUserTenants(db, { userId: caller.userId, ...request.readAfter });
        return { tenants };
      }
      if (!caller.isPlatformAdmin)
        throw new AppError('forbidden', 'Access Denied', { message: 'scope=all is for platform admins' });
      const [list, summary] = await Promise.all([
        queryTenantList(db, {
          search: query.search,
          usageTypes: query.usageType,
          classification: query.classification,
          hasUsers: query.hasUsers,
          hasActiveSellers: query.hasActiveSellers,
          sort: query.sort ? { field: query.sort, direction: query.direction ?? 'asc' } : undefined,
          page: query.page,
          ...request.readAfter,
        }),
        queryTenantSummary(db),
      ]);
      return { rows: list.rows, total: list.total, pagination: list.pagination, summary };
    },
  );

  app.get(
    '/api/tenants/:id',
    {
      config: { access: 'session' },
      schema: { tags: ['tenants'], params: IdParam, response: { 200: Tenant } },
    },
    async (request, reply) => {
      const caller = await requireTenantAccess(request, request.params.id);
      const { tenant } = await queryTenant(db, {
        tenantId: request.params.id,
        includePurged: caller.isPlatformAdmin,
        ...request.readAfter,
      });
      if (!tenant) throw notFound();
      // The revision an edit of this page sends back in If-Match.
      const { revision } = await loadAggregate(request, tenantDecider, tenantStream(tenant.Id));
      void reply.header('etag', `"${revision}"`);
      return tenant;
    },
  );

  app.get(
    '/api/tenants/:id/details',
    {
      config: { access: 'platformAdmin' },
      schema: { tags: ['tenants'], params: IdParam, response: { 200: TenantDetailsResponse } },
    },
    async (request) => {
      const tenantId = request.params.id;
      const { tenant } = await queryTenant(db, { tenantId, includePurged: true, ...request.readAfter });
      if (!tenant) throw notFound();
      const [team, sellers, linked] = await Promise.all([
        queryTeam(db, { tenantId, ...request.readAfter }),
        listTenantSellers(db, { tenantId, now: services.now(), readAfter: request.readAfter }),
        queryLinkedTenants(db, { tenantId, ...request.readAfter }),
      ]);
      return {
        users: team.members.map((member) => ({
          Id: member.Id,
          Name: member.Name,
          Email: member.Email,
          Role: member.Membership.Role,
        })),
        sellers: sellers.sellers.map((seller) => ({
          Id: seller.Id,
          CompanyName: seller.CompanyName,
          Provider: seller.Provider,
          Active: seller.Active,
        })),
        linkedTenants: linked.tenants,
      };
    },
  );

  app.post(
    '/api/tenants/:id/restore',
    {
      config: { access: 'platformAdmin' },
      schema: { tags: ['tenants'], params: IdParam, response: { 200: Done } },
    },
    async (request, reply) => {
      const caller = requireCaller(request);
      const tenantId = request.params.id;
      const command = { type: 'RestoreTenant' as const, data: {}, now: services.now(), actor: caller.actor };
      await executeCommand(reply, tenantDecider, { streamId: tenantStream(tenantId), tenantId, command });
      return { ok: true as const };
    },
  );

  app.delete(
    '/api/tenants/:id',
    {
      config: { access: 'platformAdmin' },
      schema: { tags: ['tenants'], params: IdParam, querystring: DeleteTenantQuery, response: { 200: Done } },
    },
    async (request, reply) => {
      const caller = requireCaller(request);
      const tenantId = request.params.id;
      const { reason, permanent, purge } = request.query;
      if (permanent && !purge)
        throw new AppError('validation', 'A permanent removal is a purge.', {
          properties: { permanent: 'only with purge=true' },
        });
      const now = services.now();
      const command = purge
        ? { type: 'PurgeTenant' as const, data: { permanent: permanent ?? false }, now, actor: caller.actor }
        : { type: 'DisableTenant' as const, data: { reason: reason ?? null }, now, actor: caller.actor };
      await executeCommand(reply, tenantDecider, { streamId: tenantStream(tenantId), tenantId, command });
      if (purge) {
        // Crypto-shredding (docs/adr/0005): the tenant's personal data in events becomes unreadable;
        // its connector secrets, logos and synced ledger are removed outright (issue 12: purge removes what it promises).
        await services.writeSide.personalData.erase(tenantSubject(tenantId));
        await credentialVaultOf(services).removeForTenant(tenantId);
        await logosCollection(services.db).deleteMany({ tenantId });
        // The synced ledger, and its outbox entries not yet sent, hold the company's customers in plain documents.
        await deleteTenantLedger(services.db, {
          tenantId,
          sellerIds: await tenantSellerIds(services.db, tenantId),
        });
        // Archived report files name the company's customers too (docs/adr/0035-report-archive.md).
        await reportObjectStoreOf(services).deletePrefix(tenantArchivePrefix(tenantId));
      }
      return { ok: true as const };
    },
  );

  return Promise.resolve();
};
