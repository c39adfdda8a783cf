import { TOTAL_BPS } from '@service/contracts';
import { ServiceError } from '@service/errors';
import type { StrategyTaskInput } from './task-calls.js';

/** The strategy rules the contract would revert on, answered as 400 before anything is submitted. */
export function checkStrategy(strategy: StrategyTaskInput): void {
  const total = strategy.allocations.reduce((sum, entry) => sum + entry.targetBps, strategy.idleTargetBps);
  if (total !== TOTAL_BPS) {
    throw new ServiceError(
      'invalid_request',
      `targetBps of every allocation plus idleTargetBps total ${total}; they must total exactly ${TOTAL_BPS}.`,
    );
  }
  const seen = new Set<string>();
  for (const { sourceId } of strategy.allocations) {
    const key = sourceId.toLowerCase();
    if (seen.has(key)) throw new ServiceError('invalid_request', `sourceId ${sourceId} appears more than once.`);
    seen.add(key);
  }
}
