import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { commonConfigSpec, ConfigError, loadConfig } from './config.js';
import { natsClientAuthOf } from './nats-auth.js';

const configOf = (env: Record<string, string>) => loadConfig(commonConfigSpec, env);

describe('natsClientAuthOf', () => {
  it("connects as the app's own user with its password, replies on that user's inbox", () => {
    expect(natsClientAuthOf(configOf({ NATS_PASSWORD: 'p1' }), 'wallet')).toEqual({
      user: 'wallet',
      pass: 'p1',
      inboxPrefix: '_INBOX_wallet',
    });
    expect(natsClientAuthOf(configOf({ NATS_USER: 'other', NATS_PASSWORD: 'p1', NATS_INBOX_PREFIX: 'replies.x' }), 'wallet')).toEqual({
      user: 'other',
      pass: 'p1',
      inboxPrefix: 'replies.x',
    });
  });

  it('reads the password from a file, its trailing newline dropped', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'nats-auth-')), 'password');
    writeFileSync(file, 'secret\n');
    expect(natsClientAuthOf(configOf({ NATS_PASSWORD_FILE: file }), 'gateway')).toMatchObject({ user: 'gateway', pass: 'secret' });
  });

  it('stays anonymous without credentials in sandbox, and refuses that in production', () => {
    expect(natsClientAuthOf(configOf({}), 'wallet')).toEqual({ inboxPrefix: '_INBOX_wallet' });
    expect(() => natsClientAuthOf(configOf({ SERVICE_ENV: 'production' }), 'wallet')).toThrow(ConfigError);
    expect(() => natsClientAuthOf(configOf({ SERVICE_ENV: 'production' }), 'wallet')).toThrow(
      /NATS credentials are required when SERVICE_ENV=production/,
    );
  });

  it('refuses contradictory settings and reports an unreadable file with the other problems', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'nats-auth-'));
    writeFileSync(path.join(dir, 'p'), 'x');
    expect(() => natsClientAuthOf(configOf({ NATS_PASSWORD: 'a', NATS_PASSWORD_FILE: path.join(dir, 'p') }), 'wallet')).toThrow(/both set/);
    writeFileSync(path.join(dir, 'cert'), 'CERT');
    expect(() => natsClientAuthOf(configOf({ NATS_TLS_CERT: path.join(dir, 'cert') }), 'wallet')).toThrow(/NATS_TLS_KEY/);
    expect(() => configOf({ NATS_TLS_CA: path.join(dir, 'missing.pem') })).toThrow(/NATS_TLS_CA names a file that cannot be read/);
  });

  it('turns TLS on for a tls:// URL, NATS_TLS or a CA file, with the CA it names', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'nats-auth-'));
    writeFileSync(path.join(dir, 'ca.pem'), 'CA');
    expect(natsClientAuthOf(configOf({ NATS_URL: 'tls://nats:4222', NATS_PASSWORD: 'p' }), 'wallet').tls).toEqual({});
    expect(natsClientAuthOf(configOf({ NATS_TLS: 'true' }), 'wallet').tls).toEqual({});
    expect(natsClientAuthOf(configOf({ NATS_TLS_CA: path.join(dir, 'ca.pem') }), 'wallet').tls).toEqual({ ca: 'CA' });
    expect(natsClientAuthOf(configOf({}), 'wallet').tls).toBeUndefined();
  });
});
