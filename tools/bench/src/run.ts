/**
 * `npm run bench`: throughput and latency of the gateway against a bare Node HTTP server, measured
 * in one run on this machine (see README.md). Exits 0 whether or not the targets are met, non-zero
 * when something fails (a process does not start, a request fails, the run hangs).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT, startTestSystem, TEST_REDIS_URL, type TestSystem } from '@service/testing';
import type { Result } from 'autocannon';
import { accountingEventsOf, accountingOptionsFromEnv, benchAccounting } from './accounting.js';
import { benchActivity } from './activity.js';
import { type HostileLoad, type HostileStats, startHostileBodies } from './hostile-bodies.js';
import {
  type Cleanup,
  cpuMsOf,
  failuresOf,
  machineBusyMs,
  pidOf,
  progress,
  REQUEST_TIMEOUT_S,
  runCleanups,
  runLoad,
  suiteCleanups,
} from './load.js';
import { collectProfile, CPU_PROFILE, profilerEnv, startProfile } from './profiling.js';
import { benchRisk, riskOptionsFromEnv } from './risk.js';
import { benchWallets, walletsPartsOf } from './wallets.js';
import { benchWebhooks } from './webhooks.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const RESULTS_DIR = path.join(HERE, '..', 'results');

const CONNECTIONS = 50;
const DURATION_S = wholeNumberFromEnv('BENCH_DURATION_S', 10, 1);
const WARMUP_S = wholeNumberFromEnv('BENCH_WARMUP_S', 3, 0);
/**
 * Rounds of the scenarios, one after the other (bare, ping, API-key ping, NATS route, ping beside
 * hostile bodies, bare, ...). This machine's speed drifts (the bare server alone ranged from
 * 23,000 to 38,000 req/s between runs an hour apart): a ratio is taken within a round, from
 * measurements a minute apart at most, and the median round's ratio is reported.
 */
const ROUNDS = wholeNumberFromEnv('BENCH_ROUNDS', 3, 1);
/** Later rounds find every process warm: a short warm-up re-opens the connections. */
const LATER_WARMUP_S = Math.min(WARMUP_S, 1);
const TARGETS = { pingShareOfBare: 0.4, natsShareOfBare: 0.2, p99BelowMs: 25, keyPointsBelowPing: 0.05, hostileP99ToPing: 2 } as const;
/** Hostile bodies per second beside the ping load in the hostile scenario. */
const HOSTILE_PER_SECOND = 10;
/** Other processes using more than this share of one core during a scenario make its numbers suspect. */
const BACKGROUND_WARNING = 0.1;
/**
 * Which parts run: `gateway` (the scenarios above), `wallets` (wallet reads and writes against
 * the NATS route and pgbench),
 * `webhooks` (signed deliveries), `activity` (feed pages over a million items), `risk` (rule
 * evaluation at 10,000 rules, breach to webhook) and `accounting` (period summaries over 100,000
 * ledger events). BENCH_SUITES=gateway runs the first alone.
 */
const SUITES = new Set(
  (process.env['BENCH_SUITES'] ?? 'gateway,wallets,webhooks,activity,risk,accounting').split(',').map((name) => name.trim()),
);
/** Generous bound on the whole run: start-up, the gateway scenarios, the service suites and shutdown. */
const RUN_BUDGET_MS =
  (5 * ROUNDS * (WARMUP_S + DURATION_S) +
    180 +
    (SUITES.has('wallets') ? 180 + 10 * ROUNDS * (DURATION_S + 2) + 300 * ROUNDS : 0) +
    (SUITES.has('webhooks') ? 180 : 0) +
    (SUITES.has('activity') ? 300 : 0) +
    (SUITES.has('risk') ? 300 + 60 * (riskOptionsFromEnv().rounds ?? 2) : 0) +
    (SUITES.has('accounting') ? 300 + Math.ceil(accountingEventsOf(accountingOptionsFromEnv()) / 2_000) : 0)) *
  1000;
/**
 * Each scenario's principal spends its own read budget, far above what 50 connections can send in
 * one scenario, so the limiter runs on every request (a real Redis round trip) but never says 429.
 * The write budget and the failed authentications per client address likewise, so every hostile
 * body gets what the gateway does with it rather than a 429 (as it would from many addresses).
 */
const GATEWAY_ENV = {
  RATE_LIMIT_READ_PER_MINUTE: '1000000',
  RATE_LIMIT_WRITE_PER_MINUTE: '1000000',
  RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '1000000',
};

type ScenarioKey = 'bare' | 'ping' | 'key' | 'nats' | 'hostile';

interface Scenario {
  readonly key: ScenarioKey;
  readonly label: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  /** Processes whose CPU time is charged to this scenario, by name. */
  readonly processes: Record<string, number | undefined>;
  /** The NATS and Redis servers the scenario goes through, by name. */
  readonly infrastructure: Record<string, number | undefined>;
  /** The processes to sample when BENCH_CPU_PROF=1, by name. */
  readonly profiled?: Record<string, number | undefined>;
  /** Processes stopped (SIGSTOP) while this scenario runs, so their idle timers take no CPU from it. */
  readonly paused?: readonly (number | undefined)[];
  /** The gateway's output lines, to count its access lines (the gateway scenarios). */
  readonly logLines?: string[];
  /** Checks one response before the load starts; throws when it is wrong. */
  readonly check: (status: number, body: string, headers: Headers) => void;
  /** Other requests sent throughout the measured window (the hostile bodies). */
  readonly background?: () => HostileLoad;
  /**
   * A request of the load held past the timeout is a latency this scenario measures (at least the
   * timeout), not a failed run: a gateway blocked by hostile bodies must get a ratio, not an error.
   */
  readonly timeoutsAreLatency?: boolean;
}

/** One round: the five scenarios measured one after the other, and their ratios. */
interface Round {
  readonly bare: Measurement;
  readonly ping: Measurement;
  /** Ping with an organization API key instead of a JWT: the cached key check against the cached token check. */
  readonly key: Measurement;
  readonly nats: Measurement;
  /** Ping again while hostile bodies arrive: what they cost everyone else. */
  readonly hostile: Measurement;
  readonly pingShare: number;
  readonly keyShare: number;
  readonly natsShare: number;
  /** p99 of ping with the hostile bodies over p99 of ping without them. */
  readonly hostileP99ToPing: number;
}

interface Measurement {
  readonly key: ScenarioKey;
  readonly label: string;
  readonly method: 'GET';
  readonly path: string;
  readonly requestsPerSecond: number;
  readonly latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  /** 2xx responses in the measured window (warm-up excluded). */
  readonly requests: number;
  /** Failed requests over warm-up and measured window; any is an error. */
  readonly failures: { errors: number; timeouts: number; non2xx: number; mismatches: number; statusCodes: Record<string, number> };
  /**
   * CPU time per request, in microseconds, of the server processes, the load generator (this
   * process) and the NATS and Redis servers the scenario uses (Linux only; null where unknown).
   */
  readonly cpuMicrosPerRequest: Record<string, number | null>;
  /** CPU used by everything else on the machine while measuring, as a share of one core. */
  readonly backgroundCoreShare: number | null;
  /**
   * Request log lines the gateway wrote during the measured window: one per request expected (a
   * few more or fewer from requests in flight at either edge).
   */
  readonly requestLogLines?: number;
  /** What the hostile requests sent during the measured window got. */
  readonly hostileBodies?: HostileStats;
}

const cleanups: Cleanup[] = [];
let cleaning: Promise<void> | undefined;

/** Stops everything started so far, newest first (a service suite's first); safe to call more than once. */
function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    await runCleanups(suiteCleanups);
    await runCleanups(cleanups);
  })();
  return cleaning;
}

let aborting = false;

function abort(message: string, code: number): void {
  if (aborting) return;
  aborting = true;
  console.error(`bench: ${message}`);
  // The interrupted suite's work fails as its connections and processes go (a publish on a closed
  // connection, say): reported (each message once), not allowed to end the process before
  // everything is stopped.
  const seen = new Set<string>();
  const reported = (error: unknown) => {
    const text = error instanceof Error ? error.message : String(error);
    if (!seen.has(text)) console.error(`bench: while stopping: ${text}`);
    seen.add(text);
  };
  process.on('unhandledRejection', reported);
  process.on('uncaughtException', reported);
  const force = setTimeout(() => process.exit(code), 30_000);
  force.unref();
  void cleanUp().finally(() => process.exit(code));
}

// Handled every time, not once: the signal usually comes twice (a terminal's Ctrl-C reaches the
// whole process group, and tsx's parent process passes it on to this one), and a second one
// without a handler would end the run at once, leaving what it started running.
process.on('SIGINT', () => abort('interrupted; stopping', 130));
process.on('SIGTERM', () => abort('terminated; stopping', 143));
const watchdog = setTimeout(() => abort(`did not finish within ${RUN_BUDGET_MS / 1000} s (at: ${progress.stage})`, 1), RUN_BUDGET_MS);
watchdog.unref();

try {
  if (SUITES.has('gateway')) {
    await main();
    // Its system (gateway, gvault, identity, their NATS server) would otherwise poll beside the
    // service suites' measurements until the run ends.
    await runCleanups(cleanups);
  }
  await serviceSuites();
  await cleanUp();
  clearTimeout(watchdog);
  process.exit(0);
} catch (error) {
  console.error(`bench: ${(error as Error).stack ?? String(error)}`);
  await cleanUp();
  process.exit(1);
}

/** The service benches, each against its own isolated system; results beside latest.json. */
async function serviceSuites(): Promise<void> {
  const suites = {
    wallets: () => benchWallets({ durationS: DURATION_S, rounds: ROUNDS, parts: walletsPartsOf(process.env['BENCH_WALLET_PARTS']) }),
    webhooks: () => benchWebhooks(),
    activity: () => benchActivity(),
    risk: () => benchRisk(riskOptionsFromEnv()),
    accounting: () => benchAccounting(accountingOptionsFromEnv()),
  } as const;
  for (const [name, run] of Object.entries(suites)) {
    if (!SUITES.has(name)) continue;
    console.log(`\nbench: ${name}`);
    const result = await run();
    console.log(JSON.stringify(result, null, 2));
    mkdirSync(RESULTS_DIR, { recursive: true });
    writeFileSync(
      path.join(RESULTS_DIR, `${name}.json`),
      `${JSON.stringify({ measuredAt: new Date().toISOString(), commit: gitCommit(), ...result }, null, 2)}\n`,
    );
  }
}

async function main(): Promise<void> {
  console.log(
    `bench: ${CONNECTIONS} connections, ${WARMUP_S} s warm-up + ${DURATION_S} s measured per scenario, ` +
      `node ${process.version}, ${os.cpus().length} CPUs (load generator on the same cores)`,
  );
  const hello = await startHelloServer();
  cleanups.push({ name: 'hello server', run: () => stopChild(hello.child) });

  console.log('bench: starting gvault-service, identity-service and the gateway (isolated schemas, stream and signing key)');
  const system: TestSystem = await startTestSystem({
    services: ['gvault', 'identity'],
    gateways: 0,
    serviceEnv: { gvault: profilerEnv('gvault') },
  });
  cleanups.push({ name: 'test system', run: () => system.stop() });
  const gateway = await system.startGateway({ ...GATEWAY_ENV, ...profilerEnv('gateway') });
  const gvault = system.services.get('gvault');
  const identity = system.services.get('identity');
  const gatewayProcesses = { gateway: gateway.process.child.pid };
  // startTestSystem runs a NATS server of its own for this run; Redis is the machine's.
  const infrastructure = {
    nats: pidOf('nats-server', `-p ${new URL(system.natsUrl).port}`),
    redis: pidOf('redis-server', new URL(TEST_REDIS_URL).port || '6379'),
  };
  const tokenFor = async (scenario: string) =>
    `Bearer ${await system.auth.token({ sub: `bench_${system.runId}_${scenario}`, org: 'org_bench' })}`;

  const ping: Scenario = {
    key: 'ping',
    label: 'gateway GET /v2/system/ping',
    url: `${gateway.url}/v2/system/ping`,
    headers: { authorization: await tokenFor('ping') },
    processes: gatewayProcesses,
    infrastructure: { redis: infrastructure.redis },
    profiled: { gateway: gateway.process.child.pid },
    logLines: gateway.process.lines,
    check: (status, body, headers) => {
      expectPong(status, body);
      if (!headers.get('request-id')) throw new Error('the gateway sent no Request-Id header');
    },
  };
  const key: Scenario = {
    ...ping,
    key: 'key',
    label: 'gateway GET /v2/system/ping (API key)',
    headers: { authorization: `Bearer ${await apiKeyFor(gateway.url, await tokenFor('key'))}` },
  };
  const hostileWriter = await tokenFor('hostile-writer');
  const hostile: Scenario = {
    ...ping,
    key: 'hostile',
    label: `gateway GET /v2/system/ping, hostile bodies ${HOSTILE_PER_SECOND}/s`,
    headers: { authorization: await tokenFor('hostile') },
    background: () => startHostileBodies({ url: `${gateway.url}/v2/wallets`, authorization: hostileWriter, perSecond: HOSTILE_PER_SECOND }),
    timeoutsAreLatency: true,
  };
  const nats: Scenario = {
    key: 'nats',
    label: 'gateway -> NATS -> gvault',
    url: `${gateway.url}/v2/gvaults/yield-sources`,
    headers: { authorization: await tokenFor('nats') },
    processes: { ...gatewayProcesses, gvault: gvault?.child.pid },
    infrastructure,
    profiled: { gateway: gateway.process.child.pid, gvault: gvault?.child.pid },
    logLines: gateway.process.lines,
    check: (status, body) => {
      const parsed = parseJson(body) as { data?: unknown } | undefined;
      if (status !== 200 || !Array.isArray(parsed?.data) || parsed.data.length === 0) {
        throw new Error(`yield-sources answered ${status} ${body.slice(0, 200)}`);
      }
    },
  };

  const bare: Scenario = {
    key: 'bare',
    label: 'bare node:http hello',
    url: `${hello.url}/v2/system/ping`,
    headers: {},
    processes: { hello: hello.child.pid },
    infrastructure: {},
    // While the bare server is measured the gateway's processes sit idle, but gvault's pollers
    // would still take about 1 % of a core from it: they are stopped meanwhile.
    paused: [gateway.process.child.pid, gvault?.child.pid, identity?.child.pid, infrastructure.nats],
    check: expectPong,
  };
  cleanups.push({ name: 'paused processes', run: async () => resume(bare.paused) });

  const rounds: Round[] = [];
  for (let index = 0; index < ROUNDS; index++) {
    const first = index === 0;
    console.log(`bench: round ${index + 1} of ${ROUNDS}`);
    const round: Measurement[] = [];
    // Profiles are sampled in the first round only.
    for (const scenario of [bare, ping, key, nats, hostile]) {
      round.push(
        await whilePaused(scenario.paused, () => measure(scenario, { warmUpS: first ? WARMUP_S : LATER_WARMUP_S, profile: first })),
      );
    }
    rounds.push(toRound(round));
  }
  report(rounds);
}

async function measure(scenario: Scenario, options: { warmUpS: number; profile: boolean }): Promise<Measurement> {
  const { logLines } = scenario;
  const { pathname } = new URL(scenario.url);
  const response = await fetch(scenario.url, { headers: scenario.headers, signal: AbortSignal.timeout(10_000) });
  const body = await response.text();
  scenario.check(response.status, body, response.headers);

  const load = { url: scenario.url, headers: scenario.headers, connections: CONNECTIONS, expectBody: body };
  console.log(`bench: ${scenario.label}: warm-up ${options.warmUpS} s`);
  const warmUp = options.warmUpS > 0 ? await runLoad({ ...load, durationS: options.warmUpS }) : undefined;

  console.log(`bench: ${scenario.label}: measuring ${DURATION_S} s`);
  if (logLines) logLines.length = 0;
  const watched = { ...scenario.processes, ...scenario.infrastructure };
  const profiled = Object.entries(CPU_PROFILE && options.profile ? (scenario.profiled ?? {}) : {}).filter(
    (entry): entry is [string, number] => entry[1] !== undefined,
  );
  for (const [, pid] of profiled) startProfile(pid);
  const before = { processes: cpuOf(watched), self: process.cpuUsage(), machine: machineBusyMs(), at: performance.now() };
  const background = scenario.background?.();
  const result = await runLoad({ ...load, durationS: DURATION_S });
  const hostileBodies = await background?.stop();
  const after = { processes: cpuOf(watched), self: process.cpuUsage(before.self), machine: machineBusyMs(), at: performance.now() };
  for (const [name, pid] of profiled) await collectProfile(name, pid, scenario.key);
  const requestLogLines = logLines?.filter((line) => line.includes('"requestId"') && line.includes('"durationMs"')).length;
  // startApp keeps every line; only the count matters here.
  if (logLines) logLines.length = 0;

  const statusCodes: Record<string, number> = {};
  for (const run of [warmUp, result]) {
    for (const [code, { count }] of Object.entries(run?.statusCodeStats ?? {})) statusCodes[code] = (statusCodes[code] ?? 0) + count;
  }
  const sum = (field: 'errors' | 'timeouts' | 'non2xx' | 'mismatches') => (warmUp?.[field] ?? 0) + result[field];
  const requests = result['2xx'];
  const usedMs: Record<string, number | undefined> = { 'load generator': (after.self.user + after.self.system) / 1000 };
  for (const name of Object.keys(watched)) {
    const start = before.processes[name];
    const end = after.processes[name];
    usedMs[name] = start === undefined || end === undefined ? undefined : end - start;
  }
  const cpuMicrosPerRequest: Record<string, number | null> = {};
  for (const [name, ms] of Object.entries(usedMs)) {
    cpuMicrosPerRequest[name] = ms === undefined || requests === 0 ? null : Math.round((ms * 1000) / requests);
  }
  const ours = Object.values(usedMs).reduce<number>((total, ms) => total + (ms ?? 0), 0);
  const backgroundCoreShare =
    before.machine === undefined || after.machine === undefined
      ? null
      : round(Math.max(0, after.machine - before.machine - ours) / (after.at - before.at), 2);
  if (backgroundCoreShare !== null && backgroundCoreShare > BACKGROUND_WARNING) {
    console.warn(
      `bench: WARNING other processes used ${pct(backgroundCoreShare)} of a core meanwhile: this scenario's numbers are unreliable`,
    );
  }
  const measurement: Measurement = {
    key: scenario.key,
    label: scenario.label,
    method: 'GET',
    path: pathname,
    requestsPerSecond: Math.round(requests / result.duration),
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: scenario.timeoutsAreLatency ? p99CountingTimeouts(result) : result.latency.p99,
      max: result.latency.max,
      mean: round(result.latency.mean, 2),
    },
    requests,
    failures: { errors: sum('errors'), timeouts: sum('timeouts'), non2xx: sum('non2xx'), mismatches: sum('mismatches'), statusCodes },
    cpuMicrosPerRequest,
    backgroundCoreShare,
    ...(requestLogLines === undefined ? {} : { requestLogLines }),
    ...(hostileBodies ? { hostileBodies } : {}),
  };
  // autocannon counts a timeout twice, as a timeout and as an error.
  const timedOut = scenario.timeoutsAreLatency ? 2 * result.timeouts : 0;
  const failures = failuresOf(result) - timedOut + (warmUp ? failuresOf(warmUp) : 0);
  if (failures > 0) {
    throw new Error(`${scenario.label}: ${failures} failed requests ${JSON.stringify(measurement.failures)}`);
  }
  return measurement;
}

/**
 * The window's p99 in ms when its timed-out requests count as answered at the timeout: autocannon
 * leaves them out of its latencies, so more than 1 % of them puts the p99 at the timeout at least.
 */
function p99CountingTimeouts(result: Result): number {
  const answered = result.latency.totalCount;
  return result.timeouts > 0.01 * (answered + result.timeouts) ? REQUEST_TIMEOUT_S * 1000 : result.latency.p99;
}

/** Runs `work` with `pids` stopped (SIGSTOP), continuing them afterwards whatever happens. */
async function whilePaused<T>(pids: readonly (number | undefined)[] | undefined, work: () => Promise<T>): Promise<T> {
  for (const pid of pids ?? []) if (pid !== undefined) process.kill(pid, 'SIGSTOP');
  try {
    return await work();
  } finally {
    resume(pids);
  }
}

/** Continues processes stopped for a scenario (SIGCONT); those already running are unaffected. */
function resume(pids: readonly (number | undefined)[] | undefined): void {
  for (const pid of pids ?? []) {
    try {
      if (pid !== undefined) process.kill(pid, 'SIGCONT');
    } catch {
      // it has exited
    }
  }
}

function toRound(measurements: Measurement[]): Round {
  const by = (key: ScenarioKey) => {
    const found = measurements.find((measurement) => measurement.key === key);
    if (!found) throw new Error(`no ${key} measurement`);
    return found;
  };
  const bare = by('bare');
  const ping = by('ping');
  const key = by('key');
  const nats = by('nats');
  const hostile = by('hostile');
  return {
    bare,
    ping,
    key,
    nats,
    hostile,
    pingShare: ping.requestsPerSecond / bare.requestsPerSecond,
    keyShare: key.requestsPerSecond / bare.requestsPerSecond,
    natsShare: nats.requestsPerSecond / bare.requestsPerSecond,
    // autocannon's 1 ms resolution: a p99 of 0 would divide by nothing.
    hostileP99ToPing: hostile.latencyMs.p99 / Math.max(1, ping.latencyMs.p99),
  };
}

function report(rounds: Round[]): void {
  // The ratios of the median round; p99 of the worst round.
  const pingShare = median(rounds.map((round) => round.pingShare));
  const natsShare = median(rounds.map((round) => round.natsShare));
  const keyShare = median(rounds.map((round) => round.keyShare));
  // Points of bare the API-key ping is below the JWT ping, in the median round of that difference.
  const keyBelowPing = median(rounds.map((round) => round.pingShare - round.keyShare));
  const pingP99 = Math.max(...rounds.map((round) => round.ping.latencyMs.p99));
  const natsP99 = Math.max(...rounds.map((round) => round.nats.latencyMs.p99));
  const hostileP99ToPing = median(rounds.map((round) => round.hostileP99ToPing));
  const targets = [
    { name: `ping req/s >= ${pct(TARGETS.pingShareOfBare)} of bare`, actual: pct(pingShare), met: pingShare >= TARGETS.pingShareOfBare },
    {
      name: `NATS route req/s >= ${pct(TARGETS.natsShareOfBare)} of bare`,
      actual: pct(natsShare),
      met: natsShare >= TARGETS.natsShareOfBare,
    },
    { name: `ping p99 < ${TARGETS.p99BelowMs} ms`, actual: `${pingP99} ms`, met: pingP99 < TARGETS.p99BelowMs },
    {
      name: `API-key ping within ${TARGETS.keyPointsBelowPing * 100} points of the JWT ping (share of bare)`,
      actual: `${pct(keyShare)} vs ${pct(pingShare)}, ${(keyBelowPing * 100).toFixed(1)} points below`,
      met: keyBelowPing <= TARGETS.keyPointsBelowPing,
    },
    { name: `NATS route p99 < ${TARGETS.p99BelowMs} ms`, actual: `${natsP99} ms`, met: natsP99 < TARGETS.p99BelowMs },
    {
      name: `ping p99 with hostile bodies (${HOSTILE_PER_SECOND}/s) within ${TARGETS.hostileP99ToPing}x of ping p99 without`,
      actual: times(hostileP99ToPing),
      met: hostileP99ToPing <= TARGETS.hostileP99ToPing,
    },
  ];

  const infrastructure = new Set<string>(['load generator', 'nats', 'redis']);
  const cpu = (m: Measurement, wanted: (name: string) => boolean) =>
    Object.entries(m.cpuMicrosPerRequest)
      .filter(([name]) => wanted(name))
      .map(([name, micros]) => `${name} ${micros ?? '?'}`)
      .join(', ');
  const rows = rounds.flatMap((round, index) =>
    [round.bare, round.ping, round.key, round.nats, round.hostile].map((m) => [
      rounds.length > 1 ? `${index + 1}: ${m.label}` : m.label,
      String(m.requestsPerSecond),
      String(m.latencyMs.p50),
      String(m.latencyMs.p99),
      m === round.bare ? '100%' : pct(m.requestsPerSecond / round.bare.requestsPerSecond),
      m === round.hostile ? times(round.hostileP99ToPing) : '',
      cpu(m, (name) => !infrastructure.has(name)),
      cpu(m, (name) => infrastructure.has(name)),
      m.backgroundCoreShare === null ? '?' : pct(m.backgroundCoreShare),
    ]),
  );
  console.log('');
  console.log(
    table(
      [
        'round: scenario',
        'req/s',
        'p50 ms',
        'p99 ms',
        'of bare',
        'p99 of ping',
        'app CPU µs/req',
        'load gen, NATS, Redis µs/req',
        'other load',
      ],
      rows,
    ),
  );
  console.log('');
  for (const [index, { hostile }] of rounds.entries())
    console.log(`hostile bodies, round ${index + 1}: ${JSON.stringify(hostile.hostileBodies)}`);
  if (rounds.length > 1) console.log(`Of ${rounds.length} rounds: the median round's ratio, the worst round's p99.`);
  for (const target of targets) console.log(`${target.met ? 'MET   ' : 'MISSED'}  ${target.name}: ${target.actual}`);

  const output = {
    measuredAt: new Date().toISOString(),
    commit: gitCommit(),
    machine: { node: process.version, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? 'unknown', loadAverage: os.loadavg() },
    settings: {
      connections: CONNECTIONS,
      rounds: ROUNDS,
      warmUpSeconds: WARMUP_S,
      laterWarmUpSeconds: LATER_WARMUP_S,
      durationSeconds: DURATION_S,
      rateLimitReadPerMinute: Number(GATEWAY_ENV.RATE_LIMIT_READ_PER_MINUTE),
      rateLimitWritePerMinute: Number(GATEWAY_ENV.RATE_LIMIT_WRITE_PER_MINUTE),
      rateLimitUnauthenticatedPerMinute: Number(GATEWAY_ENV.RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE),
      hostileBodiesPerSecond: HOSTILE_PER_SECOND,
    },
    rounds: rounds.map((each) => ({
      scenarios: [each.bare, each.ping, each.key, each.nats, each.hostile],
      ratios: {
        pingToBare: round(each.pingShare, 3),
        keyToBare: round(each.keyShare, 3),
        natsToBare: round(each.natsShare, 3),
        hostileP99ToPing: round(each.hostileP99ToPing, 2),
      },
    })),
    ratios: {
      pingToBare: round(pingShare, 3),
      keyToBare: round(keyShare, 3),
      natsToBare: round(natsShare, 3),
      hostileP99ToPing: round(hostileP99ToPing, 2),
    },
    targets: {
      pingShareOfBare: { required: TARGETS.pingShareOfBare, actual: round(pingShare, 3), met: targets[0]?.met },
      natsShareOfBare: { required: TARGETS.natsShareOfBare, actual: round(natsShare, 3), met: targets[1]?.met },
      pingP99Ms: { below: TARGETS.p99BelowMs, actual: pingP99, met: targets[2]?.met },
      natsP99Ms: { below: TARGETS.p99BelowMs, actual: natsP99, met: targets[4]?.met },
      keyPointsBelowPing: { atMost: TARGETS.keyPointsBelowPing, actual: round(keyBelowPing, 3), met: targets[3]?.met },
      hostileP99ToPing: { atMost: TARGETS.hostileP99ToPing, actual: round(hostileP99ToPing, 2), met: targets[5]?.met },
    },
    allTargetsMet: targets.every((target) => target.met),
  };
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, 'latest.json');
  writeFileSync(file, `${JSON.stringify(output, null, 2)}\n`);
  console.log(`\nbench: ${output.allTargetsMet ? 'all targets met' : 'some targets missed'}; results in ${path.relative(REPO_ROOT, file)}`);
}

/** The middle value (the mean of the two middle ones for an even count). */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** The baseline server in its own process, on an ephemeral loopback port. */
async function startHelloServer(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(HERE, 'hello-server.ts')], {
    cwd: REPO_ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the hello server did not start within 15 s')), 15_000);
    child.once('exit', (code) => reject(new Error(`the hello server exited with ${code} before listening`)));
    if (!child.stdout) throw new Error('no stdout');
    createInterface({ input: child.stdout }).once('line', (line) => {
      clearTimeout(timer);
      const parsed = parseJson(line) as { port?: unknown } | undefined;
      if (typeof parsed?.port === 'number' && parsed.port > 0) resolve(parsed.port);
      else reject(new Error(`the hello server said ${line}`));
    });
  }).catch(async (error: unknown) => {
    await stopChild(child);
    throw error;
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

async function stopChild(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** A new API key of the bench organization, made through the gateway with an owner token. */
async function apiKeyFor(gatewayUrl: string, authorization: string): Promise<string> {
  const response = await fetch(`${gatewayUrl}/v2/api-keys`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', role: 'member' }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await response.json()) as { key?: unknown };
  if (response.status !== 201 || typeof body.key !== 'string') throw new Error(`creating the bench API key answered ${response.status}`);
  return body.key;
}

function expectPong(status: number, body: string): void {
  const parsed = parseJson(body) as { message?: unknown } | undefined;
  if (status !== 200 || parsed?.message !== 'pong') throw new Error(`ping answered ${status} ${body.slice(0, 200)}`);
}

function cpuOf(processes: Record<string, number | undefined>): Record<string, number | undefined> {
  return Object.fromEntries(Object.entries(processes).map(([name, pid]) => [name, cpuMsOf(pid)]));
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === 0 || column >= 6 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

function pct(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}

function times(ratio: number): string {
  return `${ratio.toFixed(2)}x`;
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function gitCommit(): string | null {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${head}+dirty` : head;
  } catch {
    return null;
  }
}

function wholeNumberFromEnv(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > 600) {
    console.error(`bench: ${name} must be a whole number of seconds from ${min} to 600, not ${raw}`);
    process.exit(2);
  }
  return value;
}
