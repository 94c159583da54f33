import { randomUUID } from 'node:crypto';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParam } from '../../../contracts/api/common';
import { LogoQuery, Tenant, TenantIdParam, tenantMessages } from '../../../contracts/api/tenants';
import { AppError } from '../../../contracts/errors';
import { tenantDecider } from '../../../domain/tenant/tenant-decider';
import { queryTenant } from '../../../projections/tenants/query-tenant';
import { executeCommand } from '../../execute-command';
import { requireTenantAccess } from '../../plugins/access';
import {
  logoIdOfUrl,
  logoMaxBytes,
  logosCollection,
  logoUrlOf,
  sniffLogoType,
} from '../../use-cases/tenants/logo-store';
import { Binary } from 'mongodb';
import { tenantStream } from '../../../contracts/stream-ids';

const invalidFile = (message: string) =>
  new AppError('validation', tenantMessages.logoFailed, { properties: { file: message } });

const multipartErrors: Record<string, string> = {
  FST_REQ_FILE_TOO_LARGE: `The logo must be at most ${logoMaxBytes / 1024 / 1024} MB.`,
  FST_FILES_LIMIT: 'Upload one file only.',
  FST_PARTS_LIMIT: 'Upload one file only.',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'Send the logo as multipart/form-data.',
};

/** The one file of the form, as bytes; the multipart plugin's limits become field errors. */
const readOneFile = async (request: FastifyRequest): Promise<Buffer> => {
  let bytes: Buffer | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      if (bytes !== null) throw invalidFile('Upload one file only.');
      bytes = await part.toBuffer();
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const { code, message: text = '' } = error as { code?: string; message?: string };
    const message = code ? multipartErrors[code] : undefined;
    if (message) throw invalidFile(message);
    // The parser's own complaints (no boundary, a truncated form) are the sender's mistake, not ours.
    if (/multipart|boundary|unexpected end of form|malformed/i.test(text))
      throw invalidFile('Send the logo as multipart/form-data.');
    throw error;
  }
  if (bytes === null || bytes.length === 0) throw invalidFile('Choose a logo file.');
  return bytes;
};

/** The logo upload (portal.md: one file, jpeg, png, gif or svg; reviewed by staff) and its serving. */
export const tenantLogoRoutes: FastifyPluginAsyncZod = async (app) => {
  const { services } = app;
  await app.register(fastifyMultipart, {
    limits: { fileSize: logoMaxBytes, files: 1, fields: 10, parts: 12 },
  });

  app.post(
    '/api/tenants/:tenantId/logo',
    {
      config: { access: 'session' },
      schema: { tags: ['tenants'], params: TenantIdParam, response: { 200: Tenant } },
    },
    async (request, reply) => {
      const { tenantId } = request.params;
      const caller = await requireTenantAccess(request, tenantId, 'tenantAdmin');
      const bytes = await readOneFile(request);
      const contentType = sniffLogoType(bytes);
      if (!contentType) throw invalidFile('The logo must be a JPEG, PNG, GIF or SVG image.');
      const logos = logosCollection(services.db);
      const logoId = randomUUID();
      await logos.insertOne({
        _id: logoId,
        tenantId,
        contentType,
        bytes: new Binary(bytes),
        size: bytes.length,
        uploadedAt: services.now(),
        uploadedBy: caller.userId,
      });
      try {
        const submitted = await executeCommand(reply, tenantDecider, {
          streamId: tenantStream(tenantId),
          tenantId,
          command: {
            type: 'SubmitTenantLogo',
            data: { logoUrl: logoUrlOf(tenantId, logoId), contentType },
            now: services.now(),
            actor: caller.actor,
          },
        });
        const { tenant } = await queryTenant(services.db, { tenantId, afterPosition: submitted.position });
        if (!tenant) throw new AppError('not_found', 'Tenant not found.');
        return tenant;
      } catch (error) {
        // A refused upload leaves no bytes behind.
        await logos.deleteOne({ _id: logoId });
        throw error;
      }
    },
  );

  app.get(
    '/api/tenants/:id/logo',
    { config: { access: 'session' }, schema: { tags: ['tenants'], params: IdParam, querystring: LogoQuery } },
    async (request, reply) => {
      const tenantId = request.params.id;
      await requireTenantAccess(request, tenantId);
      let logoId = request.query.v ?? null;
      if (logoId === null) {
        const { tenant } = await queryTenant(services.db, { tenantId, ...request.readAfter });
        logoId = logoIdOfUrl(tenant?.Logo.URL ?? null);
      }
      const logo = logoId ? await logosCollection(services.db).findOne({ _id: logoId, tenantId }) : null;
      if (!logo) throw new AppError('not_found', 'Not Found', { message: 'no such logo' });
      // An SVG may carry script: served as an image that can run nothing and is never sniffed as HTML.
      return reply
        .header('content-type', logo.contentType)
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, max-age=3600')
        .send(Buffer.from(logo.bytes.buffer));
    },
  );
};
