/**
 * Webhook delivery benchmark: domain events published to JetStream, consumed by webhook-service
 * (a built process with its production defaults), signed and POSTed to a local receiver.
 *
 * - sustained: `sustainedEvents` events published at once; deliveries per second from the first
 *   publish to the last delivery received.
 * - steady: `steadyRate` events per second for `steadySeconds`; event-to-delivery latency (publish
 *   to arrival at the receiver) p50 and p99.
 *
 * Run alone with `npx tsx tools/bench/src/webhooks.ts` (needs `npx nx run-many -t build
 * --projects=gateway,webhook-service`), or call {@link benchWebhooks} from run.ts.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { jetstream, type JetStreamClient } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { type DomainEvent, eventSubject } from '@service/contracts';
import { isolatedEventStream, migratedSchema, serviceTestEnv, startApp, startTestSystem } from '@service/testing';

export interface WebhookBenchOptions {
  readonly sustainedEvents?: number;
  readonly steadyRate?: number;
  readonly steadySeconds?: number;
}

export interface WebhookBenchResult {
  readonly sustained: { readonly events: number; readonly seconds: number; readonly deliveriesPerSecond: number };
  readonly steady: { readonly rate: number; readonly events: number; readonly p50Ms: number; readonly p99Ms: number; readonly maxMs: number };
  readonly targets: { readonly deliveriesPerSecond: 500; readonly p99BelowMs: 1000; readonly met: boolean };
}

const TYPE = 'portfolio_wallet.withdrawal.status_changed';

/** Receives deliveries and notes, per event, how long after publication it arrived. */
class TimingReceiver {
  readonly latencies: number[] = [];
  received = 0;
  private server: Server | undefined;
  private waiters: { count: number; resolve: () => void }[] = [];

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { observedAt: string };
        this.latencies.push(Date.now() - Date.parse(body.observedAt));
        this.received += 1;
        response.writeHead(200).end();
        this.waiters = this.waiters.filter((waiter) => (this.received >= waiter.count ? (waiter.resolve(), false) : true));
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server?.address() as AddressInfo).port}/hooks`;
  }

  until(count: number, timeoutMs: number): Promise<void> {
    if (this.received >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`only ${this.received} of ${count} deliveries in ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }

  reset(): void {
    this.latencies.length = 0;
    this.received = 0;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

export async function benchWebhooks(options: WebhookBenchOptions = {}): Promise<WebhookBenchResult> {
  const sustainedEvents = options.sustainedEvents ?? 5_000;
  const steadyRate = options.steadyRate ?? 200;
  const steadySeconds = options.steadySeconds ?? 10;
  const receiver = new TimingReceiver();
  const url = await receiver.start();
  const system = await startTestSystem({
    services: [],
    gateways: 1,
    gatewayEnv: { RATE_LIMIT_READ_PER_MINUTE: '1000000', RATE_LIMIT_WRITE_PER_MINUTE: '1000000' },
  });
  const stream = isolatedEventStream(system.runId, system.natsUrl);
  const schema = await migratedSchema('webhook-service', system.runId);
  const service = await startApp(
    'webhook-service',
    { ...serviceTestEnv(schema.schema, stream), NATS_URL: system.natsUrl, WEBHOOK_ALLOW_PRIVATE_URLS: 'true', LOG_LEVEL: 'info' },
    (line) => line.includes('webhook service ready'),
  );
  const nats = await connect({ servers: system.natsUrl });
  try {
    const org = `org_bench_${system.runId}`;
    const token = await system.auth.token({ org, role: 'admin', sub: 'bench' });
    const created = await fetch(`${system.gateways[0]?.url ?? ''}/v2/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url, events: [TYPE] }),
    });
    if (created.status !== 200) throw new Error(`registration failed: ${created.status} ${await created.text()}`);
    const js = jetstream(nats);
    const publish = (prefix: string) => publishEvent(js, prefix, org);

    // Warm-up: connections, prepared statements, JIT.
    await Promise.all(Array.from({ length: 200 }, () => publish(stream.EVENTS_SUBJECT_PREFIX)));
    await receiver.until(200, 30_000);
    receiver.reset();

    const started = performance.now();
    for (let sent = 0; sent < sustainedEvents; sent += 500) {
      await Promise.all(Array.from({ length: Math.min(500, sustainedEvents - sent) }, () => publish(stream.EVENTS_SUBJECT_PREFIX)));
    }
    await receiver.until(sustainedEvents, 120_000);
    const seconds = (performance.now() - started) / 1000;
    receiver.reset();

    const steadyEvents = steadyRate * steadySeconds;
    const steadyStart = performance.now();
    for (let index = 0; index < steadyEvents; index += 1) {
      const due = steadyStart + (index * 1000) / steadyRate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      void publish(stream.EVENTS_SUBJECT_PREFIX);
    }
    await receiver.until(steadyEvents, 60_000);
    const sorted = [...receiver.latencies].sort((a, b) => a - b);

    const deliveriesPerSecond = Math.round(sustainedEvents / seconds);
    const steady = { rate: steadyRate, events: steadyEvents, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), maxMs: sorted.at(-1) ?? 0 };
    return {
      sustained: { events: sustainedEvents, seconds: Math.round(seconds * 100) / 100, deliveriesPerSecond },
      steady,
      targets: { deliveriesPerSecond: 500, p99BelowMs: 1000, met: deliveriesPerSecond >= 500 && steady.p99Ms < 1000 },
    };
  } finally {
    await nats.close();
    await service.stop();
    await system.stop();
    await schema.drop();
    await receiver.stop();
  }
}

async function publishEvent(js: JetStreamClient, prefix: string, orgId: string): Promise<void> {
  const id = randomUUID();
  const observedAt = new Date().toISOString();
  const payload = { event: TYPE, observedAt, walletId: randomUUID(), withdrawal: { id: randomUUID(), status: 'completed' } };
  const event: DomainEvent = { id, type: TYPE, orgId, source: 'wallet', occurredAt: observedAt, payload };
  await js.publish(eventSubject(prefix, 'wallet', TYPE), JSON.stringify(event), { msgID: id });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await benchWebhooks(), null, 2));
}
