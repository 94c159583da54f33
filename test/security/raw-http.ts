import { Agent, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Requests over a real socket with the request target sent exactly as written: `inject` and fetch
 * both normalise a URL before it leaves, and an attacker's spelling (`/%61pi/...`, `//api/...`,
 * `GET http://host/api/...`) is precisely what must reach the gateway untouched.
 */
export type RawRequest = {
  method: string;
  /** The request target as it goes on the request line: a path, or an absolute URL (absolute form). */
  target: string;
  headers?: Record<string, string>;
  body?: unknown;
};

export type RawResponse = {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
};

export type RawClient = {
  origin: string;
  send: (request: RawRequest) => Promise<RawResponse>;
  close: () => void;
};

/** Bodies are read up to this size: enough to see a leak, not enough to hold a large export in memory. */
const maxBodyBytes = 256 * 1024;

const encodeBody = (
  body: unknown,
  headers: Record<string, string>,
): { bytes: Buffer | null; headers: Record<string, string> } => {
  if (body === undefined) return { bytes: null, headers };
  if (Buffer.isBuffer(body) || typeof body === 'string') return { bytes: Buffer.from(body), headers };
  const hasType = Object.keys(headers).some((name) => name.toLowerCase() === 'content-type');
  return {
    bytes: Buffer.from(JSON.stringify(body)),
    headers: hasType ? headers : { ...headers, 'content-type': 'application/json' },
  };
};

/** Starts the app on 127.0.0.1 on a free port (once) and answers a client for it. */
export const listen = async (app: FastifyInstance, concurrency: number): Promise<RawClient> => {
  if (!app.server.listening) await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const send = ({ method, target, headers = {}, body }: RawRequest): Promise<RawResponse> => {
    const encoded = encodeBody(body, headers);
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          agent,
          method,
          path: target,
          headers: {
            ...encoded.headers,
            ...(encoded.bytes ? { 'content-length': String(encoded.bytes.length) } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            if (size < maxBodyBytes) chunks.push(chunk);
            size += chunk.length;
          });
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks).toString('utf8'),
            }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(encoded.bytes ?? undefined);
    });
  };
  return { origin: `http://127.0.0.1:${port}`, send, close: () => agent.destroy() };
};

/** Runs the tasks with at most `limit` in flight (two cores: a flood would only measure the queue). */
export const inPool = async <T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>) => {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await task(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
};
