import type { RawClient, RawResponse } from './raw-http';

/**
 * A browser over a real socket: a cookie jar fed by Set-Cookie, and the CSRF token fetched before its
 * first write, as the web app does. For attack chains that must run exactly as an outsider would.
 */
export type HttpBrowser = {
  get: (target: string, headers?: Record<string, string>) => Promise<RawResponse>;
  post: (target: string, body?: unknown, headers?: Record<string, string>) => Promise<RawResponse>;
  send: (
    method: string,
    target: string,
    options?: { body?: unknown; headers?: Record<string, string>; withoutCsrf?: boolean },
  ) => Promise<RawResponse>;
  cookies: Map<string, string>;
};

const setCookiesOf = (response: RawResponse): string[] => {
  const header = response.headers['set-cookie'];
  return header === undefined ? [] : Array.isArray(header) ? header : [header];
};

export const httpBrowser = (client: RawClient): HttpBrowser => {
  const cookies = new Map<string, string>();
  let csrfToken: string | null = null;

  const remember = (response: RawResponse) => {
    for (const line of setCookiesOf(response)) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired =
        value === '' ||
        attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) ||
        attributes.some((a) => {
          const match = /^\s*expires=(.*)$/i.exec(a);
          return match?.[1] !== undefined && new Date(match[1]).getTime() <= Date.now();
        });
      if (expired) cookies.delete(name);
      else cookies.set(name, value);
    }
  };
  const cookieHeader = (): Record<string, string> =>
    cookies.size === 0 ? {} : { cookie: [...cookies].map(([n, v]) => `${n}=${v}`).join('; ') };

  const send: HttpBrowser['send'] = async (method, target, options = {}) => {
    const write = !['GET', 'HEAD', 'OPTIONS'].includes(method);
    if (write && !options.withoutCsrf && csrfToken === null) {
      const tokenResponse = await client.send({
        method: 'GET',
        target: '/api/auth/token',
        headers: cookieHeader(),
      });
      remember(tokenResponse);
      csrfToken = (JSON.parse(tokenResponse.body) as { csrfToken: string }).csrfToken;
    }
    const response = await client.send({
      method,
      target,
      headers: {
        ...cookieHeader(),
        ...(write && !options.withoutCsrf && csrfToken ? { 'x-csrf-token': csrfToken } : {}),
        ...options.headers,
      },
      body: options.body ?? (write ? {} : undefined),
    });
    remember(response);
    return response;
  };
  return {
    get: (target, headers) => send('GET', target, { headers }),
    post: (target, body, headers) => send('POST', target, { body, headers }),
    send,
    cookies,
  };
};
