import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { QbdConfigRequest, QbdConfigResponse } from '../../../contracts/api/qbd';
import { AppError } from '../../../contracts/errors';
import { listTenantSellers } from '../../../projections/sellers/query-sellers';
import { hashPassword } from '../../auth/password-hash';
import { allocateIdFor } from '../../execute-command';
import { currentTenantOf, requireCaller } from '../../plugins/access';
import { webConnectorGuid, webConnectorXml } from '../../use-cases/platforms/web-connector-file';
import { forgetCredentials } from '../../use-cases/platforms/forget-credentials';
import { connectSeller } from '../../use-cases/sellers/connect-seller';
import { sellerStream } from '../../../contracts/stream-ids';

const APP_NAME = 'Ledgerwise';

/**
 * POST /api/qbd/config: the QuickBooks Desktop Web Connector file and a one-time password (portal.md
 * section 2.3). The first call connects the tenant's QBD seller; later calls reinstall it, which needs
 * the company file path and a tenant admin, and replaces the password. Only a hash of the password is
 * kept, sealed in the credential vault with the file's ids.
 */
export const qbdConfigRoutes: FastifyPluginAsyncZod = (app) => {
  const { services } = app;

  app.post(
    '/api/qbd/config',
    {
      config: { access: 'member' },
      schema: { tags: ['qbd'], body: QbdConfigRequest, response: { 200: QbdConfigResponse } },
    },
    async (request, reply) => {
      const caller = requireCaller(request);
      const tenantId = currentTenantOf(request);
      const companyFilePath = request.body.companyFilename || null;
      const { sellers } = await listTenantSellers(services.db, {
        tenantId,
        now: services.now(),
        readAfter: request.readAfter,
      });
      const existing = sellers.find((seller) => seller.Provider === 'QBD');
      if (existing) {
        if (!caller.isPlatformAdmin && caller.actor.tenantRole !== 'ADMIN')
          throw new AppError('forbidden', 'Only an administrator can reinstall the Web Connector.');
        if (companyFilePath === null)
          throw new AppError(
            'validation',
            'The company file path is required to reinstall the Web Connector.',
            {
              properties: { companyFilename: 'required' },
            },
          );
      }
      const sellerId = existing?.Id ?? (await allocateIdFor(reply, 'seller'));
      const password = randomBytes(18).toString('base64url');
      const file = {
        publicUrl: services.config.PUBLIC_URL,
        appName: `${APP_NAME} (${sellerId})`,
        appId: `ledgerwise-qbd-${sellerId}`,
        userName: `lw-qbd-${sellerId}`,
        ownerId: webConnectorGuid(),
        fileId: webConnectorGuid(),
      };
      const connected = await connectSeller(reply, {
        tenantId,
        provider: 'QBD',
        companyName: null,
        authMethod: 'web_connector',
        authTokenOwner: null,
        secret: {
          kind: 'qbd_web_connector',
          value: {
            userName: file.userName,
            passwordHash: await hashPassword(password),
            ownerId: file.ownerId,
            fileId: file.fileId,
            appId: file.appId,
          },
        },
        companyFilePath,
        sellerId,
      });
      // A reinstall replaces the password: the previous file can no longer sign in.
      await forgetCredentials(request, { streamId: sellerStream(sellerId), keep: connected.credentialsRef });
      return { Id: sellerId, xml: webConnectorXml(file), password, fileName: `ledgerwise-${sellerId}.qwc` };
    },
  );

  return Promise.resolve();
};
