/**
 * Activity feed benchmark: page latency of `GET /v2/activity` through the gateway for the first
 * page and for a page deep in a feed of one organization (1,000,000 items by default, seeded
 * straight into activity-service's schema with generate_series), and the ratio between them.
 * Target: the deep page within 1.5x of the first (keyset pagination on the (org_id, timestamp,
 * id) index; an OFFSET would grow with depth).
 *
 * Run alone with `npx tsx tools/bench/src/activity.ts` (needs `npx nx run-many -t build
 * --projects=gateway,activity-service`), or call {@link benchActivity} from run.ts.
 */
import { pathToFileURL } from 'node:url';
import { encodeCursor } from '@service/pagination';
import { startTestSystem, TEST_DATABASE_URL } from '@service/testing';
import pg from 'pg';
import { runCleanups, suiteCleanups } from './load.js';

export interface ActivityBenchOptions {
  readonly items?: number;
  /** Requests per measured page, one after another. */
  readonly requests?: number;
  /** How far into the feed the deep page starts, as a share of the items. */
  readonly depth?: number;
}

interface PageLatency {
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly meanMs: number;
}

export interface ActivityBenchResult {
  readonly items: number;
  readonly depthItems: number;
  readonly firstPage: PageLatency;
  readonly deepPage: PageLatency;
  /** Deep page p50 over first page p50. */
  readonly ratio: number;
  readonly targets: { readonly ratioAtMost: 1.5; readonly met: boolean };
}

const ORG = 'org_activity_bench';
const WALLETS = 8;

/** One organization's feed: deposits a second apart over a few wallets, all completed. */
async function seed(db: pg.Client, schema: string, items: number): Promise<void> {
  await db.query(
    `INSERT INTO "${schema}".activity_items
       (org_id, id, wallet_id, type, status, status_rank, amount_usd, "timestamp", resource, observed_at, event_id)
     SELECT $1, gen_random_uuid(), w.ids[1 + i % $3], 'deposit', 'completed', 2, 10000000 + i,
            timestamp '2026-01-01' + i * interval '1 second',
            jsonb_build_object('id', gen_random_uuid(), 'amount', '10.000000', 'token', 'usdc', 'chain', 'ethereum_sepolia',
              'fromAddress', '0x8ba1f109551bD432803012645Ac136ddd64DBA72', 'txHash', '0x' || repeat('ab', 32), 'status', 'completed',
              'createdAt', to_char(timestamp '2026-01-01' + i * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'completedAt', null),
            now(), gen_random_uuid()
       FROM generate_series(1, $2) AS i,
            (SELECT array_agg(gen_random_uuid()) AS ids FROM generate_series(1, $3)) AS w`,
    [ORG, items, WALLETS],
  );
  await db.query(`ANALYZE "${schema}".activity_items`);
}

/** The cursor the feed would hand out after the item `depth` places from the top. */
async function deepCursor(db: pg.Client, schema: string, depth: number): Promise<string> {
  const row = await db.query<{ timestamp: Date; id: string }>(
    `SELECT "timestamp", id FROM "${schema}".activity_items WHERE org_id = $1 ORDER BY "timestamp" DESC, id DESC OFFSET $2 LIMIT 1`,
    [ORG, depth - 1],
  );
  const last = row.rows[0];
  if (!last) throw new Error(`the feed has fewer than ${depth} items`);
  return encodeCursor('activity', {}, [last.timestamp.toISOString(), last.id]);
}

async function measure(url: string, token: string, requests: number): Promise<PageLatency> {
  const timings: number[] = [];
  // A few unmeasured requests warm the connection, the plan cache and the pages of the index.
  for (let index = 0; index < requests + 20; index += 1) {
    const started = performance.now();
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    const body = (await response.json()) as { data?: unknown[] };
    if (response.status !== 200 || body.data?.length !== 20) throw new Error(`GET ${url} answered ${response.status}`);
    if (index >= 20) timings.push(performance.now() - started);
  }
  timings.sort((a, b) => a - b);
  const at = (share: number) => round(timings[Math.min(timings.length - 1, Math.floor(share * timings.length))] ?? 0);
  return { p50Ms: at(0.5), p99Ms: at(0.99), meanMs: round(timings.reduce((sum, value) => sum + value, 0) / timings.length) };
}

const round = (value: number) => Math.round(value * 100) / 100;

export async function benchActivity(options: ActivityBenchOptions = {}): Promise<ActivityBenchResult> {
  const items = options.items ?? 1_000_000;
  const requests = options.requests ?? 300;
  const depthItems = Math.floor(items * (options.depth ?? 0.9));
  // What it starts is registered at once, so a run stopped by its watchdog or a signal stops it too.
  try {
    const system = await startTestSystem({
      services: ['activity'],
      gateways: 1,
      gatewayEnv: { RATE_LIMIT_READ_PER_MINUTE: '1000000', RATE_LIMIT_WRITE_PER_MINUTE: '1000000' },
    });
    suiteCleanups.push({ name: 'activity system', run: () => system.stop() });
    const db = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await db.connect();
    suiteCleanups.push({ name: 'database connection', run: () => db.end() });
    const schema = system.serviceEnv('activity')['DATABASE_SCHEMA'] ?? '';
    await seed(db, schema, items);
    const token = await system.auth.token({ org: ORG, role: 'member', sub: 'bench' });
    const base = `${system.gateways[0]?.url ?? ''}/v2/activity`;
    const firstPage = await measure(base, token, requests);
    const deepPage = await measure(`${base}?cursor=${await deepCursor(db, schema, depthItems)}`, token, requests);
    const ratio = round(deepPage.p50Ms / firstPage.p50Ms);
    return { items, depthItems, firstPage, deepPage, ratio, targets: { ratioAtMost: 1.5, met: ratio <= 1.5 } };
  } finally {
    await runCleanups(suiteCleanups);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const items = process.env['BENCH_ACTIVITY_ITEMS'] ? Number(process.env['BENCH_ACTIVITY_ITEMS']) : undefined;
  console.log(JSON.stringify(await benchActivity({ items }), null, 2));
}
