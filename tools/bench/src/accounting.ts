/**
 * Accounting benchmark (issue 40): what a period summary of one wallet costs over a large
 * accounting ledger, and how that cost grows with the events in the period and before it. Starts
 * the built wallet-service alone (its own schema and NATS server), seeds `accounting_events`
 * straight into its schema with generate_series (one wallet per ledger, each event carrying its
 * position's state and running totals after it, the positions set to their last event's state
 * and totals), and asks `wallet.accounting.period-summary` on NATS as the gateway asks it, one
 * request at a time.
 *
 * - size: one wallet per `events` size with its events spread evenly over 2025: the one-year
 *   summary of 2025 (every event in the period) and the one-month summary of June 2025 (a twelfth
 *   in it, five twelfths before it);
 * - growth: three wallets answering the one-month summary of December 2025: `base` (`before`
 *   events from January to November, `inMonth` in December), `before x10` (ten times the events
 *   before, the same in December) and `in x10` (the same before, ten times in December).
 *
 * - other wallets: a wallet like the smallest one-year wallet, seeded first, so every other
 *   wallet's events are written after its last one (`eventsWrittenAfter`); every other wallet's
 *   positions then get one more event (an accrual of 0 carrying the same state, at the same
 *   instant), so their last events are the table's last and they do not pay for it. The one-year
 *   summary of that wallet over the smallest one-year wallet's shows whether the cost grows with
 *   the events other wallets write after a wallet's last.
 *
 * The cases are measured in blocks that take turns, so drift of a shared machine does not pass
 * for growth. Figures are reported, never asserted: the ratios within this run carry the claim
 * (README "Accounting": the summary reads the boundaries' running totals, so its cost follows
 * neither count). Run alone with `npx tsx tools/bench/src/accounting.ts` (prints, writes no file),
 * or `BENCH_SUITES=accounting npm run -s bench` (writes results/accounting.json).
 */
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { RequestContext } from '@service/contracts';
import { NatsRequester, SubjectClient } from '@service/nats';
import { startTestSystem, TEST_DATABASE_URL } from '@service/testing';
import pg from 'pg';
import { cpuMsOf, cpuMsOfCommand, machineBusyMs, progress, runCleanups, suiteCleanups, wholeNumberSetting } from './load.js';
import { percentile } from './webhook-receiver.js';

export interface AccountingBenchOptions {
  /** Events of each one-year wallet, evenly over 2025 (ascending). */
  readonly events?: readonly number[];
  /** Events of the growth wallets in December 2025 (`base` and `before x10`; `in x10` has ten times as many). */
  readonly inMonth?: number;
  /** Events of the growth wallets from January to November 2025 (`base` and `in x10`; `before x10` has ten times as many). */
  readonly before?: number;
  /** Measured requests per case (after 20 unmeasured), in `blocks` blocks taking turns. */
  readonly requests?: number;
  readonly blocks?: number;
}

interface CaseResult {
  readonly name: string;
  readonly period: { readonly start: string; readonly end: string };
  /** Events of the wallet in the period and before it (counted after seeding). */
  readonly eventsInPeriod: number;
  readonly eventsBefore: number;
  /** Events of other wallets written after this wallet's last (higher `seq`). */
  readonly eventsWrittenAfter: number;
  readonly requests: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly meanMs: number;
  readonly maxMs: number;
  /** CPU (user + system, /proc, 10 ms ticks) of the wallet-service process per summary. */
  readonly walletCpuUsPerRequest: number | null;
  /** CPU of every `postgres` process per summary (shared with whatever else runs on the machine). */
  readonly postgresCpuUsPerRequest: number;
  /** The answer's `status` (`exact` or `unreconciled`) and `reason`: the synthetic ledger's, not a figure of cost. */
  readonly status: string;
  readonly reason: string | null;
}

interface Growth {
  /** Events of the larger case over the smaller's, in the period and before it. */
  readonly eventsInPeriod: number;
  readonly eventsBefore: number;
  /** The larger case's p50 (p99, wallet-service CPU per request) over the smaller's. */
  readonly p50: number;
  readonly p99: number;
  readonly walletCpu: number | null;
}

export interface AccountingBenchResult {
  readonly seeding: string;
  readonly seedSeconds: number;
  readonly cases: readonly CaseResult[];
  readonly growth: {
    /** One-year summary, smallest and largest wallet: only events in the period grow. */
    readonly yearAcrossSizes: Growth;
    /** One-month summary of June, smallest and largest wallet: events in and before the period grow together. */
    readonly monthAcrossSizes: Growth;
    /** December summary, `before x10` over `base`: only the events before the period grow. */
    readonly eventsBeforeX10: Growth;
    /** December summary, `in x10` over `base`: only the events in the period grow. */
    readonly eventsInPeriodX10: Growth;
    /**
     * One-year summary of the wallet seeded first over the smallest one-year wallet's (the same
     * events): only the other wallets' events written after its last differ.
     */
    readonly otherWalletsEventsAfter: Growth & { readonly eventsWrittenAfter: number };
  };
  /**
   * Busy CPU of the machine beside wallet-service and PostgreSQL while measuring, as a share of
   * one core (the bench's own process and NATS included): above about 0.3 something else ran and
   * the milliseconds are suspect; the wallet CPU per request carries the comparison better.
   */
  readonly otherLoad: number | null;
}

const ORG = 'org_accounting_bench';
const CASH = 'cash:ethereum_sepolia:usdc';
const JAAA = 'service-jaaa-usdc-vault';
const USTB = 'service-ustb-vault';
const WARMUP_REQUESTS = 20;
const YEAR = { start: '2025-01-01T00:00:00.000Z', end: '2026-01-01T00:00:00.000Z' } as const;
const JUNE = { start: '2025-06-01T00:00:00.000Z', end: '2025-07-01T00:00:00.000Z' } as const;
const DECEMBER = { start: '2025-12-01T00:00:00.000Z', end: '2026-01-01T00:00:00.000Z' } as const;

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);

interface Span {
  readonly count: number;
  readonly from: string;
  readonly to: string;
}

/**
 * One wallet of the organization, its three positions (cash and two yield sources), and its
 * ledger: `before.count` events evenly over `[before.from, before.to)`, then `within.count` over
 * `[within.from, within.to)`. The events are the ones the former in-process bench seeded (the
 * kinds of movement and the positions in turn, amounts growing with the index), with each
 * position's running totals after each event (`cum_*`, window sums in the order of writing); the
 * positions then hold their last event's amount, accrual time and totals, as the write path leaves
 * them.
 */
export async function seedWallet(db: pg.Client, schema: string, walletId: string, before: Span, within: Span): Promise<void> {
  await db.query(
    `INSERT INTO "${schema}".wallets (id, org_id, label, status, auto_rebalance, strategy, deposit_addresses, created_at, updated_at)
     VALUES ($1::uuid, $2, null, 'idle', false, '[]'::jsonb, '{}'::jsonb, now(), now())`,
    [walletId, ORG],
  );
  await db.query(
    `INSERT INTO "${schema}".positions (wallet_id, position_id, kind, amount, reserved, earned, accrued_at)
     SELECT $1::uuid, p.id, p.kind, 0, 0, 0, now() FROM (VALUES ($2, 'cash'), ($3, 'yield_source'), ($4, 'yield_source')) AS p(id, kind)`,
    [walletId, CASH, JAAA, USTB],
  );
  await db.query(
    `INSERT INTO "${schema}".accounting_events
       (id, org_id, wallet_id, type, position_id, position_kind, amount, cost, realized, position_amount, position_accrued_at, open_cost,
        occurred_at, cum_deposits, cum_payouts, cum_fees, cum_bought, cum_redeemed, cum_realized)
     SELECT gen_random_uuid(), $1, $2::uuid, type, position_id, position_kind, amount, cost, realized, 1000000000 + i, t, 900000000, t,
            sum(CASE WHEN type = 'deposit' THEN amount ELSE 0 END) OVER w, sum(CASE WHEN type = 'payout' THEN amount ELSE 0 END) OVER w,
            0, sum(CASE WHEN type = 'buy' THEN amount ELSE 0 END) OVER w, sum(CASE WHEN type = 'redeem' THEN amount ELSE 0 END) OVER w,
            sum(CASE WHEN type = 'redeem' THEN realized ELSE 0 END) OVER w
       FROM (SELECT i, (ARRAY['accrual', 'deposit', 'buy', 'redeem', 'payout'])[1 + i % 5] AS type,
                    (ARRAY[$3, $4, $5])[1 + i % 3] AS position_id,
                    CASE WHEN i % 3 = 0 THEN 'cash' ELSE 'yield_source' END AS position_kind,
                    (1000000 + i)::bigint AS amount, (i % 7)::bigint AS cost, (i % 5)::bigint AS realized,
                    CASE WHEN i <= $6::int
                         THEN $7::timestamptz + ((i - 0.5) / nullif($6::int, 0)) * ($8::timestamptz - $7::timestamptz)
                         ELSE $10::timestamptz + ((i - $6::int - 0.5) / nullif($9::int, 0)) * ($11::timestamptz - $10::timestamptz)
                    END AS t
               FROM generate_series(1, $6::int + $9::int) AS i) AS s
     WINDOW w AS (PARTITION BY position_id ORDER BY i)
     ORDER BY i`,
    [ORG, walletId, CASH, JAAA, USTB, before.count, before.from, before.to, within.count, within.from, within.to],
  );
  await db.query(
    `UPDATE "${schema}".positions p
        SET amount = e.position_amount, accrued_at = e.position_accrued_at,
            totals = jsonb_build_object('deposits', e.cum_deposits::text, 'payouts', e.cum_payouts::text, 'fees', e.cum_fees::text,
                                        'bought', e.cum_bought::text, 'redeemed', e.cum_redeemed::text, 'realized', e.cum_realized::text)
       FROM (SELECT DISTINCT ON (position_id) position_id, position_amount, position_accrued_at, cum_deposits, cum_payouts, cum_fees,
                    cum_bought, cum_redeemed, cum_realized
               FROM "${schema}".accounting_events WHERE wallet_id = $1::uuid ORDER BY position_id, seq DESC) e
      WHERE p.wallet_id = $1::uuid AND p.position_id = e.position_id`,
    [walletId],
  );
}

interface Case {
  readonly name: string;
  readonly walletId: string;
  readonly period: { readonly start: string; readonly end: string };
  eventsInPeriod: number;
  eventsBefore: number;
  eventsWrittenAfter: number;
  readonly times: number[];
  walletCpuMs: number | null;
  postgresCpuMs: number;
  status: string;
  reason: string | null;
}

function ctxOf(): RequestContext {
  return { orgId: ORG, role: 'member', principalId: 'user_accounting_bench', requestId: randomUUID() };
}

async function ask(client: SubjectClient, item: Case): Promise<number> {
  const started = performance.now();
  const report = await client.request('wallet.accounting.period-summary', { ctx: ctxOf(), walletId: item.walletId, ...item.period });
  const elapsed = performance.now() - started;
  if (report.periodStart !== item.period.start || report.portfolioWalletId !== item.walletId) {
    throw new Error(`accounting bench: ${item.name} answered ${JSON.stringify(report).slice(0, 300)}`);
  }
  item.status = report.status;
  item.reason = report.reason;
  return elapsed;
}

function growthOf(larger: Case, smaller: Case, results: Map<string, CaseResult>): Growth {
  const [big, small] = [results.get(larger.name), results.get(smaller.name)];
  if (!big || !small) throw new Error('accounting bench: a case has no result');
  const ratio = (a: number | null, b: number | null) => (a === null || b === null || b === 0 ? null : round(a / b));
  return {
    eventsInPeriod: ratio(big.eventsInPeriod, small.eventsInPeriod) ?? 0,
    eventsBefore: ratio(big.eventsBefore, small.eventsBefore) ?? 0,
    p50: ratio(big.p50Ms, small.p50Ms) ?? 0,
    p99: ratio(big.p99Ms, small.p99Ms) ?? 0,
    walletCpu: ratio(big.walletCpuUsPerRequest, small.walletCpuUsPerRequest),
  };
}

export async function benchAccounting(options: AccountingBenchOptions = {}): Promise<AccountingBenchResult> {
  const sizes = [...(options.events ?? [10_000, 100_000])].sort((a, b) => a - b);
  const inMonth = options.inMonth ?? 1_000;
  const before = options.before ?? 9_000;
  const requests = options.requests ?? 400;
  const blocks = options.blocks ?? 4;
  if (sizes.length === 0 || sizes.some((size) => size < 12) || inMonth < 1 || before < 1 || requests < blocks || blocks < 1) {
    throw new Error(`accounting bench: invalid options ${JSON.stringify({ sizes, inMonth, before, requests, blocks })}`);
  }
  // What it starts is registered at once, so a run stopped by its watchdog or a signal stops it too.
  try {
    progress.stage = 'accounting: starting';
    const system = await startTestSystem({ services: ['wallet'], gateways: 0 });
    suiteCleanups.push({ name: 'accounting system', run: () => system.stop() });
    const db = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await db.connect();
    suiteCleanups.push({ name: 'database connection', run: () => db.end() });
    const schema = system.serviceEnv('wallet')['DATABASE_SCHEMA'] ?? '';
    const nats = await system.nats.connect('gateway');
    suiteCleanups.push({ name: 'NATS connection', run: () => nats.close() });
    const client = new SubjectClient(new NatsRequester(nats, 30_000));
    const walletPid = system.services.get('wallet')?.child.pid;

    const newCase = (name: string, walletId: string, period: Case['period']): Case => ({
      name,
      walletId,
      period,
      eventsInPeriod: 0,
      eventsBefore: 0,
      eventsWrittenAfter: 0,
      times: [],
      walletCpuMs: 0,
      postgresCpuMs: 0,
      status: '',
      reason: null,
    });
    const cases: Case[] = [];
    const seedStarted = performance.now();
    progress.stage = `accounting: seeding the wallet written before the others (${sizes[0]} events)`;
    const earlyWalletId = randomUUID();
    const earlyYear = { count: sizes[0] ?? 0, from: YEAR.start, to: YEAR.end };
    await seedWallet(db, schema, earlyWalletId, { count: 0, from: YEAR.start, to: YEAR.start }, earlyYear);
    const early = newCase(`year, ${sizes[0]} events, written before the other wallets`, earlyWalletId, YEAR);
    const yearCases = new Map<number, { year: Case; month: Case }>();
    for (const size of sizes) {
      progress.stage = `accounting: seeding a wallet of ${size} events`;
      const walletId = randomUUID();
      await seedWallet(
        db,
        schema,
        walletId,
        { count: 0, from: YEAR.start, to: YEAR.start },
        { count: size, from: YEAR.start, to: YEAR.end },
      );
      const year = newCase(`year, ${size} events`, walletId, YEAR);
      const month = newCase(`June, ${size} events`, walletId, JUNE);
      yearCases.set(size, { year, month });
      cases.push(year, month);
    }
    const growthCase = async (name: string, beforeCount: number, inCount: number) => {
      progress.stage = `accounting: seeding the ${name} wallet`;
      const walletId = randomUUID();
      await seedWallet(
        db,
        schema,
        walletId,
        { count: beforeCount, from: YEAR.start, to: DECEMBER.start },
        { count: inCount, from: DECEMBER.start, to: DECEMBER.end },
      );
      const item = newCase(`December, ${name}`, walletId, DECEMBER);
      cases.push(item);
      return item;
    };
    const base = await growthCase('base', before, inMonth);
    const beforeX10 = await growthCase('before x10', before * 10, inMonth);
    const inX10 = await growthCase('in x10', before, inMonth * 10);
    cases.push(early);
    // Every other wallet's positions get one more event, a copy of their last (an accrual of 0 at
    // the same instant): their last events are now the table's last, so only the early wallet has
    // other wallets' events after its own.
    await db.query(
      `INSERT INTO "${schema}".accounting_events
         (id, org_id, wallet_id, type, position_id, position_kind, amount, cost, realized, position_amount, position_accrued_at, open_cost,
          occurred_at, cum_deposits, cum_payouts, cum_fees, cum_bought, cum_redeemed, cum_realized)
       SELECT gen_random_uuid(), org_id, wallet_id, 'accrual', position_id, position_kind, 0, 0, 0, position_amount, position_accrued_at,
              open_cost, occurred_at, cum_deposits, cum_payouts, cum_fees, cum_bought, cum_redeemed, cum_realized
         FROM (SELECT DISTINCT ON (wallet_id, position_id) * FROM "${schema}".accounting_events
                WHERE wallet_id <> $1::uuid ORDER BY wallet_id, position_id, seq DESC) AS last
        ORDER BY wallet_id, position_id`,
      [earlyWalletId],
    );
    await db.query(`VACUUM ANALYZE "${schema}".accounting_events`);
    await db.query(`VACUUM ANALYZE "${schema}".positions`);
    const seedSeconds = round((performance.now() - seedStarted) / 1000, 1);
    for (const item of cases) {
      const counted = await db.query<{ within: string; before: string; after: string }>(
        `SELECT count(*) FILTER (WHERE occurred_at >= $2::timestamptz AND occurred_at < $3::timestamptz) AS within,
                count(*) FILTER (WHERE occurred_at < $2::timestamptz) AS before,
                (SELECT count(*) FROM "${schema}".accounting_events
                  WHERE seq > (SELECT max(seq) FROM "${schema}".accounting_events WHERE wallet_id = $1::uuid)) AS after
           FROM "${schema}".accounting_events WHERE wallet_id = $1::uuid`,
        [item.walletId, item.period.start, item.period.end],
      );
      item.eventsInPeriod = Number(counted.rows[0]?.within);
      item.eventsBefore = Number(counted.rows[0]?.before);
      item.eventsWrittenAfter = Number(counted.rows[0]?.after);
    }

    progress.stage = 'accounting: warm-up';
    for (const item of cases) for (let index = 0; index < WARMUP_REQUESTS; index += 1) await ask(client, item);

    const perBlock = Math.ceil(requests / blocks);
    const machineBefore = machineBusyMs();
    let walletTotal = 0;
    let postgresTotal = 0;
    const measuredStarted = performance.now();
    for (let block = 0; block < blocks; block += 1) {
      progress.stage = `accounting: block ${block + 1} of ${blocks}`;
      // Each block starts with another case, so no case always follows the same one.
      const order = cases.map((_, index) => cases[(index + block) % cases.length]).filter((item): item is Case => item !== undefined);
      for (const item of order) {
        const walletStart = cpuMsOf(walletPid);
        const postgresStart = cpuMsOfCommand('postgres');
        for (let index = 0; index < perBlock; index += 1) item.times.push(await ask(client, item));
        const walletEnd = cpuMsOf(walletPid);
        const postgres = cpuMsOfCommand('postgres') - postgresStart;
        const wallet = walletStart === undefined || walletEnd === undefined ? null : walletEnd - walletStart;
        item.walletCpuMs = wallet === null || item.walletCpuMs === null ? null : item.walletCpuMs + wallet;
        item.postgresCpuMs += postgres;
        walletTotal += wallet ?? 0;
        postgresTotal += postgres;
      }
    }
    const elapsedMs = performance.now() - measuredStarted;
    const machineAfter = machineBusyMs();
    const otherLoad =
      machineBefore === undefined || machineAfter === undefined
        ? null
        : round(Math.max(0, machineAfter - machineBefore - walletTotal - postgresTotal) / elapsedMs);

    const results = new Map<string, CaseResult>();
    for (const item of cases) {
      const sorted = [...item.times].sort((a, b) => a - b);
      results.set(item.name, {
        name: item.name,
        period: item.period,
        eventsInPeriod: item.eventsInPeriod,
        eventsBefore: item.eventsBefore,
        eventsWrittenAfter: item.eventsWrittenAfter,
        requests: sorted.length,
        p50Ms: round(percentile(sorted, 50)),
        p99Ms: round(percentile(sorted, 99)),
        meanMs: round(mean(sorted)),
        maxMs: round(sorted.at(-1) ?? 0),
        walletCpuUsPerRequest: item.walletCpuMs === null ? null : round((item.walletCpuMs * 1000) / sorted.length, 0),
        postgresCpuUsPerRequest: round((item.postgresCpuMs * 1000) / sorted.length, 0),
        status: item.status,
        reason: item.reason,
      });
    }
    const smallest = yearCases.get(sizes[0] ?? 0);
    const largest = yearCases.get(sizes.at(-1) ?? 0);
    if (!smallest || !largest) throw new Error('accounting bench: no one-year wallet');
    return {
      seeding:
        `SQL (generate_series) into wallet-service's schema, organization ${ORG}, one wallet per ledger, three positions ` +
        `(${CASH}, ${JAAA}, ${USTB}) in turn, five kinds of movement in turn, running totals per position: ` +
        `${sizes.join(', ')} events evenly over 2025; December wallets: ${before} events from January to November and ${inMonth} in December ` +
        `(base), ${before * 10} and ${inMonth} (before x10), ${before} and ${inMonth * 10} (in x10); a wallet of ${sizes[0]} events ` +
        `over 2025 seeded before all of them; then a copy of each other position's last event (an accrual of 0), so only that one ` +
        `has other wallets' events after its last`,
      seedSeconds,
      cases: [...results.values()],
      growth: {
        yearAcrossSizes: growthOf(largest.year, smallest.year, results),
        monthAcrossSizes: growthOf(largest.month, smallest.month, results),
        eventsBeforeX10: growthOf(beforeX10, base, results),
        eventsInPeriodX10: growthOf(inX10, base, results),
        otherWalletsEventsAfter: { ...growthOf(early, smallest.year, results), eventsWrittenAfter: early.eventsWrittenAfter },
      },
      otherLoad,
    };
  } finally {
    await runCleanups(suiteCleanups);
  }
}

const wholeNumber = (name: string) => wholeNumberSetting(name, 1);

/** The suite's settings from the environment (README: "accounting"). */
export function accountingOptionsFromEnv(): AccountingBenchOptions {
  const sizes = process.env['BENCH_ACCOUNTING_EVENTS'];
  const events = sizes
    ? sizes.split(',').map((size) => {
        const number = Number(size.trim().replaceAll('_', ''));
        if (!Number.isInteger(number) || number < 12)
          throw new Error(`BENCH_ACCOUNTING_EVENTS: ${size} is not a whole number of 12 or more`);
        return number;
      })
    : undefined;
  return {
    events,
    inMonth: wholeNumber('BENCH_ACCOUNTING_MONTH_EVENTS'),
    before: wholeNumber('BENCH_ACCOUNTING_BEFORE_EVENTS'),
    requests: wholeNumber('BENCH_ACCOUNTING_REQUESTS'),
  };
}

/** Events the suite seeds with these options: what its time budget in run.ts grows with. */
export function accountingEventsOf(options: AccountingBenchOptions): number {
  const inMonth = options.inMonth ?? 1_000;
  const before = options.before ?? 9_000;
  const sizes = options.events ?? [10_000, 100_000];
  return sizes.reduce((sum, size) => sum + size, 0) + (sizes[0] ?? 0) + 12 * before + 12 * inMonth;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await benchAccounting(accountingOptionsFromEnv()), null, 2));
}
