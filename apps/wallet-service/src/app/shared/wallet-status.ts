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
