import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SpanStatusCode } from '@opentelemetry/api';
import { ExportResultCode } from '@opentelemetry/core';
import { InMemorySpanExporter, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import {
  currentTraceparent,
  inChildSpan,
  inSpan,
  inStatementSpan,
  recordErrorReply,
  shutdownTracing,
  SpanKind,
  startSpan,
  startTracing,
  traceLogFields,
  traceparentOf,
  type Tracing,
  tracingEnabled,
} from './tracing.js';

const exporter = new InMemorySpanExporter();
let tracing: Tracing | undefined;
const REMOTE = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('tracing off (no OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  it('starts nothing, and every helper is a pass-through', async () => {
    expect(startTracing('test', {})).toBeUndefined();
    expect(tracingEnabled()).toBe(false);
    expect(startSpan('x')).toBeUndefined();
    expect(await inSpan('x', {}, () => currentTraceparent())).toBeUndefined();
    expect(traceLogFields()).toEqual({});
  });
});

describe('tracing on', () => {
  beforeAll(() => {
    tracing = startTracing('test-service', {}, exporter);
  });
  afterAll(async () => {
    await tracing?.shutdown();
  });

  it('continues a remote traceparent, makes the span active for what it awaits and links', async () => {
    const inner = await inSpan('handler', { kind: SpanKind.SERVER, parent: REMOTE }, async () => {
      expect(traceLogFields()).toEqual({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: expect.stringMatching(/^[0-9a-f]{16}$/) });
      await inChildSpan('db SELECT', { 'db.system.name': 'postgresql' }, () => Promise.resolve(1));
      return currentTraceparent();
    });
    const delivery = startSpan('webhook delivery', { root: true, links: [inner, 'not a traceparent'] });
    delivery?.end();
    await tracing?.flush();
    const spans = exporter.getFinishedSpans();
    const handler = spans.find((span) => span.name === 'handler');
    const db = spans.find((span) => span.name === 'db SELECT');
    const linked = spans.find((span) => span.name === 'webhook delivery');
    expect(handler?.spanContext().traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(handler?.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(handler?.resource.attributes['service.name']).toBe('test-service');
    expect(db?.parentSpanContext?.spanId).toBe(handler?.spanContext().spanId);
    expect(inner).toBe(`00-${handler?.spanContext().traceId}-${handler?.spanContext().spanId}-01`);
    expect(linked?.spanContext().traceId).not.toBe(handler?.spanContext().traceId);
    expect(linked?.links.map((link) => link.context.spanId)).toEqual([handler?.spanContext().spanId]);
  });

  it('records no database span outside a traced operation', async () => {
    expect(await inChildSpan('db SELECT', {}, () => Promise.resolve('ran'))).toBe('ran');
    let built = false;
    const text = () => {
      built = true;
      return 'SELECT 1';
    };
    expect(await inStatementSpan('SELECT 1', () => Promise.resolve('ran'), text)).toBe('ran');
    expect(built).toBe(false);
  });

  it("names a statement's span after its operation, past leading comments, with the text sent", async () => {
    exporter.reset();
    await inSpan('handler', {}, async () => {
      await inStatementSpan('/* one-off */ /* and */ with x AS (SELECT 1) SELECT * FROM x', () => Promise.resolve(1));
      await inStatementSpan(
        'UPDATE t SET n = 1',
        () => Promise.resolve(2),
        () => 'BEGIN;\nUPDATE t SET n = 1',
      );
      await inStatementSpan('', () => Promise.resolve(3));
      // Forty comments and no word: a pattern that could split them many ways would not end.
      await inStatementSpan(`${'/**/'.repeat(40)}(`, () => Promise.resolve(4));
    });
    await tracing?.flush();
    const statements = exporter.getFinishedSpans().filter((span) => span.name !== 'handler');
    expect(statements.map((span) => [span.name, span.attributes['db.operation.name'], span.attributes['db.query.text']])).toEqual([
      ['db WITH', 'WITH', '/* one-off */ /* and */ with x AS (SELECT 1) SELECT * FROM x'],
      ['db UPDATE', 'UPDATE', 'BEGIN;\nUPDATE t SET n = 1'],
      ['db SQL', 'SQL', ''],
      ['db SQL', 'SQL', `${'/**/'.repeat(40)}(`],
    ]);
    expect(statements.every((span) => span.kind === SpanKind.CLIENT && span.attributes['db.system.name'] === 'postgresql')).toBe(true);
  });
});

describe('traceparentOf', () => {
  it('writes the W3C form', () => {
    const span = { spanContext: () => ({ traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 1 }) };
    expect(traceparentOf(span as never)).toBe(`00-${'a'.repeat(32)}-${'b'.repeat(16)}-01`);
  });
});

describe('recordErrorReply and shutdownTracing', () => {
  /** Keeps what it is given past shutdown (the in-memory exporter forgets its spans then). */
  const exported: ReadableSpan[] = [];
  const keeping: SpanExporter = {
    export(spans, done) {
      exported.push(...spans);
      done({ code: ExportResultCode.SUCCESS });
    },
    shutdown: () => Promise.resolve(),
  };

  it('marks a server failure as an error, a refused request only by its code, and flushes the batch on shutdown', async () => {
    startTracing('test-service', {}, keeping);
    await inSpan('refused', {}, () => recordErrorReply({ code: 'not_found', status: 404, message: 'No such wallet.' }));
    await inSpan('failed', {}, () => recordErrorReply({ code: 'internal_error', status: 500, message: 'Something broke.' }));
    recordErrorReply({ code: 'internal_error', status: 500, message: 'outside any span: nothing to mark' });
    expect(exported).toEqual([]);
    await shutdownTracing();
    expect(tracingEnabled()).toBe(false);
    const refused = exported.find((span) => span.name === 'refused');
    const failed = exported.find((span) => span.name === 'failed');
    expect(refused?.attributes).toEqual({ 'rpc.error.code': 'not_found', 'rpc.error.status': 404 });
    expect(refused?.status.code).toBe(SpanStatusCode.UNSET);
    expect(failed?.attributes).toEqual({ 'rpc.error.code': 'internal_error', 'rpc.error.status': 500 });
    expect(failed?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'Something broke.' });
    await expect(shutdownTracing()).resolves.toBeUndefined();
  });
});
