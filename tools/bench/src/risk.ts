/**
 * Risk engine benchmark (issue 39): the built risk-service (observation worker off,
 * `RISK_OBSERVATION_INTERVAL_MS=0`), the gateway, wallet-service, webhook-service and a loopback
 * webhook receiver in its own process.
 *
 * - scale: 10,000 rules over 50 sources, seeded straight into risk-service's schema with
 *   generate_series (rules must name catalogue sources through the API, and the catalogue has four:
 *   the two observed sources are real catalogue ids, the other 48 are `bench-source-NN`, which
 *   only the seeding can name and no observation ever reads). The observed sources hold `smallRules`
 *   and `largeRules` rules of the scale organization; the rest are spread over the other 48 sources,
 *   among 97 other organizations. Observations are sandbox injections asked on NATS as the
 *   gateway asks (`risk.sandbox-metrics.inject`, one at a time), which evaluate the injecting
 *   organization's active rules on the source. Stages: base (the seeded rules), then `rounds`
 *   times extra (`extraRules` more rules on the OTHER sources) and base again (deleted, vacuumed):
 *   each extra stage is compared with the base stages either side of it, so warm-up and drift do
 *   not pass for an effect. Cost per observation that follows the observed source's rules and
 *   stays put when the other sources' rules grow is the claim.
 * - latency: through the gateway (`POST /v2/sandbox/risk/metrics`) a breaching injection on a wallet
 *   rule created through the gateway, to the arrival of `portfolio_wallet.risk.alert.triggered` at
 *   the receiver; a safe injection after each sample resolves the alert for the next.
 *
 * Figures are reported, never asserted: ratios within this run carry the claim. Run alone with
 * `npx tsx tools/bench/src/risk.ts`, or `BENCH_SUITES=risk npm run -s bench` (writes
 * results/risk.json).
 */
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { jetstreamManager } from '@nats-io/jetstream';
import type { RequestContext } from '@service/contracts';
import { NatsRequester, SubjectClient } from '@service/nats';
import { startTestSystem, TEST_DATABASE_URL, type TestSystem } from '@service/testing';
import pg from 'pg';
import { cpuMsOf, cpuMsOfCommand, cpuMsOfSelf, machineBusyMs, progress, runCleanups, suiteCleanups, wholeNumberSetting } from './load.js';
import { percentile, TimingReceiver } from './webhook-receiver.js';

export interface RiskBenchOptions {
  /** Rules seeded before the first measurement (the observed sources' included). */
  readonly rules?: number;
  /** Sources they are spread over (the two observed ones included). */
  readonly sources?: number;
  /** Rules of the scale organization on the small and on the large observed source. */
  readonly smallRules?: number;
  readonly largeRules?: number;
  /** Rules added on the other sources before the second measurement. */
  readonly extraRules?: number;
  /** Observations measured per observed source and stage. */
  readonly observations?: number;
  /** Extra/base pairs after the first base stage. */
  readonly rounds?: number;
  /** Breach-to-webhook samples. */
  readonly samples?: number;
}

interface ObservationCost {
  readonly source: string;
  /** Active rules of the injecting organization on the source: what one observation evaluates. */
  readonly rulesOnSource: number;
  readonly observations: number;
  readonly msPerObservation: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly observationsPerSecond: number;
  /** Rules on the source times observations per second. */
  readonly ruleEvaluationsPerSecond: number;
  /** CPU of the risk-service process (user + system, /proc) per observation. */
  readonly riskCpuUsPerObservation: number | null;
  /** CPU of every `postgres` process per observation (shared with whatever else runs on the machine). */
  readonly postgresCpuUsPerObservation: number;
  /**
   * Busy CPU of everything but risk-service, PostgreSQL and the bench's own process during these
   * observations, as a share of one core (NATS and the idle gateway, wallet- and webhook-service
   * included): above 0.1 something else ran beside the measurement and its figures are suspect.
   */
  readonly otherLoad: number | null;
}

interface Stage {
  /** `base`: the seeded rules; `extra`: with `extraRules` more on the other sources. */
  readonly kind: 'base' | 'extra';
  readonly totalRules: number;
  readonly small: ObservationCost;
  readonly large: ObservationCost;
  /**
   * Marginal cost of one rule on the observed source: (large - small) ms per observation over
   * (large - small) rules, and its inverse, rule evaluations per second net of the observation's
   * fixed cost (request, observation row, lock, rule read).
   */
  readonly marginalUsPerRule: number;
  readonly marginalRuleEvaluationsPerSecond: number;
  /** Fixed cost of an observation: small's ms minus its rules at the marginal cost. */
  readonly fixedMsPerObservation: number;
  /** PostgreSQL's plan of the engine's rule read for each observed source, run once after the stage. */
  readonly rulesPlan: { readonly small: RulesPlan; readonly large: RulesPlan };
}

/** EXPLAIN (ANALYZE, BUFFERS) of the rule read: how the rows were found, how many, and the pages touched. */
interface RulesPlan {
  /** Plan nodes, outermost first, with the index each uses: e.g. `Index Scan (risk_rules_yield_source_id_status_org_id_idx)`. */
  readonly nodes: string;
  readonly rows: number;
  /** Rows the scan read and dropped on the org filter (another organization's rule on the source). */
  readonly rowsRemovedByFilter: number;
  readonly sharedBuffers: number;
}

export interface RiskBenchResult {
  readonly scale: {
    readonly sources: number;
    readonly seeding: string;
    /**
     * In order: base (the seeded rules), then per round extra (plus the extra rules on the other
     * sources) and base again (the extra rules deleted and the table vacuumed).
     */
    readonly stages: readonly Stage[];
    /**
     * Per extra stage, its figure over the mean of the base stages either side of it (so drift
     * within the run cancels), per observed source; `median` over the rounds. About 1 when the other
     * sources' rules cost nothing.
     */
    readonly otherRulesRatio: {
      readonly small: readonly number[];
      readonly large: readonly number[];
      readonly riskCpuSmall: readonly (number | null)[];
      readonly riskCpuLarge: readonly (number | null)[];
      readonly median: {
        readonly small: number;
        readonly large: number;
        readonly riskCpuSmall: number | null;
        readonly riskCpuLarge: number | null;
      };
    };
    /** Large over small, median over the base stages: what `largeRules / smallRules` times more rules on the observed source cost. */
    readonly observedRulesRatio: { readonly rules: number; readonly ms: number; readonly riskCpu: number | null };
    /** Last base stage over the first, ms per observation: the drift (warm-up, other load) within the run. */
    readonly baseDrift: { readonly small: number; readonly large: number };
    /** Alerts the scale organization has: one per observed source (each has one breaching rule, opened once). */
    readonly sentinelAlerts: number;
  };
  readonly latency: {
    readonly samples: number;
    /** POST of the breaching injection to the webhook's arrival at the receiver. */
    readonly breachToWebhook: { readonly p50Ms: number; readonly p99Ms: number; readonly maxMs: number; readonly meanMs: number };
    /** The POST's own round trip (gateway, NATS, risk-service's transaction). */
    readonly injectionResponse: { readonly p50Ms: number; readonly p99Ms: number };
    /** The alert's `observedAt` (set in the engine's transaction) to arrival: outbox relay, stream, webhook-service, receiver. */
    readonly alertToWebhook: { readonly p50Ms: number; readonly p99Ms: number };
    /** Where each sample's time went, p50 and p99 of each leg (ms; the legs' p99s do not add up to the total's). */
    readonly legs: Record<LatencyLeg, { readonly p50Ms: number; readonly p99Ms: number }> | null;
  };
}

/**
 * A sample's legs: POST sent -> the alert's `observedAt` (gateway, NATS, risk-service's
 * transaction up to the alert's row); -> the event's JetStream timestamp (commit, outbox relay);
 * -> webhook-service's delivery row (`created_at`: its consumer, linger included); -> its attempt's
 * `requested_at` (dispatch); -> arrival at the receiver (signing, POST).
 */
type LatencyLeg = 'requestToAlert' | 'alertToStream' | 'streamToDeliveryRow' | 'deliveryRowToAttempt' | 'attemptToArrival';

const SMALL_SOURCE = 'service-jaaa-usdc-vault';
const LARGE_SOURCE = 'service-ustb-vault';
const LATENCY_SOURCE = 'service-jaaa-usdt-vault';
const SCALE_ORG = 'org_risk_bench_scale';
/** Organizations of the rules added for the second stage, deleted before the third. */
const EXTRA_ORG_PREFIX = 'org_risk_bench_extra_';
const LATENCY_ORG = 'org_risk_bench_latency';
const ALERT_TRIGGERED = 'portfolio_wallet.risk.alert.triggered';
/** Blocks each stage's observations are taken in, alternating small and large, so drift hits both alike. */
const BLOCKS = 4;
/**
 * Unmeasured observations per source before each stage; the first stage gets
 * {@link FIRST_WARMUP_OBSERVATIONS} (a fresh process, plan cache and buffers: with 50 it still ran
 * 20-30 % slower than the third stage on the same rules).
 */
const WARMUP_OBSERVATIONS = 50;
const FIRST_WARMUP_OBSERVATIONS = 300;
const WARMUP_SAMPLES = 10;

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}
const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `count` rules of `org` on `source`, none breaching (each metric on the side it never reaches,
 * cycling over the three metrics), the first of them excepted: it breaches on every reading
 * (`apy_bps gt 0`), so its alert opens on the first observation and stays open (no write after
 * that), and the alert count proves the source's rules were evaluated.
 */
async function seedObservedRules(db: pg.Client, schema: string, org: string, source: string, count: number): Promise<void> {
  await db.query(
    `INSERT INTO "${schema}".risk_rules
       (id, org_id, wallet_id, yield_source_id, metric, rule_kind, comparator, threshold_value, severity, action, status, created_at, updated_at)
     SELECT gen_random_uuid(), $1, w.ids[1 + n % 20], $2,
            (ARRAY['tvl_usd', 'apy_bps', 'available_withdrawal_liquidity_usd'])[1 + n % 3], 'absolute',
            CASE WHEN n = 1 THEN 'gt' WHEN n % 3 = 1 THEN 'gt' ELSE 'lt' END,
            CASE WHEN n = 1 THEN 0 WHEN n % 3 = 1 THEN 1e9 ELSE 0 END,
            'warning', 'alert_only', 'active', now(), now()
       FROM generate_series(1, $3::int) n, (SELECT array_agg(gen_random_uuid()) AS ids FROM generate_series(1, 20)) w`,
    [org, source, count],
  );
}

/** `count` rules spread evenly over `bench-source-01` .. `bench-source-<sources>`, among 97 organizations `<orgPrefix>N`. */
async function seedOtherRules(db: pg.Client, schema: string, sources: number, count: number, orgPrefix: string): Promise<void> {
  await db.query(
    `INSERT INTO "${schema}".risk_rules
       (id, org_id, wallet_id, yield_source_id, metric, rule_kind, comparator, threshold_value, severity, action, status, created_at, updated_at)
     SELECT gen_random_uuid(), $2 || (n % 97), gen_random_uuid(), 'bench-source-' || lpad((1 + n % $1::int)::text, 2, '0'),
            'tvl_usd', 'absolute', 'lt', 0, 'warning', 'alert_only', 'active', now(), now()
       FROM generate_series(1, $3::int) n`,
    [sources, orgPrefix, count],
  );
  await db.query(`ANALYZE "${schema}".risk_rules`);
}

function ctxOf(orgId: string): RequestContext {
  return { orgId, role: 'admin', principalId: 'user_risk_bench', requestId: randomUUID() };
}

async function observe(client: SubjectClient, source: string, index: number): Promise<number> {
  const started = performance.now();
  await client.request('risk.sandbox-metrics.inject', {
    ctx: ctxOf(SCALE_ORG),
    yieldSourceId: source,
    metrics: { apy_bps: 500 + (index % 7), tvl_usd: 100_000_000 + index, available_withdrawal_liquidity_usd: 1_000_000 },
  });
  return performance.now() - started;
}

/**
 * The engine's rule read (`RiskRepository.activeRulesOfSource`, for an injection: the source's active,
 * undeleted rules of the injecting organization), explained with the plan PostgreSQL picks now.
 */
async function explainRulesRead(db: pg.Client, schema: string, source: string): Promise<RulesPlan> {
  const { rows } = await db.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
    `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)
     SELECT * FROM "${schema}".risk_rules WHERE yield_source_id = $1 AND status = 'active' AND deleted_at IS NULL AND org_id = $2`,
    [source, SCALE_ORG],
  );
  const nodes: string[] = [];
  let removed = 0;
  const walk = (node: PlanNode) => {
    nodes.push(node['Index Name'] ? `${node['Node Type']} (${node['Index Name']})` : node['Node Type']);
    removed += node['Rows Removed by Filter'] ?? 0;
    for (const child of node.Plans ?? []) walk(child);
  };
  const plan = rows[0]?.['QUERY PLAN'][0].Plan;
  if (!plan) throw new Error('risk bench: EXPLAIN returned no plan');
  walk(plan);
  return {
    nodes: nodes.join(' > '),
    rows: plan['Actual Rows'],
    rowsRemovedByFilter: removed,
    sharedBuffers: (plan['Shared Hit Blocks'] ?? 0) + (plan['Shared Read Blocks'] ?? 0),
  };
}

interface PlanNode {
  readonly 'Node Type': string;
  readonly 'Index Name'?: string;
  readonly 'Actual Rows': number;
  readonly 'Rows Removed by Filter'?: number;
  readonly 'Shared Hit Blocks'?: number;
  readonly 'Shared Read Blocks'?: number;
  readonly Plans?: readonly PlanNode[];
}

/** Observations of the small and large source in alternating blocks; each source's cost from its own blocks. */
async function measureStage(
  client: SubjectClient,
  system: TestSystem,
  db: { client: pg.Client; schema: string },
  rules: { small: number; large: number },
  observations: number,
  kind: Stage['kind'],
  totalRules: number,
  warmUp: number,
): Promise<Stage> {
  const riskPid = system.services.get('risk')?.child.pid;
  const tallies = {
    small: { source: SMALL_SOURCE, rules: rules.small, timings: [] as number[], riskCpuMs: 0, postgresCpuMs: 0, otherMs: 0, wallMs: 0 },
    large: { source: LARGE_SOURCE, rules: rules.large, timings: [] as number[], riskCpuMs: 0, postgresCpuMs: 0, otherMs: 0, wallMs: 0 },
  };
  for (const tally of Object.values(tallies)) for (let index = 0; index < warmUp; index += 1) await observe(client, tally.source, index);
  const perBlock = Math.max(1, Math.floor(observations / BLOCKS));
  for (let block = 0; block < BLOCKS; block += 1) {
    for (const tally of block % 2 === 0 ? [tallies.small, tallies.large] : [tallies.large, tallies.small]) {
      const riskBefore = cpuMsOf(riskPid);
      const postgresBefore = cpuMsOfCommand('postgres');
      const selfBefore = cpuMsOfSelf();
      const machineBefore = machineBusyMs();
      const started = performance.now();
      for (let index = 0; index < perBlock; index += 1) tally.timings.push(await observe(client, tally.source, index));
      tally.wallMs += performance.now() - started;
      const risk = (cpuMsOf(riskPid) ?? Number.NaN) - (riskBefore ?? Number.NaN);
      const postgres = cpuMsOfCommand('postgres') - postgresBefore;
      tally.riskCpuMs += risk;
      tally.postgresCpuMs += postgres;
      tally.otherMs += (machineBusyMs() ?? Number.NaN) - (machineBefore ?? Number.NaN) - risk - postgres - (cpuMsOfSelf() - selfBefore);
    }
  }
  const costOf = (tally: (typeof tallies)['small']): ObservationCost => {
    const sorted = [...tally.timings].sort((a, b) => a - b);
    const ms = mean(sorted);
    const count = sorted.length;
    return {
      source: tally.source,
      rulesOnSource: tally.rules,
      observations: count,
      msPerObservation: round(ms),
      p50Ms: round(percentile(sorted, 50)),
      p99Ms: round(percentile(sorted, 99)),
      observationsPerSecond: round(1000 / ms, 1),
      ruleEvaluationsPerSecond: Math.round((tally.rules * 1000) / ms),
      riskCpuUsPerObservation: Number.isFinite(tally.riskCpuMs) ? Math.round((tally.riskCpuMs * 1000) / count) : null,
      postgresCpuUsPerObservation: Math.round((tally.postgresCpuMs * 1000) / count),
      otherLoad: Number.isFinite(tally.otherMs) ? round(Math.max(0, tally.otherMs) / tally.wallMs) : null,
    };
  };
  const small = costOf(tallies.small);
  const large = costOf(tallies.large);
  const marginalMs = (large.msPerObservation - small.msPerObservation) / (large.rulesOnSource - small.rulesOnSource);
  return {
    kind,
    totalRules,
    small,
    large,
    marginalUsPerRule: round(marginalMs * 1000),
    marginalRuleEvaluationsPerSecond: marginalMs > 0 ? Math.round(1000 / marginalMs) : 0,
    fixedMsPerObservation: round(small.msPerObservation - small.rulesOnSource * marginalMs),
    rulesPlan: {
      small: await explainRulesRead(db.client, db.schema, SMALL_SOURCE),
      large: await explainRulesRead(db.client, db.schema, LARGE_SOURCE),
    },
  };
}

async function measureLatency(
  system: TestSystem,
  receiver: TimingReceiver,
  receiverUrl: string,
  samples: number,
): Promise<RiskBenchResult['latency']> {
  const base = system.gateways[0]?.url ?? '';
  const token = await system.auth.token({ org: LATENCY_ORG, role: 'admin', sub: 'risk-bench' });
  const post = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`POST ${path} answered ${response.status}: ${text}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
  const wallet = await post('/v2/wallets', {
    requestId: randomUUID(),
    strategy: { allocations: { usdc: [{ yieldSourceId: SMALL_SOURCE, pct: 100 }] } },
  });
  await post('/v2/wallets/risk/rules', {
    portfolioWalletId: wallet['id'],
    yieldSourceId: LATENCY_SOURCE,
    name: 'bench: TVL under 1,000',
    metric: 'tvl_usd',
    ruleKind: 'absolute',
    comparator: 'lt',
    thresholdValue: 1000,
    outcome: 'alert',
  });
  await post('/v2/webhooks', { url: receiverUrl, events: [ALERT_TRIGGERED] });

  const breachToWebhook: number[] = [];
  const injectionResponse: number[] = [];
  const sentAts: number[] = [];
  for (let index = 0; index < WARMUP_SAMPLES + samples; index += 1) {
    if (index === WARMUP_SAMPLES) await receiver.reset();
    // Deliveries since the last reset once this sample's has arrived.
    const expected = index < WARMUP_SAMPLES ? index + 1 : index - WARMUP_SAMPLES + 1;
    const sentAt = Date.now();
    const started = performance.now();
    await post('/v2/sandbox/risk/metrics', { yieldSourceId: LATENCY_SOURCE, metrics: { tvl_usd: 1 } });
    const answered = performance.now() - started;
    await receiver.until('event', expected, 30_000);
    const arrivedAt = receiver.arrivals('event')[expected - 1] ?? Number.NaN;
    if (index >= WARMUP_SAMPLES) {
      breachToWebhook.push(arrivedAt - sentAt);
      injectionResponse.push(answered);
      sentAts.push(sentAt);
    }
    // Back on the safe side: the alert resolves, so the next breach opens a new one.
    await post('/v2/sandbox/risk/metrics', { yieldSourceId: LATENCY_SOURCE, metrics: { tvl_usd: 1_000_000_000 } });
    // Let the resolution's event pass through before the next sample: each sample starts on an idle pipeline.
    await sleep(25);
  }
  const sorted = [...breachToWebhook].sort((a, b) => a - b);
  const responses = [...injectionResponse].sort((a, b) => a - b);
  const alertToWebhook = receiver.latencies('event');
  return {
    samples,
    breachToWebhook: {
      p50Ms: round(percentile(sorted, 50)),
      p99Ms: round(percentile(sorted, 99)),
      maxMs: round(sorted.at(-1) ?? 0),
      meanMs: round(mean(sorted)),
    },
    injectionResponse: { p50Ms: round(percentile(responses, 50)), p99Ms: round(percentile(responses, 99)) },
    alertToWebhook: { p50Ms: percentile(alertToWebhook, 50), p99Ms: percentile(alertToWebhook, 99) },
    legs: await legsOf(system, sentAts, receiver.arrivals('event')),
  };
}

/**
 * The legs of each measured sample, from the alert events of the latency organization on the
 * stream (in sample order: one sample at a time), webhook-service's rows for them, and the
 * receiver's arrivals. Null when they cannot be matched one to one (then only the totals count).
 */
async function legsOf(
  system: TestSystem,
  sentAts: readonly number[],
  arrivals: readonly number[],
): Promise<RiskBenchResult['latency']['legs']> {
  // The last attempt's row is written after its answer: give it a moment.
  await sleep(500);
  const ops = await system.nats.connect('ops');
  try {
    const jsm = await jetstreamManager(ops);
    const { EVENTS_STREAM, EVENTS_SUBJECT_PREFIX } = system.stream;
    const subject = `${EVENTS_SUBJECT_PREFIX}.risk.${ALERT_TRIGGERED}`;
    const { state } = await jsm.streams.info(EVENTS_STREAM);
    const events: { id: string; observedAt: number; storedAt: number }[] = [];
    for (let seq = state.first_seq; seq <= state.last_seq; seq += 1) {
      const message = await jsm.streams.getMessage(EVENTS_STREAM, { seq }).catch(() => null);
      if (!message || message.subject !== subject) continue;
      const event = message.json<{ id: string; orgId: string; payload: { observedAt: string } }>();
      if (event.orgId !== LATENCY_ORG) continue;
      events.push({ id: event.id, observedAt: Date.parse(event.payload.observedAt), storedAt: message.time.getTime() });
    }
    // The warm-up's come first.
    const measured = events.slice(events.length - sentAts.length);
    if (measured.length !== sentAts.length || arrivals.length !== sentAts.length) return null;
    const db = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await db.connect();
    try {
      const schema = system.serviceEnv('webhook')['DATABASE_SCHEMA'] ?? '';
      const { rows } = await db.query<{ event_id: string; created_at: Date; requested_at: Date }>(
        `SELECT d.source_event_id AS event_id, d.created_at, min(e.requested_at) AS requested_at
           FROM "${schema}".deliveries d JOIN "${schema}".emissions e ON e.delivery_id = d.id
          WHERE d.source_event_id = ANY($1::uuid[])
          GROUP BY d.source_event_id, d.created_at`,
        [measured.map((event) => event.id)],
      );
      const rowOf = new Map(rows.map((row) => [row.event_id, row]));
      const legs: Record<LatencyLeg, number[]> = {
        requestToAlert: [],
        alertToStream: [],
        streamToDeliveryRow: [],
        deliveryRowToAttempt: [],
        attemptToArrival: [],
      };
      for (const [index, event] of measured.entries()) {
        const row = rowOf.get(event.id);
        if (!row) return null;
        legs.requestToAlert.push(event.observedAt - (sentAts[index] ?? Number.NaN));
        legs.alertToStream.push(event.storedAt - event.observedAt);
        legs.streamToDeliveryRow.push(row.created_at.getTime() - event.storedAt);
        legs.deliveryRowToAttempt.push(row.requested_at.getTime() - row.created_at.getTime());
        legs.attemptToArrival.push((arrivals[index] ?? Number.NaN) - row.requested_at.getTime());
      }
      const summary = (values: number[]) => {
        const sorted = [...values].sort((a, b) => a - b);
        return { p50Ms: round(percentile(sorted, 50)), p99Ms: round(percentile(sorted, 99)) };
      };
      return {
        requestToAlert: summary(legs.requestToAlert),
        alertToStream: summary(legs.alertToStream),
        streamToDeliveryRow: summary(legs.streamToDeliveryRow),
        deliveryRowToAttempt: summary(legs.deliveryRowToAttempt),
        attemptToArrival: summary(legs.attemptToArrival),
      };
    } finally {
      await db.end();
    }
  } finally {
    await ops.close();
  }
}

export async function benchRisk(options: RiskBenchOptions = {}): Promise<RiskBenchResult> {
  const totalRules = options.rules ?? 10_000;
  const sources = options.sources ?? 50;
  const smallRules = options.smallRules ?? 200;
  const largeRules = options.largeRules ?? 2_000;
  const extraRules = options.extraRules ?? 40_000;
  const observations = options.observations ?? 200;
  const samples = options.samples ?? 200;
  const rounds = options.rounds ?? 2;
  const otherSources = sources - 2;
  const otherRules = totalRules - smallRules - largeRules;
  if (otherSources < 1 || otherRules < 0 || largeRules <= smallRules || smallRules < 1 || rounds < 1) {
    throw new Error(`risk bench: ${totalRules} rules over ${sources} sources cannot hold ${smallRules} + ${largeRules} observed rules`);
  }
  // What it starts is registered at once, so a run stopped by its watchdog or a signal stops it too.
  try {
    progress.stage = 'risk: starting';
    const receiver = new TimingReceiver();
    const receiverUrl = await receiver.start();
    suiteCleanups.push({ name: 'webhook receiver', run: () => receiver.stop() });
    const system = await startTestSystem({
      services: ['risk', 'wallet', 'webhook'],
      gateways: 1,
      gatewayEnv: { RATE_LIMIT_READ_PER_MINUTE: '1000000', RATE_LIMIT_WRITE_PER_MINUTE: '1000000' },
      serviceEnv: {
        risk: { RISK_OBSERVATION_INTERVAL_MS: '0' },
        webhook: { WEBHOOK_PRIVATE_HOST_ALLOWLIST: '127.0.0.1' },
      },
    });
    suiteCleanups.push({ name: 'risk system', run: () => system.stop() });
    const db = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await db.connect();
    suiteCleanups.push({ name: 'database connection', run: () => db.end() });
    const schema = system.serviceEnv('risk')['DATABASE_SCHEMA'] ?? '';
    const nats = await system.nats.connect('gateway');
    suiteCleanups.push({ name: 'NATS connection', run: () => nats.close() });
    const client = new SubjectClient(new NatsRequester(nats, 30_000));

    progress.stage = 'risk: seeding';
    await seedObservedRules(db, schema, SCALE_ORG, SMALL_SOURCE, smallRules);
    await seedObservedRules(db, schema, SCALE_ORG, LARGE_SOURCE, largeRules);
    await seedOtherRules(db, schema, otherSources, otherRules, 'org_risk_bench_');
    const stages: Stage[] = [];
    const measure = async (kind: Stage['kind'], warmUp: number) => {
      progress.stage = `risk: observations, stage ${stages.length + 1} (${kind})`;
      const total = kind === 'extra' ? totalRules + extraRules : totalRules;
      const counted = await db.query<{ rules: string }>(`SELECT count(*) AS rules FROM "${schema}".risk_rules`);
      if (Number(counted.rows[0]?.rules) !== total) throw new Error(`risk bench: ${counted.rows[0]?.rules} rules, expected ${total}`);
      const stage = await measureStage(
        client,
        system,
        { client: db, schema },
        { small: smallRules, large: largeRules },
        observations,
        kind,
        total,
        warmUp,
      );
      stages.push(stage);
      return stage;
    };
    await measure('base', FIRST_WARMUP_OBSERVATIONS);
    for (let index = 0; index < rounds; index += 1) {
      progress.stage = 'risk: seeding the extra rules on other sources';
      await seedOtherRules(db, schema, otherSources, extraRules, EXTRA_ORG_PREFIX);
      await measure('extra', WARMUP_OBSERVATIONS);
      progress.stage = 'risk: deleting the extra rules';
      await db.query(`DELETE FROM "${schema}".risk_rules WHERE starts_with(org_id, $1)`, [EXTRA_ORG_PREFIX]);
      await db.query(`VACUUM ANALYZE "${schema}".risk_rules`);
      await measure('base', WARMUP_OBSERVATIONS);
    }
    const alerts = await db.query<{ alerts: string }>(`SELECT count(*) AS alerts FROM "${schema}".risk_alerts WHERE org_id = $1`, [
      SCALE_ORG,
    ]);
    const ratio = (a: number | null, b: number | null) => (a === null || b === null || b === 0 ? null : round(a / b));
    /** Each extra stage's figure over the mean of its neighbouring base stages. */
    const bracketed = (pick: (stage: Stage) => number | null) =>
      stages.flatMap((stage, index) => {
        if (stage.kind !== 'extra') return [];
        const [previous, next] = [stages[index - 1], stages[index + 1]].map((base) => (base ? pick(base) : null));
        return [
          ratio(
            pick(stage),
            previous === null || next === null || previous === undefined || next === undefined ? null : (previous + next) / 2,
          ),
        ];
      });
    const bases = stages.filter((stage) => stage.kind === 'base');
    const [first, last] = [bases[0], bases.at(-1)];
    const otherRulesRatio = {
      small: bracketed((stage) => stage.small.msPerObservation).map((value) => value ?? 0),
      large: bracketed((stage) => stage.large.msPerObservation).map((value) => value ?? 0),
      riskCpuSmall: bracketed((stage) => stage.small.riskCpuUsPerObservation),
      riskCpuLarge: bracketed((stage) => stage.large.riskCpuUsPerObservation),
    };
    const medianOf = (values: readonly (number | null)[]) => {
      const known = values.filter((value): value is number => value !== null);
      return known.length === 0 ? null : round(median(known));
    };

    progress.stage = 'risk: breach to webhook';
    const latency = await measureLatency(system, receiver, receiverUrl, samples);
    return {
      scale: {
        sources,
        seeding:
          `SQL (generate_series) into risk-service's schema: ${smallRules} rules on ${SMALL_SOURCE} and ${largeRules} on ${LARGE_SOURCE} ` +
          `(organization ${SCALE_ORG}, one breaching sentinel each), ${otherRules} over ${otherSources} synthetic sources bench-source-NN (97 organizations); ` +
          `then ${extraRules} more on those synthetic sources (organizations ${EXTRA_ORG_PREFIX}N), deleted again after each extra stage`,
        stages,
        otherRulesRatio: {
          ...otherRulesRatio,
          median: {
            small: medianOf(otherRulesRatio.small) ?? 0,
            large: medianOf(otherRulesRatio.large) ?? 0,
            riskCpuSmall: medianOf(otherRulesRatio.riskCpuSmall),
            riskCpuLarge: medianOf(otherRulesRatio.riskCpuLarge),
          },
        },
        observedRulesRatio: {
          rules: round(largeRules / smallRules),
          ms: medianOf(bases.map((stage) => ratio(stage.large.msPerObservation, stage.small.msPerObservation))) ?? 0,
          riskCpu: medianOf(bases.map((stage) => ratio(stage.large.riskCpuUsPerObservation, stage.small.riskCpuUsPerObservation))),
        },
        baseDrift: {
          small: ratio(last?.small.msPerObservation ?? null, first?.small.msPerObservation ?? null) ?? 0,
          large: ratio(last?.large.msPerObservation ?? null, first?.large.msPerObservation ?? null) ?? 0,
        },
        sentinelAlerts: Number(alerts.rows[0]?.alerts),
      },
      latency,
    };
  } finally {
    await runCleanups(suiteCleanups);
  }
}

const wholeNumber = (name: string) => wholeNumberSetting(name, 0);

/** The suite's settings from the environment (README: "risk"). */
export function riskOptionsFromEnv(): RiskBenchOptions {
  return {
    rules: wholeNumber('BENCH_RISK_RULES'),
    sources: wholeNumber('BENCH_RISK_SOURCES'),
    smallRules: wholeNumber('BENCH_RISK_SMALL_RULES'),
    largeRules: wholeNumber('BENCH_RISK_LARGE_RULES'),
    extraRules: wholeNumber('BENCH_RISK_EXTRA_RULES'),
    observations: wholeNumber('BENCH_RISK_OBSERVATIONS'),
    samples: wholeNumber('BENCH_RISK_SAMPLES'),
    rounds: wholeNumber('BENCH_RISK_ROUNDS'),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await benchRisk(riskOptionsFromEnv()), null, 2));
}
