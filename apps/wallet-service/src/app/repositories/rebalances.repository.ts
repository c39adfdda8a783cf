import { randomUUID } from 'node:crypto';
import type { Query } from '@service/sql';
import type { Rebalance } from '../../generated/prisma/client.js';
import type { Valuation } from '../domain/chains.js';
import { instructionsView, type Move, reserveOutflows } from '../domain/instructions.js';
import type { Ledger } from '../domain/ledger.js';
import type { RebalanceStatus } from '../domain/rebalance-view.js';
import { ledgersForRebalancesQuery } from './positions.repository.js';
import type { Running } from '../domain/wallet-status.js';
import type { Writes } from './writes.js';

export type NewRebalance = {
  wallet: { id: string; orgId: string };
  ledger: Ledger;
  moves: Move[];
  requestId?: string;
  now: Date;
  /** A risk exit's source: its remainder is swept with the moves when the rebalance completes. */
  exitSource?: string;
};

/**
 * A workflow in `created`, holding what each source gives up (as much as it has free now; a
 * plan's buys may be funded by its own sells), as part of the statement's `writes` (the row and
 * the held positions in one round trip); the row is known before it is written, so it is returned
 * at once.
 */
export function addRebalance(writes: Writes, input: NewRebalance): Rebalance {
  const { wallet, ledger, moves, now } = input;
  const row: Rebalance = {
    id: randomUUID(),
    walletId: wallet.id,
    orgId: wallet.orgId,
    requestId: input.requestId ?? randomUUID(),
    status: 'created',
    allocations: instructionsView(moves) as never,
    reservations: reserveOutflows(ledger, moves),
    nextRunAt: now,
    createdAt: now,
    completedAt: null,
    exitSource: input.exitSource ?? null,
  };
  const { bind } = writes;
  writes.add(
    `INSERT INTO rebalances (id, wallet_id, org_id, request_id, status, allocations, reservations, next_run_at, created_at, exit_source)
     VALUES (${bind(row.id, '::uuid')}, ${bind(row.walletId, '::uuid')}, ${bind(row.orgId, '::text')}, ${bind(row.requestId, '::uuid')}, ${bind(row.status, '::text')},
             ${bind(JSON.stringify(row.allocations), '::jsonb')}, ${bind(JSON.stringify(row.reservations), '::jsonb')}, ${bind(now.toISOString(), '::timestamptz')}, ${bind(now.toISOString(), '::timestamptz')},
             ${bind(row.exitSource, '::text')})`,
  );
  return row;
}

/** The rebalance as one JSON object: times as epoch milliseconds (what a Date holds). */
const REBALANCE_JSON = `json_build_object('id', id::text, 'walletId', wallet_id::text, 'orgId', org_id, 'requestId', request_id::text, 'status', status,
  'allocations', allocations, 'reservations', reservations, 'nextRunAtMs', floor(extract(epoch FROM next_run_at) * 1000),
  'createdAtMs', floor(extract(epoch FROM created_at) * 1000), 'completedAtMs', floor(extract(epoch FROM completed_at) * 1000),
  'exitSource', exit_source)`;

type RebalanceJson = Omit<Rebalance, 'nextRunAt' | 'createdAt' | 'completedAt'> & {
  nextRunAtMs: number;
  createdAtMs: number;
  completedAtMs: number | null;
};

/** What a rebalance step reads under its wallet's lock. */
export interface RebalanceStepState {
  readonly row: Rebalance;
  readonly ledger: Ledger;
  readonly others: Running;
}

/**
 * What rebalance steps read under their wallets' locks, in one statement, by rebalance id: each
 * rebalance, its wallet's ledger valued at `now`, and the withdrawals and other rebalances
 * processing on that wallet. One step per wallet.
 */
export function rebalanceStepsQuery(
  steps: readonly { walletId: string; rebalanceId: string }[],
  valuation: Valuation,
  now: Date,
): Query<Map<string, RebalanceStepState>> {
  const query = ledgersForRebalancesQuery<RebalanceJson>({ steps, rebalanceJson: REBALANCE_JSON }, valuation, now);
  return {
    ...query,
    read: (rows) => {
      const reads = query.read(rows);
      const states = new Map<string, RebalanceStepState>();
      for (const { rebalanceId } of steps) {
        const read = reads.get(rebalanceId);
        if (!read?.row) throw new Error(`rebalance ${rebalanceId} not found`);
        const { nextRunAtMs, createdAtMs, completedAtMs, ...row } = read.row;
        states.set(rebalanceId, {
          row: {
            ...row,
            nextRunAt: new Date(nextRunAtMs),
            createdAt: new Date(createdAtMs),
            completedAt: completedAtMs === null ? null : new Date(completedAtMs),
          },
          ledger: read.ledger,
          others: read.others,
        });
      }
      return states;
    },
  };
}

/** The workflow moves to `processing`, to run again at `nextRunAt`. Part of the statement's `writes`. */
export function addStartProcessing(writes: Writes, row: Rebalance, nextRunAt: Date): Rebalance {
  const next: Rebalance = { ...row, status: 'processing', nextRunAt };
  const { bind } = writes;
  writes.add(
    `UPDATE rebalances SET status = 'processing', next_run_at = ${bind(nextRunAt.toISOString(), '::timestamptz')} WHERE id = ${bind(row.id, '::uuid')}`,
  );
  return next;
}

/** The workflow ends in `status`. Part of the statement's `writes`. */
export function addFinish(writes: Writes, row: Rebalance, status: RebalanceStatus, now: Date): Rebalance {
  const done: Rebalance = { ...row, status, completedAt: now };
  const { bind } = writes;
  writes.add(
    `UPDATE rebalances SET status = ${bind(status, '::text')}, completed_at = ${bind(now.toISOString(), '::timestamptz')} WHERE id = ${bind(row.id, '::uuid')}`,
  );
  return done;
}

/** A completed risk exit whose instructions gained the sweep of its source's remainder. */
export function addFinishWithAllocations(writes: Writes, row: Rebalance, now: Date): Rebalance {
  const done: Rebalance = { ...row, status: 'completed', completedAt: now };
  const { bind } = writes;
  writes.add(
    `UPDATE rebalances SET status = 'completed', completed_at = ${bind(now.toISOString(), '::timestamptz')},
            allocations = ${bind(JSON.stringify(row.allocations), '::jsonb')} WHERE id = ${bind(row.id, '::uuid')}`,
  );
  return done;
}
