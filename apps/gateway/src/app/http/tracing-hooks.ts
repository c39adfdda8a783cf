import { endSpan, type Span, SpanKind, startSpan, TRACEPARENT, traceparentOf, tracingEnabled } from '@service/tracing';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's server span (tracing on only). */
    span: Span | undefined;
    /** The server span's W3C traceparent (tracing on only). */
    traceparent: string | undefined;
  }
}

/**
 * With tracing on (see @service/tracing), a server span per HTTP request, continuing the caller's
 * W3C `traceparent` header if any: its traceparent goes into `ctx` (the NATS request span's
 * parent) and on the request (the access line's `traceId` and `spanId`). Registers nothing when
 * tracing is off, so the hot path pays nothing for it. Register before the request hooks, so
 * requests refused there (401, 429) are traced too.
 */
export function registerTracingHooks(fastify: FastifyInstance): void {
  if (!tracingEnabled()) return;
  fastify.decorateRequest('span', undefined);
  fastify.decorateRequest('traceparent', undefined);
  fastify.addHook('onRequest', (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
    const incoming = request.headers[TRACEPARENT];
    request.span = startSpan(`${request.method}`, {
      kind: SpanKind.SERVER,
      parent: typeof incoming === 'string' ? incoming : undefined,
      attributes: { 'http.request.method': request.method, 'url.path': request.url.split('?', 1)[0] },
    });
    if (request.span) request.traceparent = traceparentOf(request.span);
    done();
  });
  fastify.addHook('preHandler', (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
    if (request.ctx && request.traceparent) request.ctx = { ...request.ctx, traceparent: request.traceparent };
    done();
  });
  fastify.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const { span } = request;
    if (span) {
      const route = request.routeOptions.url;
      if (route !== undefined) span.updateName(`${request.method} ${route}`).setAttribute('http.route', route);
      span.setAttribute('http.response.status_code', reply.statusCode);
      endSpan(span, reply.statusCode >= 500 ? `HTTP ${reply.statusCode}` : undefined);
    }
    done();
  });
}
