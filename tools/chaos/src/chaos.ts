import { randomUUID } from 'node:crypto';
import { unpublishedOutboxRows } from '@service/events';
import {
  type AppProcess,
  callGateway,
  type HttpReply,
  startApp,
  startTestSystem,
  TEST_DATABASE_URL,
  type TestSystem,
} from '@service/testing';
import pg from 'pg';
import { LoopbackReceiver } from './receiver.js';

/**
 * The chaos run of issue 18: two replicas each of wallet-service and webhook-service (same queue
 * groups, schemas and durable consumers) under a write load of sandbox deposits, allocations and
 * withdrawals, webhooks registered to a loopback receiver, replicas killed with SIGKILL at random
 * moments and started again. Then it waits for the system to settle and lists every broken
 * promise in `problems`: an accepted deposit not completed or announced completed more than once,
 * an accepted withdrawal not terminal, an event not delivered to a registration, a wallet whose
 * balance is not its deposits minus its payouts plus yield, a 5xx other than 503.
 */
export interface ChaosOptions {
  /** Seeds every random choice (load, amounts, kill moments), printed so a run can be replayed. */
  readonly seed: number;
  /**
   * How many replicas the monkey kills; the load lasts until the last of them is back up, so the
   * run pays for kills, not for a fixed duration.
   */
  readonly kills: number;
  /** The pause before each kill, drawn between these bounds (ms). */
  readonly killEveryMs: readonly [number, number];
  /** Concurrent clients of the load. */
  readonly workers: number;
  readonly wallets: number;
  /** How long the system may take to settle once the load stopped. */
  readonly settleTimeoutMs: number;
  readonly log?: (line: string) => void;
}

export interface ChaosReport {
  readonly figures: Record<string, number | string>;
  readonly problems: string[];
}

const CASH = 'cash:ethereum_sepolia:usdc';
const JAAA = 'service-jaaa-usdc-vault';
const EVM = '0x52908400098527886E0F7030069857D2E4169EE7';
const EVENT_TYPES = [
  'portfolio_wallet.deposit.status_changed',
  'portfolio_wallet.withdrawal.status_changed',
  'portfolio_wallet.rebalance.status_changed',
] as const;
const TERMINAL_WITHDRAWAL = new Set(['completed', 'partially_completed', 'failed', 'cancelled']);
/** Rounding allowed between a wallet's balance and its deposits minus payouts (micro-dollars). */
const ROUNDING_MICROS = 10n;

/** Scaled-down delays: workflows in a fraction of a second, retries and leases in seconds. */
const SERVICE_ENV = {
  wallet: {
    WALLET_DEPOSIT_SETTLEMENT_MS: '200',
    WALLET_REBALANCE_PROCESSING_MS: '200',
    WALLET_WORKER_POLL_MS: '50',
    WALLET_PAYOUT_STEP_MS: '50',
    WALLET_MAX_PER_ORG: '40',
  },
  webhook: {
    WEBHOOK_PRIVATE_HOST_ALLOWLIST: '127.0.0.1',
    WEBHOOK_DELIVERY_TIMEOUT_MS: '1000',
    WEBHOOK_RETRY_SCHEDULE_SCALE: '0.001',
    WEBHOOK_POLL_INTERVAL_MS: '100',
    WEBHOOK_EVENT_ACK_WAIT_MS: '2000',
  },
};

/** mulberry32: a small seeded PRNG, one per actor so each actor's choices replay from the seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const micros = (usd: string): bigint => {
  const [whole = '0', fraction = ''] = usd.split('.');
  return BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, '0').slice(0, 6));
};
const usd = (value: bigint) => `${value / 1_000_000n}.${String(value % 1_000_000n).padStart(6, '0')}`;

type Service = 'wallet' | 'webhook';

/** One replica: a built app that can be killed and started again on the same schema and stream. */
class Replica {
  kills = 0;
  restarts = 0;
  restartMs: number[] = [];
  private current: AppProcess | undefined;
  private starting: Promise<void> | undefined;

  constructor(
    readonly name: string,
    private readonly service: Service,
    private readonly system: TestSystem,
  ) {}

  get up(): boolean {
    return (
      this.starting === undefined &&
      this.current !== undefined &&
      this.current.child.exitCode === null &&
      this.current.child.signalCode === null
    );
  }

  async start(): Promise<void> {
    this.current = await startApp(
      `${this.service}-service`,
      this.system.serviceEnv(this.service),
      (line) => line.includes(`${this.service} service ready`),
      30_000,
    );
  }

  kill(): void {
    this.current?.child.kill('SIGKILL');
    this.kills += 1;
  }

  /** Starts it again after `delayMs`; `settled` waits for it. */
  restartAfter(delayMs: number): void {
    this.starting = (async () => {
      await sleep(delayMs);
      const began = Date.now();
      await this.start();
      this.restartMs.push(Date.now() - began);
      this.restarts += 1;
      this.starting = undefined;
    })();
  }

  async settled(): Promise<void> {
    await this.starting;
  }

  async stop(): Promise<void> {
    await this.settled().catch(() => undefined);
    await this.current?.stop();
  }
}

interface Load {
  /** Set once the monkey is done and every replica is back: the clients stop. */
  stoppedAt: number | undefined;
  readonly statuses: Map<string, number>;
  readonly deposits: { id: string; walletId: string }[];
  readonly withdrawals: { id: string; walletId: string }[];
  allocations: number;
  requests: number;
  readonly unexpected: string[];
}

export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const began = Date.now();
  const receiver = new LoopbackReceiver();
  const receiverUrl = await receiver.start();
  try {
    return await underChaos(options, log, began, receiver, receiverUrl);
  } finally {
    await receiver.stop();
  }
}

async function underChaos(
  options: ChaosOptions,
  log: (line: string) => void,
  began: number,
  receiver: LoopbackReceiver,
  receiverUrl: string,
): Promise<ChaosReport> {
  const system = await startTestSystem({
    services: ['wallet', 'webhook'],
    gateways: 1,
    gatewayEnv: { RATE_LIMIT_READ_PER_MINUTE: '1000000', RATE_LIMIT_WRITE_PER_MINUTE: '1000000', NATS_REQUEST_TIMEOUT_MS: '3000' },
    serviceEnv: SERVICE_ENV,
  });
  // The test system started replica 1 of each; replica 2 shares its schema, stream and queue group.
  const replicas = (['wallet', 'webhook'] as const).flatMap((service) =>
    [1, 2].map((n) => new Replica(`${service}-${n}`, service, system)),
  );
  const db = new pg.Client({ connectionString: TEST_DATABASE_URL });
  try {
    await Promise.all(replicas.map((replica) => replica.start()));
    await db.connect();
    const setupMs = Date.now() - began;
    const url = system.gateways[0]?.url ?? '';
    const org = `org_chaos_${system.runId}`;
    const token = await system.auth.token({ org, role: 'owner', sub: 'user_chaos' });
    const call = <T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<HttpReply<T>> =>
      callGateway<T>(url, token, method, path, body);

    const registrations: { id: string; path: string }[] = [];
    for (const path of ['/r0', '/r1']) {
      const created = await call<{ id: string }>('POST', '/v2/webhooks', { url: `${receiverUrl}${path}`, events: EVENT_TYPES });
      if (created.status !== 200) throw new Error(`webhook registration failed: ${created.status} ${JSON.stringify(created.body)}`);
      registrations.push({ id: created.body.id, path });
    }
    const wallets: string[] = [];
    for (let index = 0; index < options.wallets; index += 1) {
      const created = await call<{ id: string }>('POST', '/v2/wallets', {
        requestId: randomUUID(),
        autoRebalance: false,
        strategy: { allocations: { usdc: [{ yieldSourceId: JAAA, pct: 100 }] } },
      });
      if (created.status !== 200) throw new Error(`wallet creation failed: ${created.status} ${JSON.stringify(created.body)}`);
      wallets.push(created.body.id);
    }
    await waitUntil(options.settleTimeoutMs, async () => {
      const { rows } = await db.query(
        `SELECT count(*)::int AS n FROM "${walletSchema(system)}".wallets WHERE org_id = $1 AND status = 'idle'`,
        [org],
      );
      return rows[0].n === wallets.length;
    });

    log(
      `chaos: seed ${options.seed}, ${options.workers} clients on ${wallets.length} wallets until ${options.kills} kills, 2 registrations; replicas ${replicas.map((r) => r.name).join(', ')}`,
    );
    const load: Load = {
      stoppedAt: undefined,
      statuses: new Map(),
      deposits: [],
      withdrawals: [],
      allocations: 0,
      requests: 0,
      unexpected: [],
    };
    const loadStarted = Date.now();
    await Promise.all([
      ...Array.from({ length: options.workers }, (_, worker) =>
        client(worker, seededRandom(options.seed + worker + 1), wallets, call, load),
      ),
      monkey(seededRandom(options.seed), loadStarted, options, replicas, log).then(() => (load.stoppedAt = Date.now())),
    ]);
    const loadMs = Date.now() - loadStarted;

    const settleStarted = Date.now();
    const expected = await settle(db, system, org, registrations, receiver, options.settleTimeoutMs);
    const settleMs = Date.now() - settleStarted;
    const problems = [...load.unexpected, ...(await check(db, system, org, wallets, registrations, receiver, load, call, expected))];
    const unique = new Set(receiver.received.map((item) => `${item.path} ${item.serviceEventId}`)).size;
    const figures: Record<string, number | string> = {
      seed: options.seed,
      requests: load.requests,
      statuses: [...load.statuses].map(([key, count]) => `${key}: ${count}`).join(', '),
      depositsAccepted: load.deposits.length,
      allocationsAccepted: load.allocations,
      withdrawalsAccepted: load.withdrawals.length,
      kills: replicas.reduce((sum, replica) => sum + replica.kills, 0),
      killsPerReplica: replicas.map((replica) => `${replica.name} ${replica.kills}`).join(', '),
      restarts: replicas.reduce((sum, replica) => sum + replica.restarts, 0),
      restartMsMax: Math.max(0, ...replicas.flatMap((replica) => replica.restartMs)),
      deliveriesExpected: expected,
      deliveriesReceived: receiver.received.length,
      deliveriesUnique: unique,
      duplicateDeliveries: receiver.received.length - unique,
      setupMs,
      loadMs,
      settleMs,
      totalMs: Date.now() - began,
    };
    log(
      `chaos figures:\n${Object.entries(figures)
        .map(([key, value]) => `  ${key}: ${value}`)
        .join('\n')}`,
    );
    return { figures, problems };
  } finally {
    await Promise.all(replicas.map((replica) => replica.stop()));
    await db.end().catch(() => undefined);
    await system.stop();
  }
}

const walletSchema = (system: TestSystem) => system.serviceEnv('wallet')['DATABASE_SCHEMA'] ?? '';
const webhookSchema = (system: TestSystem) => system.serviceEnv('webhook')['DATABASE_SCHEMA'] ?? '';

async function waitUntil(timeoutMs: number, done: () => Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await done()) return true;
    await sleep(200);
  }
  return false;
}

/**
 * One client: random writes with pauses; a 503 (the retryable answer when no replica replies) of
 * an idempotent write is retried with the same requestId; a 503 of a deposit is not (it may or may
 * not exist: the checks read every deposit of the wallet).
 */
async function client(
  worker: number,
  random: () => number,
  wallets: string[],
  call: (method: string, path: string, body?: unknown) => Promise<HttpReply<Record<string, unknown>>>,
  load: Load,
): Promise<void> {
  const amount = (min: number, max: number) => (min + random() * (max - min)).toFixed(6);
  const send = async (kind: string, method: string, path: string, body: unknown, retries: number) => {
    for (let attempt = 0; ; attempt += 1) {
      load.requests += 1;
      let reply: HttpReply<Record<string, unknown>>;
      try {
        reply = await call(method, path, body);
      } catch (error) {
        load.unexpected.push(`client ${worker}: ${kind} failed without an HTTP answer: ${String(error)}`);
        return undefined;
      }
      const key = `${kind} ${reply.status}${reply.status >= 400 ? ` ${String(reply.body['code'])}` : ''}`;
      load.statuses.set(key, (load.statuses.get(key) ?? 0) + 1);
      if (reply.status >= 500 && reply.status !== 503)
        load.unexpected.push(`client ${worker}: ${kind} answered ${reply.status} ${JSON.stringify(reply.body)}`);
      if (reply.status !== 503 || attempt >= retries || Date.now() > (load.stoppedAt ?? Infinity) + 15_000) return reply;
      await sleep(200 + random() * 300);
    }
  };
  while (load.stoppedAt === undefined) {
    const walletId = wallets[Math.floor(random() * wallets.length)] ?? '';
    const choice = random();
    if (choice < 0.45) {
      const reply = await send('deposit', 'POST', `/v2/wallets/${walletId}/deposits/simulate`, { amountUsd: amount(5, 50) }, 0);
      if (reply?.status === 200) load.deposits.push({ id: String(reply.body['id']), walletId });
    } else if (choice < 0.7) {
      const body = { requestId: randomUUID(), allocations: [{ from: CASH, to: JAAA, amountUsd: amount(5, 15) }] };
      const reply = await send('allocate', 'POST', `/v2/wallets/${walletId}/allocate`, body, 20);
      if (reply?.status === 200) load.allocations += 1;
    } else {
      const body = { requestId: randomUUID(), destinationChain: 'ethereum_sepolia', destinationAddress: EVM, amountUsd: amount(2, 10) };
      const reply = await send('withdraw', 'POST', `/v2/wallets/${walletId}/withdrawals`, body, 20);
      if (reply?.status === 200) load.withdrawals.push({ id: String(reply.body['id']), walletId });
    }
    await sleep(20 + random() * 100);
  }
}

/**
 * Kills a random live replica with SIGKILL after each pause of `killEveryMs` and starts it again
 * 0.3 to 1.5 s later, `kills` times; resolves once every replica is back up.
 */
async function monkey(
  random: () => number,
  started: number,
  { kills, killEveryMs: [least, most] }: Pick<ChaosOptions, 'kills' | 'killEveryMs'>,
  replicas: Replica[],
  log: (line: string) => void,
): Promise<void> {
  for (let killed = 0; killed < kills;) {
    await sleep(least + random() * (most - least));
    const live = replicas.filter((replica) => replica.up);
    const victim = live[Math.floor(random() * live.length)];
    if (!victim) continue;
    const delay = 300 + random() * 1200;
    log(`chaos: SIGKILL ${victim.name} at +${Date.now() - started} ms, restart in ${Math.round(delay)} ms`);
    victim.kill();
    victim.restartAfter(delay);
    killed += 1;
  }
  await Promise.all(replicas.map((replica) => replica.settled()));
}

/**
 * Waits until the org's deposits, rebalances and withdrawals are done, the outbox is published
 * and every (event, registration) pair reached the receiver; answers how many pairs there are.
 */
async function settle(
  db: pg.Client,
  system: TestSystem,
  org: string,
  registrations: { id: string; path: string }[],
  receiver: LoopbackReceiver,
  timeoutMs: number,
): Promise<number> {
  const wallet = walletSchema(system);
  let expected = 0;
  await waitUntil(timeoutMs, async () => {
    const pending = await db.query(
      `SELECT (SELECT count(*) FROM "${wallet}".deposits WHERE org_id = $1 AND status <> 'completed')
            + (SELECT count(*) FROM "${wallet}".withdrawals WHERE org_id = $1 AND status NOT IN ('completed', 'partially_completed', 'failed', 'cancelled'))
            + (SELECT count(*) FROM "${wallet}".rebalances r JOIN "${wallet}".wallets w ON w.id = r.wallet_id WHERE w.org_id = $1 AND r.status NOT IN ('completed', 'failed'))
            + (SELECT count(*) FROM ${unpublishedOutboxRows(wallet)} WHERE o.org_id = $1) AS n`,
      [org],
    );
    if (Number(pending.rows[0].n) > 0) return false;
    const events = await subscribedEvents(db, system, org);
    expected = events.length * registrations.length;
    const received = new Set(receiver.received.map((item) => item.path));
    return received.size === registrations.length && (await missingDeliveries(db, system, events, registrations, receiver)).length === 0;
  });
  return expected;
}

async function subscribedEvents(
  db: pg.Client,
  system: TestSystem,
  org: string,
): Promise<{ id: string; type: string; payload: Record<string, Record<string, string>> }[]> {
  const { rows } = await db.query(
    `SELECT id::text, type, payload FROM "${walletSchema(system)}".outbox_events WHERE org_id = $1 AND type = ANY($2)`,
    [org, EVENT_TYPES],
  );
  return rows as { id: string; type: string; payload: Record<string, Record<string, string>> }[];
}

/** Every (event, registration) pair without a delivery row, or whose delivery never reached the receiver with its id and body. */
async function missingDeliveries(
  db: pg.Client,
  system: TestSystem,
  events: { id: string }[],
  registrations: { id: string; path: string }[],
  receiver: LoopbackReceiver,
): Promise<string[]> {
  const { rows } = await db.query(
    `SELECT id::text, registration_id::text, source_event_id::text, body FROM "${webhookSchema(system)}".deliveries`,
  );
  const deliveries = new Map(
    (rows as { id: string; registration_id: string; source_event_id: string; body: string }[]).map((row) => [
      `${row.registration_id} ${row.source_event_id}`,
      row,
    ]),
  );
  const got = new Set(receiver.received.map((item) => `${item.path} ${item.serviceEventId} ${item.body}`));
  const missing: string[] = [];
  for (const event of events) {
    for (const registration of registrations) {
      const delivery = deliveries.get(`${registration.id} ${event.id}`);
      if (!delivery) missing.push(`event ${event.id} has no delivery for registration ${registration.path}`);
      else if (!got.has(`${registration.path} ${delivery.id} ${delivery.body}`))
        missing.push(`delivery ${delivery.id} of event ${event.id} never reached ${registration.path}`);
    }
  }
  return missing;
}

async function check(
  db: pg.Client,
  system: TestSystem,
  org: string,
  wallets: string[],
  registrations: { id: string; path: string }[],
  receiver: LoopbackReceiver,
  load: Load,
  call: (method: string, path: string) => Promise<HttpReply<Record<string, unknown>>>,
  expected: number,
): Promise<string[]> {
  const problems: string[] = [];
  const schema = walletSchema(system);
  const deposits = new Map(
    (
      (await db.query(`SELECT id::text, wallet_id::text, amount, status FROM "${schema}".deposits WHERE org_id = $1`, [org])).rows as {
        id: string;
        wallet_id: string;
        amount: string;
        status: string;
      }[]
    ).map((row) => [row.id, row]),
  );
  const events = await subscribedEvents(db, system, org);
  const completions = new Map<string, number>();
  for (const event of events) {
    const deposit = event.payload['deposit'];
    if (event.type === 'portfolio_wallet.deposit.status_changed' && deposit?.['status'] === 'completed')
      completions.set(deposit['id'] ?? '', (completions.get(deposit['id'] ?? '') ?? 0) + 1);
  }
  for (const accepted of load.deposits) {
    const row = deposits.get(accepted.id);
    if (!row) problems.push(`accepted deposit ${accepted.id} is lost`);
    else if (row.status !== 'completed') problems.push(`accepted deposit ${accepted.id} is ${row.status}`);
  }
  for (const row of deposits.values()) {
    if (row.status === 'completed' && completions.get(row.id) !== 1)
      problems.push(`deposit ${row.id} announced completed ${completions.get(row.id) ?? 0} times`);
  }
  const withdrawals = new Map(
    (
      (await db.query(`SELECT id::text, wallet_id::text, status, amount_requested FROM "${schema}".withdrawals WHERE org_id = $1`, [org]))
        .rows as { id: string; wallet_id: string; status: string; amount_requested: string }[]
    ).map((row) => [row.id, row]),
  );
  for (const accepted of load.withdrawals) {
    const row = withdrawals.get(accepted.id);
    if (!row) problems.push(`accepted withdrawal ${accepted.id} is lost`);
    else if (!TERMINAL_WITHDRAWAL.has(row.status)) problems.push(`accepted withdrawal ${accepted.id} is ${row.status}`);
  }
  // The ledger (apps/wallet-service/README.md): positions sum to deposits plus earned yield, and a
  // completed withdrawal takes the amount requested (the fee included); a partial one its completed legs.
  for (const walletId of wallets) {
    const reply = await call('GET', `/v2/wallets/${walletId}`);
    const balance = reply.body['balance'] as { totalUsd: string; earnedUsd: string } | undefined;
    if (reply.status !== 200 || !balance) {
      problems.push(`wallet ${walletId} answered ${reply.status}`);
      continue;
    }
    const deposited = [...deposits.values()]
      .filter((row) => row.wallet_id === walletId && row.status === 'completed')
      .reduce((sum, row) => sum + BigInt(row.amount), 0n);
    let paid = 0n;
    for (const row of withdrawals.values()) {
      if (row.wallet_id !== walletId) continue;
      if (row.status === 'completed') paid += BigInt(row.amount_requested);
      else if (row.status !== 'cancelled') {
        const item = await call('GET', `/v2/wallets/${walletId}/withdrawals/${row.id}`);
        const legs = (item.body['payoutLegs'] ?? []) as { status: string; amountUsd: string }[];
        paid += legs.filter((leg) => leg.status === 'completed').reduce((sum, leg) => sum + micros(leg.amountUsd), 0n);
      }
    }
    const held = micros(balance.totalUsd) - micros(balance.earnedUsd);
    const diff = held - (deposited - paid);
    if (diff > ROUNDING_MICROS || diff < -ROUNDING_MICROS) {
      problems.push(
        `wallet ${walletId} holds ${usd(held)} besides yield, but its completed deposits ${usd(deposited)} minus payouts ${usd(paid)} make ${usd(deposited - paid)}`,
      );
    }
  }
  // Delivery is at least once (apps/webhook-service/README.md): duplicates are allowed, a missing one is not.
  problems.push(...(await missingDeliveries(db, system, events, registrations, receiver)).slice(0, 20));
  if (expected === 0) problems.push('no event was delivered at all');
  return problems;
}
