import type { WalletStatus } from '@service/contracts';
import type { Wallet } from '../../generated/prisma/client.js';
import { walletStatusChanged } from '../domain/wallet-events.js';
import { activityStatus, followsActivity, type Running } from '../domain/wallet-status.js';
import type { WalletTx } from '../repositories/wallet-sql.js';
import { addStatusUpdate, readRunning } from '../repositories/wallets.repository.js';
import { Writes } from '../repositories/writes.js';

/**
 * Moves a wallet to a new status, announced with `portfolio_wallet.status_changed`, as part of the
 * statement's `writes`; the same status again is no change and no event. `wallet` follows.
 */
export function addWalletStatus(
  writes: Writes,
  wallet: Wallet,
  status: WalletStatus,
  now: Date,
  extra: { depositAddresses?: Record<string, string> } = {},
): void {
  if (wallet.status === status) return;
  addStatusUpdate(writes, wallet, status, now, extra);
  wallet.status = status;
  writes.addEvent(walletStatusChanged(wallet, status, now));
}

/** {@link addWalletStatus} in a statement of its own. */
export async function setWalletStatus(
  tx: WalletTx,
  wallet: Wallet,
  status: WalletStatus,
  now: Date,
  extra: { depositAddresses?: Record<string, string> } = {},
): Promise<void> {
  const writes = new Writes();
  addWalletStatus(writes, wallet, status, now, extra);
  await writes.run(tx);
}

/**
 * The status the wallet's running withdrawals and rebalances imply (a `creating` or `failed`
 * wallet keeps its own), from what the caller read under the wallet lock, as part of the
 * statement's `writes` ({@link addWalletStatus}: announced when it changes).
 */
export function addStatusOf(writes: Writes, wallet: Wallet, running: Running, now: Date): void {
  if (followsActivity(wallet.status)) addWalletStatus(writes, wallet, activityStatus(running), now);
}

/** {@link addStatusOf} from what runs on the wallet now: a read, then a statement when the status changes. */
export async function refreshWalletStatus(tx: WalletTx, wallet: Wallet, now: Date): Promise<void> {
  if (!followsActivity(wallet.status)) return;
  const writes = new Writes();
  addStatusOf(writes, wallet, await readRunning(tx, wallet.id), now);
  await writes.run(tx);
}
