import type { PipelinedSqlExecutor, Statement } from '@service/sql';
import type { WalletDb, WalletTx } from './wallet-sql.js';
import { Writes } from './writes.js';

/**
 * An item of work and the wallet (of its organization) whose lock its step takes; for a change to
 * an organization's approvers, policy or address book (`changes`) `walletId` is empty: its step
 * takes the organization's approvals lock.
 */
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
  readonly changes: DueItem[];
}

const KINDS = ['wallets', 'deposits', 'rebalances', 'withdrawals', 'approvals', 'changes'] as const;

/**
 * Each kind's part reads its index of what is still to do (wallets to provision: the rows of
 * `wallet_provisions`, written with the wallet and deleted by the change that provisions it, since
 * nothing indexes `wallets.status`), at most `$1` rows; rebalances and withdrawals oldest first, so
 * a wallet's steps run in the order they were asked for.
 */
const FIND_DUE_WORK = `SELECT kind, id, "orgId", "walletId" FROM (
  (SELECT 0 AS kind, wallet_id::text AS id, org_id AS "orgId", wallet_id::text AS "walletId", NULL::timestamptz AS created_at
     FROM wallet_provisions ORDER BY created_at LIMIT $1::int)
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
  UNION ALL
  (SELECT 5, id::text, org_id, '', NULL FROM approval_changes WHERE status = 'pending' AND due_at <= $2::timestamptz LIMIT $1::int)
) due ORDER BY kind, created_at`;

/**
 * The look goes without bitmap scans (for its own round trip only). A rebalance or withdrawal
 * leaves an entry in its worker index for each version it had while running, dead once it moved
 * on, and a bitmap scan visits every one of them and never marks one dead, so the look grows
 * slower with every write until a vacuum. An index scan in the index's
 * order marks those it finds dead, and later scans skip them. Without the setting, the planner
 * takes a bitmap scan and a sort whenever it expects fewer running rows than `take`.
 */
export const DUE_WORK_PLANNING: Statement = { text: `SELECT set_config('enable_bitmapscan', 'off', true)`, values: [] };

/**
 * Everything due at `now`, up to `take` of each kind, in one statement: the worker looks after
 * every commit that made work (a kick) and after every tick that moved something, and five reads
 * through Prisma a look were, under the write load, a share of the service's CPU of their own
 * (Prisma's client, an unprepared statement each in PostgreSQL). One round trip with
 * {@link DUE_WORK_PLANNING}.
 */
export async function findDueWork(db: Pick<PipelinedSqlExecutor, '$queryBatch'>, now: Date, take: number): Promise<DueWork> {
  const [, rows] = (await db.$queryBatch([DUE_WORK_PLANNING, dueWorkStatement(now, take)])) as [unknown, (DueItem & { kind: number })[]];
  const work: DueWork = { wallets: [], deposits: [], rebalances: [], withdrawals: [], approvals: [], changes: [] };
  for (const { kind, id, orgId, walletId } of rows) {
    const key = KINDS[kind];
    if (key === undefined) throw new Error(`due work of unknown kind ${kind}`);
    work[key].push({ id, orgId, walletId });
  }
  return work;
}

/** The look of {@link findDueWork}. */
export function dueWorkStatement(now: Date, take: number): Statement {
  return { text: FIND_DUE_WORK, values: [take, now.toISOString()] };
}

/**
 * Adds to `wallet_provisions` each wallet in `creating` that has no row there: one a replica of a
 * release before that table created, if that replica stopped before provisioning it. A scan of
 * every wallet (nothing indexes the status), so the worker runs it when it starts and then every
 * ten minutes; how many it added.
 */
export function addUnlistedProvisions(db: WalletDb): Promise<number> {
  return db.$executeRawUnsafe(
    `INSERT INTO wallet_provisions (wallet_id, org_id, created_at) SELECT id, org_id, created_at FROM wallets WHERE status = 'creating' ON CONFLICT (wallet_id) DO NOTHING`,
  );
}

/** Removes the wallet's row from `wallet_provisions`, if it has one. One round trip. */
export async function forgetProvision(db: WalletTx, walletId: string): Promise<void> {
  const writes = new Writes();
  addForgetProvision(writes, walletId);
  await writes.run(db);
}

/** {@link forgetProvision} as part of the statement's `writes`. */
export function addForgetProvision(writes: Writes, walletId: string): void {
  writes.add(`DELETE FROM wallet_provisions WHERE wallet_id = ${writes.bind(walletId, '::uuid')}`);
}
