import type { FastifyInstance, HTTPMethods } from 'fastify';
import type { Access } from './access';

/** One registered API route and who may call it: what the generated route-table tests iterate. */
export type RouteEntry = { method: string; url: string; access: Access | undefined };

declare module 'fastify' {
  interface FastifyInstance {
    routeTable: RouteEntry[];
  }
}

/** Records every /api route as it is registered (HEAD twins of GETs left out). */
export const registerRouteTable = (app: FastifyInstance): void => {
  const table: RouteEntry[] = [];
  app.decorate('routeTable', table);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) return;
    const methods: HTTPMethods[] = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      table.push({ method, url: route.url, access: route.config?.access });
    }
  });
};
