import type { PayoutLeg } from '@service/contracts';
import type { Query } from '@service/sql';
import type { KeysetPage } from '@service/pagination';
import type { Withdrawal } from '../../generated/prisma/client.js';
import { withdrawalNotFound } from '../domain/errors.js';
import type { ApprovalPolicyRecord } from '../domain/customer-approvals/policy.js';
import type { PositionRow } from '../domain/ledger.js';
import { settlementOf, type SettledStatus } from '../domain/withdrawal-progress.js';
import type { ListWhere } from '../domain/list-filters.js';
import type { Tx } from './db.js';
import type { WalletDb, WalletTx } from './wallet-sql.js';
import { positionsJson, positionsOf, runningColumns, type StoredPositions } from './positions.repository.js';
import type { Running } from '../domain/wallet-status.js';
import type { Writes } from './writes.js';

type NewWithdrawal = Pick<
  Withdrawal,
  | 'id'
  | 'walletId'
  | 'orgId'
  | 'requestId'
  | 'amountRequested'
  | 'fee'
  | 'destinationChain'
  | 'destinationAddress'
  | 'destinationToken'
  | 'nextRunAt'
  | 'createdAt'
>;

/**
 * A withdrawal in `processing` with its legs, as part of the statement's `writes`; the row is
 * known before it is written, so it is returned at once.
 */
export function addWithdrawal(writes: Writes, withdrawal: NewWithdrawal, legs: PayoutLeg[]): Withdrawal {
  const row: Withdrawal = {
    ...withdrawal,
    status: 'processing',
    amountPaid: null,
    payoutLegs: legs as never,
    failureReason: null,
    completedAt: null,
  };
  const { bind } = writes;
  writes.add(
    `INSERT INTO withdrawals (id, wallet_id, org_id, request_id, status, amount_requested, fee, destination_chain, destination_address, destination_token,
                              payout_legs, next_run_at, created_at)
     VALUES (${bind(row.id, '::uuid')}, ${bind(row.walletId, '::uuid')}, ${bind(row.orgId, '::text')}, ${bind(row.requestId, '::uuid')}, ${bind(row.status, '::text')},
             ${bind(row.amountRequested.toString(), '::bigint')}, ${bind(row.fee.toString(), '::bigint')}, ${bind(row.destinationChain, '::text')},
             ${bind(row.destinationAddress, '::text')}, ${bind(row.destinationToken, '::text')}, ${bind(JSON.stringify(legs), '::jsonb')},
             ${bind(row.nextRunAt.toISOString(), '::timestamptz')}, ${bind(row.createdAt.toISOString(), '::timestamptz')})`,
  );
  return row;
}

export function listWithdrawals(db: Tx, walletId: string, filters: ListWhere, page: KeysetPage): Promise<Withdrawal[]> {
  return db.withdrawal.findMany(page.findArgs({ walletId, ...filters }));
}

/** The withdrawals table's columns (as `w`) under their model names, amounts as text, which every driver returns alike. */
const WITHDRAWAL_COLUMNS = `w.id::text AS id, w.wallet_id::text AS "walletId", w.org_id AS "orgId", w.request_id::text AS "requestId", w.status,
  w.amount_requested::text AS "amountRequested", w.fee::text AS fee, w.amount_paid::text AS "amountPaid", w.destination_chain AS "destinationChain",
  w.destination_address AS "destinationAddress", w.destination_token AS "destinationToken", w.payout_legs AS "payoutLegs",
  w.failure_reason AS "failureReason", w.next_run_at AS "nextRunAt", w.created_at AS "createdAt", w.completed_at AS "completedAt"`;

type WithdrawalText = Omit<Withdrawal, 'amountRequested' | 'fee' | 'amountPaid'> & {
  amountRequested: string;
  fee: string;
  amountPaid: string | null;
};

const withdrawalOf = (row: WithdrawalText): Withdrawal => ({
  ...row,
  amountRequested: BigInt(row.amountRequested),
  fee: BigInt(row.fee),
  amountPaid: row.amountPaid === null ? null : BigInt(row.amountPaid),
});

/** A withdrawal by id. */
export async function getWithdrawal(tx: WalletTx, withdrawalId: string): Promise<Withdrawal> {
  const [row] = await tx.$queryRawUnsafe<WithdrawalText[]>(
    `SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals w WHERE w.id = $1::uuid`,
    withdrawalId,
  );
  if (!row) throw new Error(`withdrawal ${withdrawalId} not found`);
  return withdrawalOf(row);
}

/** The wallet's withdrawal; `withdrawal_not_found` otherwise. */
export async function findWithdrawal(db: WalletDb, walletId: string, withdrawalId: string): Promise<Withdrawal> {
  const [row] = await db.$queryRawUnsafe<WithdrawalText[]>(
    `SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals w WHERE w.id = $1::uuid AND w.wallet_id = $2::uuid`,
    withdrawalId,
    walletId,
  );
  if (!row) throw withdrawalNotFound(withdrawalId);
  return withdrawalOf(row);
}

/** What a payout step reads under the wallet lock besides the positions. */
export interface PayoutStepState {
  readonly row: Withdrawal;
  /** The organization's own approval policy; null: the environment's default. */
  readonly policy: ApprovalPolicyRecord | null;
  /** Whether another running withdrawal of the wallet already waits for an approval on this chain. */
  readonly approvalElsewhere: boolean;
  /** Whether the wallet runs other withdrawals and any rebalance (unchanged while the wallet is locked). */
  readonly others: Running;
  /** The wallet's positions as stored (not yet valued). */
  readonly positions: PositionRow[];
}

type PayoutStepRow = WithdrawalText & {
  policyWithdrawals: string | null;
  policyThreshold: string | null;
  policyQuorum: number | null;
  policyUpdatedAt: Date | null;
  approvalElsewhere: boolean;
  withdrawals: boolean;
  rebalances: boolean;
  positions: StoredPositions;
};

/**
 * A withdrawal with its organization's approval policy, whether another of the wallet's running
 * withdrawals waits for an approval on its chain, what else of the wallet runs and the wallet's
 * positions: one statement (were five round trips under the wallet lock), a query that runs with
 * the wallet's lock (`runQueries`).
 */
export function payoutStepQuery(withdrawalId: string): Query<PayoutStepState> {
  return {
    text: `SELECT ${WITHDRAWAL_COLUMNS},
            p.withdrawals AS "policyWithdrawals", p.threshold::text AS "policyThreshold", p.quorum AS "policyQuorum", p.updated_at AS "policyUpdatedAt",
            EXISTS (SELECT 1 FROM withdrawals o
                     WHERE o.wallet_id = w.wallet_id AND o.destination_chain = w.destination_chain AND o.status = 'processing' AND o.id <> w.id
                       AND o.payout_legs @> '[{"status": "pending_customer_approval"}]'::jsonb) AS "approvalElsewhere",
            ${runningColumns('w.wallet_id', { withdrawal: 'w.id' })},
            ${positionsJson('w.wallet_id')} AS positions
       FROM withdrawals w LEFT JOIN approval_policies p ON p.org_id = w.org_id
      WHERE w.id = $1::uuid`,
    values: [withdrawalId],
    read: (rows) => {
      const [found] = rows as PayoutStepRow[];
      if (!found) throw new Error(`withdrawal ${withdrawalId} not found`);
      const {
        policyWithdrawals,
        policyThreshold,
        policyQuorum,
        policyUpdatedAt,
        approvalElsewhere,
        withdrawals,
        rebalances,
        positions,
        ...row
      } = found;
      const policy =
        policyWithdrawals === null
          ? null
          : {
              withdrawals: policyWithdrawals,
              threshold: policyThreshold === null ? null : BigInt(policyThreshold),
              quorum: policyQuorum ?? 1,
              updatedAt: policyUpdatedAt,
            };
      return { row: withdrawalOf(row), policy, approvalElsewhere, others: { withdrawals, rebalances }, positions: positionsOf(positions) };
    },
  };
}

/**
 * As part of the statement's `writes`, in one UPDATE of the row: the legs and when to look again,
 * and with `settled` the withdrawal's end (its status, what was paid: delivered minus the fee).
 * The row as written, known before it is written.
 */
export function addLegChanges(
  writes: Writes,
  input: { row: Withdrawal; legs: PayoutLeg[]; nextRunAt: Date; settled: SettledStatus | null; now: Date },
): Withdrawal {
  const { row, legs, nextRunAt, settled, now } = input;
  let saved: Withdrawal = { ...row, payoutLegs: legs as never, nextRunAt };
  const { bind } = writes;
  let settlement = '';
  if (settled) {
    const { amountPaid, failureReason } = settlementOf(legs, row.fee, settled);
    saved = { ...saved, status: settled, amountPaid, failureReason, completedAt: now };
    settlement = `, status = ${bind(settled, '::text')}, amount_paid = ${bind(amountPaid?.toString() ?? null, '::bigint')}, failure_reason = ${bind(failureReason, '::text')},
                  completed_at = ${bind(now.toISOString(), '::timestamptz')}`;
  }
  writes.add(
    `UPDATE withdrawals SET payout_legs = ${bind(JSON.stringify(legs), '::jsonb')}, next_run_at = ${bind(nextRunAt.toISOString(), '::timestamptz')}${settlement}
      WHERE id = ${bind(row.id, '::uuid')}`,
  );
  return saved;
}

/**
 * Lets the wallet's withdrawals but `except` (whose row the statement writes itself) that have a
 * leg waiting for a prior approval look again now (an approval slot may have freed up), as part of
 * the statement's `writes`. Only those: waking every running withdrawal made each settle cost a
 * step of each other withdrawal on the wallet (a wallet with n queued withdrawals took n² steps;
 * the bench's 3,000 withdrawals on 20 wallets left the worker minutes behind) and moved their
 * legs on before their stage's time was up.
 */
export function addWakeWallet(writes: Writes, walletId: string, except: string, now: Date): void {
  const { bind } = writes;
  writes.add(
    `UPDATE withdrawals SET next_run_at = ${bind(now.toISOString(), '::timestamptz')}
      WHERE wallet_id = ${bind(walletId, '::uuid')} AND status = 'processing' AND id <> ${bind(except, '::uuid')}
        AND payout_legs @> '[{"status": "waiting_for_prior_approval"}]'::jsonb`,
  );
}

/**
 * A settled withdrawal processes again (a leg is retried), to run now: what it paid and why not
 * all are forgotten until it settles again; as part of the statement's `writes` (the caller
 * refreshes the wallet's status after). The row as written.
 */
export function addReopen(writes: Writes, input: { row: Withdrawal; legs: PayoutLeg[]; now: Date }): Withdrawal {
  const { row, legs, now } = input;
  const reopened: Withdrawal = {
    ...row,
    status: 'processing',
    payoutLegs: legs as never,
    amountPaid: null,
    failureReason: null,
    completedAt: null,
    nextRunAt: now,
  };
  const { bind } = writes;
  writes.add(
    `UPDATE withdrawals SET status = 'processing', payout_legs = ${bind(JSON.stringify(legs), '::jsonb')}, amount_paid = NULL, failure_reason = NULL, completed_at = NULL,
                            next_run_at = ${bind(now.toISOString(), '::timestamptz')}
      WHERE id = ${bind(row.id, '::uuid')}`,
  );
  return reopened;
}
