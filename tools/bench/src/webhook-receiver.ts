import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JetStreamClient } from '@nats-io/jetstream';
import { type DomainEvent, eventSubject } from '@service/contracts';

/**
 * Which deliveries a tally counts: events the bench published itself carry their tag in the
 * payload (`bench`); every other delivery (the wallet service's own events) counts as `event`.
 */
export type DeliveryTag = 'event' | 'backlog' | 'steady';

const TAGS: readonly DeliveryTag[] = ['event', 'backlog', 'steady'];

interface Tally {
  received: number;
  /** Arrival minus the body's `observedAt`, ms, in arrival order. */
  readonly latencies: number[];
}

/** Receives deliveries on loopback and notes, per tag, how many arrived and how long after their event. */
export class TimingReceiver {
  private readonly tallies = new Map<DeliveryTag, Tally>(TAGS.map((tag) => [tag, { received: 0, latencies: [] }]));
  private server: Server | undefined;
  private waiters: { tag: DeliveryTag; count: number; resolve: () => void }[] = [];

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { observedAt: string; bench?: DeliveryTag };
        const tally = this.tally(body.bench ?? 'event');
        tally.latencies.push(Date.now() - Date.parse(body.observedAt));
        tally.received += 1;
        response.writeHead(200).end();
        this.waiters = this.waiters.filter((waiter) => (this.tally(waiter.tag).received >= waiter.count ? (waiter.resolve(), false) : true));
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server?.address() as AddressInfo).port}/hooks`;
  }

  received(tag: DeliveryTag): number {
    return this.tally(tag).received;
  }

  /** Latencies (ms) of the deliveries of `tag` since the last reset, sorted. */
  latencies(tag: DeliveryTag): number[] {
    return [...this.tally(tag).latencies].sort((a, b) => a - b);
  }

  until(tag: DeliveryTag, count: number, timeoutMs: number): Promise<void> {
    if (this.received(tag) >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`only ${this.received(tag)} of ${count} ${tag} deliveries in ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({ tag, count, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }

  reset(): void {
    for (const tally of this.tallies.values()) {
      tally.latencies.length = 0;
      tally.received = 0;
    }
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private tally(tag: DeliveryTag): Tally {
    const tally = this.tallies.get(tag);
    if (!tally) throw new Error(`unknown delivery tag ${tag}`);
    return tally;
  }
}

export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

export const BENCH_EVENT_TYPE = 'portfolio_wallet.withdrawal.status_changed';

/** Publishes one withdrawal event of `orgId`, as the wallet service would, tagged for the receiver. */
export async function publishBenchEvent(js: JetStreamClient, prefix: string, orgId: string, tag: Exclude<DeliveryTag, 'event'>): Promise<void> {
  const id = randomUUID();
  const observedAt = new Date().toISOString();
  const payload = { event: BENCH_EVENT_TYPE, observedAt, walletId: randomUUID(), withdrawal: { id: randomUUID(), status: 'completed' }, bench: tag };
  const event: DomainEvent = { id, type: BENCH_EVENT_TYPE, orgId, source: 'wallet', occurredAt: observedAt, payload };
  await js.publish(eventSubject(prefix, 'wallet', BENCH_EVENT_TYPE), JSON.stringify(event), { msgID: id });
}

/** `count` events published at once (500 in flight at most); resolves when JetStream stored them all. */
export async function publishBacklog(publish: () => Promise<void>, count: number): Promise<void> {
  for (let sent = 0; sent < count; sent += 500) {
    await Promise.all(Array.from({ length: Math.min(500, count - sent) }, publish));
  }
}

/** `rate` events per second for `seconds`, each sent when due (not awaited). */
export async function publishSteadily(publish: () => Promise<void>, rate: number, seconds: number): Promise<number> {
  const events = rate * seconds;
  const start = performance.now();
  const sent: Promise<void>[] = [];
  for (let index = 0; index < events; index += 1) {
    const wait = start + (index * 1000) / rate - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    sent.push(publish());
  }
  await Promise.all(sent);
  return events;
}
