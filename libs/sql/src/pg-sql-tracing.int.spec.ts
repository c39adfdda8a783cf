import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { TEST_DATABASE_URL } from '@service/testing';
import { inSpan, SpanKind, startTracing, type Tracing } from '@service/tracing';
import { PgPoolSql } from './pg-sql.js';

// Tracing is process-wide: this file turns it on, so its own process (a Jest test file) has it.
const exporter = new InMemorySpanExporter();
let tracing: Tracing | undefined;
let db: PgPoolSql;

beforeAll(() => {
  tracing = startTracing('pg-sql-spec', {}, exporter);
  db = new PgPoolSql({ connectionString: TEST_DATABASE_URL, schema: 'public', max: 1 });
});

afterAll(async () => {
  await db?.end();
  await tracing?.shutdown();
});

describe('PgPoolSql with tracing on', () => {
  it("gives each round trip of a traced operation a database span: named after the caller's first statement, with every statement's text", async () => {
    await inSpan('handler', { kind: SpanKind.SERVER }, async () => {
      await db.$transaction(async (tx) => {
        await tx.$queryRawUnsafe(`SELECT $1::int AS n`, 1);
        tx.$executeDeferred(`SELECT $1::int AS deferred`, 2);
      });
      await db.$queryRawUnsafe(`/* one-off */ SELECT $1::int AS alone`, 3);
    });
    await db.$queryRawUnsafe(`SELECT 1 AS untraced`);
    await tracing?.flush();
    const spans = exporter.getFinishedSpans();
    const handler = spans.find((span) => span.name === 'handler');
    const statements = spans.filter((span) => span.name.startsWith('db '));
    expect(statements.map((span) => [span.name, span.attributes['db.query.text']])).toEqual([
      ['db SELECT', 'BEGIN;\nSELECT $1::int AS n'],
      ['db COMMIT', 'SELECT $1::int AS deferred;\nCOMMIT'],
      ['db SELECT', '/* one-off */ SELECT $1::int AS alone'],
    ]);
    for (const span of statements) {
      expect(span.kind).toBe(SpanKind.CLIENT);
      expect(span.parentSpanContext?.spanId).toBe(handler?.spanContext().spanId);
      expect(span.attributes['db.system.name']).toBe('postgresql');
    }
  });
});
