import { readFileSync } from 'node:fs';

/**
 * Boot-time configuration: every variable is read and checked once, and all problems are
 * reported together with what was expected, before anything connects.
 */
export type EnvSource = Record<string, string | undefined>;

export interface VarSpec<T> {
  readonly description: string;
  /** Used when the variable is unset or empty; no default means required. */
  readonly default?: string;
  readonly parse: (raw: string) => T;
}

export type ConfigSpec = Record<string, VarSpec<unknown>>;
export type ConfigOf<S extends ConfigSpec> = { readonly [K in keyof S]: S[K] extends VarSpec<infer T> ? T : never };

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig<S extends ConfigSpec>(spec: S, env: EnvSource = process.env): ConfigOf<S> {
  const problems: string[] = [];
  const values: Record<string, unknown> = {};
  for (const [name, variable] of Object.entries(spec)) {
    const raw = env[name] === undefined || env[name] === '' ? variable.default : env[name];
    if (raw === undefined) {
      problems.push(`${name} is required: ${variable.description}`);
      continue;
    }
    try {
      values[name] = variable.parse(raw);
    } catch (error) {
      problems.push(`${name} ${(error as Error).message} (${variable.description})`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return values as ConfigOf<S>;
}

export const parsers = {
  string: (raw: string): string => raw,
  oneOf:
    <T extends string>(...allowed: T[]) =>
    (raw: string): T => {
      if (!(allowed as string[]).includes(raw)) throw new Error(`must be one of ${allowed.join(', ')}, got "${raw}"`);
      return raw as T;
    },
  integer:
    (min: number, max: number) =>
    (raw: string): number => {
      if (!/^-?\d+$/.test(raw)) throw new Error(`must be an integer, got "${raw}"`);
      const value = Number(raw);
      if (value < min || value > max) throw new Error(`must be from ${min} to ${max}, got ${value}`);
      return value;
    },
  boolean: (raw: string): boolean => {
    if (raw === 'true' || raw === '1') return true;
    if (raw === 'false' || raw === '0') return false;
    throw new Error(`must be true or false, got "${raw}"`);
  },
  url:
    (...protocols: string[]) =>
    (raw: string): string => {
      for (const part of raw.split(',')) {
        let url: URL;
        try {
          url = new URL(part.trim());
        } catch {
          throw new Error(`must be a URL, got "${raw}"`);
        }
        if (!protocols.includes(url.protocol)) throw new Error(`must use ${protocols.join(' or ')}, got ${url.protocol}`);
      }
      return raw;
    },
  identifier: (raw: string): string => {
    if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(raw)) throw new Error(`must be a plain identifier, got "${raw}"`);
    return raw;
  },
};

/** A file's text, read at boot so a missing or unreadable file is reported with the rest. */
function fileText(raw: string): string {
  try {
    return readFileSync(raw, 'utf8');
  } catch (error) {
    throw new Error(`names a file that cannot be read: ${raw} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}

/** An optional file's text ('' when the variable is empty). */
const optionalFile = (raw: string): string => (raw === '' ? '' : fileText(raw));

/**
 * Who the process is on NATS (k8s/base/nats/nats-server.conf has a user per app) and how it
 * reaches the server. See `natsClientAuthOf` for how they combine and what production requires.
 */
export function natsAuthConfigSpec() {
  return {
    NATS_USER: {
      description: "NATS user name; empty: the app's own user of k8s/base/nats/nats-server.conf (gateway, wallet, ..., admin)",
      default: '',
      parse: (raw: string) => {
        if (raw !== '' && !/^[A-Za-z0-9_-]+$/.test(raw)) throw new Error(`must be a user name (letters, digits, _ and -), got "${raw}"`);
        return raw;
      },
    },
    NATS_PASSWORD: { description: "the NATS user's password (or NATS_PASSWORD_FILE)", default: '', parse: parsers.string },
    NATS_PASSWORD_FILE: {
      description: "file holding the NATS user's password, e.g. a mounted Secret (its trailing newline ignored)",
      default: '',
      parse: (raw: string) => optionalFile(raw).replace(/\r?\n$/, ''),
    },
    NATS_CREDS: {
      description: 'NATS creds file (user JWT and nkey seed) instead of a user and password',
      default: '',
      parse: optionalFile,
    },
    NATS_TLS_CA: {
      description: 'PEM file of the CA that signed the NATS server certificate; set to verify it against this CA only',
      default: '',
      parse: optionalFile,
    },
    NATS_TLS_CERT: {
      description: 'PEM client certificate for NATS servers that require one (with NATS_TLS_KEY)',
      default: '',
      parse: optionalFile,
    },
    NATS_TLS_KEY: { description: 'PEM private key of NATS_TLS_CERT', default: '', parse: optionalFile },
    NATS_TLS: {
      description: 'true: TLS to NATS even without a tls:// URL or NATS_TLS_* file (server certificate checked against the system CAs)',
      default: 'false',
      parse: parsers.boolean,
    },
    NATS_INBOX_PREFIX: {
      description: 'prefix of reply subjects; empty: _INBOX_<user>, the only inbox the server configuration lets that user read',
      default: '',
      parse: (raw: string) => {
        if (raw !== '' && !/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(raw))
          throw new Error(`must be a subject prefix without wildcards, got "${raw}"`);
        return raw;
      },
    },
  } satisfies ConfigSpec;
}

/** Variables every process shares. */
export const commonConfigSpec = {
  SERVICE_ENV: {
    description: 'sandbox or production: selects catalogues, chains and sandbox-only features',
    default: 'sandbox',
    parse: parsers.oneOf('sandbox', 'production'),
  },
  NATS_URL: {
    description: 'NATS server URL(s), comma-separated, JetStream enabled',
    default: 'nats://127.0.0.1:4222',
    parse: parsers.url('nats:', 'tls:'),
  },
  ...natsAuthConfigSpec(),
  LOG_LEVEL: {
    description: 'trace, debug, info, warn, error or fatal',
    default: 'info',
    parse: parsers.oneOf('trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'),
  },
} satisfies ConfigSpec;

/** Variables of every NATS microservice with a database and the event stream. */
export function serviceConfigSpec(defaultSchema: string) {
  return {
    ...commonConfigSpec,
    DATABASE_URL: {
      description: 'PostgreSQL connection URL, e.g. postgresql://user:pass@host:5432/db',
      parse: parsers.url('postgresql:', 'postgres:'),
    },
    DATABASE_SCHEMA: {
      description: "Postgres schema holding this service's tables",
      default: defaultSchema,
      parse: parsers.identifier,
    },
    EVENTS_STREAM: {
      description: 'JetStream stream of domain events',
      default: 'DOMAIN_EVENTS',
      parse: parsers.identifier,
    },
    EVENTS_SUBJECT_PREFIX: {
      description: 'subject prefix of domain events; the stream captures <prefix>.>',
      default: 'events',
      parse: (raw: string) => {
        if (!/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(raw)) throw new Error(`must be a NATS subject prefix, got "${raw}"`);
        return raw;
      },
    },
    HEALTH_PORT: {
      description: 'port of the /healthz and /readyz HTTP probe server; 0 turns it off',
      default: '0',
      parse: parsers.integer(0, 65535),
    },
    SHUTDOWN_GRACE_MS: {
      description:
        'on SIGTERM, how long the service waits after it stops taking requests for those in flight to answer before it closes NATS; 0 closes at once',
      default: '2000',
      parse: parsers.integer(0, 60_000),
    },
  } satisfies ConfigSpec;
}

export type ServiceConfig = ConfigOf<ReturnType<typeof serviceConfigSpec>>;
