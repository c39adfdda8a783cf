import type { Msg, NatsConnection } from '@nats-io/transport-node';
import { createInbox } from '@nats-io/transport-node';
import { isRpcErrorPayload, ServiceError } from '@service/errors';

/** Nest's NATS wire format: requests are `{pattern, data, id}`, replies `{id, response | err, isDisposed}`. */
interface NestReply {
  readonly response?: unknown;
  readonly err?: unknown;
}

interface Pending {
  readonly resolve: (text: string) => void;
  readonly reject: () => void;
  readonly timer: NodeJS.Timeout;
}

/**
 * Request/reply to a service over NATS in Nest's wire format, without Nest's client: the gateway's
 * hot path. A missing responder or a late reply becomes a retryable 503; an error reply becomes
 * the {@link ServiceError} the service threw.
 *
 * Replies come back on one wildcard inbox subscription opened once, matched to their request by
 * the last token of the reply subject: per request that is one publish, one timer and one map
 * entry (the client's own `request()` also builds a request object, a timeout promise and an
 * `Error` for every reply it hands back).
 */
export class NatsRequester {
  private readonly inbox = `${createInbox()}.`;
  private readonly pending = new Map<string, Pending>();
  private sequence = 0;

  constructor(
    private readonly connection: NatsConnection,
    private readonly timeoutMs: number,
  ) {
    connection.subscribe(`${this.inbox}*`, { callback: (error, message) => this.settle(error, message) });
  }

  /** Requests waiting for a reply. */
  get inFlight(): number {
    return this.pending.size;
  }

  /**
   * Sends `data` (for the gateway `{ctx, ...input}`: the request id travels in `ctx`, not in a
   * NATS header, which would cost every message a header block to encode and parse).
   */
  async request<T>(subject: string, data: unknown, options: { timeoutMs?: number } = {}): Promise<T> {
    const token = (this.sequence = (this.sequence + 1) % Number.MAX_SAFE_INTEGER).toString(36);
    // Nest echoes `id` in its reply; the reply subject's token already identifies the request.
    const payload = JSON.stringify({ pattern: subject, data, id: token });
    const reply = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => this.pending.get(token)?.reject(), options.timeoutMs ?? this.timeoutMs);
      this.pending.set(token, {
        resolve,
        reject: () => {
          clearTimeout(timer);
          this.pending.delete(token);
          reject(unavailable());
        },
        timer,
      });
    });
    try {
      this.connection.publish(subject, payload, { reply: this.inbox + token });
    } catch {
      // A closed or draining connection.
      this.pending.get(token)?.reject();
    }
    return unwrapReply<T>(await reply);
  }

  private settle(error: Error | null, message: Msg | undefined): void {
    // A subscription error names no request: the requests it concerns run into their timeout.
    if (error || !message) return;
    const token = message.subject.slice(this.inbox.length);
    const pending = this.pending.get(token);
    if (!pending) return; // late: it timed out already
    // No responder: the server answers at once with an empty 503 status message.
    if (message.data.length === 0 && message.headers?.code === 503) {
      pending.reject();
      return;
    }
    clearTimeout(pending.timer);
    this.pending.delete(token);
    pending.resolve(message.string());
  }
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
    if (isRpcErrorPayload(reply.err)) throw new ServiceError(reply.err.code, reply.err.message);
    throw new Error(`A service replied with an unrecognised error: ${JSON.stringify(reply.err)}`);
  }
  return reply.response as T;
}
