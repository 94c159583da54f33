import { Writable } from 'node:stream';
import pino from 'pino';
import { loadConfig } from '../../contracts/config';
import { buildApp } from '../app';
import { logRedaction, redactUrl } from './log-redaction';

describe('redactUrl', () => {
  it('hides the credentials that links and OAuth callbacks carry, and keeps the rest', () => {
    expect(redactUrl('/api/auth/verify?token=abc.def')).toBe('/api/auth/verify?token=[redacted]');
    expect(redactUrl('/api/auth/recover?token=7.secretsecret')).toBe('/api/auth/recover?token=[redacted]');
    expect(redactUrl('/api/auth/google/callback?code=c0de&state=st4te&scope=openid')).toBe(
      '/api/auth/google/callback?code=[redacted]&state=[redacted]&scope=openid',
    );
    expect(redactUrl('/api/connect/qbo/callback?realmId=12&code=x')).toBe(
      '/api/connect/qbo/callback?realmId=12&code=[redacted]',
    );
    expect(redactUrl('/invitation?inviteToken=abc')).toBe('/invitation?inviteToken=[redacted]');
    expect(redactUrl('/api/auth/invitation/f00d-cafe')).toBe('/api/auth/invitation/[redacted]');
    expect(redactUrl('/api/auth/invitation/accept')).toBe('/api/auth/invitation/accept');
    expect(redactUrl('/api/industries?source=SIC')).toBe('/api/industries?source=SIC');
  });
});

describe('the gateway log', () => {
  it('never holds the tokens, cookies or anti-forgery tokens of a request', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = pino({ level: 'info', ...logRedaction }, sink);
    const app = await buildApp({
      config: loadConfig({ NODE_ENV: 'test' }),
      logger,
      health: () => Promise.resolve({ process: 'gateway', ok: true, checks: [] }),
      webRoot: '/nonexistent',
    });
    app.get('/api/test/headers', { config: { access: 'public' } }, (request) => {
      request.log.info({ headers: request.headers }, 'headers seen');
      return {};
    });
    await app.inject({ method: 'GET', url: '/api/auth/verify?token=LIVE-VERIFY-TOKEN' });
    await app.inject({ method: 'GET', url: '/api/auth/google/callback?code=LIVE-CODE&state=LIVE-STATE' });
    await app.inject({
      method: 'GET',
      url: '/api/test/headers',
      headers: {
        cookie: 'lw_session=LIVE-SESSION',
        authorization: 'Bearer LIVE-BEARER',
        'x-csrf-token': 'LIVE-CSRF',
      },
    });
    await app.close();
    const log = lines.join('');
    expect(log).toContain('/api/auth/verify?token=[redacted]');
    expect(log).toContain('headers seen');
    for (const secret of [
      'LIVE-VERIFY-TOKEN',
      'LIVE-CODE',
      'LIVE-STATE',
      'LIVE-SESSION',
      'LIVE-BEARER',
      'LIVE-CSRF',
    ])
      expect(log).not.toContain(secret);
  });
});
