import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('runs locally with no variables set, pointing at the local servers', () => {
    const config = loadConfig({});
    expect(config.MONGO_URL).toBe('mongodb://127.0.0.1:27017/ledgerwise');
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

  it('refuses the development session secret in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SESSION_SECRET: must be set/);
    expect(loadConfig({ NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(40) }).NODE_ENV).toBe(
      'production',
    );
  });

  it('treats empty strings as unset', () => {
    expect(loadConfig({ EVENTSTORE_URL: '' }).EVENTSTORE_URL).toBeUndefined();
  });
});
