/**
 * Hostile request bodies at a steady rate, beside the ping load: what a body that is expensive to
 * parse or validate costs every other client of the gateway. Sent from this process's main thread
 * (the ping load runs on autocannon's worker thread), each on a connection of its own.
 */
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';

const MIB = 1024 * 1024;
/** Just under the gateway's body limit (64 KiB): these reach its parser's key and depth caps. */
const UNDER_LIMIT = 64 * 1024 - 256;
const DEPTH = 10_000;
/** A hostile request unanswered this long counts as an error; the run does not wait longer for it. */
const RESPONSE_TIMEOUT_MS = 30_000;

/** What the hostile requests got back over a window. */
export interface HostileStats {
  readonly perSecond: number;
  readonly sent: number;
  /** Answers by HTTP status; the bodies are refused or not, the gateway's latency is what matters. */
  readonly statusCodes: Record<string, number>;
  /** Requests that ended without an answer (reset, timeout), by message. */
  readonly errors: Record<string, number>;
  /** The slowest answer, in ms. */
  readonly slowestMs: number;
}

export interface HostileLoad {
  /** Stops sending and waits (bounded) for the requests in flight. */
  stop(): Promise<HostileStats>;
}

/** `text` followed by whitespace up to exactly `size` bytes. */
function padded(size: number, open: string, close: string): Buffer {
  const padding = size - Buffer.byteLength(open) - Buffer.byteLength(close);
  if (padding < 0) throw new Error(`a hostile body is over ${size} bytes`);
  return Buffer.from(`${open}${' '.repeat(padding)}${close}`);
}

/** One JSON object of as many keys as fit in `size` bytes (100,000 in 1 MiB). */
function manyKeys(size: number): Buffer {
  const members: string[] = [];
  for (let length = 2, index = 0; ; index += 1) {
    const member = `"${index.toString(36)}":0`;
    if (length + member.length + 1 > size) break;
    members.push(member);
    length += member.length + 1;
  }
  return padded(size, `{${members.join(',')}`, '}');
}

/** A wallet creation whose strategy holds as many arrays nested up to 10,000 deep as fit in `size` bytes. */
function nestedArrays(size: number): Buffer {
  const open = `{"requestId":"${randomUUID()}","strategy":{"allocations":{"usdc":[`;
  const close = ']}}}';
  const depth = Math.min(DEPTH, Math.floor((size - open.length - close.length) / 2));
  const deep = `${'['.repeat(depth)}${']'.repeat(depth)}`;
  const count = Math.floor((size - open.length - close.length) / (deep.length + 1));
  return padded(size, `${open}${Array.from({ length: count }, () => deep).join(',')}`, close);
}

type Answer = { readonly status: number } | { readonly error: string };

/**
 * POSTs `body` to `url` on a connection of its own. The first of an answer and an error counts: a
 * gateway that answers before reading the whole body (401, 413) may close the connection while
 * this side still writes.
 */
function post(url: string, body: Buffer, authorization: string | undefined): Promise<Answer> {
  return new Promise((resolve) => {
    const headers = {
      'content-type': 'application/json',
      'content-length': String(body.length),
      ...(authorization ? { authorization } : {}),
    };
    let status: number | undefined;
    const outgoing = request(url, { method: 'POST', headers, agent: false, timeout: RESPONSE_TIMEOUT_MS }, (response) => {
      status = response.statusCode ?? 0;
      response.resume();
      response.once('end', () => resolve({ status: status ?? 0 }));
    });
    outgoing.once('timeout', () => outgoing.destroy(new Error(`no answer within ${RESPONSE_TIMEOUT_MS} ms`)));
    outgoing.once('error', (error) => resolve(status === undefined ? { error: error.message } : { status }));
    outgoing.end(body);
  });
}

/**
 * POSTs to `url` `perSecond` times a second until stopped, in turn: many keys and nested arrays at
 * two sizes, each with `authorization` and without any credential.
 */
export function startHostileBodies(options: { url: string; authorization: string; perSecond: number }): HostileLoad {
  // 1 MiB (the old body limit: refused on their Content-Length) and just under the limit (read,
  // then refused by the parser's key and depth caps before JSON.parse).
  const bodies = [manyKeys(MIB), nestedArrays(MIB), manyKeys(UNDER_LIMIT), nestedArrays(UNDER_LIMIT)];
  const variants = [options.authorization, undefined].flatMap((authorization) => bodies.map((body) => ({ body, authorization })));
  const stats = { sent: 0, statusCodes: {} as Record<string, number>, errors: {} as Record<string, number>, slowestMs: 0 };
  const inFlight = new Set<Promise<void>>();
  const count = (into: Record<string, number>, key: string) => (into[key] = (into[key] ?? 0) + 1);

  const send = async (body: Buffer, authorization: string | undefined) => {
    const started = performance.now();
    const answer = await post(options.url, body, authorization);
    if ('status' in answer) count(stats.statusCodes, String(answer.status));
    else count(stats.errors, answer.error);
    stats.slowestMs = Math.max(stats.slowestMs, Math.round(performance.now() - started));
  };

  const timer = setInterval(() => {
    const variant = variants[stats.sent % variants.length];
    if (!variant) return;
    stats.sent += 1;
    const sending = send(variant.body, variant.authorization);
    inFlight.add(sending);
    void sending.finally(() => inFlight.delete(sending));
  }, 1000 / options.perSecond);

  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(inFlight);
      return { perSecond: options.perSecond, ...stats };
    },
  };
}
