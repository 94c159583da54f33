import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  BrowserStateParams,
  BrowserStateRequest,
  BrowserStateResponse,
  browserStateMaxBytes,
} from '../../../contracts/api/browser-state';
import { AppError } from '../../../contracts/errors';
import { requireCaller } from '../../plugins/access';

/**
 * UI preferences the browser keeps across devices (dashboard-progress). Not domain state, so no events:
 * one document per user, tenant and key, the value stored as JSON text so any keys it holds are safe.
 */
type BrowserStateDoc = {
  _id: string;
  userId: number;
  tenantId: number | null;
  key: string;
  json: string;
  updatedAt: Date;
};

export const browserStateRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, now } = app.services;
  const states = db.collection<BrowserStateDoc>('browser_state');
  await states.createIndex({ userId: 1 });
  const idOf = (caller: { userId: number; tenantId: number | null }, key: string) =>
    `${caller.userId}:${caller.tenantId ?? 'none'}:${key}`;

  app.get(
    '/api/browser/:key',
    {
      config: { access: 'session' },
      schema: { tags: ['browser'], params: BrowserStateParams, response: { 200: BrowserStateResponse } },
    },
    async (request) => {
      const caller = requireCaller(request);
      const { key } = request.params;
      const doc = await states.findOne({ _id: idOf(caller, key) });
      return { key, value: doc ? (JSON.parse(doc.json) as BrowserStateResponse['value']) : null };
    },
  );

  app.put(
    '/api/browser/:key',
    {
      config: { access: 'session' },
      schema: {
        tags: ['browser'],
        params: BrowserStateParams,
        body: BrowserStateRequest,
        response: { 200: BrowserStateResponse },
      },
    },
    async (request) => {
      const caller = requireCaller(request);
      const { key } = request.params;
      const json = JSON.stringify(request.body.value);
      if (Buffer.byteLength(json, 'utf8') > browserStateMaxBytes)
        throw new AppError(
          'validation',
          'The operation failed. Please validate your selection and try again.',
          {
            properties: { value: `must be at most ${browserStateMaxBytes / 1024} KB of JSON` },
          },
        );
      await states.updateOne(
        { _id: idOf(caller, key) },
        { $set: { userId: caller.userId, tenantId: caller.tenantId, key, json, updatedAt: now() } },
        { upsert: true },
      );
      return { key, value: request.body.value };
    },
  );
};
