import { randomUUID } from 'node:crypto';
import { toHttpErrorBody, toRpcError } from '@service/errors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DestinationStream, Logger } from 'pino';
import type { BearerVerifier } from '../auth/bearer-auth.js';
import type { Principal } from '../auth/token-verifier.js';
import { AccessLog } from './access-log.js';
import { clientAddressOf } from './client-address.js';
import { HttpMetrics, RATE_LIMIT_REJECTIONS } from './http-metrics.js';
import { isPublicRoute } from './public-route.js';
import type { EndpointClass, RateDecision, RateLimiter } from '../rate-limit/rate-limiter.js';
import type { UnauthenticatedLimiter } from '../rate-limit/unauthenticated-limiter.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

function endpointClassOf(method: string): EndpointClass {
  return method === 'GET' || method === 'HEAD' ? 'read' : 'write';
}

type HookDone = (error?: Error) => void;

/** Puts the caller's context on the request; returns the rate-limit identity. */
function admit(request: FastifyRequest, principal: Principal): string {
  request.ctx = { ...principal, requestId: request.requestId };
  return `${principal.orgId}:${principal.principalId}`;
}

/** The probes' routes on the public port: neither in the access log nor in the HTTP metrics. */
const UNOBSERVED_PATHS = new Set(['/healthz', '/readyz']);

function decide(decision: RateDecision, endpoint: EndpointClass, reply: FastifyReply, done: HookDone): void {
  if (decision.allowed) return done();
  RATE_LIMIT_REJECTIONS[endpoint].inc();
  void reply
    .status(429)
    .header('retry-after', String(decision.retryAfterSeconds))
    .send({ error: 'Too many requests; retry with backoff.', code: 'rate_limited' });
}

interface HookDeps {
  readonly verifier: BearerVerifier;
  readonly limiter: RateLimiter;
  readonly unauthenticated: UnauthenticatedLimiter;
  /** The header a trusted proxy writes the client's address in; empty: the socket's peer. */
  readonly clientAddressHeader: string;
}

/**
 * The slow path: verifies the credential unless already admitted, then counts in Redis. A request
 * without a working credential counts against its address's budget and is answered 401, or 429
 * once the address is over it (then its next unverified credentials are refused before any
 * verification); 503 when the identity service does not answer an API key lookup.
 */
async function authenticateAndLimit(
  request: FastifyRequest,
  reply: FastifyReply,
  done: HookDone,
  deps: HookDeps,
  admitted: string | undefined,
): Promise<void> {
  let identity = admitted;
  if (identity === undefined) {
    const address = clientAddressOf(request, deps.clientAddressHeader);
    const refused = deps.unauthenticated.refusal(address);
    if (refused) return decide(refused, 'unauthenticated', reply, done);
    try {
      identity = admit(request, await deps.verifier.verify(request.headers.authorization));
    } catch (error) {
      // The verifiers' own messages only: never anything of the Authorization header.
      const payload = toRpcError(error);
      if (payload.status === 503) {
        void reply.status(503).send(toHttpErrorBody(payload));
        return;
      }
      const decision = await deps.unauthenticated.count(address);
      if (!decision.allowed) return decide(decision, 'unauthenticated', reply, done);
      void reply.status(401).send(toHttpErrorBody({ status: 401, code: 'unauthenticated', message: payload.message }));
      return;
    }
  }
  const endpoint = endpointClassOf(request.method);
  decide(await deps.limiter.hit(identity, endpoint), endpoint, reply, done);
}

/**
 * Runs once Fastify has matched the route and before any of Nest's handling (parameter pipes
 * included), on Fastify's hooks rather than Nest guards: the request id, bearer authentication and
 * the rate limit are the hot path of every call. Whether a credential is needed is decided by the
 * route that matched ({@link isPublicRoute}), so every spelling of a path that routes to a handler
 * is treated as the handler's canonical path is. One log line per request.
 */
export function registerRequestHooks(
  fastify: FastifyInstance,
  deps: HookDeps & { logger: Logger; logDestination: DestinationStream },
): void {
  // Declared up front, so every request object has one shape instead of gaining three properties.
  fastify.decorateRequest('requestId', '');
  fastify.decorateRequest('startedAt', 0);
  fastify.decorateRequest('ctx', null);
  // Callback style, so that a client whose token was verified recently and whose rate-limit lease
  // has room goes through without a promise, a closure or a microtask: the common case of a busy
  // client. Everything else takes the asynchronous path.
  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: HookDone) => {
    request.startedAt = performance.now();
    const incoming = request.headers['request-id'];
    request.requestId = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    void reply.header('request-id', request.requestId);
    if (isPublicRoute(request)) return done();

    const known = deps.verifier.recall(request.headers.authorization);
    const identity = known && admit(request, known);
    const endpoint = endpointClassOf(request.method);
    const decision = identity && deps.limiter.hitLocally(identity, endpoint);
    if (decision) return decide(decision, endpoint, reply, done);
    authenticateAndLimit(request, reply, done, deps, identity).catch((error: unknown) =>
      // Anything unexpected goes to the error handler (500 internal_error), never an unhandled rejection.
      done(error instanceof Error ? error : new Error(String(error))),
    );
  });

  const metrics = new HttpMetrics();
  const accessLog = AccessLog.of(deps.logger, deps.logDestination);
  fastify.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const route = request.routeOptions.url;
    if (route !== undefined && UNOBSERVED_PATHS.has(route)) return done();
    const durationMs = performance.now() - request.startedAt;
    metrics.observe(route, request.method, reply.statusCode, durationMs / 1000);
    accessLog?.write({
      requestId: request.requestId,
      orgId: request.ctx?.orgId,
      method: request.method,
      route: route ?? request.url.split('?', 1)[0] ?? request.url,
      status: reply.statusCode,
      durationMs,
      traceparent: request.traceparent,
    });
    done();
  });
  if (!accessLog) return;
  fastify.addHook('onClose', (_instance, done) => {
    accessLog.close();
    done();
  });
}
