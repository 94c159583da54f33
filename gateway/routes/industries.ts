import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IndustriesQuery, Industry } from '../../contracts/industries';
import { industriesMaxAgeSeconds, industriesOf } from '../industries/industry-catalogue';

/** GET /api/industries?source=NAICS2017|SIC: public reference data, cached by browsers for an hour. */
export const industryRoutes: FastifyPluginAsyncZod = (app) => {
  app.get(
    '/api/industries',
    {
      config: { access: 'public' },
      schema: {
        tags: ['industries'],
        querystring: IndustriesQuery,
        response: { 200: z.array(Industry) },
      },
    },
    (request, reply) => {
      void reply.header('cache-control', `public, max-age=${industriesMaxAgeSeconds}`);
      return industriesOf(request.query.source);
    },
  );
  return Promise.resolve();
};
