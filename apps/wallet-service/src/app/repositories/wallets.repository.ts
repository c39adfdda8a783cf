import type { WalletStatus } from '@service/contracts';
import type { KeysetPage } from '@service/pagination';
import type { Wallet } from '../../generated/prisma/client.js';
import { walletNotFound } from '../domain/errors.js';
import type { ListWhere } from '../domain/list-filters.js';
import { type Strategy, strategyView } from '../domain/strategy.js';
import { activityStatus, followsActivity } from '../domain/wallet-status.js';
import type { Tx } from './db.js';
import { emitWalletEvent } from './events.repository.js';

/**
 * Locks the organization's wallet row for the rest of the transaction: every change to a wallet's
 * positions, deposits or rebalances happens under this lock, so they apply one at a time.
 */
export async function lockWallet(tx: Tx, orgId: string, walletId: string): Promise<Wallet> {
  const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM wallets WHERE id = ${walletId}::uuid AND org_id = ${orgId} FOR UPDATE`;
  if (locked.length === 0) throw walletNotFound(walletId);
  return tx.wallet.findUniqueOrThrow({ where: { id: walletId } });
}

/** One creation per organization at a time (until the transaction ends), so the limit holds under concurrent requests. */
export async function lockWalletCreation(tx: Tx, orgId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`wallet-create:${orgId}`}))`;
}

export function countWallets(tx: Tx, orgId: string): Promise<number> {
  return tx.wallet.count({ where: { orgId } });
}

export async function insertWallet(
  tx: Tx,
  wallet: { id: string; orgId: string; label: string | null; autoRebalance: boolean; strategy: Strategy },
): Promise<void> {
  await tx.wallet.create({ data: { ...wallet, status: 'creating', depositAddresses: {} } });
}

/** The organization's wallet with its positions; `wallet_not_found` otherwise. */
export async function findWallet(db: Tx, orgId: string, walletId: string) {
  const row = await db.wallet.findFirst({ where: { id: walletId, orgId }, include: { positions: true } });
  if (!row) throw walletNotFound(walletId);
  return row;
}

/** `wallet_not_found` unless the organization holds the wallet. */
export async function requireWallet(db: Tx, orgId: string, walletId: string): Promise<void> {
  const found = await db.wallet.count({ where: { id: walletId, orgId } });
  if (found === 0) throw walletNotFound(walletId);
}

/** A page of the organization's wallets with their positions, in the page's order, matching `filters`. */
export function listWallets(db: Tx, orgId: string, filters: ListWhere, page: KeysetPage) {
  return db.wallet.findMany({ ...page.findArgs({ orgId, ...filters }), include: { positions: true } });
}

export async function updateLabel(db: Tx, orgId: string, walletId: string, label: string | null): Promise<void> {
  const updated = await db.wallet.updateMany({ where: { id: walletId, orgId }, data: { label, updatedAt: new Date() } });
  if (updated.count === 0) throw walletNotFound(walletId);
}

/** The wallet's new targets, announced as the strategy in force. */
export async function updateStrategy(tx: Tx, wallet: { id: string; orgId: string }, strategy: Strategy, now: Date): Promise<void> {
  await tx.wallet.update({ where: { id: wallet.id }, data: { strategy, updatedAt: now } });
  await emitWalletEvent(tx, { orgId: wallet.orgId, walletId: wallet.id, observedAt: now }, 'portfolio_wallet.strategy.status_changed', {
    strategy: { status: 'active', allocations: strategyView(strategy) },
  });
}

export async function setDepositAddresses(tx: Tx, walletId: string, depositAddresses: Record<string, string>, now: Date): Promise<void> {
  await tx.wallet.update({ where: { id: walletId }, data: { depositAddresses, updatedAt: now } });
}

/** Wallets still `creating`, for the worker to provision. */
export function findCreatingWallets(db: Tx, take: number): Promise<{ id: string; orgId: string }[]> {
  return db.wallet.findMany({ where: { status: 'creating' }, select: { id: true, orgId: true }, take });
}

/** Moves a wallet to a new status and announces it; the same status again is no change and no event. */
export async function setWalletStatus(tx: Tx, wallet: Wallet, status: WalletStatus, now: Date, extra: { depositAddresses?: Record<string, string> } = {}): Promise<void> {
  if (wallet.status === status) return;
  await tx.wallet.update({ where: { id: wallet.id }, data: { status, updatedAt: now, ...extra } });
  wallet.status = status;
  await emitWalletEvent(tx, { orgId: wallet.orgId, walletId: wallet.id, observedAt: now }, 'portfolio_wallet.status_changed', {
    wallet: { id: wallet.id, status },
  });
}

/** Sets the status the wallet's running withdrawals and rebalances imply (a `creating` or `failed` wallet keeps its own). */
export async function refreshWalletStatus(tx: Tx, wallet: Wallet, now: Date): Promise<void> {
  if (!followsActivity(wallet.status)) return;
  const [withdrawals, rebalances] = await Promise.all([
    tx.withdrawal.count({ where: { walletId: wallet.id, status: 'processing' } }),
    tx.rebalance.count({ where: { walletId: wallet.id, status: 'processing' } }),
  ]);
  await setWalletStatus(tx, wallet, activityStatus({ withdrawals, rebalances }), now);
}
