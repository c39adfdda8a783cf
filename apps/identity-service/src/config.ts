import { type ConfigOf, parsers, type ServiceConfig } from '@service/service-runtime';

/** At least 32 bytes, as 64+ hex digits or base64 (standard or URL-safe) of 32+ bytes. */
export function parsePepper(raw: string): Buffer {
  const value = raw.trim();
  const bytes = /^(?:[0-9a-fA-F]{2})+$/.test(value)
    ? Buffer.from(value, 'hex')
    : /^[A-Za-z0-9+/_-]+={0,2}$/.test(value)
      ? Buffer.from(value, 'base64')
      : undefined;
  if (!bytes || bytes.length < 32) throw new Error('must be at least 32 bytes, as hex (64+ digits) or base64');
  return bytes;
}

export const identityConfigSpec = {
  IDENTITY_KEY_PEPPER: {
    description: 'server-side secret of the keyed hash (HMAC-SHA-256) API keys are stored as: 32+ bytes, hex or base64 (a secret; changing it invalidates every key)',
    parse: parsePepper,
  },
  IDENTITY_EXPIRY_SWEEP_MS: {
    description: 'how often expired keys (and the end of a rolled key\'s grace period) are announced to the gateways',
    default: '1000',
    parse: parsers.integer(50, 60_000),
  },
};

export type IdentityConfig = ServiceConfig & ConfigOf<typeof identityConfigSpec>;
