import type { SqlExecutor } from '@service/events';

/** An item of work and the wallet (of its organization) whose lock its step takes. */
export interface DueItem {
  readonly id: string;
  readonly orgId: string;
  readonly walletId: string;
}

/** What the workflow worker finds due in one look, by kind (a wallet to provision: `id` is the wallet's). */
export interface DueWork {
  readonly wallets: DueItem[];
  readonly deposits: DueItem[];
  readonly rebalances: DueItem[];
  readonly withdrawals: DueItem[];
  readonly approvals: DueItem[];
}

const KINDS = ['wallets', 'deposits', 'rebalances', 'withdrawals', 'approvals'] as const;

/**
 * Each kind's part reads its `(status, time)` index, at most `$1` rows; rebalances and withdrawals
 * oldest first, so a wallet's steps run in the order they were asked for.
 */
const FIND_DUE_WORK = `SELECT kind, id, "orgId", "walletId" FROM (
  (SELECT 0 AS kind, id::text AS id, org_id AS "orgId", id::text AS "walletId", NULL::timestamptz AS created_at
     FROM wallets WHERE status = 'creating' LIMIT $1::int)
  UNION ALL
  (SELECT 1, id::text, org_id, wallet_id::text, NULL FROM deposits WHERE status = 'processing' AND settle_at <= $2::timestamptz LIMIT $1::int)
  UNION ALL
  (SELECT 2, id::text, org_id, wallet_id::text, created_at FROM rebalances
    WHERE status IN ('created', 'processing') AND next_run_at <= $2::timestamptz ORDER BY created_at LIMIT $1::int)
  UNION ALL
  (SELECT 3, id::text, org_id, wallet_id::text, created_at FROM withdrawals
    WHERE status = 'processing' AND next_run_at <= $2::timestamptz ORDER BY created_at LIMIT $1::int)
  UNION ALL
  (SELECT 4, id::text, org_id, wallet_id::text, NULL FROM deposit_address_approvals WHERE status = 'pending' AND due_at <= $2::timestamptz LIMIT $1::int)
) due ORDER BY kind, created_at`;

/**
 * Everything due at `now`, up to `take` of each kind, in one statement: the worker looks after
 * every commit that made work (a kick) and after every tick that moved something, and five reads
 * through Prisma a look were, under the write load, a share of the service's CPU of their own
 * (Prisma's client, an unprepared statement each in PostgreSQL).
 */
export async function findDueWork(db: SqlExecutor, now: Date, take: number): Promise<DueWork> {
  const rows = await db.$queryRawUnsafe<(DueItem & { kind: number })[]>(FIND_DUE_WORK, take, now.toISOString());
  const work: DueWork = { wallets: [], deposits: [], rebalances: [], withdrawals: [], approvals: [] };
  for (const { kind, id, orgId, walletId } of rows) {
    const key = KINDS[kind];
    if (key === undefined) throw new Error(`due work of unknown kind ${kind}`);
    work[key].push({ id, orgId, walletId });
  }
  return work;
}
