import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AuditQuery, AuditResponse, type AuditEntry } from '../../../contracts/api/audit';
import { IdParam } from '../../../contracts/api/common';
import { AppError } from '../../../contracts/errors';
import {
  queryAuditHistory,
  type AuditHistoryEntry,
} from '../../../projections/audit-history/query-audit-history';
import { tenantSummaries } from '../../../projections/tenant-lookup';
import { requireTenantAccess } from '../../plugins/access';

const toAuditEntry = (entry: AuditHistoryEntry): AuditEntry => ({
  Id: entry.id,
  UserId: entry.userId,
  User: entry.userId === null ? null : { Email: entry.userEmail },
  Action: entry.action,
  Type: entry.type,
  Asset: entry.asset,
  AssetId: entry.assetId,
  createdAt: entry.time,
  Request: {
    id: entry.request.id,
    IP: entry.request.ip,
    URL: entry.request.url,
    method: entry.request.method,
    body: entry.request.body,
  },
});

/** A tenant's user-action audit history (admin.md: UserActionAudit): its admins and platform admins. */
export const auditRoutes: FastifyPluginAsyncZod = (app) => {
  const { services } = app;

  app.get(
    '/api/tenants/:id/audit',
    {
      config: { access: 'tenantAdmin' },
      schema: {
        tags: ['admin'],
        params: IdParam,
        querystring: AuditQuery,
        response: { 200: AuditResponse },
      },
    },
    async (request) => {
      const tenantId = request.params.id;
      const caller = await requireTenantAccess(request, tenantId, 'tenantAdmin');
      // Members always have a tenant; a platform admin may name one that does not exist.
      if (caller.isPlatformAdmin && !(await tenantSummaries(services.db, [tenantId])).has(tenantId))
        throw new AppError('not_found', 'Not Found', { message: `no tenant ${tenantId}` });
      const { entries } = await queryAuditHistory(services.db, {
        tenantId,
        limit: request.query.limit,
        ...request.readAfter,
      });
      return { rows: entries.map(toAuditEntry) };
    },
  );

  return Promise.resolve();
};
