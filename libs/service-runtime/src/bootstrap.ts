import { createServer, type Server } from 'node:http';
import type { NatsConnection } from '@nats-io/transport-node';
import type { DynamicModule, INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { type MicroserviceOptions, type NatsContext, ServerNats } from '@nestjs/microservices';
import { type ServiceName, queueGroupOf } from '@service/contracts';
import { METRICS_CONTENT_TYPE, collectProcessMetrics, errorOutcome, metricsText } from '@service/metrics';
import { coalesceWrites, natsServerMetrics } from '@service/nats';
import type { Logger } from 'pino';
import type { ServiceConfig } from './config.js';
import { HealthService } from './health.js';
import { natsClientAuthOf } from './nats-auth.js';
import { ReplySerializer } from './reply-serializer.js';
import { NestPinoLogger } from './logger.js';
import { ServiceRpcExceptionFilter } from './rpc-exception.filter.js';
import { traceMessages } from './traced-nats-server.js';

export interface RunningService {
  readonly app: INestMicroservice;
  close(): Promise<void>;
}

/** Patterns Nest would read as JSON: objects, arrays, strings, numbers, true, false and null. */
const JSON_PATTERN = /^(?:[{["\d-]|true$|false$|null$)/;

/** The message Nest's NATS server hands to `handleMessage`. */
type NatsMessage = Parameters<ServerNats['handleMessage']>[1];

/** A reply packet as Nest publishes it. */
interface ReplyPacket {
  readonly err?: { readonly status?: number } | null;
  readonly isDisposed?: boolean;
}

/**
 * Nest's NATS server with three costs of every message taken off:
 * - the replies of one event-loop turn go out in one socket write (see `coalesceWrites` in
 *   @service/nats), so a service answering many requests at once writes, and makes the NATS
 *   server read, far fewer segments;
 * - a plain subject (`gvault.yieldSources.list`) is routed as it is. Nest first tries
 *   `JSON.parse` on every incoming pattern and falls back on the exception, and building that
 *   SyntaxError was about a fifth of gvault's CPU per request. Patterns that may be JSON still
 *   go through Nest's own path, so routing is unchanged;
 * - a response object answered to several requests in one turn is turned into JSON once
 *   ({@link ReplySerializer}, through Nest's public `serializer` option).
 *
 * Replies themselves go through Nest's own reply pipeline. Writing Nest's reply packet here
 * instead (its wire format, not public API) buys less than the 10 % that a dependency's internals
 * must buy on a route users call (tools/bench/README.md, "Internals of dependencies"), so replies
 * do not.
 *
 * Every request answered is counted by subject and outcome with its duration
 * (`nats_server_requests_total`, `nats_server_request_duration_seconds`) when the last packet
 * of its reply (or its error) is published.
 */
export class ServiceNatsServer extends ServerNats {
  private readonly metrics = natsServerMetrics();
  /** When each request arrived, for the duration metric. */
  private readonly arrivals = new WeakMap<NatsMessage, number>();

  /** Replies are written by {@link ReplySerializer} unless the options name another serializer. */
  constructor(options: ConstructorParameters<typeof ServerNats>[0]) {
    super({ serializer: new ReplySerializer(), ...options });
  }

  override async createNatsClient(): ReturnType<ServerNats['createNatsClient']> {
    const client = await super.createNatsClient();
    coalesceWrites(client as Parameters<typeof coalesceWrites>[0]);
    return client;
  }

  override getRouteFromPattern(pattern: string): string {
    return JSON_PATTERN.test(pattern) ? super.getRouteFromPattern(pattern) : this.normalizePattern(pattern);
  }

  override handleMessage(channel: string, natsMsg: NatsMessage): Promise<unknown> {
    if (natsMsg.reply) this.arrivals.set(natsMsg, performance.now());
    return super.handleMessage(channel, natsMsg);
  }

  override getPublisher(natsMsg: NatsMessage, id: string, ctx: NatsContext): ReturnType<ServerNats['getPublisher']> {
    const publish = super.getPublisher(natsMsg, id, ctx);
    if (!natsMsg.reply) return publish;
    const arrivedAt = this.arrivals.get(natsMsg) ?? performance.now();
    return (response) => {
      const packet = response as ReplyPacket;
      const failed = packet.err !== undefined && packet.err !== null;
      if (failed || packet.isDisposed) {
        this.metrics.observe(natsMsg.subject, failed ? errorOutcome(packet.err?.status) : 'ok', (performance.now() - arrivedAt) / 1000);
      }
      return publish(response);
    };
  }
}

/**
 * Starts a service: a Nest NATS microservice in the service's queue group, the RPC error filter,
 * shutdown hooks (SIGTERM: stop taking messages, finish those in flight, drain) and, when
 * HEALTH_PORT is set, an HTTP server for the orchestrator's probes (`/healthz`, `/readyz`) and
 * Prometheus (`/metrics`: the process's registry, see @service/metrics).
 */
export async function bootstrapService(options: {
  name: ServiceName;
  module: DynamicModule;
  config: ServiceConfig;
  logger: Logger;
}): Promise<RunningService> {
  const { name, config, logger } = options;
  collectProcessMetrics();
  const server = new ServiceNatsServer({
    servers: config.NATS_URL.split(',').map((each) => each.trim()),
    ...natsClientAuthOf(config, name),
    queue: queueGroupOf(name),
    name: `${name}-service`,
    maxReconnectAttempts: -1,
    gracefulShutdown: config.SHUTDOWN_GRACE_MS > 0,
    gracePeriod: config.SHUTDOWN_GRACE_MS,
  });
  const app = await NestFactory.createMicroservice<MicroserviceOptions>(options.module, {
    strategy: traceMessages(server),
    logger: new NestPinoLogger(logger),
  });
  app.useGlobalFilters(new ServiceRpcExceptionFilter(logger));
  app.enableShutdownHooks(['SIGTERM', 'SIGINT']);
  await app.listen();
  // listen() resolves once the subscriptions are written, not once the NATS server has them: a
  // request in between found no responder (a gateway answered 503 right after a restart). The
  // server answers a flush's PING after the SUBs before it.
  await server.unwrap<NatsConnection>().flush();
  const probes = config.HEALTH_PORT > 0 ? await startProbeServer(app.get(HealthService), config.HEALTH_PORT) : undefined;
  logger.info({ queue: queueGroupOf(name), healthPort: config.HEALTH_PORT || null }, `${name} service ready`);
  return {
    app,
    async close() {
      probes?.close();
      await app.close();
    },
  };
}

function startProbeServer(health: HealthService, port: number): Promise<Server> {
  return serveProbes(port, () =>
    health.check().then(
      (result) => ({ status: 200, body: result }),
      (error: Error) => ({ status: 503, body: { status: 'unavailable', reason: error.message } }),
    ),
  );
}

/** A readiness answer: the HTTP status and the JSON body. */
export interface ProbeAnswer {
  readonly status: number;
  readonly body: object;
}

/**
 * The probe and metrics server of a process, on its own port (`HEALTH_PORT`), never the public
 * one: `GET /healthz` (the process is up), `GET /readyz` (what `readiness` answers; it gets the
 * query string, e.g. the gateway's `full=1`) and `GET /metrics` (Prometheus text).
 */
export function serveProbes(port: number, readiness: (query: URLSearchParams) => Promise<ProbeAnswer>, host?: string): Promise<Server> {
  const server = createServer((request, response) => {
    const reply = (status: number, body: object) => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    const url = new URL(request.url ?? '/', 'http://probe');
    if (url.pathname === '/healthz') return reply(200, { status: 'ok' });
    if (url.pathname === '/metrics') {
      metricsText().then(
        (text) => response.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE }).end(text),
        (error: Error) => reply(500, { error: error.message }),
      );
      return;
    }
    if (url.pathname === '/readyz') {
      readiness(url.searchParams).then(
        (answer) => reply(answer.status, answer.body),
        (error: Error) => reply(503, { status: 'unavailable', reason: error.message }),
      );
      return;
    }
    reply(404, { error: 'Not found' });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject).listen({ port, host }, () => resolve(server));
  });
}
