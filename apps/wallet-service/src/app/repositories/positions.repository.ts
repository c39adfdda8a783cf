import { type Query, runQuery } from '@service/sql';
import type { Valuation } from '../domain/chains.js';
import { storedTotals, totalsOf } from '../domain/accounting-ledger/entries.js';
import { lotsOf, type StoredLots, storedLots } from '../domain/accounting-ledger/lots.js';
import { Ledger, type PositionRow } from '../domain/ledger.js';
import type { Running } from '../domain/wallet-status.js';
import type { WalletTx } from './wallet-sql.js';
import type { Writes } from './writes.js';

/** The wallet's positions, valued at `now`; the caller holds the wallet's row lock. */
export function openLedger(tx: WalletTx, walletId: string, valuation: Valuation, now: Date): Promise<Ledger> {
  return runQuery(tx, ledgerQuery(walletId, valuation, now));
}

/** {@link openLedger} as a query, to run after the lock in the same round trip (`runQueries`). */
export function ledgerQuery(walletId: string, valuation: Valuation, now: Date): Query<Ledger> {
  return {
    text: `SELECT position_id AS "positionId", kind, amount::text AS amount, reserved::text AS reserved, earned::text AS earned, accrued_at AS "accruedAt", lots, totals
       FROM positions WHERE wallet_id = $1::uuid`,
    values: [walletId],
    read: (rows) => {
      const positions = (
        rows as {
          positionId: string;
          kind: string;
          amount: string;
          reserved: string;
          earned: string;
          accruedAt: Date;
          lots: unknown;
          totals: unknown;
        }[]
      ).map((row) => ({
        ...row,
        amount: BigInt(row.amount),
        reserved: BigInt(row.reserved),
        earned: BigInt(row.earned),
        lots: lotsOf(row.lots),
        totals: totalsOf(row.totals),
      }));
      return Ledger.settled(walletId, positions, valuation, now);
    },
  };
}

/**
 * {@link openLedger} with whether any withdrawal and any rebalance of the wallet is processing, in one
 * statement: a change that starts one can write the wallet's status with its other writes rather
 * than count again after them. Under the wallet lock, like `openLedger`; a query that runs with
 * the lock (`runQueries`).
 */
export function ledgerWithRunningQuery(walletId: string, valuation: Valuation, now: Date): Query<{ ledger: Ledger; running: Running }> {
  return {
    text: `SELECT ${runningColumns('$1::uuid')}, ${positionsJson('$1::uuid')} AS positions`,
    values: [walletId],
    read: (rows) => {
      const [read] = rows as RunningRow[];
      return { ledger: Ledger.settled(walletId, positionsOf(read?.positions ?? null), valuation, now), running: runningOf(read) };
    },
  };
}

/**
 * Rebalance steps' reads in one statement under their wallets' locks: for each step, the ledger,
 * the rebalance (`row` as `rebalanceJson` builds it: null when there is none) and what else is
 * processing on the wallet (`others`: the rebalance itself left out), so the step writes the
 * wallet's status with its other writes. By rebalance id; one step per wallet (each ledger is read
 * once). Three round trips a step before (the rebalance, the positions, a count after the writes).
 */
export function ledgersForRebalancesQuery<Row>(
  input: { steps: readonly { walletId: string; rebalanceId: string }[]; rebalanceJson: string },
  valuation: Valuation,
  now: Date,
): Query<Map<string, { ledger: Ledger; others: Running; row: Row | null }>> {
  return {
    text: `SELECT q.wallet_id::text AS "walletId", q.rebalance_id::text AS "rebalanceId",
            ${runningColumns('q.wallet_id', { rebalance: 'q.rebalance_id' })},
            (SELECT ${input.rebalanceJson} FROM rebalances WHERE id = q.rebalance_id) AS row,
            ${positionsJson('q.wallet_id')} AS positions
       FROM unnest($1::uuid[], $2::uuid[]) AS q(wallet_id, rebalance_id)`,
    values: [input.steps.map((step) => step.walletId), input.steps.map((step) => step.rebalanceId)],
    read: (rows) =>
      new Map(
        (rows as (RunningRow & { walletId: string; rebalanceId: string; row: Row | null })[]).map((read) => [
          read.rebalanceId,
          { ledger: Ledger.settled(read.walletId, positionsOf(read.positions), valuation, now), others: runningOf(read), row: read.row },
        ]),
      ),
  };
}

/**
 * The select list of a {@link Running}: whether any withdrawal and any rebalance of the wallet
 * `walletColumn` names is processing, the ones `except` names left out (the step's own). `EXISTS`,
 * not a count: under a load of withdrawals a wallet has hundreds running, and every create and
 * step counted them all (an index entry and a heap visit each) to learn only whether there are any.
 */
export function runningColumns(walletColumn: string, except: { withdrawal?: string; rebalance?: string } = {}): string {
  const withdrawal = except.withdrawal ? ` AND o.id <> ${except.withdrawal}` : '';
  const rebalance = except.rebalance ? ` AND r.id <> ${except.rebalance}` : '';
  return `EXISTS (SELECT 1 FROM withdrawals o WHERE o.wallet_id = ${walletColumn} AND o.status = 'processing'${withdrawal}) AS withdrawals,
            EXISTS (SELECT 1 FROM rebalances r WHERE r.wallet_id = ${walletColumn} AND r.status = 'processing'${rebalance}) AS rebalances`;
}

/** What runs on the wallet and its positions, one row. */
type RunningRow = Running & { positions: StoredPositions };

function runningOf(read: RunningRow | undefined): Running {
  return { withdrawals: read?.withdrawals ?? false, rebalances: read?.rebalances ?? false };
}

/**
 * A select of the positions of the wallet `walletColumn` names, as one JSON array of
 * `[positionId, kind, amount, reserved, earned, accruedAtMs, lots, totals]` (amounts as text, by position id),
 * for a statement that reads them beside something else; {@link positionsOf} reads it. One value
 * per wallet rather than a row per position: a page of wallets LEFT JOIN positions cost more in
 * parsing each row's timestamps (postgres-date) and taking the rows apart than in building the
 * answer (BENCH_CPU_PROF=1, GET /v2/wallets). Milliseconds are what a Date holds.
 * `accounting: false` leaves out the lots and running totals (the wallet views, which value the
 * positions and save nothing); such rows are marked `viewOnly` and `addLedger` refuses them.
 */
export function positionsJson(walletColumn: string, { accounting = true }: { accounting?: boolean } = {}): string {
  const text = `(SELECT json_agg(json_build_array(pos.position_id, pos.kind, pos.amount::text, pos.reserved::text, pos.earned::text,
                  floor(extract(epoch FROM pos.accrued_at) * 1000)::float8, pos.lots, pos.totals) ORDER BY pos.position_id)
             FROM positions pos WHERE pos.wallet_id = ${walletColumn})`;
  // Written out whole and cut for the views, so the column-list spec (which reads this text) sees every column.
  return accounting ? text : text.replace(', pos.lots, pos.totals', '');
}

/** What a {@link positionsJson} select reads (null: no positions). */
export type StoredPositions =
  | [
      positionId: string,
      kind: string,
      amount: string,
      reserved: string,
      earned: string,
      accruedAtMs: number,
      lots?: StoredLots,
      totals?: unknown,
    ][]
  | null;

/** The positions a {@link positionsJson} select read. */
export function positionsOf(stored: StoredPositions): PositionRow[] {
  return (stored ?? []).map(([positionId, kind, amount, reserved, earned, accruedAtMs, lots, totals]) => ({
    positionId,
    kind,
    amount: BigInt(amount),
    reserved: BigInt(reserved),
    earned: BigInt(earned),
    accruedAt: new Date(accruedAtMs),
    ...(lots === null || lots === undefined ? { viewOnly: true as const } : { lots: lotsOf(lots), totals: totalsOf(totals) }),
  }));
}

/**
 * Every position the ledger changed since it was last saved, in one upsert, as part of the
 * statement's `writes`; the ledger counts them as saved. A caller that announces them builds
 * their events (`positionsUpdated`) before, and writes their accounting (`addAccountingEvents`
 * of what `ledger.takeAccounting()` gives) before too: positions never change without it.
 */
export function addLedger(writes: Writes, ledger: Ledger): void {
  if (ledger.hasUntakenAccounting())
    throw new Error(`The accounting of wallet ${ledger.walletId}'s movements was not written before its positions`);
  if (ledger.changed().some((row) => row.viewOnly)) {
    throw new Error(`Positions of wallet ${ledger.walletId} read without their lots and totals (a view) cannot be saved`);
  }
  const { walletId } = ledger;
  const { bind } = writes;
  const rows = ledger
    .changed()
    .map(
      (row) =>
        `(${bind(walletId, '::uuid')}, ${bind(row.positionId, '::text')}, ${bind(row.kind, '::text')}, ${bind(row.amount.toString(), '::bigint')}, ${bind(row.reserved.toString(), '::bigint')}, ${bind(row.earned.toString(), '::bigint')}, ${bind(row.accruedAt.toISOString(), '::timestamptz')}, ${bind(JSON.stringify(storedLots(row.lots ?? [])), '::jsonb')}, ${bind(JSON.stringify(storedTotals(row.totals)), '::jsonb')})`,
    );
  if (rows.length > 0) {
    writes.add(
      `INSERT INTO positions (wallet_id, position_id, kind, amount, reserved, earned, accrued_at, lots, totals) VALUES ${rows.join(', ')}
       ON CONFLICT (wallet_id, position_id) DO UPDATE
         SET kind = EXCLUDED.kind, amount = EXCLUDED.amount, reserved = EXCLUDED.reserved, earned = EXCLUDED.earned, accrued_at = EXCLUDED.accrued_at,
             lots = EXCLUDED.lots, totals = EXCLUDED.totals`,
    );
  }
  ledger.saved();
}
