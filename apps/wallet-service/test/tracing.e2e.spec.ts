/* eslint-disable @typescript-eslint/no-explicit-any -- OTLP/JSON and HTTP bodies are checked by the assertions, not by types */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type ServiceSystem, startServiceSystem } from '@service/testing';
import { CASH, Client, JAAA, WALLET_TEST_ENV } from './wallet-system.js';

/** One span as the OTLP/JSON exporter sends it, with the name of the service that sent it. */
interface ExportedSpan {
  readonly service: string;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly kind: number;
  readonly links: readonly { traceId: string; spanId: string }[];
  readonly attributes?: readonly { key: string; value: { stringValue?: string; intValue?: number | string } }[];
  readonly status?: { code?: number; message?: string };
}

/** A span attribute's value, as OTLP/JSON carries it. */
function attribute(span: ExportedSpan, key: string): string | number | undefined {
  const value = span.attributes?.find((entry) => entry.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue));
}

/** A loopback OTLP/HTTP receiver: collects the spans every app exports as JSON. */
class Collector {
  readonly spans: ExportedSpan[] = [];
  private server: Server | undefined;

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        for (const resourceSpans of JSON.parse(body).resourceSpans ?? []) {
          const service = resourceSpans.resource.attributes.find((attribute: any) => attribute.key === 'service.name')?.value.stringValue;
          for (const scope of resourceSpans.scopeSpans) {
            for (const span of scope.spans) this.spans.push({ ...span, service, links: span.links ?? [] });
          }
        }
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async until<T>(find: () => T | undefined, timeoutMs = 10_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = find();
      if (found !== undefined) return found;
      if (Date.now() > deadline)
        throw new Error(`not exported in time; spans: ${this.spans.map((span) => `${span.service} ${span.name}`).join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

const collector = new Collector();
let base: ServiceSystem;
let receiver: Server;
let receiverUrl: string;
const received: string[] = [];

beforeAll(async () => {
  const endpoint = await collector.start();
  // Exported within 50 ms of ending, so the test waits for spans, not for the SDK's 5 s batches.
  const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_BSP_SCHEDULE_DELAY: '50' };
  base = await startServiceSystem({
    service: 'wallet',
    env: { ...WALLET_TEST_ENV, ...otel },
    gatewayEnv: { RATE_LIMIT_READ_PER_MINUTE: '100000', RATE_LIMIT_WRITE_PER_MINUTE: '100000', NATS_REQUEST_TIMEOUT_MS: '5000', ...otel },
  });
  await base.startAlongside('webhook', { WEBHOOK_PRIVATE_HOST_ALLOWLIST: '127.0.0.1', WEBHOOK_POLL_INTERVAL_MS: '50', ...otel });
  receiver = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push(body);
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
}, 120_000);

afterAll(async () => {
  await base?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
  await collector.stop();
}, 60_000);

describe('traces (OTEL_EXPORTER_OTLP_ENDPOINT set)', () => {
  it('follows one allocate request from the gateway through wallet-service and its database to the webhook delivery it causes', async () => {
    const org = `org_${randomUUID().slice(0, 8)}`;
    const owner = new Client(base.url, await base.token(org, 'owner'));
    const registered = await owner.post('/v2/webhooks', { url: receiverUrl, events: ['portfolio_wallet.rebalance.status_changed'] });
    expect(registered.status).toBe(200);
    const wallet = await owner.idleWallet();
    await owner.deposit(wallet.id, '100');

    const reply = await owner.post(`/v2/wallets/${wallet.id}/allocate`, {
      requestId: randomUUID(),
      allocations: [{ from: CASH, to: JAAA, amountUsd: '40' }],
    });
    expect(reply.status).toBe(200);

    // The gateway's server span of this request, and the trace it starts.
    const http = await collector.until(() =>
      collector.spans.find((span) => span.service === 'gateway' && span.name === 'POST /v2/wallets/:id/allocate' && span.kind === 2),
    );
    const inTrace = () => collector.spans.filter((span) => span.traceId === http.traceId);
    const nats = await collector.until(() =>
      inTrace().find((span) => span.service === 'gateway' && span.kind === 3 && span.parentSpanId === http.spanId),
    );
    const handler = await collector.until(() =>
      inTrace().find((span) => span.service === 'wallet-service' && span.kind === 2 && span.parentSpanId === nats.spanId),
    );
    expect(handler.name).toBe(nats.name);
    // The request's own statements (the key claimed and the wallet locked, on the PgPoolSql pool) under its handler.
    const claim = await collector.until(() =>
      inTrace().find(
        (span) =>
          span.service === 'wallet-service' &&
          span.kind === 3 &&
          String(attribute(span, 'db.query.text')).includes('INSERT INTO idempotency_keys'),
      ),
    );
    expect(claim).toMatchObject({ name: 'db WITH', parentSpanId: handler.spanId });
    // The delivery of an event written in that request, a trace of its own, links to this trace...
    const delivery = await collector.until(() =>
      collector.spans.find(
        (span) =>
          span.service === 'webhook-service' &&
          span.name === 'webhook delivery' &&
          span.links.some((link) => link.traceId === http.traceId),
      ),
    );
    expect(delivery.links).toEqual([expect.objectContaining({ traceId: http.traceId })]);
    // ...at webhook-service's consumer span of the event it delivers, which continues the request's trace
    // through the outbox and JetStream. (The request writes several events, each with a consumer span:
    // the first of them to arrive need not be the one delivered.)
    const consumer = await collector.until(() => inTrace().find((span) => span.spanId === delivery.links[0]?.spanId));
    expect(consumer).toMatchObject({
      service: 'webhook-service',
      kind: 5,
      name: 'webhook-deliveries portfolio_wallet.rebalance.status_changed',
    });
    expect(received.some((body) => body.includes(wallet.id))).toBe(true);
  }, 60_000);

  it('records the code of an error reply on the service span, and marks only server failures as errors', async () => {
    const owner = new Client(base.url, await base.token(`org_${randomUUID().slice(0, 8)}`, 'owner'));
    const missing = randomUUID();
    const reply = await owner.get(`/v2/wallets/${missing}`);
    expect(reply.status).toBe(404);
    const http = await collector.until(() =>
      collector.spans.find(
        (span) =>
          span.service === 'gateway' &&
          span.kind === 2 &&
          span.name === 'GET /v2/wallets/:id' &&
          attribute(span, 'http.response.status_code') === 404,
      ),
    );
    const handler = await collector.until(() =>
      collector.spans.find((span) => span.traceId === http.traceId && span.service === 'wallet-service' && span.kind === 2),
    );
    expect(attribute(handler, 'rpc.error.code')).toBe(reply.body.code);
    expect(attribute(handler, 'rpc.error.status')).toBe(404);
    // A refused request is not a failed span (OTLP status code 2 is ERROR).
    expect(handler.status?.code ?? 0).not.toBe(2);
  }, 60_000);
});
