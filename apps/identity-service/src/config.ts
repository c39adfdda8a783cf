import { parseApiKeyPepper } from '@service/contracts';
import { type ConfigOf, parsers, type ServiceConfig } from '@service/service-runtime';

/** IDENTITY_KEY_PEPPER's parser, shared with the gateway (which hashes presented keys with it). */
export const parsePepper = parseApiKeyPepper;

export const identityConfigSpec = {
  IDENTITY_KEY_PEPPER: {
    description:
      "server-side secret of the keyed hash (HMAC-SHA-256) API keys are stored as: 32+ bytes, hex or base64 (a secret, the same as the gateway's; changing it invalidates every key)",
    parse: parsePepper,
  },
  IDENTITY_EXPIRY_SWEEP_MS: {
    description: "how often expired keys (and the end of a rolled key's grace period) are announced to the gateways",
    default: '1000',
    parse: parsers.integer(50, 60_000),
  },
};

export type IdentityConfig = ServiceConfig & ConfigOf<typeof identityConfigSpec>;
