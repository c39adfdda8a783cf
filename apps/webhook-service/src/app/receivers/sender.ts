import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { UrlPolicy } from '../domain/url-policy.js';
import { DeliveryTimeout, shownDeliveryError } from './delivery-errors.js';
import { ReceiverAddresses } from './receiver-address.js';

export interface SendResult {
  /** HTTP status, or null when the receiver did not answer (refused, reset, timeout, policy). */
  readonly status: number | null;
  readonly retryAfter: string | null;
  readonly ms: number;
  /** What the delivery feed shows: `HTTP <status>` or one of {@link shownDeliveryError}'s phrases. */
  readonly error: string | null;
  /** The socket's or resolver's own message, for the service's log and traces only. */
  readonly detail?: string;
  /** The attempt was cut at its timeout: the receiver held the connection without answering. */
  readonly timedOut?: boolean;
}

const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * POSTs one delivery. The connection goes to the address the policy approved (no second DNS
 * lookup; a host's checked address is kept for a few seconds, see {@link ReceiverAddresses}),
 * keep-alive sockets are reused across deliveries, and the whole exchange is cut at `timeoutMs`
 * (or the shorter timeout a call asks for).
 * The receiver's body is read and dropped, at most 64 KiB.
 */
export class WebhookSender {
  private readonly agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: 256 }),
    'https:': new https.Agent({ keepAlive: true, maxSockets: 256 }),
  };

  private readonly addresses: ReceiverAddresses;

  constructor(
    policy: UrlPolicy,
    private readonly timeoutMs: number,
    addresses?: ReceiverAddresses,
  ) {
    this.addresses = addresses ?? new ReceiverAddresses(policy);
  }

  async send(rawUrl: string, body: string, headers: Record<string, string>, timeoutMs = this.timeoutMs): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const url = new URL(rawUrl);
      const target = await this.addresses.resolve(url);
      const lookup: LookupFunction = (_host, options, callback) => {
        if ((options as { all?: boolean }).all) callback(null, [target] as never);
        else callback(null, target.address, target.family);
      };
      const { status, retryAfter } = await this.post(url, lookup, body, headers, started, timeoutMs);
      return { status, retryAfter, ms: elapsed(), error: status >= 200 && status < 300 ? null : `HTTP ${status}` };
    } catch (error) {
      const result = { status: null, retryAfter: null, ms: elapsed(), error: shownDeliveryError(error), detail: (error as Error).message };
      return error instanceof DeliveryTimeout ? { ...result, timedOut: true } : result;
    }
  }

  close(): void {
    for (const agent of Object.values(this.agents)) agent.destroy();
  }

  private post(url: URL, lookup: LookupFunction, body: string, headers: Record<string, string>, started: number, timeoutMs: number) {
    const transport = url.protocol === 'https:' ? https : http;
    const agent = url.protocol === 'https:' ? this.agents['https:'] : this.agents['http:'];
    return new Promise<{ status: number; retryAfter: string | null }>((resolve, reject) => {
      const request = transport.request(url, {
        method: 'POST',
        agent,
        lookup,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'service-webhooks/1',
        },
      });
      const remaining = Math.max(1, timeoutMs - (performance.now() - started));
      const timer = setTimeout(() => request.destroy(new DeliveryTimeout(timeoutMs)), remaining);
      request.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      request.once('response', (response) => {
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_RESPONSE_BYTES) response.destroy();
        });
        response.once('close', () => {
          clearTimeout(timer);
          const retryAfter = response.headers['retry-after'];
          resolve({ status: response.statusCode ?? 0, retryAfter: typeof retryAfter === 'string' ? retryAfter : null });
        });
      });
      request.end(body);
    });
  }
}
