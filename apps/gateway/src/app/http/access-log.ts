import type { DestinationStream, Logger } from 'pino';

export interface AccessLogEntry {
  readonly requestId: string;
  readonly orgId: string | undefined;
  readonly method: string;
  readonly route: string;
  readonly status: number;
  readonly durationMs: number;
  /** The request's span as a W3C traceparent, when traced: written as `traceId` and `spanId`. */
  readonly traceparent?: string | undefined;
}

/** Lines wait at most this long to be written together... */
const FLUSH_AFTER_MS = 20;
/** ...or until they reach this size. */
const FLUSH_BYTES = 64 * 1024;
const INFO = 30;
/** Strings JSON writes as they are, between quotes: request ids, methods, route templates. */
const PLAIN = /^[\w .:/{}*@$-]*$/;

/** `JSON.stringify(text)`, a third of the cost for the strings an access line mostly holds. */
export function quoted(text: string): string {
  return PLAIN.test(text) ? `"${text}"` : JSON.stringify(text);
}

/** `,"traceId":…,"spanId":…` of a traceparent (`00-<32 hex>-<16 hex>-<flags>`, hex only: no escaping). */
function traceFields(traceparent: string): string {
  return `,"traceId":"${traceparent.slice(3, 35)}","spanId":"${traceparent.slice(36, 52)}"`;
}

/**
 * The one log line per request, on the hot path of every call. It writes the same JSON line the
 * service's pino logger would (`level`, `time`, the logger's bindings, then the fields), but
 * serialises it directly (the fields are known; there is nothing to redact) and writes the lines
 * of up to 20 ms together, in one write instead of one per request or per event-loop turn (a
 * pino destination's own `write` measures its pending buffer on every call). Lines still buffered
 * are written when the app closes (the gateway's SIGTERM shutdown) and, as far as the process can
 * still write, when it exits; a SIGKILL loses at most the last 20 ms of access lines.
 *
 * It writes to the destination the logger was built on (a `pino.destination()` the gateway
 * creates and hands to both), so access lines and other log lines share one writer and one order,
 * through pino's public API only.
 */
export class AccessLog {
  private buffer = '';
  private timer: NodeJS.Timeout | undefined;
  private readonly prefix: string;
  private readonly flushNow = () => this.flush();
  /** The ISO timestamp of millisecond `isoMs`: the lines of one millisecond share it. */
  private isoMs = Number.NaN;
  private iso = '';

  private constructor(
    private readonly destination: DestinationStream,
    bindings: Record<string, unknown>,
  ) {
    const bound = Object.entries(bindings)
      .map(([key, value]) => `,${JSON.stringify(key)}:${JSON.stringify(value)}`)
      .join('');
    this.prefix = `${bound},"requestId":`;
    process.once('exit', this.flushNow);
  }

  /**
   * An access log with `logger`'s bindings, writing to `destination` (the one `logger` was built
   * on), or null when the logger's level hides `info`.
   */
  static of(logger: Logger, destination: DestinationStream): AccessLog | null {
    if (!logger.isLevelEnabled('info')) return null;
    return new AccessLog(destination, logger.bindings());
  }

  write(entry: AccessLogEntry): void {
    const orgId = entry.orgId === undefined ? '' : `,"orgId":${quoted(entry.orgId)}`;
    const now = Date.now();
    if (now !== this.isoMs) {
      this.isoMs = now;
      this.iso = new Date(now).toISOString();
    }
    this.buffer +=
      `{"level":${INFO},"time":"${this.iso}"${this.prefix}${quoted(entry.requestId)}${orgId}` +
      `,"method":${quoted(entry.method)},"route":${quoted(entry.route)},"status":${entry.status}` +
      `,"durationMs":${entry.durationMs}${entry.traceparent ? traceFields(entry.traceparent) : ''}}\n`;
    if (this.buffer.length >= FLUSH_BYTES) this.flush();
    else this.timer ??= setTimeout(this.flushNow, FLUSH_AFTER_MS).unref();
  }

  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.buffer === '') return;
    const lines = this.buffer;
    this.buffer = '';
    this.destination.write(lines);
  }

  close(): void {
    this.flush();
    process.removeListener('exit', this.flushNow);
  }
}
