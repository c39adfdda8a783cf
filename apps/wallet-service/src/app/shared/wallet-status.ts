import type { WalletStatus } from '@service/contracts';
import type { Wallet } from '../../generated/prisma/client.js';
import type { Tx } from './db.js';
import { emitWalletEvent } from './events.js';

/** Moves a wallet to a new status and announces it; the same status again is no change and no event. */
export async function setWalletStatus(tx: Tx, wallet: Wallet, status: WalletStatus, now: Date, extra: { depositAddresses?: Record<string, string> } = {}): Promise<void> {
  if (wallet.status === status) return;
  await tx.wallet.update({ where: { id: wallet.id }, data: { status, updatedAt: now, ...extra } });
  wallet.status = status;
  await emitWalletEvent(tx, { orgId: wallet.orgId, walletId: wallet.id, observedAt: now }, 'portfolio_wallet.status_changed', {
    wallet: { id: wallet.id, status },
  });
}

/**
 * The status the wallet's running work implies: `withdrawal_active`, `rebalance_active`, both, or
 * `idle`. A wallet still `creating` or `failed` keeps its status.
 */
export async function refreshWalletStatus(tx: Tx, wallet: Wallet, now: Date): Promise<void> {
  if (wallet.status === 'creating' || wallet.status === 'failed') return;
  const [withdrawals, rebalances] = await Promise.all([
    tx.withdrawal.count({ where: { walletId: wallet.id, status: 'processing' } }),
    tx.rebalance.count({ where: { walletId: wallet.id, status: 'processing' } }),
  ]);
  const status: WalletStatus =
    withdrawals > 0 && rebalances > 0 ? 'withdrawal_and_rebalance_active' : withdrawals > 0 ? 'withdrawal_active' : rebalances > 0 ? 'rebalance_active' : 'idle';
  await setWalletStatus(tx, wallet, status, now);
}
