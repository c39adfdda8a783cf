import type { RebalanceObject } from '@service/contracts';
import { formatUsd, parseUsd } from '@service/money';

/**
 * What a wallet rebalance event means for the exit action it runs. wallet-service runs an exit
 * as a rebalance whose `requestId` is the action's id: created or processing, the action carries
 * its `rebalanceId`; completed, the action is `executed` (and the unwind completed); failed or
 * cancelled, the action is `failed`.
 */
export type ExitProgress =
  | { readonly kind: 'running'; readonly rebalanceId: string }
  | { readonly kind: 'completed'; readonly rebalanceId: string; readonly amountUsd: string; readonly completedAt: Date }
  | { readonly kind: 'failed'; readonly rebalanceId: string; readonly executionError: Record<string, unknown> };

export function exitProgressOf(rebalance: RebalanceObject, yieldSourceId: string, observedAt: Date): ExitProgress {
  switch (rebalance.status) {
    case 'created':
    case 'processing':
      return { kind: 'running', rebalanceId: rebalance.id };
    case 'completed': {
      const out = rebalance.allocations.filter((allocation) => allocation.from === yieldSourceId);
      const amount = out.reduce((sum, allocation) => sum + parseUsd(allocation.amountUsd), 0n);
      const completedAt = rebalance.completedAt ? new Date(rebalance.completedAt) : observedAt;
      return { kind: 'completed', rebalanceId: rebalance.id, amountUsd: formatUsd(amount), completedAt };
    }
    case 'failed':
    case 'cancelled':
      return {
        kind: 'failed',
        rebalanceId: rebalance.id,
        executionError: { code: `rebalance_${rebalance.status}`, message: `The exit rebalance ${rebalance.id} ${rebalance.status}.` },
      };
  }
}
