import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParam } from '../../../contracts/api/common';
import { TenantFeaturesResponse } from '../../../contracts/api/features';
import { requireTenantAccess } from '../../plugins/access';
import { planFeatures } from '../../use-cases/platforms/plan-features';

/** What the connect cards need to grey out a platform with "Upgrade plan to access" (portal.md section 6). */
export const planFeatureRoutes: FastifyPluginAsyncZod = (app) => {
  app.get(
    '/api/tenants/:id/features',
    {
      config: { access: 'member' },
      schema: { tags: ['tenants'], params: IdParam, response: { 200: TenantFeaturesResponse } },
    },
    async (request) => {
      await requireTenantAccess(request, request.params.id);
      const { db, now } = app.services;
      return { Features: await planFeatures(db, { tenantId: request.params.id, now: now() }) };
    },
  );
  return Promise.resolve();
};
