import type { AllocationGroup } from '@service/contracts';
import { ServiceError } from '@service/errors';
import type { WalletChains } from './chains.js';
import type { Move } from './instructions.js';
import type { Ledger, PositionRow } from './ledger.js';
import { groupOfCash, homeCashOf, isCashPositionId, parseCashPositionId } from './positions.js';
import type { Strategy } from './strategy.js';

const FULL_BPS = 10_000n;
/** A rebalance leg below 5 USD is not executed: its amount stays cash (and withdrawable). */
export const MIN_REBALANCE_LEG = 5_000_000n;

function sourceTargets(strategy: Strategy, group: AllocationGroup): { yieldSourceId: string; bps: number }[] {
  return (strategy[group] ?? []).filter((target) => target.yieldSourceId !== 'cash');
}

/**
 * The yield sources a risk action blocks for a wallet (`prevent_additional_allocation`, executed,
 * not lifted): nothing more is bought of them; what the wallet holds there stays.
 */
export type BlockedSources = ReadonlySet<string>;

const NONE_BLOCKED: BlockedSources = new Set();

/** Allocate's rule on blocks: no instruction buys a blocked source (`yield_source_blocked`); selling one stays possible. */
export function checkNotBlocked(walletId: string, moves: readonly Move[], blocked: BlockedSources): void {
  const into = moves.find((move) => blocked.has(move.to));
  if (into) {
    throw new ServiceError(
      'yield_source_blocked',
      `Yield source ${into.to} is blocked for wallet ${walletId} by a risk action (prevent_additional_allocation) until its alert resolves; ` +
        'what the wallet holds there stays and may be moved out.',
    );
  }
}

/**
 * A deposit into cash on an autoRebalance wallet: each source of the group gets its share; the
 * rest, a blocked source's share included, stays cash.
 */
export function planDepositAllocation(
  strategy: Strategy,
  cashId: string,
  amount: bigint,
  env: WalletChains,
  blocked: BlockedSources = NONE_BLOCKED,
): Move[] {
  const group = groupOfCash(parseCashPositionId(cashId, env.allChains));
  return sourceTargets(strategy, group)
    .filter((target) => !blocked.has(target.yieldSourceId))
    .map((target) => ({ from: cashId, to: target.yieldSourceId, amount: (amount * BigInt(target.bps)) / FULL_BPS }))
    .filter((move) => move.amount >= MIN_REBALANCE_LEG);
}

export function groupOfRow(row: PositionRow, env: WalletChains): AllocationGroup | undefined {
  if (isCashPositionId(row.positionId)) return groupOfCash(parseCashPositionId(row.positionId, env.allChains));
  return env.catalogue.find(row.positionId)?.allocationGroup;
}

/**
 * Moves bringing one group to its targets: sell what is over target into cash, then buy what is
 * under; a blocked source is not bought (its share stays cash), and is sold only above its target.
 */
function planGroup(group: AllocationGroup, strategy: Strategy, rows: PositionRow[], env: WalletChains, blocked: BlockedSources): Move[] {
  const members = rows.filter((row) => groupOfRow(row, env) === group);
  const total = members.reduce((sum, row) => sum + row.amount - row.reserved, 0n);
  const targets = new Map(sourceTargets(strategy, group).map((target) => [target.yieldSourceId, (total * BigInt(target.bps)) / FULL_BPS]));
  const home = homeCashOf(group, env.chains);
  const sells: Move[] = [];
  for (const row of members.filter((member) => !isCashPositionId(member.positionId))) {
    const excess = row.amount - row.reserved - (targets.get(row.positionId) ?? 0n);
    if (excess >= MIN_REBALANCE_LEG) sells.push({ from: row.positionId, to: home, amount: excess });
  }
  const held = new Map(members.map((row) => [row.positionId, row.amount - row.reserved]));
  const cash = members.filter((row) => isCashPositionId(row.positionId)).map((row) => row.positionId);
  const cashAvailable = new Map(cash.map((id) => [id, held.get(id) ?? 0n]));
  for (const sell of sells) cashAvailable.set(home, (cashAvailable.get(home) ?? 0n) + sell.amount);
  const buys: Move[] = [];
  for (const [sourceId, target] of targets) {
    if (blocked.has(sourceId)) continue;
    let missing = target - (held.get(sourceId) ?? 0n);
    for (const [cashId, available] of cashAvailable) {
      if (missing <= 0n) break;
      const take = available < missing ? available : missing;
      if (take < MIN_REBALANCE_LEG) continue;
      buys.push({ from: cashId, to: sourceId, amount: take });
      cashAvailable.set(cashId, available - take);
      missing -= take;
    }
  }
  return [...sells, ...buys];
}

/** The rebalance that reaches a new strategy's targets with what the wallet holds now, buying none of the `blocked` sources. */
export function planToTargets(strategy: Strategy, rows: PositionRow[], env: WalletChains, blocked: BlockedSources = NONE_BLOCKED): Move[] {
  return (Object.keys(strategy) as AllocationGroup[]).flatMap((group) => planGroup(group, strategy, rows, env, blocked));
}

/**
 * A risk exit (`exit_position`): `amount` (the whole available position in `sourceId`) goes to
 * the wallet's other sources of the same allocation group in proportion to their strategy weights
 * (blocked ones and the exited one left out); a share below {@link MIN_REBALANCE_LEG}, the
 * rounding remainder, or everything when no such source remains goes to the group's home cash,
 * so nothing of `amount` stays in the source. No moves for nothing to move, or for a source the
 * catalogue no longer lists (its group, hence its cash, is unknown).
 */
export function planExit(
  strategy: Strategy,
  sourceId: string,
  amount: bigint,
  env: WalletChains,
  blocked: BlockedSources = NONE_BLOCKED,
): Move[] {
  const group = env.catalogue.find(sourceId)?.allocationGroup;
  if (amount <= 0n || group === undefined) return [];
  const targets = sourceTargets(strategy, group).filter(
    (target) =>
      target.yieldSourceId !== sourceId &&
      target.bps > 0 &&
      !blocked.has(target.yieldSourceId) &&
      env.catalogue.find(target.yieldSourceId) !== undefined,
  );
  const totalBps = targets.reduce((sum, target) => sum + BigInt(target.bps), 0n);
  const moves: Move[] = [];
  let left = amount;
  for (const target of targets) {
    const share = (amount * BigInt(target.bps)) / totalBps;
    if (share < MIN_REBALANCE_LEG) continue;
    moves.push({ from: sourceId, to: target.yieldSourceId, amount: share });
    left -= share;
  }
  if (left > 0n) moves.push({ from: sourceId, to: homeCashOf(group, env.chains), amount: left });
  return moves;
}

/**
 * What an exit leaves in its source when its rebalance completes (the yield accrued on the amount
 * it held while it ran): one more move, to the group's home cash, or none.
 */
export function exitRemainder(ledger: Ledger, sourceId: string, env: WalletChains): Move | undefined {
  const left = ledger.available(sourceId);
  const group = env.catalogue.find(sourceId)?.allocationGroup;
  if (left <= 0n || group === undefined) return undefined;
  return { from: sourceId, to: homeCashOf(group, env.chains), amount: left };
}
