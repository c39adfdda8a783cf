import { randomUUID } from 'node:crypto';
import { type JetStreamClient, jetstream } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { type DomainEvent, type DomainEventType, eventSubject, type Role, SERVICES, type ServiceName } from '@service/contracts';
import { type IsolatedSchema, type IsolatedStream, migratedSchema, serviceTestEnv } from './infra.js';
import { type AppProcess, startApp } from './processes.js';
import { startTestSystem, type TestSystem } from './system.js';

/** A reply of the gateway: its status and its JSON body. */
export interface HttpReply<T = unknown> {
  status: number;
  body: T;
}

/**
 * One HTTP call to the gateway at `url`, with a bearer token unless `token` is null. A string
 * body is sent as it is (to test malformed JSON); anything else as JSON.
 */
export async function callGateway<T = unknown>(
  url: string,
  token: string | null,
  method: string,
  path: string,
  body?: unknown,
): Promise<HttpReply<T>> {
  const headers: Record<string, string> = token === null ? {} : { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

export interface ServiceSystemOptions {
  /** The service under test, started as its own built process (so a test can stop and restart it). */
  readonly service: ServiceName;
  /** The service's variables beside the test environment: scaled-down delays, a chain's URL... */
  readonly env?: Record<string, string>;
  readonly gatewayEnv?: Record<string, string>;
  /** Runs once the service's schema is migrated, before it starts; returns more variables for it. */
  readonly prepare?: (schema: string, system: TestSystem) => Promise<Record<string, string>>;
  /**
   * The PostgreSQL the service under test runs on, its schema migrated there (a cluster of the
   * test's own, to stop and start: `startPrivatePostgres`); the test database when absent.
   */
  readonly databaseUrl?: string;
}

/**
 * A test system of one gateway and the service under test on the real PostgreSQL, NATS and
 * Redis: the run's schema, stream and NATS server, tokens and HTTP calls through the gateway.
 */
export interface ServiceSystem {
  readonly system: TestSystem;
  /** The gateway's base URL. */
  readonly url: string;
  /** The service's schema. */
  readonly schema: string;
  readonly stream: IsolatedStream;
  /** What the service runs with. */
  readonly env: Record<string, string>;
  /**
   * A connection to the run's NATS server as its `ops` user: the JetStream API (stream and consumer
   * state) and nothing else. Other users' connections: `system.nats.connect(user)`.
   */
  readonly nats: NatsConnection;
  /** The service's current process. */
  readonly service: AppProcess;
  /** Starts the service again on the same schema and stream (after a stop or a crash). */
  restart(): Promise<AppProcess>;
  /** Starts another service on a schema of its own, with the test environment and `env`; stopped with the rest. */
  startAlongside(service: ServiceName, env?: Record<string, string>): Promise<AppProcess>;
  /** Publishes an event on the run's stream as `source` (default wallet) would: as that service's NATS user, as its outbox relay does. */
  publish(
    orgId: string,
    type: DomainEventType,
    payload: unknown,
    options?: { source?: string; id?: string; msgId?: string },
  ): Promise<DomainEvent>;
  /** A token of `org` with `role` (default owner) for subject `sub` (default `user_<org>`). */
  token(org: string, role?: Role, sub?: string): Promise<string>;
  /** One HTTP call through the gateway; see {@link callGateway}. */
  call<T = unknown>(token: string | null, method: string, path: string, body?: unknown): Promise<HttpReply<T>>;
  /** Stops every process, closes the NATS connection and drops the schemas. */
  stop(): Promise<void>;
}

const readyLine = (service: ServiceName) => (line: string) => line.includes(`${service} service ready`);

export async function startServiceSystem(options: ServiceSystemOptions): Promise<ServiceSystem> {
  const system = await startTestSystem({ services: [], gateways: 1, gatewayEnv: options.gatewayEnv });
  const stream = system.stream;
  const schemas: IsolatedSchema[] = [];
  const others: AppProcess[] = [];
  let service: AppProcess | undefined;
  let nats: NatsConnection | undefined;
  /** The connections `publish` sends on, one per source service. */
  const publishers = new Map<ServiceName, Promise<{ connection: NatsConnection; js: JetStreamClient }>>();
  const publisherOf = (source: string) => {
    if (!(SERVICES as readonly string[]).includes(source)) throw new Error(`events come from a service, not "${source}"`);
    const name = source as ServiceName;
    let connection = publishers.get(name);
    if (!connection)
      publishers.set(name, (connection = system.nats.connect(name).then((opened) => ({ connection: opened, js: jetstream(opened) }))));
    return connection;
  };
  const envOf = (name: ServiceName, schema: string, extra: Record<string, string> = {}) => ({
    ...serviceTestEnv(schema, stream),
    ...system.nats.envOf(name),
    ...extra,
  });
  const migrated = async (name: ServiceName, databaseUrl?: string) => {
    const schema = await migratedSchema(`${name}-service`, system.runId, databaseUrl);
    schemas.push(schema);
    return schema.schema;
  };
  const stop = async () => {
    await Promise.all([service?.stop(), ...others.map((other) => other.stop())]);
    await nats?.close();
    await Promise.all([...publishers.values()].map(async (connection) => (await connection).connection.close()));
    await system.stop();
    await Promise.all(schemas.map((schema) => schema.drop()));
  };
  try {
    const schema = await migrated(options.service, options.databaseUrl);
    const database: Record<string, string> = options.databaseUrl === undefined ? {} : { DATABASE_URL: options.databaseUrl };
    const env = envOf(options.service, schema, { ...database, ...options.env, ...(await options.prepare?.(schema, system)) });
    const launch = async () => (service = await startApp(`${options.service}-service`, env, readyLine(options.service)));
    await launch();
    nats = await system.nats.connect('ops');
    if (!service) throw new Error('the test system started without its service');
    const url = system.gatewayUrl;
    let current: AppProcess = service;
    return {
      system,
      url,
      schema,
      stream,
      env,
      nats,
      get service() {
        return current;
      },
      async restart() {
        current = await launch();
        return current;
      },
      async startAlongside(name, extra = {}) {
        const other = await startApp(`${name}-service`, envOf(name, await migrated(name), extra), readyLine(name));
        others.push(other);
        return other;
      },
      async publish(orgId, type, payload, { source = 'wallet', id = randomUUID(), msgId = id } = {}) {
        const event: DomainEvent = { id, type, orgId, source, occurredAt: new Date().toISOString(), payload };
        await (
          await publisherOf(source)
        ).js.publish(eventSubject(stream.EVENTS_SUBJECT_PREFIX, source, type), JSON.stringify(event), { msgID: msgId });
        return event;
      },
      token: (org, role = 'owner', sub = `user_${org}`) => system.auth.token({ org, role, sub }),
      call: (token, method, path, body) => callGateway(url, token, method, path, body),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
