import type { WalletStatus } from '@service/contracts';

/** Whether any withdrawal and any rebalance of the wallet is processing. */
export interface Running {
  readonly withdrawals: boolean;
  readonly rebalances: boolean;
}

/**
 * The status the wallet's running work implies: `withdrawal_active`, `rebalance_active`, both, or
 * `idle`.
 */
export function activityStatus(running: Running): WalletStatus {
  const { withdrawals, rebalances } = running;
  if (withdrawals && rebalances) return 'withdrawal_and_rebalance_active';
  if (withdrawals) return 'withdrawal_active';
  return rebalances ? 'rebalance_active' : 'idle';
}

/** A wallet still `creating` or `failed` keeps its status whatever runs. */
export function followsActivity(status: string): boolean {
  return status !== 'creating' && status !== 'failed';
}
