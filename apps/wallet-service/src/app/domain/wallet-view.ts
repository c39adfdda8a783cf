import type { WalletDto, WalletPositionDto, WalletStatus, WalletToken, WalletYieldDto } from '@service/contracts';
import { formatUsd } from '@service/money';
import type { Catalogue } from './catalogue/catalogue.js';
import { type PositionRow, valueAt } from './ledger.js';
import { balanceFigures } from './errors.js';
import { cashLabel, isCashPositionId } from './positions.js';
import type { WalletRecord } from './records.js';
import { type Strategy, strategyAllocationsView, strategyView } from './strategy.js';

export interface ValuedPosition {
  readonly row: PositionRow;
  readonly value: bigint;
  readonly earned: bigint;
}

export function valuePositions(rows: PositionRow[], catalogue: Catalogue, timeScale: number, now: Date): ValuedPosition[] {
  return rows.map((row) => ({ row, ...valueAt(row, catalogue, timeScale, now) }));
}

/** Whole percent of the wallet, rounded down. */
function pctOf(value: bigint, total: bigint): number {
  return total > 0n ? Number((value * 100n) / total) : 0;
}

/** Positions with money in them, cash first, each as the wallet record shows it. */
export function positionsView(positions: ValuedPosition[], catalogue: Catalogue): WalletPositionDto[] {
  const held = positions.filter((position) => position.value > 0n);
  const total = held.reduce((sum, position) => sum + position.value, 0n);
  return held
    .sort(
      (a, b) =>
        Number(isCashPositionId(b.row.positionId)) - Number(isCashPositionId(a.row.positionId)) ||
        (a.row.positionId < b.row.positionId ? -1 : 1),
    )
    .map(({ row, value }) => {
      if (isCashPositionId(row.positionId)) {
        const [, , token = 'usdc'] = row.positionId.split(':');
        return {
          id: row.positionId,
          kind: 'cash' as const,
          label: cashLabel(row.positionId),
          valueUsd: formatUsd(value),
          pct: pctOf(value, total),
          yieldSourceId: null,
          token: token as WalletToken,
        };
      }
      const source = catalogue.find(row.positionId);
      return {
        id: row.positionId,
        kind: 'yield_source' as const,
        label: source?.name ?? row.positionId,
        valueUsd: formatUsd(value),
        pct: pctOf(value, total),
        yieldSourceId: row.positionId,
        token: source?.depositToken ?? 'usdc',
      };
    });
}

/** Positions at their value now, for {@link balanceFigures}. */
export function valuedBalance(positions: readonly ValuedPosition[]): { amount: bigint; reserved: bigint }[] {
  return positions.map((position) => ({ amount: position.value, reserved: position.row.reserved }));
}

export function walletView(wallet: WalletRecord, positions: ValuedPosition[], catalogue: Catalogue): WalletDto {
  const strategy = wallet.strategy as Strategy;
  const earned = positions.reduce((sum, position) => sum + position.earned, 0n);
  return {
    id: wallet.id,
    label: wallet.label,
    status: wallet.status as WalletStatus,
    failureReason: wallet.failureReason,
    autoRebalance: wallet.autoRebalance,
    strategy: { allocations: strategyView(strategy) },
    depositAddresses: wallet.depositAddresses as Record<string, string>,
    balance: { ...balanceFigures(valuedBalance(positions)), earnedUsd: formatUsd(earned) },
    positions: positionsView(positions, catalogue),
    strategyAllocations: strategyAllocationsView(strategy),
    createdAt: wallet.createdAt.toISOString(),
    updatedAt: wallet.updatedAt.toISOString(),
  };
}

/**
 * What the wallet has earned and earns in a year at the sources' current rates; each position's
 * `apyBps` is its source's historical rate, 0 while the source has none yet.
 */
export function yieldView(walletId: string, valued: ValuedPosition[], catalogue: Catalogue): WalletYieldDto {
  const total = valued.reduce((sum, position) => sum + position.value, 0n);
  const deployed = valued.filter((position) => position.row.kind === 'yield_source' && position.value > 0n);
  let annualized = 0n;
  const positions = deployed.map(({ row: position, value }) => {
    const source = catalogue.get(position.positionId);
    const apyBps = catalogue.accrualBps(source);
    annualized += (value * BigInt(apyBps)) / 10_000n;
    return {
      yieldSourceId: source.id,
      name: source.name,
      apyBps: source.apyBps ?? 0,
      pct: Number((value * 100n) / total),
      deployedValueUsd: formatUsd(value),
    };
  });
  const earned = valued.reduce((sum, position) => sum + position.earned, 0n);
  return { walletId, currentBalanceUsd: formatUsd(total), earnedUsd: formatUsd(earned), annualizedUsd: formatUsd(annualized), positions };
}
