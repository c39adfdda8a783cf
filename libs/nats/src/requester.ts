import type { Msg, NatsConnection } from '@nats-io/transport-node';
import { createInbox, headers, type PublishOptions } from '@nats-io/transport-node';
import { isRpcErrorPayload, ServiceError } from '@service/errors';
import { endSpan, type Span, SpanKind, startSpan, TRACEPARENT, traceparentOf, tracingEnabled } from '@service/tracing';
import { errorOutcome } from '@service/metrics';
import { inboxPrefixOf } from './connection.js';
import type { NatsClientMetrics, NatsClientOutcome } from './metrics.js';

/** Nest's NATS wire format: requests are `{pattern, data, id}`, replies `{id, response | err, isDisposed}`. */
interface NestReply {
  readonly response?: unknown;
  readonly err?: unknown;
}

interface Pending {
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
  readonly timer: NodeJS.Timeout;
  /** Resolve to the response's JSON bytes ({@link ForwardedJson}) rather than to the parsed value. */
  readonly forward: boolean;
  readonly subject: string;
  /** `performance.now()` when sent, for the duration metric. */
  readonly sentAt: number;
}

/**
 * Request/reply to a service over NATS in Nest's wire format, without Nest's client: the gateway's
 * hot path. A missing responder or a late reply becomes a retryable 503; an error reply becomes
 * the {@link ServiceError} the service threw.
 *
 * Replies come back on one wildcard inbox subscription opened once, matched to their request by
 * the last token of the reply subject: per request that is one publish, one timer, one map entry
 * and one promise, settled straight from the subscription callback (the client's own `request()`
 * also builds a request object, a timeout promise and an `Error` for every reply it hands back).
 */
export class NatsRequester {
  /** `<the connection's inbox prefix ({@link inboxPrefixOf})>.<unique>.`: the server lets only this connection's user read it. */
  private readonly inbox: string;
  private readonly pending = new Map<string, Pending>();
  private sequence = 0;
  /** Client spans of requests in flight, by token (tracing on only). */
  private readonly spans = new Map<string, Span>();

  constructor(
    private readonly connection: NatsConnection,
    private readonly timeoutMs: number,
    /** Requests by subject and outcome with their duration (see {@link NatsClientMetrics}). */
    private readonly metrics?: NatsClientMetrics,
  ) {
    this.inbox = `${createInbox(inboxPrefixOf(connection))}.`;
    connection.subscribe(`${this.inbox}*`, { callback: (error, message) => this.settle(error, message) });
  }

  /** Requests waiting for a reply. */
  get inFlight(): number {
    return this.pending.size;
  }

  /**
   * Sends `data` (for the gateway `{ctx, ...input}`: the request id travels in `ctx`, not in a
   * NATS header, which would cost every message a header block to encode and parse) and resolves
   * to the service's response.
   */
  request<T>(subject: string, data: unknown, options: { timeoutMs?: number } = {}): Promise<T> {
    return this.send(subject, data, false, options.timeoutMs) as Promise<T>;
  }

  /**
   * Like {@link request}, for a response that only goes back to an HTTP client: it is not parsed
   * here (nor decoded), but cut out of the service's reply as the JSON bytes it is, and serialises
   * to exactly that text. An error reply still throws the service's {@link ServiceError}.
   */
  forward<T>(subject: string, data: unknown, options: { timeoutMs?: number } = {}): Promise<ForwardedJson<T>> {
    return this.send(subject, data, true, options.timeoutMs) as Promise<ForwardedJson<T>>;
  }

  private send(subject: string, data: unknown, forward: boolean, timeoutMs = this.timeoutMs): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const token = (this.sequence = (this.sequence + 1) % Number.MAX_SAFE_INTEGER).toString(36);
      // Nest echoes `id` in its reply; the reply subject's token already identifies the request.
      // (Inside the promise: data JSON cannot hold, a BigInt say, rejects rather than throws.)
      const payload = JSON.stringify({ pattern: subject, data, id: token });
      const timer = setTimeout(this.expire, timeoutMs, token, 'timeout');
      this.pending.set(token, { resolve, reject, timer, forward, subject, sentAt: performance.now() });
      try {
        this.connection.publish(subject, payload, tracingEnabled() ? this.traced(subject, data, token) : { reply: this.inbox + token });
      } catch {
        // A closed or draining connection.
        this.expire(token, 'unavailable');
      }
    });
  }

  /** No reply in time, no responder or no connection: a retryable 503. */
  private readonly expire = (token: string, outcome: NatsClientOutcome): void => {
    const pending = this.pending.get(token);
    if (!pending) return;
    clearTimeout(pending.timer);
    this.forget(token, 'no reply');
    this.observe(pending, outcome);
    pending.reject(unavailable());
  };

  private observe(pending: Pending, outcome: NatsClientOutcome): void {
    this.metrics?.observe(pending.subject, outcome, (performance.now() - pending.sentAt) / 1000);
  }

  /**
   * Publish options of a traced request: a client span, child of the gateway's HTTP span (the
   * `traceparent` in `ctx`) or of the active span, travels as the W3C `traceparent` NATS header.
   */
  private traced(subject: string, data: unknown, token: string): PublishOptions {
    const parent = (data as { ctx?: { traceparent?: string } } | null)?.ctx?.traceparent;
    const span = startSpan(subject, { kind: SpanKind.CLIENT, parent, attributes: { 'messaging.system': 'nats', 'rpc.method': subject } });
    if (!span) return { reply: this.inbox + token };
    this.spans.set(token, span);
    const carrier = headers();
    carrier.set(TRACEPARENT, traceparentOf(span));
    return { reply: this.inbox + token, headers: carrier };
  }

  /** Drops a request that got its reply or never will, and ends its span (if traced). */
  private forget(token: string, failure?: string): void {
    this.pending.delete(token);
    if (this.spans.size === 0) return;
    endSpan(this.spans.get(token), failure);
    this.spans.delete(token);
  }

  private settle(error: Error | null, message: Msg | undefined): void {
    // A subscription error names no request: the requests it concerns run into their timeout.
    if (error || !message) return;
    const token = message.subject.slice(this.inbox.length);
    const pending = this.pending.get(token);
    if (!pending) return; // late: it timed out already
    // No responder: the server answers at once with an empty 503 status message.
    if (message.data.length === 0 && message.headers?.code === 503) {
      this.expire(token, 'no_responder');
      return;
    }
    clearTimeout(pending.timer);
    this.forget(token);
    try {
      const value = pending.forward ? forwardedReply(message, token) : unwrapReply(message.string());
      this.observe(pending, 'ok');
      pending.resolve(value);
    } catch (failure) {
      this.observe(pending, errorOutcome(failure instanceof ServiceError ? failure.status : undefined));
      pending.reject(failure);
    }
  }
}

/**
 * A service's JSON response passed on as the bytes it came as (UTF-8 JSON text). `JSON.stringify`
 * of it gives that text back (through `toJSON`), and the gateway's reply serializer writes `bytes`
 * as they are: the response is neither decoded nor encoded again on its way to the HTTP client.
 */
export class ForwardedJson<T = unknown> {
  /** The type of the value the text holds (for signatures only). */
  declare readonly value?: T;

  constructor(readonly bytes: Buffer) {}

  /** The JSON text (decoded on each call: the hot path writes `bytes`). */
  get json(): string {
    return this.bytes.toString('utf8');
  }

  toJSON(): unknown {
    return JSON.parse(this.json);
  }
}

/**
 * How the text of Nest's NATS reply with a response begins (`JSON.stringify` of the packet puts
 * `response` first): what the gateway cuts off here and what the services' reply serializer writes.
 */
export const RESPONSE_HEAD = '{"response":';
const DISPOSED = ',"isDisposed":true';

/** Whether the ASCII `text` sits in `bytes` just before `end`. */
function endsWithAscii(bytes: Uint8Array, text: string, end = bytes.length): boolean {
  const start = end - text.length;
  if (start < 0) return false;
  for (let index = 0; index < text.length; index++) {
    if (bytes[start + index] !== text.charCodeAt(index)) return false;
  }
  return true;
}

/**
 * The bytes of the response's JSON text inside Nest's reply
 * `{"response":<json>[,"isDisposed":true],"id":"<token>"}` (the shape JSON.stringify gives Nest's
 * reply packet), as a view of the message's payload (no copy), or undefined when the reply has
 * another shape (an error, no response): then it is parsed. The id is this requester's token, so
 * the response is cut only when both ends are exactly where Nest puts them. Every byte compared
 * is ASCII, and no byte of a multi-byte UTF-8 sequence is, so comparing bytes is comparing text.
 *
 * Nest's reply layout is not public API: @nestjs/microservices is pinned exactly and
 * requester.int.spec.ts fails when the layout changes. It is kept because parsing and writing again
 * a large body (the first page of GET /v2/wallets) costs more than the 10 % of that route that
 * such code must buy; the figures are in tools/bench/README.md ("Internals of dependencies"). The
 * response is cut as bytes rather than text: no decoding here, no encoding when the body is
 * written.
 */
function responseBytes(reply: Uint8Array, token: string): Buffer | undefined {
  const tail = `,"id":"${token}"}`;
  if (!endsWithAscii(reply, RESPONSE_HEAD, RESPONSE_HEAD.length) || !endsWithAscii(reply, tail)) return undefined;
  let end = reply.length - tail.length;
  if (endsWithAscii(reply, DISPOSED, end)) end -= DISPOSED.length;
  return end > RESPONSE_HEAD.length
    ? Buffer.from(reply.buffer, reply.byteOffset + RESPONSE_HEAD.length, end - RESPONSE_HEAD.length)
    : undefined;
}

/** The response of a reply, as the JSON bytes it came as; throws as {@link unwrapReply} for an error reply. */
function forwardedReply(reply: Msg, token: string): ForwardedJson {
  const bytes = responseBytes(reply.data, token);
  if (bytes) return new ForwardedJson(bytes);
  return new ForwardedJson(Buffer.from(JSON.stringify(unwrapReply(reply.string()) ?? null)));
}

/** No responder, a timeout or a closed connection: the caller may retry safely. */
function unavailable(): ServiceError {
  return new ServiceError('service_temporarily_unavailable', 'The service is temporarily unavailable. Retry with the same request id.');
}

function unwrapReply<T>(text: string): T {
  let reply: NestReply;
  try {
    reply = JSON.parse(text) as NestReply;
  } catch {
    throw new Error('A service sent a reply that is not JSON.');
  }
  if (reply.err !== undefined && reply.err !== null) {
    if (isRpcErrorPayload(reply.err)) throw new ServiceError(reply.err.code, reply.err.message, reply.err.details);
    throw new Error(`A service replied with an unrecognised error: ${JSON.stringify(reply.err)}`);
  }
  return reply.response as T;
}
