import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { DeliverPolicy, jetstream, type JetStreamClient } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { WEBHOOK_FAMILIES } from '@service/contracts';
import { unpublishedOutboxRows } from '@service/events';
import { startTestSystem, TEST_DATABASE_URL, type TestSystem } from '@service/testing';
import pg from 'pg';
import {
  type Cleanup,
  cpuMsOf,
  cpuMsOfCommand,
  cpuMsOfSelf,
  failuresOf,
  machineBusyMs,
  progress,
  runCleanups,
  runLoad,
  suiteCleanups,
  within,
} from './load.js';
import { collectProfile, CPU_PROFILE, profilerEnv, startPerf, startProfile } from './profiling.js';
import { type DeliveryTag, percentile, publishBacklog, publishBenchEvent, publishSteadily, TimingReceiver } from './webhook-receiver.js';

/**
 * The wallet routes users call, measured in rounds beside what they are held against:
 * - reads (`GET /v2/wallets/{id}`, the first pages of `GET /v2/wallets` and `GET /v2/activity`,
 *   autocannon, 50 connections) against the gateway -> NATS -> gvault route of the same round;
 * - writes (`POST .../allocate` and `POST .../withdrawals`, a new requestId each, 20 closed-loop
 *   clients over 20 wallets picked at random, as TPC-B picks its branches) against
 *   `pgbench -M prepared` TPC-B-like transactions at 20 clients on the same PostgreSQL, in a
 *   database of its own (scale factor 20) that the bench creates and drops;
 * - the outbox relay's publish lag (an event's occurredAt -> its JetStream timestamp) over each
 *   write window;
 * - webhook deliveries under the write load: webhook-service runs beside the wallet service on the
 *   same stream and consumes every event the writes make. A second organization
 *   ({@link WEBHOOK_ORG}) has one registration (every portfolio wallet event type) to a loopback
 *   receiver; two more windows run the write load (half the clients allocate, half withdraw) while
 *   the bench publishes that organization's events: a backlog of {@link BACKLOG_EVENTS} at once
 *   (sustained deliveries per second) and {@link STEADY_RATE} events per second (event-to-delivery
 *   p50/p99), so the measured endpoint gets the targets' event rate. With
 *   `BENCH_WEBHOOK_WALLET_EVENTS=1` the writing organization subscribes too (the write load's
 *   events to the same receiver, an event rate far above the targets'), and each window reports
 *   those deliveries (per second, event-to-delivery p50/p99 from their `observedAt`).
 * Each ratio is taken within one round; the report gives the median round's ratio and the worst p99.
 */
export interface WalletsBenchOptions {
  readonly durationS?: number;
  readonly rounds?: number;
  /** Closed-loop write clients and pgbench clients (and wallets, and pgbench's scale factor). */
  readonly clients?: number;
  /** Which windows each round runs (all by default): the reads, the writes with pgbench, the webhook windows. */
  readonly parts?: readonly WalletsPart[];
}

/** The windows of a round, `BENCH_WALLET_PARTS` (comma-separated; all by default). */
export type WalletsPart = 'reads' | 'writes' | 'webhooks';
const PARTS: readonly WalletsPart[] = ['reads', 'writes', 'webhooks'];

export interface RouteResult {
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** CPU time per request of the wallet, activity, webhook and gvault services, the gateway, PostgreSQL and the NATS servers (µs). */
  readonly cpuMicrosPerRequest?: Record<string, number | null>;
}

type ReadKey = 'nats' | 'wallet' | 'wallets' | 'activity';
type WriteKey = 'allocate' | 'withdraw';

/** Webhook deliveries that arrived in a window, per second, and their event-to-delivery latency. */
export interface Deliveries {
  readonly deliveries: number;
  readonly perSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** webhook-service CPU time per delivery arrived (µs). */
  readonly cpuMicrosPerDelivery: number | null;
}

/** A webhook scenario under the write load: the bench's own events' deliveries, and the writes meanwhile. */
export interface WebhookUnderLoad extends Deliveries {
  readonly events: number;
  readonly seconds: number;
  /** Deliveries of the wallet's own events in the same window. */
  readonly walletEventDeliveries: number;
  readonly writesPerSecond: number;
  /** Where each attempt's time went (webhook-service's own records of the window's attempts), ms. */
  readonly attempts: AttemptTimes;
}

/** p50/p99 of: recorded -> claimed (queue), the receiver's answer (response), claimed -> recorded (attempt). */
interface AttemptTimes {
  readonly queue: readonly [number, number];
  readonly response: readonly [number, number];
  readonly attempt: readonly [number, number];
}

/** A round; the parts it did not run (`BENCH_WALLET_PARTS`) are absent. */
export interface WalletsRound {
  readonly reads?: Record<ReadKey, RouteResult>;
  readonly pgbench?: { readonly tps: number; readonly latencyAverageMs: number };
  readonly writes?: Record<WriteKey, RouteResult & { readonly outboxLagMs: OutboxLag; readonly webhooks: Deliveries }>;
  readonly webhooks?: { readonly backlog: WebhookUnderLoad; readonly steady: WebhookUnderLoad };
  /** Read req/s over the NATS route's, write req/s over pgbench's tps. */
  readonly ratios: Partial<Record<Exclude<ReadKey, 'nats'> | WriteKey, number>>;
}

interface OutboxLag {
  readonly events: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

interface Target {
  readonly name: string;
  readonly actual: string;
  readonly met: boolean;
}

export interface WalletsBenchResult {
  readonly settings: {
    durationS: number;
    rounds: number;
    readConnections: number;
    writeClients: number;
    pgbenchScale: number;
    parts: readonly WalletsPart[];
  };
  readonly rounds: WalletsRound[];
  readonly targets: Target[];
  readonly allTargetsMet: boolean;
}

const READ_CONNECTIONS = 50;
const JAAA = 'service-jaaa-usdc-vault';
const TARGETS = {
  walletShareOfNats: 0.6,
  listShareOfNats: 0.5,
  readP99Ms: 25,
  writeShareOfPgbench: 0.4,
  writeP99Ms: 60,
  outboxLagP99Ms: 200,
  webhookDeliveriesPerSecond: 1_000,
  webhookP99Ms: 250,
} as const;
/** Events published at once for the sustained-deliveries scenario. */
const BACKLOG_EVENTS = 5_000;
/** Events per second of the event-to-delivery scenario. */
const STEADY_RATE = 200;
/**
 * Seconds of the same write load before each write window (then the system settles): every process
 * on the write path compiles its hot code with the optimizing JIT under this load, and in a first
 * round's 1 s warm-up it had not finished: V8 logged 186 optimizations in wallet-service during
 * the allocate window that followed, 26 in the next round's, and the machine's CPU per allocation
 * was 4,428 µs against 3,398 µs in that next round (pgbench, in C, warms nothing).
 */
const WRITE_WARM_UP_S = { first: 5, later: 2 } as const;
/** Longest the bench waits for the webhook deliveries of a window to arrive (or for earlier ones to drain). */
const DRAIN_MS = 60_000;
const READS: Record<Exclude<ReadKey, 'nats'>, string> = {
  wallet: 'GET /v2/wallets/{id}',
  wallets: 'GET /v2/wallets (first page)',
  activity: 'GET /v2/activity (first page)',
};
const WRITES: Record<WriteKey, string> = { allocate: 'POST /v2/wallets/{id}/allocate', withdraw: 'POST /v2/wallets/{id}/withdrawals' };

const run = promisify(execFile);
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
const pct = (share: number) => `${(share * 100).toFixed(1)}%`;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

async function json(response: Response): Promise<Record<string, unknown>> {
  const body = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${response.url} answered ${response.status}: ${JSON.stringify(body)}`);
  return body;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let attempt = 0; attempt < 400; attempt += 1) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the wallet did not reach the expected state');
}

/** CPU time (ms) of the named processes so far, and of PostgreSQL (server and backends) and the NATS servers. */
function cpuOf(pids: Record<string, number | undefined>): Record<string, number | undefined> {
  return {
    ...Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuMsOf(pid)])),
    postgres: cpuMsOfCommand('postgres'),
    nats: cpuMsOfCommand('nats-server'),
    redis: cpuMsOfCommand('redis-server'),
    'load generator': cpuMsOfSelf(),
    machine: machineBusyMs(),
  };
}

function perRequest(
  before: Record<string, number | undefined>,
  after: Record<string, number | undefined>,
  requests: number,
): Record<string, number | null> {
  return Object.fromEntries(
    Object.keys(before).map((name) => {
      const start = before[name];
      const end = after[name];
      return [name, start === undefined || end === undefined || requests === 0 ? null : Math.round(((end - start) * 1000) / requests)];
    }),
  );
}

/**
 * The write load: `clients` connections of autocannon (on its worker thread, as for the reads), each
 * sending its next request when the previous one answered, to a wallet picked at random with a
 * new requestId (`write-request.cjs`), taking the `kinds` in turn; for `durationS`, then on in runs
 * of a second while `more` says so, up to `untilS` in all (autocannon cannot stop a run on a worker
 * thread early: it drops the run's result). Any answer other than 200 fails the run.
 * (It was `fetch` on the bench's own event loop: 600-800 µs of CPU a request on this machine, a
 * sixth of all the machine did per write, taken from the system measured.)
 */
async function writeLoad(
  setup: Setup,
  kinds: readonly WriteKey[],
  clients: number,
  durationS: number,
  then?: { readonly more: () => boolean; readonly untilS: number },
): Promise<{ count: number; seconds: number; p50Ms: number; p99Ms: number }> {
  const started = performance.now();
  const run = async (seconds: number) => {
    const result = await runLoad({
      url: setup.base,
      headers: setup.headers,
      connections: clients,
      durationS: seconds,
      requests: kinds.map((kind) => ({ method: 'POST', kind, wallets: setup.wallets, setupRequest: WRITE_REQUEST })),
    });
    if (failuresOf(result) > 0) {
      throw new Error(
        `the ${kinds.join('/')} load had ${failuresOf(result)} failed requests (status codes: ${JSON.stringify(result.statusCodeStats)})`,
      );
    }
    return result;
  };
  const first = await run(durationS);
  let count = first['2xx'];
  let seconds = first.duration;
  while (then?.more() && performance.now() - started < then.untilS * 1000) {
    const more = await run(1);
    count += more['2xx'];
    seconds += more.duration;
  }
  return { count, seconds, p50Ms: first.latency.p50, p99Ms: first.latency.p99 };
}

/** The module autocannon's worker requires to build each write request. */
const WRITE_REQUEST = fileURLToPath(new URL('./write-request.cjs', import.meta.url));

/**
 * `BENCH_PG_STATEMENTS=1`: what PostgreSQL spent each write window on, statement by statement, from
 * `pg_stat_statements` (which must be in `shared_preload_libraries`; the bench creates the
 * extension): reset before the window, the top statements by total time printed after it.
 */
const statements = {
  enabled: process.env['BENCH_PG_STATEMENTS'] === '1',
  tables: new Map<string, TableWrites>(),
  async reset(db: pg.Client, schemas: readonly string[]): Promise<void> {
    if (!this.enabled) return;
    await db.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await db.query('SELECT pg_stat_statements_reset()');
    this.tables = await tableWrites(db, schemas);
  },
  /** Each table of the wallet and activity schemas written in the window: rows inserted, updated, how many updates were HOT (no index entry written), and how much its indexes grew. */
  async reportTables(setup: Setup, label: string): Promise<void> {
    if (!this.enabled) return;
    await settle(setup);
    // A backend sends its counts to the statistics at most every 10 s while it sits idle.
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    const after = await tableWrites(setup.db, [setup.schema, setup.activitySchema]);
    console.log(`bench: wallet and activity tables, ${label} (inserted, updated, of which HOT, index pages added)`);
    for (const [table, end] of after) {
      const start = this.tables.get(table) ?? { inserted: 0, updated: 0, hot: 0, indexPages: 0 };
      const updated = end.updated - start.updated;
      if (end.inserted === start.inserted && updated === 0) continue;
      const hot = end.hot - start.hot;
      console.log(
        `  ${table.replace(/_t[0-9a-z]+\./, '.').padEnd(28)} ${String(end.inserted - start.inserted).padStart(7)} ins ${String(updated).padStart(7)} upd ${String(hot).padStart(7)} HOT (${updated === 0 ? '-' : Math.round((100 * hot) / updated)} %) ${String(end.indexPages - start.indexPages).padStart(6)} index pages`,
      );
    }
  },
  async report(db: pg.Client, label: string, requests: number): Promise<void> {
    if (!this.enabled) return;
    const { rows } = await db.query<{
      calls: string;
      ms: string;
      per_call_us: string;
      per_request_us: string;
      rows: string;
      query: string;
    }>(
      `SELECT calls::text AS calls, round(total_exec_time + total_plan_time)::text AS ms, round((total_exec_time + total_plan_time) * 1000 / greatest(calls, 1))::text AS per_call_us,
              round((total_exec_time + total_plan_time) * 1000 / $1)::text AS per_request_us, rows::text AS rows, left(regexp_replace(query, '\\s+', ' ', 'g'), 110) AS query
         FROM pg_stat_statements ORDER BY total_exec_time + total_plan_time DESC LIMIT 15`,
      [Math.max(1, requests)],
    );
    console.log(`bench: pg_stat_statements, ${label} (${requests} requests; time is wall time, lock waits included)`);
    for (const row of rows)
      console.log(
        `  ${row.calls.padStart(7)} calls ${row.ms.padStart(6)} ms ${row.per_call_us.padStart(6)} µs/call ${row.per_request_us.padStart(5)} µs/req ${row.rows.padStart(7)} rows  ${row.query}`,
      );
    // Statements not prepared (a batch's shape): each shape an entry of its own, so summed here.
    const { rows: oneOff } = await db.query<{ shapes: string; calls: string; ms: string }>(
      `SELECT count(*)::text AS shapes, coalesce(sum(calls), 0)::text AS calls, round(coalesce(sum(total_exec_time + total_plan_time), 0))::text AS ms
         FROM pg_stat_statements WHERE query LIKE '/* one-off */%'`,
    );
    const [sum] = oneOff;
    if (sum) console.log(`  one-off statements: ${sum.shapes} shapes, ${sum.calls} calls, ${sum.ms} ms`);
  },
};

interface TableWrites {
  readonly inserted: number;
  readonly updated: number;
  readonly hot: number;
  /** Pages of all the table's indexes. */
  readonly indexPages: number;
}

/** {@link TableWrites} of each table of `schemas` (by `schema.table`), as the statistics collector has them. */
async function tableWrites(db: pg.Client, schemas: readonly string[]): Promise<Map<string, TableWrites>> {
  const { rows } = await db.query<{ relname: string; inserted: string; updated: string; hot: string; index_pages: string }>(
    `SELECT t.schemaname || '.' || t.relname AS relname, t.n_tup_ins::text AS inserted, t.n_tup_upd::text AS updated, t.n_tup_hot_upd::text AS hot,
            (SELECT coalesce(sum(pg_relation_size(i.indexrelid)), 0) / current_setting('block_size')::int FROM pg_index i WHERE i.indrelid = t.relid)::text AS index_pages
       FROM pg_stat_user_tables t WHERE t.schemaname = ANY($1::text[]) ORDER BY 1`,
    [schemas],
  );
  return new Map(
    rows.map((row) => [
      row.relname,
      { inserted: Number(row.inserted), updated: Number(row.updated), hot: Number(row.hot), indexPages: Number(row.index_pages) },
    ]),
  );
}

/** pgbench's own database: created, initialised at `scale`, and a function that drops it. */
async function pgbenchDatabase(scale: number): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `bench_pgbench_${randomUUID().slice(0, 8)}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  const drop = async () => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await client.end();
    }
  };
  try {
    console.log(`bench: pgbench -i -s ${scale} in ${name}`);
    await run('pgbench', ['-i', '-s', String(scale), '-q', url.toString()], { maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    await drop();
    throw error;
  }
  return { url: url.toString(), drop };
}

async function pgbench(url: string, clients: number, durationS: number): Promise<{ tps: number; latencyAverageMs: number }> {
  const { stdout } = await run('pgbench', ['-M', 'prepared', '-c', String(clients), '-j', '2', '-T', String(durationS), '-n', url], {
    maxBuffer: 16 * 1024 * 1024,
  });
  const tps = /tps = ([\d.]+)/.exec(stdout)?.[1];
  const latency = /latency average = ([\d.]+) ms/.exec(stdout)?.[1];
  if (tps === undefined) throw new Error(`pgbench printed no tps: ${stdout}`);
  return { tps: round(Number(tps), 0), latencyAverageMs: Number(latency ?? Number.NaN) };
}

/**
 * Publish lag of the wallet service's events that occurred in [from, to), once all of them are
 * published: when JetStream stored each (the message's timestamp) minus its `occurredAt` (the
 * outbox insert's `clock_timestamp()`), read back from the stream from `from` on.
 */
async function outboxLag(setup: Setup, from: Date, to: Date): Promise<OutboxLag> {
  progress.stage = 'reading the publish lag from the stream';
  for (let attempt = 0; ; attempt += 1) {
    const { rows } = await setup.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${unpublishedOutboxRows(setup.schema)} WHERE o.occurred_at < $1`,
      [to],
    );
    if ((rows[0]?.n ?? 0) === 0) break;
    if (attempt >= 100) return { events: Number.NaN, p50Ms: Number.POSITIVE_INFINITY, p99Ms: Number.POSITIVE_INFINITY };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const { js, stream, subjectPrefix } = setup.events;
  const consumer = await js.consumers.get(stream, {
    filter_subjects: `${subjectPrefix}.wallet.>`,
    deliver_policy: DeliverPolicy.StartTime,
    opt_start_time: from.toISOString(),
  });
  const lags: number[] = [];
  // A window that wrote no event has nothing to read (consuming would wait for one).
  const messages = await consumer.consume();
  if ((await consumer.info(true)).num_pending === 0) {
    await messages.close();
    return { events: 0, p50Ms: 0, p99Ms: 0 };
  }
  // Every event of the window is stored by now: a read that waits 10 s for the next one would wait
  // for ever (a stalled consumer); it reports what it read, and says so, rather than hang the run.
  const iterator = messages[Symbol.asyncIterator]();
  for (;;) {
    const next = await within(iterator.next(), 10_000);
    if (next === 'timeout') {
      console.error(`bench: the outbox lag's read of the stream stalled after ${lags.length} events; reporting those`);
      break;
    }
    if (next.done) break;
    const message = next.value;
    const occurredAt = Date.parse(message.json<{ occurredAt: string }>().occurredAt);
    if (occurredAt >= from.getTime() && occurredAt < to.getTime()) lags.push(Number(message.timestampNanos / 1_000_000n) - occurredAt);
    if (message.info.pending === 0) break;
  }
  // Stopped, then the iteration ended (as a for-await's break would): the client's close waits for both.
  const closed = messages.close();
  await iterator.return?.();
  await closed;
  lags.sort((a, b) => a - b);
  const at = (share: number) => round(lags[Math.min(lags.length - 1, Math.floor(share * lags.length))] ?? 0, 1);
  return { events: lags.length, p50Ms: at(0.5), p99Ms: at(0.99) };
}

/** Longest the bench waits for the system to finish the work earlier windows left behind. */
const SETTLE_MS = settleMsFromEnv();

function settleMsFromEnv(): number {
  const raw = process.env['BENCH_SETTLE_MS'];
  if (raw === undefined || raw === '') return 300_000;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    console.error(`bench: BENCH_SETTLE_MS must be a whole number of milliseconds, not ${raw}`);
    process.exit(2);
  }
  return value;
}

/**
 * Waits until the work earlier windows caused is done: no unpublished outbox row, no withdrawal or
 * rebalance still processing, no webhook delivery due (a retry scheduled later is not leftover work). A window that starts on another's
 * leftovers measures those (a delivery backlog of minutes made every later window's
 * event-to-delivery figure a queue time), so each starts from an idle system.
 */
async function settle(setup: Setup): Promise<void> {
  const started = performance.now();
  progress.stage = 'waiting for the system to settle';
  for (;;) {
    const { rows } = await setup.db.query<{ outbox: number; running: number; deliveries: number }>(
      `SELECT (SELECT count(*)::int FROM ${unpublishedOutboxRows(setup.schema)}) AS outbox,
              (SELECT count(*)::int FROM "${setup.schema}".withdrawals WHERE status = 'processing')
                + (SELECT count(*)::int FROM "${setup.schema}".rebalances WHERE status = 'processing') AS running,
              (SELECT count(*)::int FROM "${setup.webhookSchema}".deliveries WHERE status = 'pending' AND next_attempt_at <= now()) AS deliveries`,
    );
    const left = rows[0] ?? { outbox: 0, running: 0, deliveries: 0 };
    const waited = performance.now() - started;
    if (left.outbox + left.running + left.deliveries === 0) {
      if (waited > 1_000) console.log(`bench: settled in ${round(waited / 1000, 1)} s`);
      return;
    }
    if (waited > SETTLE_MS) {
      const { rows: stuck } = await setup.db.query(
        `SELECT payout_legs->0->>'status' AS leg, count(*)::int AS n, min(next_run_at - now()) AS due_in
           FROM "${setup.schema}".withdrawals WHERE status = 'processing' GROUP BY 1`,
      );
      console.error(`bench: processing withdrawals by first leg's status: ${JSON.stringify(stuck)}`);
      console.error(
        `bench: not settled after ${SETTLE_MS / 1000} s (outbox ${left.outbox}, running ${left.running}, deliveries ${left.deliveries}); measuring anyway`,
      );
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

interface Setup {
  readonly system: TestSystem;
  readonly base: string;
  readonly headers: Record<string, string>;
  readonly wallets: string[];
  readonly db: pg.Client;
  readonly schema: string;
  readonly pgbenchUrl: string;
  readonly processes: Record<string, number | undefined>;
  readonly receiver: TimingReceiver;
  readonly webhookSchema: string;
  readonly activitySchema: string;
  /** Publishes one event of {@link WEBHOOK_ORG}, tagged for the receiver. */
  readonly publish: (tag: Exclude<DeliveryTag, 'event'>) => () => Promise<void>;
  /** The system's event stream, read back for the publish lag. */
  readonly events: { readonly js: JetStreamClient; readonly stream: string; readonly subjectPrefix: string };
}

const ORG = 'org_bench_wallets';
/** The organization whose events the webhook windows publish and whose registration they measure. */
const WEBHOOK_ORG = 'org_bench_webhooks';
/** Whether the writing organization subscribes to its own events too (`BENCH_WEBHOOK_WALLET_EVENTS=1`; see the top of this file). */
const SUBSCRIBE_WALLET_EVENTS = process.env['BENCH_WEBHOOK_WALLET_EVENTS'] === '1';

async function setUp(clients: number, cleanups: Cleanup[]): Promise<Setup> {
  const receiver = new TimingReceiver();
  const receiverUrl = await receiver.start();
  cleanups.push({ name: 'webhook receiver', run: () => receiver.stop() });
  const system = await startTestSystem({
    services: ['wallet', 'gvault', 'activity', 'webhook'],
    gateways: 1,
    gatewayEnv: { RATE_LIMIT_READ_PER_MINUTE: '1000000', RATE_LIMIT_WRITE_PER_MINUTE: '1000000', ...profilerEnv('gateway') },
    serviceEnv: {
      wallet: {
        WALLET_DEPOSIT_SETTLEMENT_MS: '50',
        WALLET_REBALANCE_PROCESSING_MS: '100',
        WALLET_PAYOUT_STEP_MS: '50',
        WALLET_WORKER_POLL_MS: '50',
        ...profilerEnv('wallet'),
      },
      activity: profilerEnv('activity'),
      webhook: {
        WEBHOOK_PRIVATE_HOST_ALLOWLIST: '127.0.0.1',
        ...(process.env['BENCH_WEBHOOK_PER_ENDPOINT']
          ? // The benched organization has one registration: its organization cap follows the endpoint's.
            {
              WEBHOOK_CONCURRENCY_PER_ENDPOINT: process.env['BENCH_WEBHOOK_PER_ENDPOINT'],
              WEBHOOK_CONCURRENCY_PER_ORGANIZATION: process.env['BENCH_WEBHOOK_PER_ENDPOINT'],
            }
          : {}),
        ...profilerEnv('webhook'),
      },
    },
  });
  cleanups.push({ name: 'wallets system', run: () => system.stop() });
  // Events as wallet-service's NATS user (what its outbox relay publishes as); the stream read as `ops`.
  const nats: NatsConnection = await system.nats.connect('wallet');
  cleanups.push({ name: 'NATS connection', run: () => nats.close() });
  const js = jetstream(nats);
  const opsNats: NatsConnection = await system.nats.connect('ops');
  cleanups.push({ name: 'NATS ops connection', run: () => opsNats.close() });
  const prefix = system.serviceEnv('webhook')['EVENTS_SUBJECT_PREFIX'] ?? '';
  const db = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await db.connect();
  cleanups.push({ name: 'database connection', run: () => db.end() });
  const pgbenchDb = await pgbenchDatabase(clients);
  cleanups.push({ name: 'pgbench database', run: pgbenchDb.drop });

  const base = system.gateways[0]?.url ?? '';
  const headers = { authorization: `Bearer ${await system.auth.token({ org: ORG, role: 'owner' })}`, 'content-type': 'application/json' };
  const post = (path: string, body: unknown) => fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) }).then(json);
  const get = (path: string) => fetch(`${base}${path}`, { headers }).then(json);
  const webhookHeaders = { ...headers, authorization: `Bearer ${await system.auth.token({ org: WEBHOOK_ORG, role: 'owner' })}` };
  await fetch(`${base}/v2/webhooks`, {
    method: 'POST',
    headers: webhookHeaders,
    body: JSON.stringify({ url: receiverUrl, events: WEBHOOK_FAMILIES.webhooks }),
  }).then(json);
  if (SUBSCRIBE_WALLET_EVENTS) await post('/v2/webhooks', { url: receiverUrl, events: WEBHOOK_FAMILIES.webhooks });
  console.log(`bench: ${clients} funded wallets`);
  const wallets = await Promise.all(
    Array.from({ length: clients }, async () => {
      const wallet = await post('/v2/wallets', {
        requestId: randomUUID(),
        strategy: { allocations: { usdc: [{ yieldSourceId: JAAA, pct: 100 }] } },
      });
      const walletPath = `/v2/wallets/${String(wallet['id'])}`;
      await until(
        () => get(walletPath),
        (body) => body['status'] === 'idle',
      );
      const deposit = await post(`${walletPath}/deposits/simulate`, { amountUsd: '1000000' });
      await until(
        () => get(`${walletPath}/deposits/${String(deposit['id'])}`),
        (body) => body['status'] === 'completed',
      );
      return String(wallet['id']);
    }),
  );
  return {
    system,
    base,
    headers,
    wallets,
    db,
    schema: system.serviceEnv('wallet')['DATABASE_SCHEMA'] ?? '',
    pgbenchUrl: pgbenchDb.url,
    processes: {
      wallet: system.services.get('wallet')?.child.pid,
      activity: system.services.get('activity')?.child.pid,
      gateway: system.gateways[0]?.process.child.pid,
      webhook: system.services.get('webhook')?.child.pid,
      gvault: system.services.get('gvault')?.child.pid,
    },
    receiver,
    webhookSchema: system.serviceEnv('webhook')['DATABASE_SCHEMA'] ?? '',
    activitySchema: system.serviceEnv('activity')['DATABASE_SCHEMA'] ?? '',
    publish: (tag) => () => publishBenchEvent(js, prefix, WEBHOOK_ORG, tag),
    events: {
      js: jetstream(opsNats),
      stream: system.serviceEnv('wallet')['EVENTS_STREAM'] ?? '',
      subjectPrefix: system.serviceEnv('wallet')['EVENTS_SUBJECT_PREFIX'] ?? '',
    },
  };
}

/** The wallet service and the gateway, when this measurement is profiled. */
function profiledOf(setup: Setup, profile: string | undefined, names: readonly string[] = ['wallet', 'gateway']): [string, number][] {
  if (!profile) return [];
  return names.flatMap((name) => {
    const pid = setup.processes[name];
    return pid === undefined ? [] : [[name, pid] as [string, number]];
  });
}

/** A read route under 50 connections; several `paths` are requested in turn by each connection. */
async function measureRead(
  setup: Setup,
  paths: string | readonly string[],
  durationS: number,
  profile: string | undefined,
  profiledNames: readonly string[] = ['wallet', 'gateway'],
): Promise<RouteResult> {
  const all = typeof paths === 'string' ? [paths] : paths;
  progress.stage = `reads of ${all[0] ?? ''}`;
  for (const each of all) {
    const checked = await fetch(`${setup.base}${each}`, { headers: setup.headers });
    if (checked.status !== 200) throw new Error(`GET ${each} answered ${checked.status}: ${await checked.text()}`);
    await checked.arrayBuffer();
  }
  const path = all[0] ?? '/';
  const url = `${setup.base}${path}`;
  const load = { url, headers: setup.headers, connections: READ_CONNECTIONS, paths: all.length > 1 ? all : undefined };
  await runLoad({ ...load, durationS: 1 });
  const profiled = profiledOf(setup, profile, profiledNames);
  for (const [, pid] of profiled) startProfile(pid);
  const before = cpuOf(setup.processes);
  const result = await runLoad({ ...load, durationS });
  const after = cpuOf(setup.processes);
  for (const [name, pid] of profiled) await collectProfile(name, pid, profile ?? '');
  if (failuresOf(result) > 0) throw new Error(`GET ${path} had ${failuresOf(result)} failed requests`);
  const requests = result['2xx'];
  return {
    requestsPerSecond: Math.round(requests / result.duration),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    cpuMicrosPerRequest: perRequest(before, after, requests),
  };
}

/** The deliveries of `tag` the receiver got since its reset, over `seconds`, and webhook-service's CPU per delivery. */
function deliveriesOf(setup: Setup, tag: DeliveryTag, seconds: number, webhookCpuMs: number | null): Deliveries {
  const latencies = setup.receiver.latencies(tag);
  const all = setup.receiver.received('event') + setup.receiver.received('backlog') + setup.receiver.received('steady');
  return {
    deliveries: latencies.length,
    perSecond: round(latencies.length / seconds, 0),
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    cpuMicrosPerDelivery: webhookCpuMs === null || all === 0 ? null : Math.round((webhookCpuMs * 1000) / all),
  };
}

const cpuSpent = (before: Record<string, number | undefined>, after: Record<string, number | undefined>, name: string): number | null => {
  const start = before[name];
  const end = after[name];
  return start === undefined || end === undefined ? null : end - start;
};

async function measureWrite(
  setup: Setup,
  key: WriteKey,
  clients: number,
  durationS: number,
  warmUpS: number,
  profile: string | undefined,
): Promise<RouteResult & { outboxLagMs: OutboxLag; webhooks: Deliveries }> {
  progress.stage = `${key} warm-up`;
  await writeLoad(setup, [key], clients, warmUpS);
  await settle(setup);
  progress.stage = `${key} window`;
  const profiled = profiledOf(setup, profile, ['wallet', 'gateway', 'webhook', 'activity']);
  for (const [, pid] of profiled) startProfile(pid);
  const from = new Date();
  await setup.receiver.reset();
  await statements.reset(setup.db, [setup.schema, setup.activitySchema]);
  const stopPerf = startPerf(key);
  const before = cpuOf(setup.processes);
  const writes = await writeLoad(setup, [key], clients, durationS);
  const after = cpuOf(setup.processes);
  await stopPerf();
  const to = new Date();
  await statements.report(setup.db, `${key} window`, writes.count);
  await statements.reportTables(setup, `${key} window and the work it left`);
  const seconds = (to.getTime() - from.getTime()) / 1000;
  const webhooks = deliveriesOf(setup, 'event', seconds, cpuSpent(before, after, 'webhook'));
  for (const [name, pid] of profiled) await collectProfile(name, pid, profile ?? '');
  return {
    requestsPerSecond: round(writes.count / writes.seconds, 0),
    p50Ms: writes.p50Ms,
    p99Ms: writes.p99Ms,
    cpuMicrosPerRequest: perRequest(before, after, writes.count),
    outboxLagMs: await outboxLag(setup, from, to),
    webhooks,
  };
}

/** Where the attempts claimed since `from` spent their time, from webhook-service's tables. */
async function attemptTimes(setup: Setup, from: Date): Promise<AttemptTimes> {
  const ms = (expression: string, name: string) =>
    `percentile_disc(0.5) WITHIN GROUP (ORDER BY ${expression}) AS ${name}_p50, percentile_disc(0.99) WITHIN GROUP (ORDER BY ${expression}) AS ${name}_p99`;
  const { rows } = await setup.db.query<Record<string, number | null>>(
    `SELECT ${ms('extract(epoch FROM e.requested_at - d.created_at) * 1000', 'queue')},
            ${ms('e.response_ms', 'response')}, ${ms('extract(epoch FROM e.completed_at - e.requested_at) * 1000', 'attempt')}
       FROM "${setup.webhookSchema}".emissions e JOIN "${setup.webhookSchema}".deliveries d ON d.id = e.delivery_id
      WHERE e.requested_at >= $1 AND e.completed_at IS NOT NULL`,
    [from],
  );
  const values = Object.values(rows[0] ?? {}).map((value) => Math.round(Number(value ?? 0)));
  const pair = (index: number) => [values[index] ?? 0, values[index + 1] ?? 0] as const;
  return { queue: pair(0), response: pair(2), attempt: pair(4) };
}

/**
 * Webhook deliveries of the bench's own events while the write load runs (half the clients
 * allocate, half withdraw): `backlog` publishes {@link BACKLOG_EVENTS} at once and takes the
 * deliveries per second from the first publish to the last delivery; `steady` publishes
 * {@link STEADY_RATE} events per second for the window and takes their event-to-delivery
 * latency. The write load runs until the window is over and every event was delivered.
 */
async function measureWebhooksUnderLoad(
  setup: Setup,
  tag: Exclude<DeliveryTag, 'event'>,
  clients: number,
  durationS: number,
  warmUpS: number,
  profile: string | undefined,
): Promise<WebhookUnderLoad> {
  const kinds: WriteKey[] = ['withdraw', 'allocate'];
  progress.stage = `webhooks ${tag} warm-up`;
  await writeLoad(setup, kinds, clients, warmUpS);
  await settle(setup);
  progress.stage = `webhooks ${tag} window`;
  const profiled = profiledOf(setup, profile, ['webhook']);
  for (const [, pid] of profiled) startProfile(pid);
  await setup.receiver.reset();
  let delivering = true;
  const started = performance.now();
  const before = cpuOf(setup.processes);
  // On while the events are delivered, for twice the window at most.
  const load = writeLoad(setup, kinds, clients, durationS, { more: () => delivering, untilS: 2 * durationS });
  const events = tag === 'backlog' ? BACKLOG_EVENTS : STEADY_RATE * durationS;
  try {
    if (tag === 'backlog') await publishBacklog(setup.publish(tag), events);
    else await publishSteadily(setup.publish(tag), STEADY_RATE, durationS);
    await setup.receiver.until(tag, events, DRAIN_MS).catch((error: Error) => console.error(`bench: ${error.message}`));
  } finally {
    delivering = false;
  }
  const seconds = (performance.now() - started) / 1000;
  const after = cpuOf(setup.processes);
  const arrived = deliveriesOf(setup, tag, seconds, cpuSpent(before, after, 'webhook'));
  // Events never delivered have no latency: the percentiles say so.
  const deliveries = arrived.deliveries < events ? { ...arrived, p99Ms: Number.POSITIVE_INFINITY } : arrived;
  const walletEventDeliveries = setup.receiver.received('event');
  const attempts = await attemptTimes(setup, new Date(Date.now() - seconds * 1000));
  const writes = await load;
  for (const [name, pid] of profiled) await collectProfile(name, pid, profile ?? '');
  return {
    ...deliveries,
    events,
    seconds: round(seconds),
    walletEventDeliveries,
    writesPerSecond: round(writes.count / writes.seconds, 0),
    attempts,
  };
}

function targetsOf(rounds: WalletsRound[]): Target[] {
  const measured = (values: (number | undefined)[]) => median(values.filter((value): value is number => value !== undefined));
  const worst = (values: number[]) => Math.max(...values);
  const share = (key: keyof WalletsRound['ratios'], label: string, required: number, of: string): Target => {
    const actual = measured(rounds.map((each) => each.ratios[key]));
    return { name: `${label} req/s >= ${pct(required)} of ${of}`, actual: pct(actual), met: actual >= required };
  };
  const p99 = (label: string, actual: number, atMost: number): Target => ({
    name: `${label} p99 <= ${atMost} ms`,
    actual: `${actual} ms`,
    met: actual <= atMost,
  });
  const targets: Target[] = [];
  const reads = rounds.flatMap((each) => (each.reads ? [each.reads] : []));
  if (reads.length > 0) {
    targets.push(
      share('wallet', READS.wallet, TARGETS.walletShareOfNats, 'the NATS route'),
      p99(READS.wallet, worst(reads.map((each) => each.wallet.p99Ms)), TARGETS.readP99Ms),
      share('wallets', READS.wallets, TARGETS.listShareOfNats, 'the NATS route'),
      share('activity', READS.activity, TARGETS.listShareOfNats, 'the NATS route'),
    );
  }
  const writes = rounds.flatMap((each) => (each.writes ? [each.writes] : []));
  if (writes.length > 0) {
    targets.push(
      share('allocate', WRITES.allocate, TARGETS.writeShareOfPgbench, 'pgbench TPC-B tps'),
      p99(WRITES.allocate, worst(writes.map((each) => each.allocate.p99Ms)), TARGETS.writeP99Ms),
      share('withdraw', WRITES.withdraw, TARGETS.writeShareOfPgbench, 'pgbench TPC-B tps'),
      p99(WRITES.withdraw, worst(writes.map((each) => each.withdraw.p99Ms)), TARGETS.writeP99Ms),
      p99(
        'outbox publish lag under the write load',
        worst(writes.flatMap((each) => [each.allocate.outboxLagMs.p99Ms, each.withdraw.outboxLagMs.p99Ms])),
        TARGETS.outboxLagP99Ms,
      ),
    );
  }
  const webhooks = rounds.flatMap((each) => (each.webhooks ? [each.webhooks] : []));
  if (webhooks.length > 0) {
    const backlogRate = median(webhooks.map((each) => each.backlog.perSecond));
    targets.push(
      {
        name: `webhook deliveries/s from a ${BACKLOG_EVENTS}-event backlog under the write load >= ${TARGETS.webhookDeliveriesPerSecond}`,
        actual: `${backlogRate}/s`,
        met: backlogRate >= TARGETS.webhookDeliveriesPerSecond,
      },
      p99(
        `webhook event-to-delivery at ${STEADY_RATE} events/s under the write load`,
        worst(webhooks.map((each) => each.steady.p99Ms)),
        TARGETS.webhookP99Ms,
      ),
    );
  }
  return targets;
}

function report(rounds: WalletsRound[], targets: Target[]): void {
  const cpu = (result: RouteResult) =>
    Object.entries(result.cpuMicrosPerRequest ?? {})
      .map(([name, micros]) => `${name} ${micros ?? '?'}`)
      .join(', ');
  const delivered = (result: Deliveries) =>
    `${result.perSecond}/s, p50 ${result.p50Ms}, p99 ${result.p99Ms} ms, webhook ${result.cpuMicrosPerDelivery ?? '?'} µs/delivery`;
  const lines: string[][] = [];
  rounds.forEach((each, index) => {
    const n = `${index + 1}: `;
    const { reads, pgbench: baseline, writes, webhooks } = each;
    const ratio = (key: keyof WalletsRound['ratios']) => pct(each.ratios[key] ?? Number.NaN);
    if (reads) {
      lines.push([
        `${n}gateway -> NATS -> gvault`,
        String(reads.nats.requestsPerSecond),
        String(reads.nats.p50Ms),
        String(reads.nats.p99Ms),
        '100%',
        cpu(reads.nats),
        '',
      ]);
      for (const key of Object.keys(READS) as (keyof typeof READS)[]) {
        const result = reads[key];
        lines.push([
          `${n}${READS[key]}`,
          String(result.requestsPerSecond),
          String(result.p50Ms),
          String(result.p99Ms),
          ratio(key),
          cpu(result),
          '',
        ]);
      }
    }
    if (baseline)
      lines.push([`${n}pgbench -M prepared TPC-B`, String(baseline.tps), String(baseline.latencyAverageMs), '', '100%', '', '']);
    if (writes) {
      for (const key of Object.keys(WRITES) as WriteKey[]) {
        const result = writes[key];
        const lag = result.outboxLagMs;
        lines.push([
          `${n}${WRITES[key]}`,
          String(result.requestsPerSecond),
          String(result.p50Ms),
          String(result.p99Ms),
          ratio(key),
          cpu(result),
          `${lag.events} events, p50 ${lag.p50Ms}, p99 ${lag.p99Ms}`,
          delivered(result.webhooks),
        ]);
      }
    }
    if (webhooks) {
      for (const [tag, label] of [
        ['backlog', `webhooks: ${BACKLOG_EVENTS} backlog under writes`],
        ['steady', `webhooks: ${STEADY_RATE} events/s under writes`],
      ] as const) {
        const result = webhooks[tag];
        lines.push([
          `${n}${label}`,
          String(result.perSecond),
          String(result.p50Ms),
          String(result.p99Ms),
          '',
          `webhook ${result.cpuMicrosPerDelivery ?? '?'}/delivery`,
          `writes ${result.writesPerSecond} req/s`,
          `${result.deliveries} in ${result.seconds} s, + ${result.walletEventDeliveries} wallet events; ms p50/p99: ` +
            `queue ${result.attempts.queue.join('/')}, claim to record ${result.attempts.attempt.join('/')}, response ${result.attempts.response.join('/')}`,
        ]);
      }
    }
  });
  const header = ['round: scenario', 'req/s', 'p50 ms', 'p99 ms', 'ratio', 'CPU µs/req', 'outbox publish lag ms', 'webhook deliveries'];
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => (line[column] ?? '').length)));
  const format = (cells: string[]) =>
    cells
      .map((cell, column) => (column === 0 || column >= 5 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  console.log('');
  console.log([format(header), widths.map((width) => '-'.repeat(width)).join('  '), ...lines.map(format)].join('\n'));
  console.log("\nreads as a share of the round's NATS route, writes of its pgbench tps (p50 column: pgbench's average latency)");
  const walletEvents = SUBSCRIBE_WALLET_EVENTS ? 'subscribed' : 'not subscribed, BENCH_WEBHOOK_WALLET_EVENTS=1 subscribes them';
  console.log(
    `webhooks: req/s column = deliveries/s of the bench's events, p50/p99 = event-to-delivery; the writes' rows: deliveries of the wallet's own events (${walletEvents})`,
  );
  console.log(`Of ${rounds.length} rounds: the median round's ratio, the worst round's p99.`);
  for (const target of targets) console.log(`${target.met ? 'MET   ' : 'MISSED'}  ${target.name}: ${target.actual}`);
}

/** `BENCH_WALLET_PARTS` read: the named parts in their fixed order, all when unset; an unknown name is an error. */
export function walletsPartsOf(value: string | undefined): readonly WalletsPart[] {
  if (value === undefined || value.trim() === '') return PARTS;
  const named = value.split(',').map((name) => name.trim());
  const unknown = named.filter((name) => !(PARTS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`BENCH_WALLET_PARTS: unknown part(s) ${unknown.join(', ')}; the parts are ${PARTS.join(', ')}`);
  return PARTS.filter((part) => named.includes(part));
}

export async function benchWallets(options: WalletsBenchOptions = {}): Promise<WalletsBenchResult> {
  const durationS = options.durationS ?? 10;
  const rounds = options.rounds ?? 3;
  const clients = options.clients ?? 20;
  const parts = options.parts ?? PARTS;
  try {
    const setup = await setUp(clients, suiteCleanups);
    const results: WalletsRound[] = [];
    for (let index = 0; index < rounds; index += 1) {
      console.log(`bench: wallets round ${index + 1} of ${rounds}`);
      const profile = CPU_PROFILE && index === 0;
      const warmUpS = index === 0 ? WRITE_WARM_UP_S.first : WRITE_WARM_UP_S.later;
      await settle(setup);
      const reads = parts.includes('reads')
        ? {
            nats: await measureRead(setup, '/v2/gvaults/yield-sources', durationS, undefined),
            // Every funded wallet in turn: concurrent reads of one wallet alone would be a read of one row.
            wallet: await measureRead(
              setup,
              setup.wallets.map((id) => `/v2/wallets/${id}`),
              durationS,
              profile ? 'get-wallet' : undefined,
            ),
            wallets: await measureRead(setup, '/v2/wallets', durationS, profile ? 'list-wallets' : undefined),
            activity: await measureRead(setup, '/v2/activity', durationS, profile ? 'activity-feed' : undefined, ['activity', 'gateway']),
          }
        : undefined;
      progress.stage = `round ${index + 1}: pgbench`;
      const baseline = parts.includes('writes') ? await pgbench(setup.pgbenchUrl, clients, durationS) : undefined;
      const writes = parts.includes('writes')
        ? {
            allocate: await measureWrite(setup, 'allocate', clients, durationS, warmUpS, profile ? 'allocate' : undefined),
            withdraw: await measureWrite(setup, 'withdraw', clients, durationS, warmUpS, profile ? 'withdraw' : undefined),
          }
        : undefined;
      const webhooks = parts.includes('webhooks')
        ? {
            backlog: await measureWebhooksUnderLoad(setup, 'backlog', clients, durationS, warmUpS, profile ? 'webhook-backlog' : undefined),
            steady: await measureWebhooksUnderLoad(setup, 'steady', clients, durationS, warmUpS, profile ? 'webhook-steady' : undefined),
          }
        : undefined;
      const readShare = (key: Exclude<ReadKey, 'nats'>) =>
        reads ? { [key]: round(reads[key].requestsPerSecond / reads.nats.requestsPerSecond, 3) } : {};
      const writeShare = (key: WriteKey) => (writes && baseline ? { [key]: round(writes[key].requestsPerSecond / baseline.tps, 3) } : {});
      results.push({
        reads,
        pgbench: baseline,
        writes,
        webhooks,
        ratios: {
          ...readShare('wallet'),
          ...readShare('wallets'),
          ...readShare('activity'),
          ...writeShare('allocate'),
          ...writeShare('withdraw'),
        },
      });
    }
    const targets = targetsOf(results);
    report(results, targets);
    return {
      settings: { durationS, rounds, readConnections: READ_CONNECTIONS, writeClients: clients, pgbenchScale: clients, parts },
      rounds: results,
      targets,
      allTargetsMet: targets.every((target) => target.met),
    };
  } finally {
    await runCleanups(suiteCleanups);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const durationS = process.env['BENCH_DURATION_S'] ? Number(process.env['BENCH_DURATION_S']) : undefined;
  const rounds = process.env['BENCH_ROUNDS'] ? Number(process.env['BENCH_ROUNDS']) : undefined;
  await benchWallets({ durationS, rounds, parts: walletsPartsOf(process.env['BENCH_WALLET_PARTS']) });
  process.exit(0);
}
