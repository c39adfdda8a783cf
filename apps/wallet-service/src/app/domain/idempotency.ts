import { createHash } from 'node:crypto';

export type Operation =
  'wallet.create' | 'wallet.strategy' | 'wallet.allocate' | 'wallet.withdraw' | 'withdrawal.cancel' | 'payout.retry' | 'payout.cancel';

/** A stable digest of what a request asks for, so a replay can be told from a new request. */
export function fingerprint(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}

export type KeyClaim = { readonly fresh: true } | { readonly fresh: false; readonly resourceId: string; readonly response: unknown };
