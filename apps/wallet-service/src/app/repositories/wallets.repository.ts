import type { WalletStatus } from '@service/contracts';
import type { KeysetPage } from '@service/pagination';
import { type Query, runQuery } from '@service/sql';
import type { Position, Wallet } from '../../generated/prisma/client.js';
import { walletNotFound } from '../domain/errors.js';
import type { ListWhere } from '../domain/list-filters.js';
import type { Strategy } from '../domain/strategy.js';
import type { WalletEvent } from '../domain/wallet-events.js';
import type { Running } from '../domain/wallet-status.js';
import type { Tx } from './db.js';
import type { WalletDb, WalletTx } from './wallet-sql.js';
import { addForgetProvision } from './due-work.repository.js';
import type { RunningTotals } from '../domain/accounting-ledger/entries.js';
import type { Lot } from '../domain/accounting-ledger/lots.js';
import { positionsJson, positionsOf, runningColumns, type StoredPositions } from './positions.repository.js';
import { Writes } from './writes.js';

/**
 * Locks the organization's wallet row for the rest of the transaction: every change to a wallet's
 * positions, deposits or rebalances happens under this lock, so they apply one at a time. One
 * round trip: the locked row itself (a second SELECT cost a round trip under the lock).
 */
export function lockWallet(tx: WalletTx, orgId: string, walletId: string): Promise<Wallet> {
  return runQuery(tx, lockWalletQuery(orgId, walletId));
}

/** {@link lockWallet} as a query, for a round trip that reads under the lock too (`runQueries`). */
export function lockWalletQuery(orgId: string, walletId: string): Query<Wallet> {
  return {
    text: `SELECT ${WALLET_COLUMNS} FROM wallets w WHERE w.id = $1::uuid AND w.org_id = $2 FOR UPDATE`,
    values: [walletId, orgId],
    read: (rows) => {
      const [locked] = rows as Wallet[];
      if (!locked) throw walletNotFound(walletId);
      return locked;
    },
  };
}

/**
 * {@link lockWallet} for several wallets in one statement, by wallet id: `skipLocked` leaves out
 * the wallets another transaction holds instead of waiting for them (a batch of workflow steps
 * must not hold the wallets it has while it waits for one a request holds). A wallet not of its
 * organization is left out too. Locks in id order, so two callers that wait cannot deadlock. A
 * query: it runs with the reads under the locks (`runQueries`).
 */
export function lockWalletsQuery(
  wallets: readonly { orgId: string; walletId: string }[],
  options: { skipLocked: boolean },
): Query<Map<string, Wallet>> {
  return {
    text: `SELECT ${WALLET_COLUMNS} FROM wallets w JOIN unnest($1::uuid[], $2::text[]) AS q(id, org_id) ON w.id = q.id AND w.org_id = q.org_id
      ORDER BY w.id FOR UPDATE OF w${options.skipLocked ? ' SKIP LOCKED' : ''}`,
    values: [wallets.map((wallet) => wallet.walletId), wallets.map((wallet) => wallet.orgId)],
    read: (rows) => new Map((rows as Wallet[]).map((wallet) => [wallet.id, wallet])),
  };
}

/** The wallets table's columns but its times, under their model names. */
const WALLET_FIELDS = `w.id::text AS id, w.org_id AS "orgId", w.label, w.status, w.failure_reason AS "failureReason",
  w.auto_rebalance AS "autoRebalance", w.strategy, w.deposit_addresses AS "depositAddresses"`;

/** The wallets table's columns under their model names, for raw statements. */
export const WALLET_COLUMNS = `${WALLET_FIELDS}, w.created_at AS "createdAt", w.updated_at AS "updatedAt"`;

/** A wallet with its positions (each with its open FIFO lots, read from `positions.lots`). */
export type WalletWithPositions = Wallet & { positions: (Omit<Position, 'lots' | 'totals'> & { lots?: Lot[]; totals?: RunningTotals })[] };

/** A wallet read with its positions, one row per wallet: its times as epoch milliseconds and its positions as {@link positionsJson} reads them. */
const WALLET_READ_COLUMNS = `${WALLET_FIELDS},
  ${epochMs('w.created_at')} AS "createdAtMs", ${epochMs('w.updated_at')} AS "updatedAtMs", ${positionsJson('w.id', { accounting: false })} AS positions`;

function epochMs(column: string): string {
  return `floor(extract(epoch FROM ${column}) * 1000)::float8`;
}

export type WalletReadRow = Omit<Wallet, 'createdAt' | 'updatedAt'> & {
  createdAtMs: number;
  updatedAtMs: number;
  positions: StoredPositions;
};

/** A wallet record of its own (its positions too) from a row read with {@link WALLET_READ_COLUMNS}. */
export function withPositions(row: WalletReadRow): WalletWithPositions {
  return {
    id: row.id,
    orgId: row.orgId,
    label: row.label,
    status: row.status,
    failureReason: row.failureReason,
    autoRebalance: row.autoRebalance,
    strategy: row.strategy,
    depositAddresses: row.depositAddresses,
    createdAt: new Date(row.createdAtMs),
    updatedAt: new Date(row.updatedAtMs),
    positions: positionsOf(row.positions).map((position) => ({ walletId: row.id, ...position })),
  };
}

/** One creation per organization at a time (until the transaction ends), so the limit holds under concurrent requests. */
export async function lockWalletCreation(tx: WalletTx, orgId: string): Promise<void> {
  await tx.$queryRawUnsafe('SELECT pg_advisory_xact_lock(hashtext($1))', `wallet-create:${orgId}`);
}

export async function countWallets(tx: WalletTx, orgId: string): Promise<number> {
  const [row] = await tx.$queryRawUnsafe<{ count: number }[]>('SELECT count(*)::int AS count FROM wallets WHERE org_id = $1', orgId);
  return row?.count ?? 0;
}

/** A wallet in `creating`, with its row in wallet_provisions, where the worker looks for the wallets to provision. One statement; the row as written. */
export async function insertWallet(
  tx: WalletTx,
  wallet: { id: string; orgId: string; label: string | null; autoRebalance: boolean; strategy: Strategy },
): Promise<Wallet> {
  const [row] = await tx.$queryRawUnsafe<Wallet[]>(
    `WITH w AS (
       INSERT INTO wallets (id, org_id, label, status, auto_rebalance, strategy, deposit_addresses)
       VALUES ($1::uuid, $2, $3, 'creating', $4, $5::jsonb, '{}'::jsonb) RETURNING *),
     p AS (INSERT INTO wallet_provisions (wallet_id, org_id) VALUES ($1::uuid, $2))
     SELECT ${WALLET_COLUMNS} FROM w`,
    wallet.id,
    wallet.orgId,
    wallet.label,
    wallet.autoRebalance,
    JSON.stringify(wallet.strategy),
  );
  if (!row) throw new Error(`wallet ${wallet.id} not inserted`);
  return row;
}

/**
 * The organization's wallet with its positions; `wallet_not_found` otherwise. One statement
 * instead of Prisma's two (the wallet, then its positions): GET wallet is the most called route.
 */
export async function findWallet(db: WalletDb, orgId: string, walletId: string): Promise<WalletWithPositions> {
  const [row] = await db.$queryRawUnsafe<WalletReadRow[]>(
    `SELECT ${WALLET_READ_COLUMNS} FROM wallets w WHERE w.id = $1::uuid AND w.org_id = $2`,
    walletId,
    orgId,
  );
  if (!row) throw walletNotFound(walletId);
  return withPositions(row);
}

/**
 * The wallets of `ids`, whichever organization holds them (the caller checks), in no order: one
 * statement for a batch of single-wallet reads ({@link WalletReads}). Ids must be UUIDs.
 */
export function readWallets(db: WalletDb, ids: readonly string[]): Promise<WalletReadRow[]> {
  return db.$queryRawUnsafe<WalletReadRow[]>(`SELECT ${WALLET_READ_COLUMNS} FROM wallets w WHERE w.id = ANY($1::uuid[])`, ids);
}

/** `wallet_not_found` unless the organization holds the wallet. */
export async function requireWallet(db: Tx, orgId: string, walletId: string): Promise<void> {
  const found = await db.wallet.count({ where: { id: walletId, orgId } });
  if (found === 0) throw walletNotFound(walletId);
}

/**
 * A page of the organization's wallets with their positions, in the page's order, matching
 * `filters`: one statement (Prisma read the page, then its positions), one row per wallet; read
 * with the other reads of its turn (`TurnReads`).
 */
export function listWalletsQuery(orgId: string, filters: ListWhere, page: KeysetPage): Query<WalletWithPositions[]> {
  const values: unknown[] = [];
  const bind = (value: unknown, cast: string) => `$${values.push(value)}${cast}`;
  const conditions = [`org_id = ${bind(orgId, '::text')}`];
  if (filters.status) conditions.push(`status = ANY(${bind(filters.status.in, '::text[]')})`);
  if (filters.createdAt) conditions.push(`created_at >= ${bind(filters.createdAt.gte.toISOString(), '::timestamptz')}`);
  const after = page.sqlAfter(bind, ['created_at', 'id']);
  if (after) conditions.push(after);
  const direction = page.order === 'asc' ? 'ASC' : 'DESC';
  return {
    text: `SELECT ${WALLET_READ_COLUMNS} FROM wallets w
      WHERE ${conditions.join(' AND ')} ORDER BY w.created_at ${direction}, w.id ${direction} LIMIT ${bind(page.take, '::int')}`,
    values,
    read: (rows) => (rows as WalletReadRow[]).map(withPositions),
  };
}

export async function updateLabel(db: Tx, orgId: string, walletId: string, label: string | null): Promise<void> {
  const updated = await db.wallet.updateMany({ where: { id: walletId, orgId }, data: { label, updatedAt: new Date() } });
  if (updated.count === 0) throw walletNotFound(walletId);
}

/** The wallet's new targets, with the events its caller announces them with. One statement. */
export async function updateStrategy(
  tx: WalletTx,
  walletId: string,
  strategy: Strategy,
  now: Date,
  events: readonly WalletEvent[],
): Promise<void> {
  const writes = new Writes();
  const { bind } = writes;
  writes.add(
    `UPDATE wallets SET strategy = ${bind(JSON.stringify(strategy), '::jsonb')}, updated_at = ${bind(now.toISOString(), '::timestamptz')} WHERE id = ${bind(walletId, '::uuid')}`,
  );
  for (const event of events) writes.addEvent(event);
  await writes.run(tx);
}

/** The wallet's deposit addresses, as part of the statement's `writes`. */
export function addDepositAddresses(writes: Writes, walletId: string, depositAddresses: Record<string, string>, now: Date): void {
  const { bind } = writes;
  writes.add(
    `UPDATE wallets SET deposit_addresses = ${bind(JSON.stringify(depositAddresses), '::jsonb')}, updated_at = ${bind(now.toISOString(), '::timestamptz')} WHERE id = ${bind(walletId, '::uuid')}`,
  );
}

/**
 * The wallet's new status (and with `depositAddresses` its addresses), as part of the statement's
 * `writes`. Nothing indexes the status, so the update is HOT; a wallet leaving `creating` leaves
 * `wallet_provisions` with it. `wallet` is the row as read (its status before the change).
 */
export function addStatusUpdate(
  writes: Writes,
  wallet: Wallet,
  status: WalletStatus,
  now: Date,
  extra: { depositAddresses?: Record<string, string> } = {},
): void {
  const { bind } = writes;
  const addresses =
    extra.depositAddresses === undefined ? '' : `, deposit_addresses = ${bind(JSON.stringify(extra.depositAddresses), '::jsonb')}`;
  writes.add(
    `UPDATE wallets SET status = ${bind(status, '::text')}, updated_at = ${bind(now.toISOString(), '::timestamptz')}${addresses} WHERE id = ${bind(wallet.id, '::uuid')}`,
  );
  if (wallet.status === 'creating') addForgetProvision(writes, wallet.id);
}

/** Whether any withdrawal and any rebalance of the wallet is processing; the caller holds the wallet's lock. */
export async function readRunning(tx: WalletTx, walletId: string): Promise<Running> {
  const [running] = await tx.$queryRawUnsafe<Running[]>(`SELECT ${runningColumns('$1::uuid')}`, walletId);
  return running ?? { withdrawals: false, rebalances: false };
}
