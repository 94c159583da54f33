import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Done, IdParam } from '../../../contracts/api/common';
import {
  CreateSellerRequest,
  SellerFlagParams,
  SellerResponse,
  SellersQuery,
  SellersResponse,
  SetSellerFlagRequest,
  UpdateSellerRequest,
} from '../../../contracts/api/sellers';
import { AppError } from '../../../contracts/errors';
import type { SellerProvider } from '../../../contracts/events/seller';
import { sellerDecider } from '../../../domain/seller/seller-decider';
import { listAdminSellers, listTenantSellers } from '../../../projections/sellers/query-sellers';
import { executeCommand, ifMatchOf } from '../../execute-command';
import { currentTenantOf, requireCaller } from '../../plugins/access';
import { forgetCredentials } from '../../use-cases/platforms/forget-credentials';
import { connectSeller } from '../../use-cases/sellers/connect-seller';
import { findSeller, sellerAfter } from '../../use-cases/sellers/find-seller';
import { sellerFlagName } from '../../use-cases/sellers/seller-flag-name';
import { sellerResponses } from '../../use-cases/sellers/seller-response';
import { sellerStream } from '../../../contracts/stream-ids';
import { checkSageConnectLogin } from '../../../workflows/connectors/sage-intacct/sage-connect-check';

/** Platforms that connect through a browser redirect or the Web Connector, not through POST /api/sellers. */
const connectedElsewhere: Partial<Record<SellerProvider, string>> = {
  QBO: 'QuickBooks Online connects through /api/connect/qbo.',
  XERO: 'Xero connects through /api/connect/xero.',
  STRIPE: 'Stripe connects through /api/connect/stripe.',
  AUTOFY: 'Autofy cannot be connected: it publishes no API to read your books through.',
  QBD: 'QuickBooks Desktop connects through the Web Connector file (/api/qbd/config).',
};

const sageFields = (body: CreateSellerRequest) => {
  const properties: Record<string, string> = {};
  if (!body.companyId) properties.companyId = 'Company ID is required';
  if (!body.userId) properties.userId = 'User ID is required';
  if (!body.password) properties.password = 'Password is required';
  if (Object.keys(properties).length > 0)
    throw new AppError('validation', 'The Sage Intacct credentials are incomplete.', { properties });
  return { companyId: body.companyId ?? '', userId: body.userId ?? '', password: body.password ?? '' };
};

const listSellers = async (request: FastifyRequest<{ Querystring: SellersQuery }>) => {
  const { db, now } = request.server.services;
  const query = request.query;
  const include = query.include ?? [];
  if (query.scope === 'all') {
    if (!requireCaller(request).isPlatformAdmin)
      throw new AppError('forbidden', 'Access Denied', { message: 'scope=all is for platform admins' });
    const page = await listAdminSellers(db, {
      now: now(),
      providers: query.provider,
      active: query.Active,
      collection: query.collection,
      metrics: query.metrics,
      partnerIds: query.partnerId,
      search: query.search,
      sort: query.sort ? { field: query.sort, direction: query.direction ?? 'asc' } : undefined,
      offset: query.offset,
      limit: query.limit,
      readAfter: request.readAfter,
    });
    const rows = await sellerResponses(db, {
      sellers: page.rows,
      include,
      tenantId: null,
      readAfter: request.readAfter,
    });
    return { rows, total: page.total, filtered: page.filtered };
  }
  const tenantId = currentTenantOf(request);
  const listed = await listTenantSellers(db, {
    tenantId,
    active: query.Active,
    now: now(),
    readAfter: request.readAfter,
  });
  const rows = await sellerResponses(db, {
    sellers: listed.sellers,
    include,
    tenantId,
    readAfter: request.readAfter,
  });
  return { rows, progress: listed.progress, total: rows.length, filtered: rows.length };
};

/** Sellers: the connected accounting and payment platforms (portal.md and admin.md sections 3, 4 and 7). */
export const sellerRoutes: FastifyPluginAsyncZod = (app) => {
  const { services } = app;
  const tags = ['sellers'];

  app.get(
    '/api/sellers',
    {
      config: { access: 'member' },
      schema: { tags, querystring: SellersQuery, response: { 200: SellersResponse } },
    },
    listSellers,
  );

  app.get(
    '/api/sellers/:id',
    { config: { access: 'member' }, schema: { tags, params: IdParam, response: { 200: SellerResponse } } },
    (request) => findSeller(request, request.params.id),
  );

  app.post(
    '/api/sellers',
    {
      config: { access: 'member' },
      schema: { tags, body: CreateSellerRequest, response: { 200: SellerResponse } },
    },
    async (request, reply) => {
      const tenantId = currentTenantOf(request);
      const { provider } = request.body;
      const elsewhere = connectedElsewhere[provider];
      if (elsewhere)
        throw new AppError('validation', elsewhere, { properties: { provider: 'not_connectable_here' } });
      const connected =
        provider === 'SAGE'
          ? await (async () => {
              const sage = sageFields(request.body);
              // Tried with a real call first: wrong credentials answer Sage's own words (422).
              await checkSageConnectLogin(services.config, sage);
              return connectSeller(reply, {
                tenantId,
                provider,
                // The company id names the seller until the first sync records the company's details.
                companyName: sage.companyId,
                authMethod: 'password',
                authTokenOwner: sage.userId,
                secret: { kind: 'sage', value: sage },
                companyFilePath: null,
              });
            })()
          : await connectSeller(reply, {
              tenantId,
              provider,
              companyName: 'Demo Company',
              authMethod: 'none',
              authTokenOwner: null,
              secret: null,
              companyFilePath: null,
            });
      return sellerAfter(request, connected);
    },
  );

  app.put(
    '/api/sellers/:id',
    {
      config: { access: 'tenantAdmin' },
      schema: { tags, params: IdParam, body: UpdateSellerRequest, response: { 200: SellerResponse } },
    },
    async (request, reply) => {
      const seller = await findSeller(request, request.params.id);
      const streamId = sellerStream(seller.Id);
      // If-Match guards the first change; the rest of the same save follows on from it.
      let ifMatch = ifMatchOf(request);
      let position = -1;
      const run = async (command: Parameters<typeof sellerDecider.decide>[0], part: string) => {
        const result = await executeCommand(reply, sellerDecider, {
          streamId,
          tenantId: seller.TenantId,
          command,
          part,
          ifMatch,
        });
        ifMatch = undefined;
        position = Math.max(position, result.position);
      };
      const { actor } = requireCaller(request);
      for (const { Flag, Value } of request.body.FeatureFlags ?? [])
        await run(
          { type: 'SetSellerFeatureFlag', data: { flag: Flag, value: Value, actor }, now: services.now() },
          Flag,
        );
      if (request.body.Active !== undefined)
        await run(
          { type: 'SetSellerActive', data: { active: request.body.Active }, now: services.now() },
          'active',
        );
      return position < 0 ? seller : sellerAfter(request, { sellerId: seller.Id, position });
    },
  );

  app.post(
    '/api/sellers/:id/flags/:flag',
    {
      config: { access: 'platformAdmin' },
      schema: {
        tags,
        params: SellerFlagParams,
        body: SetSellerFlagRequest,
        response: { 200: SellerResponse },
      },
    },
    async (request, reply) => {
      const seller = await findSeller(request, request.params.id);
      const flag = sellerFlagName(request.params.flag, request.body.section);
      const result = await executeCommand(reply, sellerDecider, {
        streamId: sellerStream(seller.Id),
        tenantId: seller.TenantId,
        command: {
          type: 'SetSellerFeatureFlag',
          data: { flag, value: request.body.state, actor: requireCaller(request).actor },
          now: services.now(),
        },
      });
      return sellerAfter(request, { sellerId: seller.Id, position: result.position });
    },
  );

  app.delete(
    '/api/sellers/:id',
    { config: { access: 'tenantAdmin' }, schema: { tags, params: IdParam, response: { 200: Done } } },
    async (request, reply) => {
      const seller = await findSeller(request, request.params.id);
      const streamId = sellerStream(seller.Id);
      await executeCommand(reply, sellerDecider, {
        streamId,
        tenantId: seller.TenantId,
        ifMatch: ifMatchOf(request),
        command: { type: 'DeleteSeller', data: {}, now: services.now() },
      });
      await forgetCredentials(request, { streamId });
      return { ok: true as const };
    },
  );

  app.post(
    '/api/sellers/:id/disconnect',
    {
      config: { access: 'tenantAdmin' },
      schema: { tags, params: IdParam, response: { 200: SellerResponse } },
    },
    async (request, reply) => {
      const seller = await findSeller(request, request.params.id);
      const streamId = sellerStream(seller.Id);
      const result = await executeCommand(reply, sellerDecider, {
        streamId,
        tenantId: seller.TenantId,
        command: { type: 'DisconnectSeller', data: {}, now: services.now() },
      });
      // Disconnected sellers hold no credentials (domain/seller/seller.ts).
      await forgetCredentials(request, { streamId });
      return sellerAfter(request, { sellerId: seller.Id, position: result.position });
    },
  );

  return Promise.resolve();
};
