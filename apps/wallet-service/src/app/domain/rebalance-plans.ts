import type { AllocationGroup } from '@service/contracts';
import type { WalletChains } from './chains.js';
import type { Move } from './instructions.js';
import type { PositionRow } from './ledger.js';
import { groupOfCash, homeCashOf, isCashPositionId, parseCashPositionId } from './positions.js';
import type { Strategy } from './strategy.js';

const FULL_BPS = 10_000n;
/** A rebalance leg below 5 USD is not executed: its amount stays cash (and withdrawable). */
export const MIN_REBALANCE_LEG = 5_000_000n;

function sourceTargets(strategy: Strategy, group: AllocationGroup): { yieldSourceId: string; bps: number }[] {
  return (strategy[group] ?? []).filter((target) => target.yieldSourceId !== 'cash');
}

/** A deposit into cash on an autoRebalance wallet: each source of the group gets its share; the rest stays cash. */
export function planDepositAllocation(strategy: Strategy, cashId: string, amount: bigint, env: WalletChains): Move[] {
  const group = groupOfCash(parseCashPositionId(cashId, env.allChains));
  return sourceTargets(strategy, group)
    .map((target) => ({ from: cashId, to: target.yieldSourceId, amount: (amount * BigInt(target.bps)) / FULL_BPS }))
    .filter((move) => move.amount >= MIN_REBALANCE_LEG);
}

export function groupOfRow(row: PositionRow, env: WalletChains): AllocationGroup | undefined {
  if (isCashPositionId(row.positionId)) return groupOfCash(parseCashPositionId(row.positionId, env.allChains));
  return env.catalogue.find(row.positionId)?.allocationGroup;
}

/** Moves bringing one group to its targets: sell what is over target into cash, then buy what is under. */
function planGroup(group: AllocationGroup, strategy: Strategy, rows: PositionRow[], env: WalletChains): Move[] {
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

/** The rebalance that reaches a new strategy's targets with what the wallet holds now. */
export function planToTargets(strategy: Strategy, rows: PositionRow[], env: WalletChains): Move[] {
  return (Object.keys(strategy) as AllocationGroup[]).flatMap((group) => planGroup(group, strategy, rows, env));
}
