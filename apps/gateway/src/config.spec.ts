import { describe, expect, it } from '@jest/globals';
import { ConfigError, loadConfig } from '@service/service-runtime';
import { gatewayConfigSpec, parseJwksUrl } from './config.js';

const base = { AUTH_ISSUER: 'issuer', AUTH_AUDIENCE: 'audience', IDENTITY_KEY_PEPPER: '00'.repeat(32) };

describe('AUTH_JWKS_URL', () => {
  it('takes an https URL, and http only on a loopback host', () => {
    expect(parseJwksUrl('https://idp.example.com/.well-known/jwks.json')).toBe('https://idp.example.com/.well-known/jwks.json');
    expect(parseJwksUrl('http://127.0.0.1:8080/jwks.json')).toBe('http://127.0.0.1:8080/jwks.json');
    expect(parseJwksUrl('http://[::1]:8080/jwks.json')).toBe('http://[::1]:8080/jwks.json');
    expect(parseJwksUrl('http://localhost/jwks.json')).toBe('http://localhost/jwks.json');
  });

  it('refuses plain http to any other host at boot, naming the variable', () => {
    for (const url of ['http://idp.example.com/jwks.json', 'http://10.0.0.5/jwks.json', 'http://127.0.0.1.example.com/jwks.json']) {
      expect(() => parseJwksUrl(url)).toThrow(/must use https:/);
    }
    expect(() => loadConfig(gatewayConfigSpec, { ...base, AUTH_JWKS_URL: 'http://idp.example.com/jwks.json' })).toThrow(ConfigError);
    expect(() => loadConfig(gatewayConfigSpec, { ...base, AUTH_JWKS_URL: 'http://idp.example.com/jwks.json' })).toThrow(
      /AUTH_JWKS_URL must use https:/,
    );
    expect(() => parseJwksUrl('ftp://idp.example.com/jwks.json')).toThrow(/must use https: or http:/);
  });

  it('loads an https URL and the loopback http one', () => {
    expect(loadConfig(gatewayConfigSpec, { ...base, AUTH_JWKS_URL: 'https://idp.example.com/jwks.json' }).AUTH_JWKS_URL).toBe(
      'https://idp.example.com/jwks.json',
    );
    expect(loadConfig(gatewayConfigSpec, { ...base, AUTH_JWKS_URL: 'http://127.0.0.1:9/jwks.json' }).AUTH_JWKS_URL).toBe(
      'http://127.0.0.1:9/jwks.json',
    );
  });
});
