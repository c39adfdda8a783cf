import { createHmac } from 'node:crypto';

/**
 * How an API key is looked up: HMAC-SHA-256 of the whole key under the server-side pepper
 * (IDENTITY_KEY_PEPPER), the value identity-service stores for the key. The gateway sends this on
 * `identity.api-keys.authenticate`, never the key, so nothing on the bus can be presented to the
 * API; a copy of the table alone opens nothing either (the pepper is not in it).
 */
export function apiKeyHashOf(key: string, pepper: Uint8Array): Buffer {
  return createHmac('sha256', pepper).update(key, 'utf8').digest();
}

/** The wire form of an API key hash: 32 bytes as base64url without padding. */
export const API_KEY_HASH_FORMAT = /^[A-Za-z0-9_-]{43}$/;

/** {@link apiKeyHashOf} as sent on the bus. */
export function apiKeyHashText(key: string, pepper: Uint8Array): string {
  return apiKeyHashOf(key, pepper).toString('base64url');
}

/**
 * IDENTITY_KEY_PEPPER as the gateway and identity-service read it: 32 bytes or more, hex or
 * base64 (either alphabet). Both must read the same bytes, or no key works.
 */
export function parseApiKeyPepper(raw: string): Buffer {
  const value = raw.trim();
  const bytes = /^(?:[0-9a-fA-F]{2})+$/.test(value)
    ? Buffer.from(value, 'hex')
    : /^[A-Za-z0-9+/_-]+={0,2}$/.test(value)
      ? Buffer.from(value, 'base64')
      : undefined;
  if (!bytes || bytes.length < 32) throw new Error('must be at least 32 bytes, as hex (64+ digits) or base64');
  return bytes;
}

/** The prefix of an API key of each environment (`service_sandbox_<43 base62>`, `service_prod_<43 base62>`). */
export const API_KEY_PREFIXES = { sandbox: 'service_sandbox_', production: 'service_prod_' } as const;

/** Base62 digits of a key's random part: 256 bits. */
const API_KEY_RANDOM_PART = /^[0-9A-Za-z]{43}$/;

/** A key of this environment in the exact format (prefix and 43 base62 digits). */
export function isApiKeyOf(environment: keyof typeof API_KEY_PREFIXES, key: string): boolean {
  const prefix = API_KEY_PREFIXES[environment];
  return key.startsWith(prefix) && API_KEY_RANDOM_PART.test(key.slice(prefix.length));
}
