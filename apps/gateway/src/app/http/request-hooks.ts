import { randomUUID } from 'node:crypto';
import { toHttpErrorBody, toRpcError } from '@service/errors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { Principal, TokenVerifier } from '../auth/token-verifier.js';
import { AccessLog } from './access-log.js';
import type { EndpointClass, RateDecision, RateLimiter } from '../rate-limit/rate-limiter.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** Documentation is readable without a token; every other /v2 route needs one. */
const PUBLIC_V2_PATHS = new Set(['/v2/openapi.json', '/v2/docs']);

function needsAuth(url: string): boolean {
  if (!url.startsWith('/v2/')) return false;
  const path = url.split('?', 1)[0] ?? url;
  return !PUBLIC_V2_PATHS.has(path) && !path.startsWith('/v2/docs/');
}

function endpointClassOf(method: string): EndpointClass {
  return method === 'GET' || method === 'HEAD' ? 'read' : 'write';
}

/**
 * Runs before routing, on Fastify's hooks rather than Nest guards: the request id, bearer
 * authentication and the rate limit are the hot path of every call. One log line per request.
 */
export function registerRequestHooks(
  fastify: FastifyInstance,
  deps: { verifier: TokenVerifier; limiter: RateLimiter; logger: Logger },
): void {
  // Callback style, so that a client whose token was verified recently and whose rate-limit lease
  // has room goes through without a promise or a microtask: the common case of a busy client.
  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    request.startedAt = process.hrtime.bigint();
    const incoming = request.headers['request-id'];
    request.requestId = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    void reply.header('request-id', request.requestId);
    if (!needsAuth(request.url)) return done();

    const limit = (principal: Principal): void => {
      request.ctx = { ...principal, requestId: request.requestId };
      const identity = `${principal.orgId}:${principal.principalId}`;
      const endpointClass = endpointClassOf(request.method);
      const decision = deps.limiter.hitLocally(identity, endpointClass);
      if (decision) return decide(decision);
      deps.limiter.hit(identity, endpointClass).then(decide).catch(fail);
    };
    const decide = (decision: RateDecision): void => {
      if (decision.allowed) return done();
      void reply
        .status(429)
        .header('retry-after', String(decision.retryAfterSeconds))
        .send({ error: 'Too many requests; retry with backoff.', code: 'rate_limited' });
    };

    // Anything unexpected goes to the error handler (500 internal_error), never an unhandled rejection.
    const fail = (error: unknown): void => done(error instanceof Error ? error : new Error(String(error)));

    const known = deps.verifier.recall(request.headers.authorization);
    if (known) return limit(known);
    deps.verifier
      .verify(request.headers.authorization)
      .then(limit, (error: unknown) => {
        void reply.status(401).send(toHttpErrorBody(toRpcError(error)));
      })
      .catch(fail);
  });

  const accessLog = AccessLog.of(deps.logger);
  if (!accessLog) return;
  fastify.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    accessLog.write({
      requestId: request.requestId,
      orgId: request.ctx?.orgId,
      method: request.method,
      route: request.routeOptions.url ?? request.url.split('?', 1)[0] ?? request.url,
      status: reply.statusCode,
      durationMs: Number(process.hrtime.bigint() - request.startedAt) / 1e6,
    });
    done();
  });
  fastify.addHook('onClose', (_instance, done) => {
    accessLog.close();
    done();
  });
}
