/**
 * A browser over real HTTP for tests of running processes: one cookie jar and CSRF token, whichever
 * gateway it calls (as a browser behind a load balancer holds one).
 */
export const httpBrowser = () => {
  const jar = new Map<string, string>();
  let csrfToken = '';
  const call = async (base: string, path: string, init: { method?: string; body?: unknown } = {}) => {
    const response = await fetch(`${base}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(csrfToken ? { 'x-csrf-token': csrfToken } : {}),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return response;
  };
  const fetchCsrf = async (base: string) => {
    csrfToken = ((await (await call(base, '/api/auth/token')).json()) as { csrfToken: string }).csrfToken;
  };
  return { call, fetchCsrf };
};
