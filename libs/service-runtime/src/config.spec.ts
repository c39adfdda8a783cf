import { describe, expect, it } from '@jest/globals';
import { ConfigError, loadConfig, serviceConfigSpec } from './config.js';

describe('loadConfig', () => {
  const spec = serviceConfigSpec('wallet');

  it('applies defaults and parses values', () => {
    const config = loadConfig(spec, { DATABASE_URL: 'postgresql://u@db:5432/app', HEALTH_PORT: '8080' });
    expect(config).toMatchObject({
      SERVICE_ENV: 'sandbox',
      NATS_URL: 'nats://127.0.0.1:4222',
      DATABASE_SCHEMA: 'wallet',
      EVENTS_STREAM: 'DOMAIN_EVENTS',
      HEALTH_PORT: 8080,
    });
  });

  it('reports every problem at once, naming each variable and what it expects', () => {
    let error: unknown;
    try {
      loadConfig(spec, { SERVICE_ENV: 'staging', HEALTH_PORT: 'eighty', DATABASE_SCHEMA: 'bad-name;' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(4);
    expect(problems.join('\n')).toMatch(/SERVICE_ENV must be one of sandbox, production, got "staging"/);
    expect(problems.join('\n')).toMatch(/DATABASE_URL is required: PostgreSQL connection URL/);
    expect(problems.join('\n')).toMatch(/HEALTH_PORT must be an integer, got "eighty"/);
    expect(problems.join('\n')).toMatch(/DATABASE_SCHEMA must be a plain identifier/);
  });

  it('refuses URLs of the wrong kind', () => {
    expect(() => loadConfig(spec, { DATABASE_URL: 'mysql://db/app' })).toThrow(/DATABASE_URL must use postgresql: or postgres:/);
    expect(() => loadConfig(spec, { DATABASE_URL: 'postgresql://db/app', NATS_URL: 'http://nats' })).toThrow(/NATS_URL must use nats:/);
  });
});
