import { randomBytes, timingSafeEqual } from 'node:crypto';
import { API_KEY_PREFIXES, apiKeyHashOf, isApiKeyOf } from '@service/contracts';

/**
 * The secret API key: `service_sandbox_<random>` or `service_prod_<random>`, the random part 256
 * bits from the CSPRNG written in base62 (43 characters). It is shown once; what is stored is
 * its HMAC-SHA-256 under the server-side pepper, so a copy of the table alone opens nothing.
 */
export type KeyEnvironment = 'sandbox' | 'production';

export const KEY_PREFIXES: Readonly<Record<KeyEnvironment, string>> = API_KEY_PREFIXES;
/** Random bytes of a key: 256 bits. */
export const KEY_RANDOM_BYTES = 32;
/** Base62 digits that hold 256 bits: ceil(256 / log2(62)). */
export const KEY_RANDOM_LENGTH = 43;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `bytes` as a big-endian number in base62, left-padded with `0` to `length` digits. */
export function toBase62(bytes: Uint8Array, length: number): string {
  let value = BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);
  let digits = '';
  while (value > 0n) {
    digits = BASE62[Number(value % 62n)] + digits;
    value /= 62n;
  }
  if (digits.length > length) throw new Error(`${bytes.length} bytes do not fit in ${length} base62 digits`);
  return digits.padStart(length, '0');
}

/** A new key of the environment. */
export function generateKey(environment: KeyEnvironment, random: (size: number) => Uint8Array = randomBytes): string {
  return KEY_PREFIXES[environment] + toBase62(random(KEY_RANDOM_BYTES), KEY_RANDOM_LENGTH);
}

/** A key of this environment in the exact format (prefix and 43 base62 digits); the gateway checks the same. */
export function isKeyOf(environment: KeyEnvironment, key: string): boolean {
  return isApiKeyOf(environment, key);
}

/** What is stored and looked up: HMAC-SHA-256 of the whole key under the pepper (the gateway computes the same). */
export function keyHashOf(key: string, pepper: Uint8Array): Buffer {
  return apiKeyHashOf(key, pepper);
}

/** Compares two hashes in constant time (for equal lengths, which hashes of one kind have). */
export function sameHash(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The last 4 characters, which listings show to tell keys apart. */
export function last4Of(key: string): string {
  return key.slice(-4);
}
