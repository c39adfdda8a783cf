import { createHash } from 'node:crypto';

/** What a request id is claimed for; `risk.exit`: a risk action's exit rebalance, keyed by the action id. */
export type Operation =
  | 'wallet.create'
  | 'wallet.strategy'
  | 'wallet.allocate'
  | 'wallet.withdraw'
  | 'withdrawal.cancel'
  | 'payout.retry'
  | 'payout.cancel'
  | 'risk.exit';

/** A stable digest of what a request asks for, so a replay can be told from a new request. */
export function fingerprint(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}

export type KeyClaim = { readonly fresh: true } | { readonly fresh: false; readonly resourceId: string; readonly response: unknown };
