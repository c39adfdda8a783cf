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
      description: 'on SIGTERM, how long the service waits after it stops taking requests for those in flight to answer before it closes NATS; 0 closes at once',
      default: '2000',
      parse: parsers.integer(0, 60_000),
    },
  } satisfies ConfigSpec;
}

export type ServiceConfig = ConfigOf<ReturnType<typeof serviceConfigSpec>>;
