import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { NatsConnection } from '@nats-io/transport-node';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { startTracing, TRACEPARENT, type Tracing } from '@service/tracing';
import { connectNats } from './connection.js';
import { NatsRequester } from './requester.js';

const NATS_URL = process.env['TEST_NATS_URL'] ?? 'nats://127.0.0.1:4222';
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const HTTP_SPAN = '00f067aa0ba902b7';

const exporter = new InMemorySpanExporter();
let tracing: Tracing | undefined;
let client: NatsConnection;
let server: NatsConnection;

beforeAll(async () => {
  tracing = startTracing('gateway', {}, exporter);
  client = await connectNats({ url: NATS_URL, name: 'requester-tracing-client', asyncTraces: false });
  server = await connectNats({ url: NATS_URL, name: 'requester-tracing-server' });
});

afterAll(async () => {
  await client.close();
  await server.close();
  await tracing?.shutdown();
});

describe('NatsRequester with tracing on', () => {
  it('sends a client span, child of ctx.traceparent, as the traceparent NATS header and ends it on the reply', async () => {
    const topic = `test.requester.${randomUUID()}.traced`;
    const received: string[] = [];
    server.subscribe(topic, {
      callback: (_error, message) => {
        received.push(message.headers?.get(TRACEPARENT) ?? '');
        const { id } = JSON.parse(message.string()) as { id: string };
        message.respond(JSON.stringify({ response: { ok: true }, isDisposed: true, id }));
      },
    });
    await server.flush();
    const requester = new NatsRequester(client, 2_000);
    await expect(requester.request(topic, { ctx: { requestId: 'r', traceparent: `00-${TRACE_ID}-${HTTP_SPAN}-01` } })).resolves.toEqual({
      ok: true,
    });
    await tracing?.flush();
    const [span] = exporter.getFinishedSpans();
    expect(span?.name).toBe(topic);
    expect(span?.parentSpanContext?.spanId).toBe(HTTP_SPAN);
    expect(received).toEqual([`00-${TRACE_ID}-${span?.spanContext().spanId}-01`]);
  });
});
