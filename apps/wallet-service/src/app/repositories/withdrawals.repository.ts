import type { PayoutLeg } from '@service/contracts';
import type { SqlExecutor } from '@service/events';
import type { KeysetPage } from '@service/pagination';
import type { Wallet, Withdrawal } from '../../generated/prisma/client.js';
import { withdrawalNotFound } from '../domain/errors.js';
import { settlementOf, type SettledStatus } from '../domain/withdrawal-progress.js';
import type { ListWhere } from '../domain/list-filters.js';
import { legsOf, legView, withdrawalView } from '../domain/withdrawal-view.js';
import type { Tx } from './db.js';
import { addWalletEvent, emitWalletEvent } from './events.repository.js';
import { refreshWalletStatus } from './wallets.repository.js';
import type { Writes } from './writes.js';

type NewWithdrawal = Pick<
  Withdrawal,
  'id' | 'walletId' | 'orgId' | 'requestId' | 'amountRequested' | 'fee' | 'destinationChain' | 'destinationAddress' | 'destinationToken' | 'nextRunAt' | 'createdAt'
>;

const scopeOf = (row: Withdrawal, now: Date) => ({ orgId: row.orgId, walletId: row.walletId, observedAt: now });

const WITHDRAWAL_STATUS_CHANGED = 'portfolio_wallet.withdrawal.status_changed';
const LEG_STATUS_CHANGED = 'portfolio_wallet.withdrawal.payout.status_changed';
const withdrawalResource = (row: Withdrawal) => ({ withdrawal: withdrawalView(row) });
const legResource = (row: Withdrawal, leg: PayoutLeg) => ({ withdrawalId: row.id, turnkeyActivityId: leg.turnkeyActivityId ?? null, payoutLeg: legView(leg) });

function announceWithdrawal(tx: Tx, row: Withdrawal, now: Date): Promise<string> {
  return emitWalletEvent(tx, scopeOf(row, now), WITHDRAWAL_STATUS_CHANGED, withdrawalResource(row));
}

function announceLeg(tx: Tx, row: Withdrawal, leg: PayoutLeg, now: Date): Promise<string> {
  return emitWalletEvent(tx, scopeOf(row, now), LEG_STATUS_CHANGED, legResource(row, leg));
}

/**
 * A withdrawal in `processing` with its legs, announced with each leg, as part of the statement's
 * `writes`; the row is known before it is written, so it is returned at once.
 */
export function addWithdrawal(writes: Writes, withdrawal: NewWithdrawal, legs: PayoutLeg[], now: Date): Withdrawal {
  const row: Withdrawal = { ...withdrawal, status: 'processing', amountPaid: null, payoutLegs: legs as never, failureReason: null, completedAt: null };
  const { bind } = writes;
  writes.add(
    `INSERT INTO withdrawals (id, wallet_id, org_id, request_id, status, amount_requested, fee, destination_chain, destination_address, destination_token,
                              payout_legs, next_run_at, created_at)
     VALUES (${bind(row.id, '::uuid')}, ${bind(row.walletId, '::uuid')}, ${bind(row.orgId, '::text')}, ${bind(row.requestId, '::uuid')}, ${bind(row.status, '::text')},
             ${bind(row.amountRequested.toString(), '::bigint')}, ${bind(row.fee.toString(), '::bigint')}, ${bind(row.destinationChain, '::text')},
             ${bind(row.destinationAddress, '::text')}, ${bind(row.destinationToken, '::text')}, ${bind(JSON.stringify(legs), '::jsonb')},
             ${bind(row.nextRunAt.toISOString(), '::timestamptz')}, ${bind(row.createdAt.toISOString(), '::timestamptz')})`,
  );
  addWalletEvent(writes, scopeOf(row, now), WITHDRAWAL_STATUS_CHANGED, withdrawalResource(row));
  for (const leg of legsOf(row)) addWalletEvent(writes, scopeOf(row, now), LEG_STATUS_CHANGED, legResource(row, leg));
  return row;
}

export function listWithdrawals(db: Tx, walletId: string, filters: ListWhere, page: KeysetPage): Promise<Withdrawal[]> {
  return db.withdrawal.findMany(page.findArgs({ walletId, ...filters }));
}

/** The wallet's withdrawal; `withdrawal_not_found` otherwise. */
export async function findWithdrawal(db: Tx, walletId: string, withdrawalId: string): Promise<Withdrawal> {
  const row = await db.withdrawal.findFirst({ where: { id: withdrawalId, walletId } });
  if (!row) throw withdrawalNotFound(withdrawalId);
  return row;
}

/** The withdrawals table's columns under their model names, amounts as text, which every driver returns alike. */
const WITHDRAWAL_COLUMNS = `id::text AS id, wallet_id::text AS "walletId", org_id AS "orgId", request_id::text AS "requestId", status,
  amount_requested::text AS "amountRequested", fee::text AS fee, amount_paid::text AS "amountPaid", destination_chain AS "destinationChain",
  destination_address AS "destinationAddress", destination_token AS "destinationToken", payout_legs AS "payoutLegs",
  failure_reason AS "failureReason", next_run_at AS "nextRunAt", created_at AS "createdAt", completed_at AS "completedAt"`;

type WithdrawalText = Omit<Withdrawal, 'amountRequested' | 'fee' | 'amountPaid'> & { amountRequested: string; fee: string; amountPaid: string | null };

/** A withdrawal by id, on Prisma or plain pg. */
export async function getWithdrawal(tx: SqlExecutor, withdrawalId: string): Promise<Withdrawal> {
  const [row] = await tx.$queryRawUnsafe<WithdrawalText[]>(`SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals WHERE id = $1::uuid`, withdrawalId);
  if (!row) throw new Error(`withdrawal ${withdrawalId} not found`);
  return { ...row, amountRequested: BigInt(row.amountRequested), fee: BigInt(row.fee), amountPaid: row.amountPaid === null ? null : BigInt(row.amountPaid) };
}

/** Whether another running withdrawal of the wallet already waits for an approval on this chain. */
export async function approvalOutstandingElsewhere(tx: Tx, row: Withdrawal): Promise<boolean> {
  const others = await tx.withdrawal.findMany({
    where: { walletId: row.walletId, destinationChain: row.destinationChain, status: 'processing', id: { not: row.id } },
  });
  return others.some((other) => legsOf(other).some((leg) => leg.status === 'pending_customer_approval'));
}

/** Lets every running withdrawal of the wallet look again now (an approval slot may have freed up). */
export async function wakeWallet(tx: Tx, walletId: string, now: Date): Promise<void> {
  await tx.withdrawal.updateMany({ where: { walletId, status: 'processing' }, data: { nextRunAt: now } });
}

/** Writes the legs and when to look again; announces the legs that changed. */
export async function saveLegs(tx: Tx, row: Withdrawal, legs: PayoutLeg[], changed: ReadonlySet<PayoutLeg>, nextRunAt: Date, now: Date): Promise<Withdrawal> {
  const saved = await tx.withdrawal.update({ where: { id: row.id }, data: { payoutLegs: legs as never, nextRunAt } });
  for (const leg of legs) if (changed.has(leg)) await announceLeg(tx, saved, leg, now);
  return saved;
}

export function runNow(tx: Tx, withdrawalId: string, now: Date): Promise<Withdrawal> {
  return tx.withdrawal.update({ where: { id: withdrawalId }, data: { nextRunAt: now } });
}

/**
 * Ends a withdrawal whose legs are all terminal: its status, what was paid (delivered minus the
 * fee); announced, the wallet's status refreshed and its other withdrawals woken.
 */
export async function settleWithdrawal(
  tx: Tx,
  input: { wallet: Wallet; row: Withdrawal; legs: PayoutLeg[]; status: SettledStatus; now: Date },
): Promise<Withdrawal> {
  const { wallet, row, legs, status, now } = input;
  const done = await tx.withdrawal.update({
    where: { id: row.id },
    data: { status, payoutLegs: legs as never, ...settlementOf(legs, row.fee, status), completedAt: now },
  });
  await announceWithdrawal(tx, done, now);
  await refreshWalletStatus(tx, wallet, now);
  await wakeWallet(tx, wallet.id, now);
  return done;
}

/**
 * A settled withdrawal processes again (a leg is retried): what it paid and why not all are
 * forgotten until it settles again; announced with its changed legs, the wallet's status refreshed.
 */
export async function reopenWithdrawal(
  tx: Tx,
  input: { wallet: Wallet; row: Withdrawal; legs: PayoutLeg[]; changed: ReadonlySet<PayoutLeg>; now: Date },
): Promise<Withdrawal> {
  const { wallet, row, legs, changed, now } = input;
  const reopened = await tx.withdrawal.update({
    where: { id: row.id },
    data: { status: 'processing', payoutLegs: legs as never, amountPaid: null, failureReason: null, completedAt: null, nextRunAt: now },
  });
  await announceWithdrawal(tx, reopened, now);
  for (const leg of legs) if (changed.has(leg)) await announceLeg(tx, reopened, leg, now);
  await refreshWalletStatus(tx, wallet, now);
  return reopened;
}

/** Withdrawals due to take their next stage, oldest first. */
export function findDueWithdrawals(db: Tx, now: Date, take: number): Promise<{ id: string; orgId: string; walletId: string }[]> {
  return db.withdrawal.findMany({
    where: { status: 'processing', nextRunAt: { lte: now } },
    select: { id: true, orgId: true, walletId: true },
    orderBy: { createdAt: 'asc' },
    take,
  });
}
