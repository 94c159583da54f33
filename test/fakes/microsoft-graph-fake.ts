import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyReply } from 'fastify';
import type { IntegrationAccessToken } from '../../workflows/integrations/cloud/cloud-http';
import { fakeAccessTokens, serveFakeOAuthProvider, type FakeProviderControls } from './fake-oauth-provider';

/**
 * A local Microsoft Graph v1.0, as much as Live Reports use (docs/adr/0049-live-reports.md): the
 * signed-in user's OneDrive with in-memory files, uploaded by path (PUT
 * /me/drive/root:/{path}:/content, creating or replacing the file at that path) or by item id (PUT
 * /me/drive/items/{id}/content, 404 when the item is gone), answering the driveItem (id, name, size,
 * webUrl, file.mimeType, parentReference.path). An OAuth 2.0 token endpoint (refresh grant). Faults
 * on demand: 429 with Retry-After, 5xx bursts, expired access tokens (401 InvalidAuthenticationToken),
 * refused refresh (400 invalid_grant). Errors in Graph's JSON format.
 */

export type FakeDriveItem = {
  id: string;
  /** `Ledgerwise/Acme - Customer Sheet.xlsx` */
  path: string;
  bytes: Buffer;
  contentType: string;
  /** How many times its content was written (1 when created). */
  versions: number;
  lastModifiedDateTime: string;
};

export type MicrosoftGraphFake = FakeProviderControls & {
  url: string;
  /** The API, and the issuer whose discovery names the fake's token endpoint. */
  configValues: { MICROSOFT_GRAPH_API_URL: string; OAUTH_MICROSOFT_ISSUER: string };
  accessTokens: (tokens: { accessToken: string; refreshToken: string }) => IntegrationAccessToken;
  items: Map<string, FakeDriveItem>;
  itemAt: (path: string) => FakeDriveItem | undefined;
  /** The user deletes the file in OneDrive. */
  deleteItem: (id: string) => void;
  close: () => Promise<void>;
};

const graphError = (reply: FastifyReply, status: number, code: string, message: string) =>
  reply.code(status).send({
    error: {
      code,
      message,
      innerError: { date: new Date().toISOString(), 'request-id': randomBytes(8).toString('hex') },
    },
  });

export const startMicrosoftGraphFake = async (): Promise<MicrosoftGraphFake> => {
  const app = Fastify({ logger: false, bodyLimit: 300 * 1024 * 1024 });
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  const items = new Map<string, FakeDriveItem>();
  let url = '';
  const { guard, controls } = serveFakeOAuthProvider(app, {
    accessTokenPrefix: 'EwB-fake-',
    refreshTokenPrefix: 'M.R3-fake-',
    refusedGrantDescription: 'AADSTS70000: The provided grant has expired due to it being revoked.',
    grantBody: (accessToken) => ({
      token_type: 'Bearer',
      scope: 'Files.ReadWrite offline_access',
      expires_in: 3600,
      access_token: accessToken,
    }),
    errors: {
      unauthenticated: (reply) =>
        graphError(reply, 401, 'InvalidAuthenticationToken', 'Access token has expired or is not yet valid.'),
      throttled: (reply) =>
        graphError(reply, 429, 'activityLimitReached', 'The app or user has been throttled.'),
      unavailable: (reply, status) =>
        graphError(reply, status, 'serviceNotAvailable', 'Service unavailable.'),
    },
  });

  const itemJson = (item: FakeDriveItem) => {
    const slash = item.path.lastIndexOf('/');
    return {
      '@odata.context': `${url}/v1.0/$metadata#drives('fake')/items/$entity`,
      id: item.id,
      name: item.path.slice(slash + 1),
      size: item.bytes.byteLength,
      lastModifiedDateTime: item.lastModifiedDateTime,
      webUrl: `https://fake-my.sharepoint.com/personal/user/Documents/${item.path
        .split('/')
        .map(encodeURIComponent)
        .join('/')}`,
      file: { mimeType: item.contentType },
      parentReference: {
        driveType: 'business',
        path: `/drive/root:/${item.path.slice(0, Math.max(0, slash))}`,
      },
    };
  };

  const write = (item: FakeDriveItem, body: unknown, contentType: string | undefined) => {
    item.bytes = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : '');
    item.contentType = contentType ?? 'application/octet-stream';
    item.lastModifiedDateTime = new Date().toISOString();
  };

  app.put('/v1.0/me/drive/*', async (request, reply) => {
    const stopped = guard(request.headers.authorization, reply);
    if (stopped) return stopped;
    const rest = request.url.split('?')[0]!.slice('/v1.0/me/drive/'.length);
    const contentType = request.headers['content-type'];
    const byId = /^items\/([^/]+)\/content$/.exec(rest);
    if (byId) {
      const item = items.get(decodeURIComponent(byId[1]!));
      if (!item) return graphError(reply, 404, 'itemNotFound', 'The resource could not be found.');
      write(item, request.body, contentType);
      item.versions += 1;
      return itemJson(item);
    }
    const byPath = /^root:\/(.+):\/content$/.exec(rest);
    if (!byPath) return graphError(reply, 400, 'invalidRequest', 'Invalid request');
    const path = byPath[1]!.split('/').map(decodeURIComponent).join('/');
    if (/["*:<>?\\|]/.test(path))
      return graphError(reply, 400, 'invalidRequest', 'The provided name contains invalid characters.');
    const existing = [...items.values()].find((item) => item.path.toLowerCase() === path.toLowerCase());
    if (existing) {
      write(existing, request.body, contentType);
      existing.versions += 1;
      return itemJson(existing);
    }
    const item: FakeDriveItem = {
      id: `01FAKE${randomBytes(10).toString('hex').toUpperCase()}`,
      path,
      bytes: Buffer.alloc(0),
      contentType: 'application/octet-stream',
      versions: 1,
      lastModifiedDateTime: new Date().toISOString(),
    };
    write(item, request.body, contentType);
    items.set(item.id, item);
    return reply.code(201).send(itemJson(item));
  });

  url = await app.listen({ host: '127.0.0.1', port: 0 });
  const tokenUrl = `${url}/token`;
  return {
    url,
    configValues: { MICROSOFT_GRAPH_API_URL: `${url}/v1.0`, OAUTH_MICROSOFT_ISSUER: url },
    ...controls,
    accessTokens: (tokens) => fakeAccessTokens('Microsoft', tokenUrl, tokens),
    items,
    itemAt: (path) => [...items.values()].find((item) => item.path === path),
    deleteItem: (id) => {
      items.delete(id);
    },
    close: () => app.close(),
  };
};
