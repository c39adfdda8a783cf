import { describe, expect, it } from '@jest/globals';
import { generateKey, isKeyOf, KEY_RANDOM_LENGTH, keyHashOf, last4Of, sameHash, toBase62 } from './api-key-secret.js';

describe('API key secrets', () => {
  it('makes keys of each environment: its prefix and 43 base62 characters of 256 random bits', () => {
    expect(generateKey('sandbox')).toMatch(/^service_sandbox_[0-9A-Za-z]{43}$/);
    expect(generateKey('production')).toMatch(/^service_prod_[0-9A-Za-z]{43}$/);
    const keys = new Set(Array.from({ length: 200 }, () => generateKey('sandbox')));
    expect(keys.size).toBe(200);
  });

  it('writes bytes in base62 at a fixed length, the extremes included', () => {
    expect(toBase62(new Uint8Array(32), KEY_RANDOM_LENGTH)).toBe('0'.repeat(43));
    const largest = toBase62(new Uint8Array(32).fill(255), KEY_RANDOM_LENGTH);
    expect(largest).toHaveLength(43);
    expect(BigInt(`0x${'ff'.repeat(32)}`) < 62n ** 43n).toBe(true);
    expect(toBase62(Uint8Array.of(61), 2)).toBe('0z');
    expect(toBase62(Uint8Array.of(62), 2)).toBe('10');
    expect(() => toBase62(Uint8Array.of(255, 255), 2)).toThrow();
  });

  it('takes the random part from the generator it is given', () => {
    expect(generateKey('sandbox', (size) => new Uint8Array(size).fill(1))).toBe(
      generateKey('sandbox', (size) => new Uint8Array(size).fill(1)),
    );
  });

  it('recognises a key of its own environment only, in the exact format', () => {
    const sandbox = generateKey('sandbox');
    expect(isKeyOf('sandbox', sandbox)).toBe(true);
    expect(isKeyOf('production', sandbox)).toBe(false);
    expect(isKeyOf('production', generateKey('production'))).toBe(true);
    expect(isKeyOf('sandbox', `${sandbox}x`)).toBe(false);
    expect(isKeyOf('sandbox', sandbox.slice(0, -1))).toBe(false);
    expect(isKeyOf('sandbox', `${sandbox.slice(0, -1)}-`)).toBe(false);
  });

  it('hashes with HMAC-SHA-256 under the pepper: another pepper, another hash', () => {
    const key = generateKey('sandbox');
    const pepper = Buffer.alloc(32, 7);
    const hash = keyHashOf(key, pepper);
    expect(hash).toHaveLength(32);
    expect(sameHash(hash, keyHashOf(key, pepper))).toBe(true);
    expect(sameHash(hash, keyHashOf(key, Buffer.alloc(32, 8)))).toBe(false);
    expect(sameHash(hash, keyHashOf(generateKey('sandbox'), pepper))).toBe(false);
    expect(sameHash(hash, hash.subarray(0, 16))).toBe(false);
    expect(last4Of(key)).toBe(key.slice(-4));
  });
});
