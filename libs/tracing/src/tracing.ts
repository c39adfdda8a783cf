import {
  type Attributes,
  type Context,
  context,
  type Link,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  type SpanContext,
  SpanStatusCode,
  trace,
  type Tracer,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { parseTraceParent, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';

export { SpanKind };
export type { Span };

/** The W3C header (and NATS / JetStream header) name of a trace context. */
export const TRACEPARENT = 'traceparent';

let tracer: Tracer | undefined;
/** The SDK {@link startTracing} started in this process, for {@link shutdownTracing}. */
let started: Tracing | undefined;

/** A started SDK: flush and stop it on the way out. */
export interface Tracing {
  /** Exports the spans ended so far. */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * Starts the OpenTelemetry SDK for this process when `OTEL_EXPORTER_OTLP_ENDPOINT` is set (OTLP
 * over HTTP/JSON, batched; the exporter reads the standard `OTEL_EXPORTER_OTLP_*` and `OTEL_BSP_*`
 * variables itself), else does nothing and returns undefined: every helper below then costs one
 * check. `serviceName` is the app's name; `OTEL_SERVICE_NAME` replaces it. Call once, before
 * anything logs or serves. `exporter` replaces OTLP (tests: the SDK's in-memory exporter).
 */
export function startTracing(serviceName: string, env: NodeJS.ProcessEnv = process.env, exporter?: SpanExporter): Tracing | undefined {
  if (!exporter && !env['OTEL_EXPORTER_OTLP_ENDPOINT']?.trim()) return undefined;
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env['OTEL_SERVICE_NAME']?.trim() || serviceName }),
    spanProcessors: [new BatchSpanProcessor(exporter ?? new OTLPTraceExporter())],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  tracer = provider.getTracer('@service/tracing');
  started = {
    flush: () => provider.forceFlush(),
    async shutdown() {
      tracer = undefined;
      started = undefined;
      await provider.shutdown();
    },
  };
  return started;
}

/**
 * Exports the spans still batched and stops the SDK this process started, if any: call it last on
 * the way out (a SIGTERM would otherwise drop up to a batch delay's worth of spans).
 */
export async function shutdownTracing(): Promise<void> {
  await started?.shutdown();
}

/** Whether spans are recorded in this process. */
export function tracingEnabled(): boolean {
  return tracer !== undefined;
}

/** `00-<trace id>-<span id>-<flags>` of a span. */
export function traceparentOf(span: Span): string {
  const { traceId, spanId, traceFlags } = span.spanContext();
  return `00-${traceId}-${spanId}-0${traceFlags & 1}`;
}

/** The traceparent of the active span, or undefined (no span, or tracing off). */
export function currentTraceparent(): string | undefined {
  if (!tracer) return undefined;
  const span = trace.getActiveSpan();
  return span ? traceparentOf(span) : undefined;
}

function remote(traceparent: string | null | undefined): SpanContext | undefined {
  return (traceparent && parseTraceParent(traceparent)) || undefined;
}

export interface SpanOptions {
  readonly kind?: SpanKind;
  /**
   * The parent as a W3C traceparent (from a header or a stored row); the active span when absent
   * or unreadable.
   */
  readonly parent?: string | null;
  /** Start a trace of its own rather than a child of the active span (without `parent`). */
  readonly root?: boolean;
  /** Traces this span links to (the requests that caused a piece of deferred work). */
  readonly links?: readonly (string | null | undefined)[];
  readonly attributes?: Attributes;
}

/**
 * Starts a span, or returns undefined when tracing is off. The caller ends it ({@link endSpan});
 * for code that runs inside it, use {@link inSpan}.
 */
export function startSpan(name: string, options: SpanOptions = {}): Span | undefined {
  if (!tracer) return undefined;
  const parent = remote(options.parent);
  const parentContext: Context = parent ? trace.setSpanContext(ROOT_CONTEXT, parent) : options.root ? ROOT_CONTEXT : context.active();
  const links: Link[] = [];
  for (const link of options.links ?? []) {
    const linked = remote(link);
    if (linked) links.push({ context: linked });
  }
  return tracer.startSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes, links }, parentContext);
}

/** Ends a span (if any), as an error when `error` is given. */
export function endSpan(span: Span | undefined, error?: unknown): void {
  if (!span) return;
  if (error !== undefined) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
  }
  span.end();
}

/**
 * Records on the active span (if any) the error a handler answered with: its stable `code` and
 * `status` as attributes, and an error status when the failure is the server's (status 500 and
 * up, the rule the gateway applies to its HTTP spans); a refused request (4xx) is not a failed span.
 */
export function recordErrorReply(error: { readonly code: string; readonly status: number; readonly message: string }): void {
  const span = tracer && trace.getActiveSpan();
  if (!span) return;
  span.setAttributes({ 'rpc.error.code': error.code, 'rpc.error.status': error.status });
  if (error.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
}

/**
 * Runs `fn` inside a new span, active for everything `fn` awaits (database calls, outbox writes,
 * log lines), and ends it when `fn` settles. Tracing off: just `fn()`.
 */
export async function inSpan<T>(name: string, options: SpanOptions, fn: () => Promise<T> | T): Promise<T> {
  const span = startSpan(name, options);
  if (!span) return fn();
  try {
    const result = await context.with(trace.setSpan(context.active(), span), fn);
    endSpan(span);
    return result;
  } catch (error) {
    endSpan(span, error);
    throw error;
  }
}

/** A child span of the active span only (none outside a traced operation): database calls. */
export function inChildSpan<T>(name: string, attributes: Attributes, fn: () => Promise<T>): Promise<T> {
  if (!tracer || !trace.getActiveSpan()) return fn();
  return inSpan(name, { kind: SpanKind.CLIENT, attributes }, fn);
}

/**
 * A statement's operation (`SELECT`, `WITH`, `COMMIT`...): its first word after any leading
 * comments. Each comment is matched one way only (the C-comment pattern), so text that is not a
 * statement costs linear time, not a backtracking search over ways to split it into comments.
 */
const OPERATION = /^\s*(?:\/\*[^*]*\*+(?:[^/*][^*]*\*+)*\/\s*)*(\w+)/;

/**
 * A `db <operation>` client span (PostgreSQL, the statement text) around `fn`, a child of the
 * active span only, like {@link inChildSpan}: a database round trip of a traced operation. The
 * operation is `sql`'s; `text` gives the text sent when it is more than `sql` (a round trip of
 * several statements), built only for a span.
 */
export function inStatementSpan<T>(sql: string, fn: () => Promise<T>, text?: () => string): Promise<T> {
  if (!tracer || !trace.getActiveSpan()) return fn();
  const operation = OPERATION.exec(sql)?.[1]?.toUpperCase() ?? 'SQL';
  const attributes = { 'db.system.name': 'postgresql', 'db.operation.name': operation, 'db.query.text': text?.() ?? sql };
  return inSpan(`db ${operation}`, { kind: SpanKind.CLIENT, attributes }, fn);
}

/**
 * `{traceId, spanId}` of the active span for a log line (pino `mixin`), else nothing. Always a new
 * object: pino assigns the line's own fields onto it.
 */
export function traceLogFields(): { traceId?: string; spanId?: string } {
  const span = tracer && trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { traceId, spanId };
}
