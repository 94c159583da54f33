import { EventMetadata } from '../contracts/events/envelope';
import { currentRequestContext, metadataFor, runWithRequestContext, sanitiseBody } from './request-context';

const now = new Date('2025-05-01T09:00:00.000Z');

describe('sanitiseBody', () => {
  it('removes passwords, tokens, keys and credentials at any depth, whatever their case', () => {
    const body = {
      email: 'ada@example.com',
      Password: 'p1',
      currentPassword: 'p2',
      newPassword: 'p3',
      TOKEN: 't1',
      refresh_token: 't2',
      accessToken: 't3',
      'x-api-key': 'k1',
      apiKey: 'k2',
      secret: 's1',
      clientSecret: 's2',
      credentials: { user: 'u', pass: 'p' },
      Authorization: 'Bearer abc',
      cookie: 'sid=1',
      settings: { name: 'Acme', stripe: { secretKey: 'sk_live', publishableKey: 'pk_live' } },
      users: [{ name: 'Bob', password: 'p4' }],
    };

    const sanitised = sanitiseBody(body);

    expect(sanitised).toEqual({
      email: 'ada@example.com',
      settings: { name: 'Acme', stripe: { publishableKey: 'pk_live' } },
      users: [{ name: 'Bob' }],
    });
    expect(JSON.stringify(sanitised)).not.toMatch(/p1|p2|p3|t1|t2|t3|k1|k2|s1|s2|Bearer|sid=|sk_live|p4/);
  });

  it('leaves the caller’s object untouched and copes with cycles and absent bodies', () => {
    const body: Record<string, unknown> = { name: 'x', password: 'p' };
    body.self = body;

    expect(sanitiseBody(body)).toEqual({ name: 'x', self: '[circular]' });
    expect(body.password).toBe('p');
    expect(sanitiseBody(undefined)).toBeNull();
  });
});

describe('request context', () => {
  it('is seen across awaits by code that was not handed it, with the body already sanitised', async () => {
    const seen = await runWithRequestContext(
      { actor: 'user:7', tenantId: 42, body: { name: 'Acme', token: 'secret' }, requestId: 'req-1' },
      async () => {
        await new Promise((resolve) => setImmediate(resolve));
        return currentRequestContext();
      },
    );

    expect(seen).toMatchObject({ actor: 'user:7', tenantId: 42, body: { name: 'Acme' }, requestId: 'req-1' });
  });

  it('keeps concurrent requests apart', async () => {
    const actorAfterWait = (actor: 'user:1' | 'user:2', ms: number) =>
      runWithRequestContext({ actor }, async () => {
        await new Promise((resolve) => setTimeout(resolve, ms));
        return metadataFor('cmd', now).actor;
      });

    expect(await Promise.all([actorAfterWait('user:1', 5), actorAfterWait('user:2', 1)])).toEqual([
      'user:1',
      'user:2',
    ]);
  });

  it('builds the event metadata from the context, with the command id as causation', () => {
    const metadata = runWithRequestContext(
      {
        actor: 'user:7',
        tenantId: 42,
        ip: '203.0.113.9',
        method: 'PUT',
        url: '/api/tenant',
        body: { Name: 'Acme', password: 'x' },
        requestId: 'req-1',
        correlationId: 'corr-1',
      },
      () => metadataFor('cmd-1', now),
    );

    expect(metadata).toEqual({
      tenantId: 42,
      actor: 'user:7',
      ip: '203.0.113.9',
      method: 'PUT',
      url: '/api/tenant',
      body: { Name: 'Acme' },
      requestId: 'req-1',
      correlationId: 'corr-1',
      causationId: 'cmd-1',
      time: now.toISOString(),
    });
    expect(EventMetadata.safeParse(metadata).success).toBe(true);
  });

  it('falls back to system defaults outside any request', () => {
    const metadata = metadataFor('cmd-1', now);

    expect(metadata).toMatchObject({ tenantId: null, ip: null, body: null, causationId: 'cmd-1' });
    expect(metadata.actor).toMatch(/^system:/);
    expect(EventMetadata.safeParse(metadata).success).toBe(true);
  });
});
