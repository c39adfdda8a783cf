import type { WalletStatus } from '@service/contracts';

/**
 * The status the wallet's running work implies: `withdrawal_active`, `rebalance_active`, both, or
 * `idle`.
 */
export function activityStatus(running: { withdrawals: number; rebalances: number }): WalletStatus {
  const { withdrawals, rebalances } = running;
  if (withdrawals > 0 && rebalances > 0) return 'withdrawal_and_rebalance_active';
  if (withdrawals > 0) return 'withdrawal_active';
  return rebalances > 0 ? 'rebalance_active' : 'idle';
}

/** A wallet still `creating` or `failed` keeps its status whatever runs. */
export function followsActivity(status: string): boolean {
  return status !== 'creating' && status !== 'failed';
}
