import 'reflect-metadata';
import type { Server } from 'node:http';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { collectProcessMetrics } from '@service/metrics';
import { connectNats, ForwardedJson, type SubjectClient } from '@service/nats';
import { NestPinoLogger, natsClientAuthOf, serveProbes } from '@service/service-runtime';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { DestinationStream, Logger } from 'pino';
import type { GatewayConfig } from '../config.js';
import { AppModule } from './app.module.js';
import { ApiKeyVerifier, identityAuthority, natsKeyBroadcasts } from './auth/api-key-verifier.js';
import { BearerAuth } from './auth/bearer-auth.js';
import { TokenVerifier } from './auth/token-verifier.js';
import { OpenApiDocument } from './docs/docs.controller.js';
import { HealthController, wantsFullCheck } from './health/health.controller.js';
import { buildOpenApiDocument } from './docs/openapi.js';
import { clientErrorHandler, frameworkErrors } from './http/framework-errors.js';
import { HttpErrorFilter } from './http/http-exception.filter.js';
import { JSON_BODY_LIMITS, registerJsonBodyParser } from './http/json-body.js';
import { registerRequestHooks } from './http/request-hooks.js';
import { registerTracingHooks } from './http/tracing-hooks.js';
import { RateLimiter } from './rate-limit/rate-limiter.js';
import { UnauthenticatedLimiter } from './rate-limit/unauthenticated-limiter.js';
import { SERVICES_CLIENT } from './services.js';

export interface RunningGateway {
  readonly app: NestFastifyApplication;
  /** Base URL the gateway listens on, e.g. http://127.0.0.1:3000 */
  readonly url: string;
  /** Base URL of the probe and metrics server (`HEALTH_PORT`), e.g. http://127.0.0.1:9464; undefined when it is off. */
  readonly healthUrl: string | undefined;
  close(): Promise<void>;
}

/**
 * Closing the server only drops connections idle at that moment; a keep-alive connection whose
 * last request finishes during shutdown would hold the process until its keep-alive timeout.
 */
function closeConnectionsAsTheyIdle(fastify: FastifyInstance): void {
  let timer: NodeJS.Timeout | undefined;
  fastify.addHook('preClose', (done) => {
    timer = setInterval(() => fastify.server.closeIdleConnections(), 100);
    done();
  });
  fastify.addHook('onClose', (_instance, done) => {
    clearInterval(timer);
    done();
  });
}

/** `logger` writes to `logDestination`; the access log writes there too. */
export async function createGateway(config: GatewayConfig, logger: Logger, logDestination: DestinationStream): Promise<RunningGateway> {
  collectProcessMetrics();
  // NatsRequester turns every failed request into a 503 of its own, so the client's per-request
  // stack capture (two Error objects on the hot path) would be thrown away.
  const nats = await connectNats({
    url: config.NATS_URL,
    name: 'gateway',
    asyncTraces: false,
    coalesceWrites: true,
    auth: natsClientAuthOf(config, 'gateway'),
  });
  const redis = new Redis(config.REDIS_URL, {
    // Fail fast instead of queueing while Redis is away: the limiter then fails open.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 250,
    enableAutoPipelining: true,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  redis.on('error', () => undefined);

  // No trustProxy: a client address is read from a header only when CLIENT_ADDRESS_HEADER says which.
  const adapter = new FastifyAdapter({ bodyLimit: JSON_BODY_LIMITS.bytes, return503OnClosing: true, frameworkErrors, clientErrorHandler });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot({ config, logger, nats, redis }), adapter, {
    logger: new NestPinoLogger(logger),
    // JSON is the only body the API takes, read by registerJsonBodyParser's bounded parser.
    bodyParser: false,
  });
  const tokens = new TokenVerifier({
    publicKeyPem: config.AUTH_PUBLIC_KEY || undefined,
    jwksUrl: config.AUTH_JWKS_URL || undefined,
    issuer: config.AUTH_ISSUER,
    audience: config.AUTH_AUDIENCE,
  });
  // API keys: looked up in identity-service on a miss; its revocation broadcasts evict them here.
  const keys = new ApiKeyVerifier(
    identityAuthority(app.get<SubjectClient>(SERVICES_CLIENT), { pepper: config.IDENTITY_KEY_PEPPER, environment: config.SERVICE_ENV }),
    natsKeyBroadcasts(nats),
  );
  const limiter = new RateLimiter(
    redis,
    {
      read: config.RATE_LIMIT_READ_PER_MINUTE,
      write: config.RATE_LIMIT_WRITE_PER_MINUTE,
      unauthenticated: config.RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE,
    },
    logger,
  );
  registerJsonBodyParser(app.getHttpAdapter().getInstance());
  registerTracingHooks(app.getHttpAdapter().getInstance());
  registerRequestHooks(app.getHttpAdapter().getInstance(), {
    verifier: new BearerAuth(tokens, keys),
    limiter,
    unauthenticated: new UnauthenticatedLimiter(limiter),
    clientAddressHeader: config.CLIENT_ADDRESS_HEADER,
    logger,
    logDestination,
  });
  closeConnectionsAsTheyIdle(app.getHttpAdapter().getInstance());
  app.getHttpAdapter().getInstance().setReplySerializer(serializeReply);
  app.useGlobalFilters(new HttpErrorFilter(logger));
  app.enableShutdownHooks(['SIGTERM', 'SIGINT']);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    // Requests still running after the grace period are cut off rather than holding the pod.
    process.once(signal, () => setTimeout(() => process.exit(1), config.SHUTDOWN_GRACE_MS).unref());
  }
  app.get(OpenApiDocument).document = buildOpenApiDocument(app);

  const probes: { server?: Server } = {};
  // Registered before listening (Fastify takes no hooks after): the probe server closes with the app.
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onClose', (_instance, done) => {
      if (!probes.server) return done();
      probes.server.close(() => done());
      probes.server.closeAllConnections();
    });
  await app.listen(config.PORT, config.HOST);
  const address = app.getHttpAdapter().getInstance().server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  // Metrics and the full readiness check (which names every service) stay off the public port.
  const health = app.get(HealthController);
  if (config.HEALTH_PORT > 0)
    probes.server = await serveProbes(config.HEALTH_PORT, (query) => health.check(wantsFullCheck(query)), config.HOST);
  const probeAddress = probes.server?.address();
  const healthPort = typeof probeAddress === 'object' && probeAddress ? probeAddress.port : undefined;
  logger.info({ port, healthPort: healthPort ?? null }, 'gateway listening');
  return {
    app,
    url: `http://${host}:${port}`,
    healthUrl: healthPort === undefined ? undefined : `http://${host}:${healthPort}`,
    close: () => app.close(),
  };
}

/**
 * The gateway's reply serializer: a service's response forwarded untouched is written as the UTF-8
 * JSON bytes it came as (no decoding, no encoding); anything else as its JSON text. The content
 * type is Fastify's for an object it serializes (`application/json; charset=utf-8`).
 *
 * Fastify types a serializer's result as a string, but documents a Buffer as a final payload
 * "after serialization" (Reply.md, "Type of the final payload") and shows a serializer that
 * returns one (`reply.serializer(protoBuf.serialize)`); every forwarded route's e2e test reads
 * the body this writes.
 */
export const serializeReply = ((payload: unknown) => (payload instanceof ForwardedJson ? payload.bytes : JSON.stringify(payload))) as (
  payload: unknown,
) => string;
