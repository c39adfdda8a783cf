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
import { pathToFileURL } from 'node:url';
import { jetstream } from '@nats-io/jetstream';
import { migratedSchema, serviceTestEnv, startApp, startTestSystem } from '@service/testing';
import { runCleanups, suiteCleanups } from './load.js';
import { BENCH_EVENT_TYPE, percentile, publishBacklog, publishBenchEvent, publishSteadily, TimingReceiver } from './webhook-receiver.js';

export interface WebhookBenchOptions {
  readonly sustainedEvents?: number;
  readonly steadyRate?: number;
  readonly steadySeconds?: number;
}

export interface WebhookBenchResult {
  readonly sustained: { readonly events: number; readonly seconds: number; readonly deliveriesPerSecond: number };
  readonly steady: {
    readonly rate: number;
    readonly events: number;
    readonly p50Ms: number;
    readonly p99Ms: number;
    readonly maxMs: number;
  };
  readonly targets: { readonly deliveriesPerSecond: 500; readonly p99BelowMs: 1000; readonly met: boolean };
}

export async function benchWebhooks(options: WebhookBenchOptions = {}): Promise<WebhookBenchResult> {
  const sustainedEvents = options.sustainedEvents ?? 5_000;
  const steadyRate = options.steadyRate ?? 200;
  const steadySeconds = options.steadySeconds ?? 10;
  // What it starts is registered at once, so a run stopped by its watchdog or a signal stops it too.
  try {
    const receiver = new TimingReceiver();
    const url = await receiver.start();
    suiteCleanups.push({ name: 'webhook receiver', run: () => receiver.stop() });
    const system = await startTestSystem({
      services: [],
      gateways: 1,
      gatewayEnv: { RATE_LIMIT_READ_PER_MINUTE: '1000000', RATE_LIMIT_WRITE_PER_MINUTE: '1000000' },
    });
    suiteCleanups.push({ name: 'webhooks system', run: () => system.stop() });
    const stream = system.stream;
    const schema = await migratedSchema('webhook-service', system.runId);
    suiteCleanups.push({ name: 'webhook-service schema', run: () => schema.drop() });
    const service = await startApp(
      'webhook-service',
      {
        ...serviceTestEnv(schema.schema, stream),
        ...system.nats.envOf('webhook'),
        WEBHOOK_PRIVATE_HOST_ALLOWLIST: '127.0.0.1',
        LOG_LEVEL: 'info',
      },
      (line) => line.includes('webhook service ready'),
    );
    suiteCleanups.push({ name: 'webhook-service', run: () => service.stop() });
    // As wallet-service's NATS user: the bench's events stand for the wallet's.
    const nats = await system.nats.connect('wallet');
    suiteCleanups.push({ name: 'NATS connection', run: () => nats.close() });
    const org = `org_bench_${system.runId}`;
    const token = await system.auth.token({ org, role: 'admin', sub: 'bench' });
    const created = await fetch(`${system.gateways[0]?.url ?? ''}/v2/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url, events: [BENCH_EVENT_TYPE] }),
    });
    if (created.status !== 200) throw new Error(`registration failed: ${created.status} ${await created.text()}`);
    const js = jetstream(nats);
    const publish = (tag: 'backlog' | 'steady') => () => publishBenchEvent(js, stream.EVENTS_SUBJECT_PREFIX, org, tag);

    // Warm-up: connections, prepared statements, JIT.
    await publishBacklog(publish('backlog'), 200);
    await receiver.until('backlog', 200, 30_000);
    await receiver.reset();

    const started = performance.now();
    await publishBacklog(publish('backlog'), sustainedEvents);
    await receiver.until('backlog', sustainedEvents, 120_000);
    const seconds = (performance.now() - started) / 1000;

    const steadyEvents = await publishSteadily(publish('steady'), steadyRate, steadySeconds);
    await receiver.until('steady', steadyEvents, 60_000);
    const sorted = receiver.latencies('steady');

    const deliveriesPerSecond = Math.round(sustainedEvents / seconds);
    const steady = {
      rate: steadyRate,
      events: steadyEvents,
      p50Ms: percentile(sorted, 50),
      p99Ms: percentile(sorted, 99),
      maxMs: sorted.at(-1) ?? 0,
    };
    return {
      sustained: { events: sustainedEvents, seconds: Math.round(seconds * 100) / 100, deliveriesPerSecond },
      steady,
      targets: { deliveriesPerSecond: 500, p99BelowMs: 1000, met: deliveriesPerSecond >= 500 && steady.p99Ms < 1000 },
    };
  } finally {
    await runCleanups(suiteCleanups);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await benchWebhooks(), null, 2));
}
