import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Done, IdParam } from '../../../contracts/api/common';
import {
  CreateIntegrationRequest,
  IntegrationCompaniesQuery,
  IntegrationCompaniesResponse,
  IntegrationJobResponse,
  IntegrationResponse,
  IntegrationsQuery,
  IntegrationsResponse,
  PurgeIntegrationRequest,
  UpdateIntegrationRequest,
} from '../../../contracts/api/integrations';
import { AppError } from '../../../contracts/errors';
import { integrationDecider } from '../../../domain/integration/integration-decider';
import type { IntegrationCommand } from '../../../domain/integration/decide';
import {
  listAdminIntegrations,
  listTenantIntegrations,
} from '../../../projections/integrations/query-integrations';
import { executeCommand, ifMatchOf } from '../../execute-command';
import { currentTenantOf, requireCaller } from '../../plugins/access';
import { connectActiveCampaign } from '../../use-cases/integrations/connect-active-campaign';
import { findIntegration, integrationAfter } from '../../use-cases/integrations/find-integration';
import { listCrmCompanies } from '../../use-cases/integrations/list-crm-companies';
import { requestIntegrationJob } from '../../use-cases/integrations/request-integration-job';
import { forgetCredentials } from '../../use-cases/platforms/forget-credentials';
import { integrationStream } from '../../../contracts/stream-ids';

const tags = ['integrations'];

const listIntegrations = async (request: FastifyRequest<{ Querystring: IntegrationsQuery }>) => {
  const { db } = request.server.services;
  const { scope, provider, product, search } = request.query;
  if (scope === 'all') {
    if (!requireCaller(request).isPlatformAdmin)
      throw new AppError('forbidden', 'Access Denied', { message: 'scope=all is for platform admins' });
    const page = await listAdminIntegrations(db, {
      providers: provider,
      product,
      search,
      readAfter: request.readAfter,
    });
    return { rows: page.rows, total: page.total, filtered: page.filtered };
  }
  const { integrations } = await listTenantIntegrations(db, {
    tenantId: currentTenantOf(request),
    readAfter: request.readAfter,
  });
  const rows = integrations.filter(
    (row) =>
      (!provider || provider.includes(row.Provider)) &&
      (!product || (product === 'none' ? row.ProductIdentifier === null : row.ProductIdentifier === product)),
  );
  return { rows, total: integrations.length, filtered: rows.length };
};

/**
 * PUT and PATCH send only what changes: Active, Locked (also as Settings.Locked) and the CRM
 * settings. If-Match guards the first change of the save.
 */
const updateIntegration = async (
  request: FastifyRequest<{ Params: IdParam; Body: UpdateIntegrationRequest }>,
  reply: FastifyReply,
) => {
  const { services } = request.server;
  const caller = requireCaller(request);
  const account = await findIntegration(request, request.params.id);
  const { Locked: lockedInSettings, ...settings } = request.body.Settings ?? {};
  const locked = request.body.Locked ?? lockedInSettings;
  if (locked !== undefined && !caller.isPlatformAdmin)
    throw new AppError('forbidden', 'Only a platform administrator can lock or unlock an account.');
  const commands: IntegrationCommand[] = [];
  const now = services.now();
  if (Object.keys(settings).length > 0)
    commands.push({ type: 'UpdateIntegrationSettings', data: { settings, actor: caller.actor }, now });
  if (locked !== undefined) commands.push({ type: 'SetIntegrationLocked', data: { locked }, now });
  if (request.body.Active !== undefined)
    commands.push({ type: 'SetIntegrationActive', data: { active: request.body.Active }, now });
  let ifMatch = ifMatchOf(request);
  let position = -1;
  for (const command of commands) {
    const result = await executeCommand(reply, integrationDecider, {
      streamId: integrationStream(account.Id),
      tenantId: account.TenantId,
      command,
      ifMatch,
    });
    ifMatch = undefined;
    position = Math.max(position, result.position);
  }
  return position < 0 ? account : integrationAfter(request, { integrationId: account.Id, position });
};

/** CRM and cloud integration accounts (portal.md and admin.md sections 3, 4 and 7). */
export const integrationRoutes: FastifyPluginAsyncZod = (app) => {
  const { services } = app;
  const one = { params: IdParam, response: { 200: IntegrationResponse } };

  app.get(
    '/api/integrations',
    {
      config: { access: 'member' },
      schema: { tags, querystring: IntegrationsQuery, response: { 200: IntegrationsResponse } },
    },
    listIntegrations,
  );

  app.post(
    '/api/integrations',
    {
      config: { access: 'member' },
      schema: { tags, body: CreateIntegrationRequest, response: { 200: IntegrationResponse } },
    },
    async (request, reply) => {
      const { Provider, Credentials } = request.body;
      if (Provider !== 'ACTIVE_CAMPAIGN')
        throw new AppError('validation', `${Provider} connects through its authorisation page.`, {
          properties: { Provider: 'not_connectable_here' },
        });
      const connected = await connectActiveCampaign(reply, {
        tenantId: currentTenantOf(request),
        url: Credentials?.URL ?? '',
        apiKey: Credentials?.ApiKey ?? '',
      });
      return integrationAfter(request, connected);
    },
  );

  app.get('/api/integrations/:id', { config: { access: 'member' }, schema: { tags, ...one } }, (request) =>
    findIntegration(request, request.params.id),
  );

  const update = {
    config: { access: 'tenantAdmin' as const },
    schema: { tags, ...one, body: UpdateIntegrationRequest },
  };
  app.put('/api/integrations/:id', update, updateIntegration);
  app.patch('/api/integrations/:id', update, updateIntegration);

  app.post(
    '/api/integrations/:id/disconnect',
    { config: { access: 'tenantAdmin' }, schema: { tags, ...one } },
    async (request, reply) => {
      const account = await findIntegration(request, request.params.id);
      const streamId = integrationStream(account.Id);
      const result = await executeCommand(reply, integrationDecider, {
        streamId,
        tenantId: account.TenantId,
        command: { type: 'DisconnectIntegration', data: {}, now: services.now() },
      });
      await forgetCredentials(request, { streamId });
      return integrationAfter(request, { integrationId: account.Id, position: result.position });
    },
  );

  app.post(
    '/api/integrations/:id/sync',
    {
      config: { access: 'tenantAdmin' },
      schema: { tags, params: IdParam, response: { 200: IntegrationJobResponse } },
    },
    async (request, reply) => {
      const account = await findIntegration(request, request.params.id);
      const job = await requestIntegrationJob(reply, {
        integrationId: account.Id,
        tenantId: account.TenantId,
        action: { kind: 'sync' },
      });
      return {
        integrationId: account.Id,
        jobId: job.jobId,
        action: 'sync' as const,
        message: 'Successfully created 1 sync job',
      };
    },
  );

  app.post(
    '/api/integrations/:id/purge',
    {
      config: { access: 'platformAdmin' },
      schema: {
        tags,
        params: IdParam,
        body: PurgeIntegrationRequest,
        response: { 200: IntegrationJobResponse },
      },
    },
    async (request, reply) => {
      const account = await findIntegration(request, request.params.id);
      const job = await requestIntegrationJob(reply, {
        integrationId: account.Id,
        tenantId: account.TenantId,
        action: { kind: 'purge', unlink: request.body.unlink ?? false },
      });
      return {
        integrationId: account.Id,
        jobId: job.jobId,
        action: 'purge' as const,
        message: 'Successfully created 1 purge job',
      };
    },
  );

  // admin.md sections 4 and 5: unlink (typed word unlink) on an inactive account with valid credentials.
  app.post(
    '/api/integrations/:id/unlink',
    {
      config: { access: 'platformAdmin' },
      schema: { tags, params: IdParam, response: { 200: IntegrationJobResponse } },
    },
    async (request, reply) => {
      const account = await findIntegration(request, request.params.id);
      const job = await requestIntegrationJob(reply, {
        integrationId: account.Id,
        tenantId: account.TenantId,
        action: { kind: 'unlink' },
      });
      return {
        integrationId: account.Id,
        jobId: job.jobId,
        action: 'unlink' as const,
        message: 'Successfully created 1 unlink job',
      };
    },
  );

  // The matched companies page of the admin integrations table (docs/adr/0045-crm-sync.md).
  app.get(
    '/api/integrations/:id/companies',
    {
      config: { access: 'platformAdmin' },
      schema: {
        tags,
        params: IdParam,
        querystring: IntegrationCompaniesQuery,
        response: { 200: IntegrationCompaniesResponse },
      },
    },
    async (request) => {
      const account = await findIntegration(request, request.params.id);
      return listCrmCompanies(services.db, { ...request.query, integrationId: account.Id });
    },
  );

  app.delete(
    '/api/integrations/:id',
    { config: { access: 'tenantAdmin' }, schema: { tags, params: IdParam, response: { 200: Done } } },
    async (request, reply) => {
      const account = await findIntegration(request, request.params.id);
      const streamId = integrationStream(account.Id);
      await executeCommand(reply, integrationDecider, {
        streamId,
        tenantId: account.TenantId,
        ifMatch: ifMatchOf(request),
        command: { type: 'DeleteIntegration', data: {}, now: services.now() },
      });
      await forgetCredentials(request, { streamId });
      return { ok: true as const };
    },
  );

  return Promise.resolve();
};
