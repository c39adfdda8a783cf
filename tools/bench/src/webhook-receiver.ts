import { randomUUID } from 'node:crypto';
import { type ChildProcess, fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { JetStreamClient } from '@nats-io/jetstream';
import { type DomainEvent, eventSubject } from '@service/contracts';
import { within } from './load.js';

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
  /** Arrival times (epoch ms, the receiver's clock: this machine's), in arrival order. */
  readonly arrivedAt: number[];
}

/** What the receiver's process tells the bench: arrivals since its last message, or that a reset is done. */
type ReceiverMessage =
  | { readonly kind: 'listening'; readonly port: number }
  | { readonly kind: 'arrived'; readonly latencies: Record<string, number[]>; readonly arrivedAt: Record<string, number[]> }
  | { readonly kind: 'reset' };

/** How often the receiver's process reports its arrivals (ms): the latencies are measured there, on arrival. */
const REPORT_MS = 20;

/**
 * Receives deliveries on loopback and notes, per tag, how many arrived and how long after their
 * event. The HTTP server runs in a process of its own, as an integrator's would: in the bench's
 * process its answers waited on the load generator's event loop (the write load's clients), and
 * webhook-service's attempts with them. Latencies are taken in that process on arrival and
 * reported every {@link REPORT_MS} ms.
 */
export class TimingReceiver {
  private readonly tallies = new Map<DeliveryTag, Tally>(TAGS.map((tag) => [tag, { received: 0, latencies: [], arrivedAt: [] }]));
  private child: ChildProcess | undefined;
  private waiters: { tag: DeliveryTag; count: number; resolve: () => void }[] = [];
  private resetDone: (() => void) | undefined;

  async start(): Promise<string> {
    const child = fork(fileURLToPath(import.meta.url), [RECEIVER_ARG], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.child = child;
    const port = await new Promise<number>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`the webhook receiver exited with ${code}`)));
      child.on('message', (message: ReceiverMessage) => {
        if (message.kind === 'listening') resolve(message.port);
        else this.onMessage(message);
      });
    });
    return `http://127.0.0.1:${port}/hooks`;
  }

  received(tag: DeliveryTag): number {
    return this.tally(tag).received;
  }

  /** Latencies (ms) of the deliveries of `tag` since the last reset, sorted. */
  latencies(tag: DeliveryTag): number[] {
    return [...this.tally(tag).latencies].sort((a, b) => a - b);
  }

  /** Arrival times (epoch ms) of the deliveries of `tag` since the last reset, in arrival order. */
  arrivals(tag: DeliveryTag): number[] {
    return [...this.tally(tag).arrivedAt];
  }

  until(tag: DeliveryTag, count: number, timeoutMs: number): Promise<void> {
    if (this.received(tag) >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`only ${this.received(tag)} of ${count} ${tag} deliveries in ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.waiters.push({ tag, count, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }

  /**
   * Forgets every arrival so far, including those the receiver's process has not reported yet.
   * Fails, rather than waiting for ever, when the receiver's process is gone or does not answer.
   */
  async reset(timeoutMs = 10_000): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) throw new Error('the webhook receiver is not running');
    const done = new Promise<void>((resolve) => (this.resetDone = resolve));
    child.send({ kind: 'reset' });
    if ((await within(done, timeoutMs)) === 'timeout') throw new Error(`the webhook receiver did not answer a reset in ${timeoutMs} ms`);
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }

  private onMessage(message: ReceiverMessage): void {
    if (message.kind === 'reset') {
      // Every report sent before the reset came before this answer (one ordered channel).
      for (const tally of this.tallies.values()) {
        tally.latencies.length = 0;
        tally.arrivedAt.length = 0;
        tally.received = 0;
      }
      this.resetDone?.();
      this.resetDone = undefined;
      return;
    }
    if (message.kind !== 'arrived') return;
    for (const [tag, latencies] of Object.entries(message.latencies)) {
      const tally = this.tally(tag as DeliveryTag);
      tally.latencies.push(...latencies);
      tally.arrivedAt.push(...(message.arrivedAt[tag] ?? []));
      tally.received += latencies.length;
    }
    this.waiters = this.waiters.filter((waiter) => (this.tally(waiter.tag).received >= waiter.count ? (waiter.resolve(), false) : true));
  }

  private tally(tag: DeliveryTag): Tally {
    const tally = this.tallies.get(tag);
    if (!tally) throw new Error(`unknown delivery tag ${tag}`);
    return tally;
  }
}

const RECEIVER_ARG = '--webhook-receiver';

/** The receiver's process: answers every POST with 200 and reports arrivals to the bench. */
function runReceiver(): void {
  const send = (message: ReceiverMessage) => process.send?.(message);
  let pending: Record<string, number[]> = {};
  let arrivedAt: Record<string, number[]> = {};
  let any = false;
  const report = () => {
    if (!any) return;
    send({ kind: 'arrived', latencies: pending, arrivedAt });
    pending = {};
    arrivedAt = {};
    any = false;
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { observedAt: string; bench?: DeliveryTag };
      const tag = body.bench ?? 'event';
      const now = Date.now();
      (pending[tag] ??= []).push(now - Date.parse(body.observedAt));
      (arrivedAt[tag] ??= []).push(now);
      any = true;
      response.writeHead(200).end();
    });
  });
  setInterval(report, REPORT_MS);
  process.on('message', (message: { kind: string }) => {
    if (message.kind !== 'reset') return;
    report();
    send({ kind: 'reset' });
  });
  process.on('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
  // The bench is gone (killed): so is its receiver.
  process.on('disconnect', () => process.exit(0));
  server.listen(0, '127.0.0.1', () => send({ kind: 'listening', port: (server.address() as AddressInfo).port }));
}

export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

export const BENCH_EVENT_TYPE = 'portfolio_wallet.withdrawal.status_changed';

/** Publishes one withdrawal event of `orgId`, as the wallet service would, tagged for the receiver. */
export async function publishBenchEvent(
  js: JetStreamClient,
  prefix: string,
  orgId: string,
  tag: Exclude<DeliveryTag, 'event'>,
): Promise<void> {
  const id = randomUUID();
  const observedAt = new Date().toISOString();
  const payload = {
    event: BENCH_EVENT_TYPE,
    observedAt,
    walletId: randomUUID(),
    withdrawal: { id: randomUUID(), status: 'completed' },
    bench: tag,
  };
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

if (process.argv.includes(RECEIVER_ARG)) runReceiver();
