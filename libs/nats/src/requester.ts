import { randomUUID } from 'node:crypto';
import type { MsgHdrs, NatsConnection } from '@nats-io/transport-node';
import { headers as natsHeaders } from '@nats-io/transport-node';
import { isRpcErrorPayload, ServiceError } from '@service/errors';

/** Nest's NATS wire format: requests are `{pattern, data, id}`, replies `{id, response | err, isDisposed}`. */
interface NestReply {
  readonly response?: unknown;
  readonly err?: unknown;
}

/**
 * Request/reply to a service over NATS in Nest's wire format, without Nest's client: the gateway's
 * hot path. A missing responder or a late reply becomes a retryable 503; an error reply becomes
 * the {@link ServiceError} the service threw.
 */
export class NatsRequester {
  constructor(
    private readonly connection: NatsConnection,
    private readonly timeoutMs: number,
  ) {}

  async request<T>(subject: string, data: unknown, options: { timeoutMs?: number; requestId?: string } = {}): Promise<T> {
    const payload = JSON.stringify({ pattern: subject, data, id: randomUUID() });
    let headers: MsgHdrs | undefined;
    if (options.requestId) {
      headers = natsHeaders();
      headers.set('request-id', options.requestId);
    }
    let text: string;
    try {
      const message = await this.connection.request(subject, payload, {
        timeout: options.timeoutMs ?? this.timeoutMs,
        headers,
      });
      text = message.string();
    } catch {
      // No responder, a timeout or a closed connection: the caller may retry safely.
      throw new ServiceError(
        'service_temporarily_unavailable',
        'The service is temporarily unavailable. Retry with the same request id.',
      );
    }
    return unwrapReply<T>(text);
  }
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
