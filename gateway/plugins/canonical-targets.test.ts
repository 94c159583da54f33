import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { loadConfig } from '../../contracts/config';
import { buildApp } from '../app';
import { nonCanonicalReason } from './canonical-targets';

/** A raw request over a socket: `inject` and fetch would normalise the very targets under test. */
const rawGet = (port: number, target: string, method = 'GET') =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path: target }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });

describe('canonical request targets', () => {
  it('names what is wrong with each other spelling of a path', () => {
    expect(nonCanonicalReason('/api/industries?source=SIC')).toBeNull();
    expect(nonCanonicalReason('/api/admin/streams/Tenant%208/history')).toBeNull();
    expect(nonCanonicalReason('/%61pi/stats')).toBe('percent-encoded unreserved character');
    expect(nonCanonicalReason('/api/stats%2e')).toBe('percent-encoded unreserved character');
    expect(nonCanonicalReason('//api/stats')).toBe('not origin-form');
    expect(nonCanonicalReason('/api//stats')).toBe('empty path segment');
    expect(nonCanonicalReason('/api/./stats')).toBe('dot segment');
    expect(nonCanonicalReason('/x/../api/stats')).toBe('dot segment');
    expect(nonCanonicalReason('http://x/api/stats')).toBe('not origin-form');
    expect(nonCanonicalReason('/api\\stats')).toBe('backslash');
    expect(nonCanonicalReason('/api/stats%zz')).toBe('malformed percent-encoding');
  });

  describe('over HTTP', () => {
    const webRoot = mkdtempSync(join(tmpdir(), 'web-dist-'));
    writeFileSync(join(webRoot, 'index.html'), '<!doctype html><div id="root"></div>');
    let app: FastifyInstance;
    let port = 0;
    beforeAll(async () => {
      app = await buildApp({
        config: loadConfig({ NODE_ENV: 'test' }),
        logger: pino({ level: 'silent' }),
        health: () => Promise.resolve({ process: 'gateway', ok: true, checks: [] }),
        webRoot,
      });
      await app.listen({ host: '127.0.0.1', port: 0 });
      port = (app.server.address() as AddressInfo).port;
    });
    afterAll(async () => {
      await app.close();
      rmSync(webRoot, { recursive: true, force: true });
    });

    it('answers the canonical spelling', async () => {
      expect((await rawGet(port, '/api/industries')).status).toBe(200);
    });

    // Each of these reached GET /api/industries before (the router decodes and accepts absolute-form).
    it.each([
      '/%61pi/industries',
      '/api/%69ndustries',
      '//api/industries',
      '/api//industries',
      '/api/./industries',
      '/assets/../api/industries',
      'http://x/api/industries',
    ])('refuses %s with 400 before any route runs', async (target) => {
      const response = await rawGet(port, target);
      expect(response.status).toBe(400);
      expect(JSON.parse(response.body)).toEqual({ message: 'Bad Request', code: 'validation' });
    });

    it('refuses a write in another spelling before its anti-forgery check', async () => {
      expect((await rawGet(port, '/%61pi/tasks', 'POST')).status).toBe(400);
    });

    it('answers other cases and a trailing slash as API 404s, never as the web app', async () => {
      for (const target of ['/API/industries', '/Api/industries', '/api/industries/']) {
        const response = await rawGet(port, target);
        expect({ target, status: response.status }).toEqual({ target, status: 404 });
        expect(JSON.parse(response.body)).toEqual({ message: 'Not Found', code: 'not_found' });
      }
      // Client-side routes still get the app.
      expect((await rawGet(port, '/platforms')).body).toContain('<div id="root">');
    });
  });
});
