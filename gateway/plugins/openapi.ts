import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

/** The OpenAPI document, generated from the same zod schemas that validate requests: /api/docs/openapi.json. */
export const registerOpenApi = async (app: FastifyInstance): Promise<void> => {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Ledgerwise API',
        version: '0.1.0',
        description: 'Portal and admin API (portal.md and admin.md, section 7).',
      },
    },
    transform: jsonSchemaTransform,
    // Collects shared and recursive schemas (JSON values, for one) into components, so every $ref resolves.
    transformObject: jsonSchemaTransformObject,
  });
  app.get('/api/docs/openapi.json', { config: { access: 'public' }, schema: { hide: true } }, () =>
    app.swagger(),
  );
};
