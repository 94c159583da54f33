import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIPv6, type LookupFunction } from 'node:net';

/**
 * fetch for a URL a person typed (ADR 26): the connection goes to one of the addresses
 * checkConnectorUrl found public, never to whatever the name resolves to by the time of the call
 * (DNS rebinding). TLS still checks the certificate against the URL's host name.
 */
export type PinnedFetch = (
  url: string,
  init?: { method?: string; headers?: Record<string, string>; body?: string; signal?: AbortSignal },
) => Promise<Response>;

const headersOf = (incoming: IncomingHttpHeaders) => {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
};

export const pinnedFetch =
  (addresses: readonly string[]): PinnedFetch =>
  (url, init = {}) => {
    const address = addresses[0];
    if (!address) return Promise.reject(new Error('no address to call'));
    const family = isIPv6(address) ? 6 : 4;
    const lookup: LookupFunction = (_hostname, options, callback) => {
      if (options.all)
        (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [
          { address, family },
        ]);
      else callback(null, address, family);
    };
    const target = new URL(url);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<Response>((resolve, reject) => {
      const request = send(
        target,
        { method: init.method ?? 'GET', headers: init.headers, lookup, signal: init.signal },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () => {
            const status = response.statusCode ?? 502;
            const body = Buffer.concat(chunks);
            const empty = status === 204 || status === 304 || body.length === 0;
            resolve(new Response(empty ? null : body, { status, headers: headersOf(response.headers) }));
          });
        },
      );
      request.on('error', reject);
      if (init.body !== undefined) request.write(init.body);
      request.end();
    });
  };
