import { parseApiKeyPepper } from '@service/contracts';
import { type ConfigOf, commonConfigSpec, parsers } from '@service/service-runtime';

export const gatewayConfigSpec = {
  ...commonConfigSpec,
  PORT: { description: 'HTTP port', default: '3000', parse: parsers.integer(0, 65535) },
  HOST: { description: 'address to listen on', default: '0.0.0.0', parse: parsers.string },
  HEALTH_PORT: {
    description:
      'port of the probe and metrics server (/healthz, /readyz, /readyz?full=1, /metrics), never the public PORT; 0 turns it off',
    default: '0',
    parse: parsers.integer(0, 65535),
  },
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
    description: 'https JWKS URL with the keys that verify access tokens (http only on a loopback host); or set AUTH_PUBLIC_KEY',
    default: '',
    parse: (raw: string) => (raw === '' ? raw : parseJwksUrl(raw)),
  },
  AUTH_ISSUER: { description: 'required `iss` of access tokens', parse: parsers.string },
  AUTH_AUDIENCE: { description: 'required `aud` of access tokens', parse: parsers.string },
  IDENTITY_KEY_PEPPER: {
    description:
      "identity-service's pepper (the same secret): presented API keys are hashed with it, and only the hash is sent to identity-service, never the key; 32+ bytes, hex or base64",
    parse: parseApiKeyPepper,
  },
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
      "header a trusted proxy in front of the gateway writes the client address in (e.g. x-forwarded-for: its last entry is used); empty: the connection's peer address",
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

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * The token keys are trusted only over TLS: anyone on the path of a plain-http JWKS fetch could
 * hand the gateway keys of their own and sign any token. Plain http is left to loopback hosts
 * (a local identity provider, the tests).
 */
export function parseJwksUrl(raw: string): string {
  parsers.url('https:', 'http:')(raw);
  const url = new URL(raw);
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) {
    throw new Error(`must use https: (http: only on 127.0.0.1, ::1 or localhost), got ${raw}`);
  }
  return raw;
}

export type GatewayConfig = ConfigOf<typeof gatewayConfigSpec>;

/** Exactly one key source must be set. */
export function checkAuthSource(config: GatewayConfig): string | undefined {
  if (!config.AUTH_PUBLIC_KEY && !config.AUTH_JWKS_URL) return 'set AUTH_PUBLIC_KEY (PEM) or AUTH_JWKS_URL';
  if (config.AUTH_PUBLIC_KEY && config.AUTH_JWKS_URL) return 'set only one of AUTH_PUBLIC_KEY and AUTH_JWKS_URL';
  return undefined;
}
