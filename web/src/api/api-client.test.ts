import { ApiClient } from './api-client';
import { NetworkError, ValidationError } from './api-error';
import { errorCatalogue } from './error-catalogue';
import { FakeFetch } from '../test-support/fake-fetch';

const setup = () => {
  const fake = new FakeFetch().on('GET /api/auth/token', { body: { csrfToken: 'token-1' } });
  const waits: number[] = [];
  const accessDenied = jest.fn();
  let keys = 0;
  const api = new ApiClient({
    fetch: fake.fetch,
    sleep: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
    onAccessDenied: accessDenied,
    newIdempotencyKey: () => `key-${++keys}`,
  });
  return { fake, api, waits, accessDenied };
};

describe('API client response handling (portal.md section 7)', () => {
  it.each([429, 501, 502, 503, 504])(
    'retries a %i with backoff and returns the later answer',
    async (status) => {
      const { fake, api, waits } = setup();
      fake.on(
        'GET /api/things',
        { status, body: { message: 'busy', code: 'unavailable' } },
        { body: { ok: true } },
      );
      await expect(api.get('/api/things')).resolves.toEqual({ ok: true });
      expect(fake.callsTo('GET /api/things')).toHaveLength(2);
      expect(waits).toHaveLength(1);
    },
  );

  it('gives up after the last attempt with the catalogue text for 503', async () => {
    const { fake, api, waits } = setup();
    fake.on('GET /api/things', { status: 503, body: { message: 'down', code: 'unavailable' } });
    await expect(api.get('/api/things')).rejects.toThrow(errorCatalogue.unavailable);
    expect(fake.callsTo('GET /api/things')).toHaveLength(4);
    expect(waits[1]).toBeGreaterThan(waits[0]!);
  });

  it('does not retry a 429 whose Retry-After is a long lockout, and shows the server text', async () => {
    const { fake, api } = setup();
    const text = 'Too many login attempts. Please wait 30 minutes and try again.';
    fake.on('GET /api/things', {
      status: 429,
      body: { message: text, code: 'rate_limited' },
      headers: { 'Retry-After': '1800' },
    });
    await expect(api.get('/api/things')).rejects.toThrow(text);
    expect(fake.callsTo('GET /api/things')).toHaveLength(1);
  });

  it.each([400, 404, 409, 500])('does not retry a %i', async (status) => {
    const { fake, api } = setup();
    fake.on('GET /api/things', { status, body: { message: 'no', code: 'conflict' } });
    await expect(api.get('/api/things')).rejects.toThrow();
    expect(fake.callsTo('GET /api/things')).toHaveLength(1);
  });

  it('answers 500 with the catalogue text, never the server internals', async () => {
    const { fake, api } = setup();
    fake.on('GET /api/things', { status: 500, body: { message: 'TypeError at line 3', code: 'internal' } });
    await expect(api.get('/api/things')).rejects.toThrow(errorCatalogue.internal);
  });

  it('answers a failed fetch with the catalogue text', async () => {
    const { fake, api } = setup();
    fake.on('GET /api/things', new TypeError('Failed to fetch'));
    const error: unknown = await api.get('/api/things').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toBe(errorCatalogue.failedFetch);
  });

  it('falls back to the catalogue default when a refusal has no text', async () => {
    const { fake, api } = setup();
    fake.on('GET /api/things', { status: 409 });
    await expect(api.get('/api/things')).rejects.toThrow(
      'The operation failed. Please validate your selection and try again.',
    );
  });

  it('turns a 422 into a ValidationError carrying the field errors', async () => {
    const { fake, api } = setup();
    fake.on('POST /api/things', {
      status: 422,
      body: {
        message: 'The email is already in use.',
        code: 'validation',
        properties: { email: 'not_unique' },
      },
    });
    const error: unknown = await api
      .request('/api/things', { method: 'POST', body: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).properties).toEqual({ email: 'not_unique' });
    expect((error as ValidationError).message).toBe('The email is already in use.');
  });

  it.each([401, 403])(
    'ends the session on a %i (reason Access Denied), unless the caller handles it',
    async (status) => {
      const { fake, api, accessDenied } = setup();
      fake.on('GET /api/things', { status, body: { message: 'Access Denied', code: 'forbidden' } });
      await expect(api.get('/api/things')).rejects.toThrow('Access Denied');
      expect(accessDenied).toHaveBeenCalledTimes(1);
      await expect(api.get('/api/things', { authFailure: 'throw' })).rejects.toThrow();
      expect(accessDenied).toHaveBeenCalledTimes(1);
    },
  );

  it('sends credentials, the anti-forgery token (fetched once) and one Idempotency-Key per write across retries', async () => {
    const { fake, api } = setup();
    fake.on('POST /api/things', { status: 503 }, { body: { ok: true } });
    await api.request('/api/things', { method: 'POST', body: { a: 1 } });
    await api.request('/api/things', { method: 'POST', body: { a: 2 } });
    const writes = fake.callsTo('POST /api/things');
    expect(writes.map((call) => call.headers['x-csrf-token'])).toEqual(['token-1', 'token-1', 'token-1']);
    expect(writes.map((call) => call.headers['idempotency-key'])).toEqual(['key-1', 'key-1', 'key-2']);
    expect(fake.callsTo('GET /api/auth/token')).toHaveLength(1);
    expect(fake.calls.every((call) => call.credentials === 'include')).toBe(true);
  });

  it('refetches the anti-forgery token once when the server refuses it', async () => {
    const { fake, api, accessDenied } = setup();
    fake.on('GET /api/auth/token', { body: { csrfToken: 'stale' } }, { body: { csrfToken: 'fresh' } });
    fake.on('POST /api/things', (call) =>
      call.headers['x-csrf-token'] === 'fresh'
        ? { body: { ok: true } }
        : { status: 403, body: { message: 'Invalid csrf token', code: 'forbidden' } },
    );
    await expect(api.request('/api/things', { method: 'POST', body: {} })).resolves.toEqual({ ok: true });
    expect(fake.callsTo('GET /api/auth/token')).toHaveLength(2);
    expect(accessDenied).not.toHaveBeenCalled();
  });

  it('reports an answer that does not parse as Invalid response data.', async () => {
    const { fake, api } = setup();
    fake.on('GET /api/things', { body: '<html>' });
    await expect(api.get('/api/things')).rejects.toThrow('Invalid response data.');
  });
});
