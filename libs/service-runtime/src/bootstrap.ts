import { createServer, type Server } from 'node:http';
import type { DynamicModule, INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { type MicroserviceOptions, NatsContext, ServerNats } from '@nestjs/microservices';
import { type ServiceName, queueGroupOf } from '@service/contracts';
import { METRICS_CONTENT_TYPE, collectProcessMetrics, errorOutcome, metricsText } from '@service/metrics';
import { coalesceWrites, natsServerMetrics } from '@service/nats';
import type { Logger } from 'pino';
import { isObservable } from 'rxjs';
import type { ServiceConfig } from './config.js';
import { HealthService } from './health.js';
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
 * - a request whose handler returns a value (not a stream) is answered with that value at once.
 *   Nest wraps every result in an RxJS pipeline (promise to observable, merge, finalize, catch),
 *   queues the value and the end of the stream for the next tick, merges the two into one packet
 *   and serialises it through a record builder: a quarter of a service's CPU per request for one
 *   `{"response":…,"isDisposed":true,"id":…}`, which is exactly what is written here. Streams
 *   (and errors, which Nest's exception filters turn into streams) and events still take Nest's
 *   path, as does every message while processing hooks (tracing) are installed.
 *
 * Every request answered is counted by subject and outcome with its duration
 * (`nats_server_requests_total`, `nats_server_request_duration_seconds`): on the fast path when
 * it answers, on Nest's path when the last packet of the reply (or its error) is published.
 */
export class ServiceNatsServer extends ServerNats {
  private readonly defaultStartHook = this.onProcessingStartHook;
  private readonly metrics = natsServerMetrics();
  /** When a request that left the fast path for a stream arrived. */
  private readonly arrivals = new WeakMap<NatsMessage, number>();

  override async createNatsClient(): ReturnType<ServerNats['createNatsClient']> {
    const client = await super.createNatsClient();
    coalesceWrites(client as Parameters<typeof coalesceWrites>[0]);
    return client;
  }

  override getRouteFromPattern(pattern: string): string {
    return JSON_PATTERN.test(pattern) ? super.getRouteFromPattern(pattern) : this.normalizePattern(pattern);
  }

  override async handleMessage(channel: string, natsMsg: NatsMessage): Promise<unknown> {
    const arrivedAt = performance.now();
    const handler = this.getHandlerByPattern(channel);
    const hooked = this.onProcessingStartHook !== this.defaultStartHook || this.onProcessingEndHook !== undefined;
    if (!handler || handler.isEventHandler || !natsMsg.reply || hooked) return super.handleMessage(channel, natsMsg);
    const context = new NatsContext([natsMsg.subject, natsMsg.headers]);
    const message = await this.deserializer.deserialize(natsMsg, { channel, replyTo: natsMsg.reply });
    if (!('id' in message) || message.id === undefined) return this.handleEvent(channel, message, context);
    const { id } = message;
    const result: unknown = await handler(message.data, context);
    if (isObservable(result)) {
      this.arrivals.set(natsMsg, arrivedAt);
      return this.send(result, this.getPublisher(natsMsg, id, context));
    }
    natsMsg.respond(JSON.stringify({ response: result, isDisposed: true, id }));
    this.metrics.observe(channel, 'ok', (performance.now() - arrivedAt) / 1000);
    return undefined;
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
  const app = await NestFactory.createMicroservice<MicroserviceOptions>(options.module, {
    strategy: traceMessages(
      new ServiceNatsServer({
        servers: config.NATS_URL.split(',').map((server) => server.trim()),
        queue: queueGroupOf(name),
        name: `${name}-service`,
        maxReconnectAttempts: -1,
        gracefulShutdown: true,
        gracePeriod: 2_000,
      }),
    ),
    logger: new NestPinoLogger(logger),
  });
  app.useGlobalFilters(new ServiceRpcExceptionFilter(logger));
  app.enableShutdownHooks(['SIGTERM', 'SIGINT']);
  await app.listen();
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
  const server = createServer((request, response) => {
    const reply = (status: number, body: object) => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (request.url === '/healthz') return reply(200, { status: 'ok' });
    if (request.url === '/metrics') {
      metricsText().then(
        (text) => response.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE }).end(text),
        (error: Error) => reply(500, { error: error.message }),
      );
      return;
    }
    if (request.url === '/readyz') {
      health.check().then(
        (result) => reply(200, result),
        (error: Error) => reply(503, { status: 'unavailable', reason: error.message }),
      );
      return;
    }
    reply(404, { error: 'Not found' });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject).listen(port, () => resolve(server));
  });
}
