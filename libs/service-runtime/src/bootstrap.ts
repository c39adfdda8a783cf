import { createServer, type Server } from 'node:http';
import type { DynamicModule, INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { type MicroserviceOptions, ServerNats } from '@nestjs/microservices';
import { type ServiceName, queueGroupOf } from '@service/contracts';
import { coalesceWrites } from '@service/nats';
import type { Logger } from 'pino';
import type { ServiceConfig } from './config.js';
import { HealthService } from './health.js';
import { NestPinoLogger } from './logger.js';
import { ServiceRpcExceptionFilter } from './rpc-exception.filter.js';

export interface RunningService {
  readonly app: INestMicroservice;
  close(): Promise<void>;
}

/** Patterns Nest would read as JSON: objects, arrays, strings, numbers, true, false and null. */
const JSON_PATTERN = /^(?:[{["\d-]|true$|false$|null$)/;

/**
 * Nest's NATS server with two costs of every message taken off:
 * - the replies of one event-loop turn go out in one socket write (see `coalesceWrites` in
 *   @service/nats), so a service answering many requests at once writes, and makes the NATS
 *   server read, far fewer segments;
 * - a plain subject (`gvault.yieldSources.list`) is routed as it is. Nest first tries
 *   `JSON.parse` on every incoming pattern and falls back on the exception, and building that
 *   SyntaxError was about a fifth of gvault's CPU per request. Patterns that may be JSON still
 *   go through Nest's own path, so routing is unchanged.
 */
export class ServiceNatsServer extends ServerNats {
  override async createNatsClient(): ReturnType<ServerNats['createNatsClient']> {
    const client = await super.createNatsClient();
    coalesceWrites(client as Parameters<typeof coalesceWrites>[0]);
    return client;
  }

  override getRouteFromPattern(pattern: string): string {
    return JSON_PATTERN.test(pattern) ? super.getRouteFromPattern(pattern) : this.normalizePattern(pattern);
  }
}

/**
 * Starts a service: a Nest NATS microservice in the service's queue group, the RPC error filter,
 * shutdown hooks (SIGTERM: stop taking messages, finish those in flight, drain) and, when
 * HEALTH_PORT is set, an HTTP server for the orchestrator's probes.
 */
export async function bootstrapService(options: {
  name: ServiceName;
  module: DynamicModule;
  config: ServiceConfig;
  logger: Logger;
}): Promise<RunningService> {
  const { name, config, logger } = options;
  const app = await NestFactory.createMicroservice<MicroserviceOptions>(options.module, {
    strategy: new ServiceNatsServer({
      servers: config.NATS_URL.split(',').map((server) => server.trim()),
      queue: queueGroupOf(name),
      name: `${name}-service`,
      maxReconnectAttempts: -1,
      gracefulShutdown: true,
      gracePeriod: 2_000,
    }),
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
