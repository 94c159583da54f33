import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('runs locally with no variables set, pointing at the local servers', () => {
    const config = loadConfig({});
    // No MongoDB and no EventStoreDB: both stores are the embedded ones under DATA_DIR.
    expect(config.MONGO_URL).toBeUndefined();
    expect(config.KAFKA_BROKERS).toEqual(['127.0.0.1:9092']);
    expect(config.TEMPORAL_ADDRESS).toBe('127.0.0.1:7233');
    expect(config.EVENTSTORE_URL).toBeUndefined();
    expect(config.GATEWAY_PORT).toBe(3000);
  });

  it('reads and coerces variables from the environment', () => {
    const config = loadConfig({ GATEWAY_PORT: '8080', KAFKA_BROKERS: 'a:1, b:2', SEED_DEMO: 'false' });
    expect(config.GATEWAY_PORT).toBe(8080);
    expect(config.KAFKA_BROKERS).toEqual(['a:1', 'b:2']);
    expect(config.SEED_DEMO).toBe(false);
  });

  it('names every bad variable in its message', () => {
    const attempt = () =>
      loadConfig({ GATEWAY_PORT: 'eighty', MONGO_URL: 'postgres://x', SEED_DEMO: 'maybe' });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const configError = error as ConfigError;
      expect(configError.variables.sort()).toEqual(['GATEWAY_PORT', 'MONGO_URL', 'SEED_DEMO']);
      expect(configError.message).toContain('MONGO_URL: must be a URL starting with mongodb://');
    }
  });

  const ownProduction = {
    NODE_ENV: 'production',
    SESSION_SECRET: 'x'.repeat(40),
    PLATFORM_ADMIN_EMAILS: 'ops@example.com',
    SEED_DEMO: 'false',
  };

  it('refuses the development session secret in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SESSION_SECRET: must be set/);
    expect(loadConfig(ownProduction).NODE_ENV).toBe('production');
  });

  it('refuses to start production with the development platform administrator', () => {
    expect(() => loadConfig({ ...ownProduction, PLATFORM_ADMIN_EMAILS: undefined })).toThrow(
      /PLATFORM_ADMIN_EMAILS: must name your own administrators/,
    );
    // The published default stays usable where it belongs.
    expect(loadConfig({ NODE_ENV: 'test' }).PLATFORM_ADMIN_EMAILS).toEqual(['admin@ledgerwise.local']);
  });

  it('refuses to seed demo data in production with the published admin password', () => {
    expect(() => loadConfig({ ...ownProduction, SEED_DEMO: undefined })).toThrow(/SEED_ADMIN_PASSWORD/);
    expect(
      loadConfig({ ...ownProduction, SEED_DEMO: 'true', SEED_ADMIN_PASSWORD: 'a-password-of-ours' })
        .SEED_DEMO,
    ).toBe(true);
  });

  it('trusts no proxy unless told, and reads a list of addresses and ranges', () => {
    expect(loadConfig({}).TRUSTED_PROXIES).toEqual([]);
    expect(loadConfig({ TRUSTED_PROXIES: '10.0.0.1, 10.1.0.0/16,::1' }).TRUSTED_PROXIES).toEqual([
      '10.0.0.1',
      '10.1.0.0/16',
      '::1',
    ]);
    expect(() => loadConfig({ TRUSTED_PROXIES: 'true' })).toThrow(/TRUSTED_PROXIES/);
    expect(() => loadConfig({ TRUSTED_PROXIES: '*' })).toThrow(/TRUSTED_PROXIES/);
  });

  it('treats empty strings as unset', () => {
    expect(loadConfig({ EVENTSTORE_URL: '' }).EVENTSTORE_URL).toBeUndefined();
  });
});
