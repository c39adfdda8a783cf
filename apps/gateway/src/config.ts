import { type ConfigOf, commonConfigSpec, parsers } from '@service/service-runtime';

export const gatewayConfigSpec = {
  ...commonConfigSpec,
  PORT: { description: 'HTTP port', default: '3000', parse: parsers.integer(0, 65535) },
  HOST: { description: 'address to listen on', default: '0.0.0.0', parse: parsers.string },
  REDIS_URL: {
    description: 'Redis URL for the rate-limit counters shared by gateway replicas',
    default: 'redis://127.0.0.1:6379',
    parse: parsers.url('redis:', 'rediss:'),
  },
  AUTH_PUBLIC_KEY: {
    description: 'PEM public key (RSA, EC or Ed25519) that verifies access tokens; or set AUTH_JWKS_URL',
    default: '',
    parse: (raw: string) => raw.replace(/\\n/g, '\n'),
  },
  AUTH_JWKS_URL: {
    description: 'JWKS URL with the keys that verify access tokens; or set AUTH_PUBLIC_KEY',
    default: '',
    parse: (raw: string) => (raw === '' ? raw : parsers.url('https:', 'http:')(raw)),
  },
  AUTH_ISSUER: { description: 'required `iss` of access tokens', parse: parsers.string },
  AUTH_AUDIENCE: { description: 'required `aud` of access tokens', parse: parsers.string },
  RATE_LIMIT_READ_PER_MINUTE: {
    description: 'read requests (GET) per principal per minute',
    default: '200',
    parse: parsers.integer(1, 1_000_000),
  },
  RATE_LIMIT_WRITE_PER_MINUTE: {
    description: 'write requests per principal per minute',
    default: '20',
    parse: parsers.integer(1, 1_000_000),
  },
  RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: {
    description: 'requests without a working credential (none, invalid, unknown or revoked) per client address per minute; then 429',
    default: '60',
    parse: parsers.integer(1, 1_000_000),
  },
  CLIENT_ADDRESS_HEADER: {
    description:
      'header a trusted proxy in front of the gateway writes the client address in (e.g. x-forwarded-for: its last entry is used); empty: the connection\'s peer address',
    default: '',
    parse: (raw: string) => {
      const header = raw.trim().toLowerCase();
      if (header !== '' && !/^[a-z0-9!#$%&'*+.^_`|~-]+$/.test(header)) throw new Error(`must be an HTTP header name, got "${raw}"`);
      return header;
    },
  },
  NATS_REQUEST_TIMEOUT_MS: {
    description: 'how long to wait for a service before answering 503',
    default: '3000',
    parse: parsers.integer(50, 60_000),
  },
  SHUTDOWN_GRACE_MS: {
    description: 'how long SIGTERM waits for in-flight requests',
    default: '10000',
    parse: parsers.integer(0, 120_000),
  },
};

export type GatewayConfig = ConfigOf<typeof gatewayConfigSpec>;

/** Exactly one key source must be set. */
export function checkAuthSource(config: GatewayConfig): string | undefined {
  if (!config.AUTH_PUBLIC_KEY && !config.AUTH_JWKS_URL) return 'set AUTH_PUBLIC_KEY (PEM) or AUTH_JWKS_URL';
  if (config.AUTH_PUBLIC_KEY && config.AUTH_JWKS_URL) return 'set only one of AUTH_PUBLIC_KEY and AUTH_JWKS_URL';
  return undefined;
}
