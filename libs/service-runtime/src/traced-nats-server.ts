import type { ServerNats } from '@nestjs/microservices';
import { inSpan, SpanKind, TRACEPARENT, tracingEnabled } from '@service/tracing';

/**
 * With tracing on, puts a server span around each message `server` handles, continuing the
 * caller's trace from the W3C `traceparent` NATS header (see NatsRequester). The span is active
 * while the handler runs, so its database calls, outbox writes and log lines belong to it. With
 * tracing off the server is returned untouched: it pays nothing.
 */
export function traceMessages<S extends ServerNats>(server: S): S {
  if (!tracingEnabled()) return server;
  const handle = server.handleMessage.bind(server);
  server.handleMessage = (channel, message) =>
    inSpan(
      channel,
      {
        kind: SpanKind.SERVER,
        parent: message.headers?.get(TRACEPARENT),
        attributes: { 'messaging.system': 'nats', 'rpc.method': channel },
      },
      () => handle(channel, message),
    );
  return server;
}
