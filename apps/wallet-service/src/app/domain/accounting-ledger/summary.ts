import type { Catalogue } from '../catalogue/catalogue.js';
import { pendingYield } from '../ledger.js';
import { NO_TOTALS, type RunningTotals } from './entries.js';

/** A position's state after its last accounting event before a boundary. */
export interface BoundaryPosition {
  walletId: string;
  positionId: string;
  kind: string;
  amount: bigint;
  accruedAt: Date;
  openCost: bigint;
  /** The position's running totals after that event. */
  totals: RunningTotals;
}

/**
 * The flows between two boundaries: for each position, the difference of its running totals
 * (zero at the start for a position without an event before it). Equal to the sums of the
 * events in between, at the cost of the two boundaries.
 */
export function flowsBetween(start: readonly BoundaryPosition[], end: readonly BoundaryPosition[]): FlowTotal[] {
  const before = new Map(start.map((position) => [`${position.walletId} ${position.positionId}`, position.totals]));
  const flows: FlowTotal[] = [];
  for (const position of end) {
    const from = before.get(`${position.walletId} ${position.positionId}`) ?? NO_TOTALS;
    const to = position.totals;
    const flow = (type: string, amount: bigint, realized = 0n) => {
      if (amount !== 0n || realized !== 0n)
        flows.push({ type, positionId: position.positionId, kind: position.kind, amount, cost: 0n, realized });
    };
    flow('deposit', to.deposits - from.deposits);
    flow('payout', to.payouts - from.payouts);
    flow('fee', to.fees - from.fees);
    flow('buy', to.bought - from.bought);
    flow('redeem', to.redeemed - from.redeemed, to.realized - from.realized);
  }
  return flows;
}

/** The sum of one type of event on one position over a period. */
export interface FlowTotal {
  type: string;
  positionId: string;
  kind: string;
  amount: bigint;
  cost: bigint;
  realized: bigint;
}

/** An accounting event as the activity lists read it. */
export interface StoredEvent {
  seq: bigint;
  id: string;
  walletId: string;
  walletLabel: string | null;
  type: string;
  positionId: string;
  positionKind: string;
  amount: string;
  cost: string;
  realized: string;
  rateBps: number | null;
  referenceType: string | null;
  referenceId: string | null;
  chain: string | null;
  token: string | null;
  txHash: string | null;
  occurredAt: Date;
  createdAt: Date;
}

export interface SourcePerformance {
  yieldSourceId: string;
  entryValue: bigint;
  exitValue: bigint;
  /** `exitValue - entryValue - bought + redeemed`: the yield the source earned in the period. */
  netPerformance: bigint;
}

export interface PeriodFigures {
  startingValue: bigint;
  endingValue: bigint;
  externalDeposits: bigint;
  externalPayouts: bigint;
  groundCredits: bigint;
  explicitFees: bigint;
  realizedPerformance: bigint;
  unrealizedPerformance: bigint;
  investmentPerformance: bigint;
  sources: SourcePerformance[];
  /** Open lots' value minus their cost at the start and at the end (yield sources only). */
  unrealizedAtStart: bigint;
  unrealizedAtEnd: bigint;
}

interface Valuing {
  catalogue: Catalogue;
  timeScale: number;
}

/** A position's value at `t` from its state after its last event before `t`: that amount plus the yield accrued since. */
export function boundaryValue(position: BoundaryPosition, valuing: Valuing, t: Date): bigint {
  return position.amount + pendingYield(position, valuing.catalogue, valuing.timeScale, t);
}

function sumWhere(flows: readonly FlowTotal[], type: string, pick: (flow: FlowTotal) => bigint = (flow) => flow.amount): bigint {
  return flows.filter((flow) => flow.type === type).reduce((sum, flow) => sum + pick(flow), 0n);
}

/**
 * A period's figures from the positions at its boundaries and the flows between them, each
 * identity exact by construction:
 * - value(t) = the sum over positions of (state after the last event before t) + accrued yield to t;
 * - investment performance = ending - starting - deposits + payouts - ground credits + fees, which
 *   is the yield accrued in the period (the only change of value that is not a flow);
 * - realized = the sum over redemptions in the period of proceeds - consumed FIFO cost;
 * - unrealized = investment - realized, which equals the change over the period of (open lots'
 *   value - open lots' cost): {@link unrealizedAtEnd} - {@link unrealizedAtStart} (checked by the
 *   caller as part of reconciliation).
 * Periods compose: the figures of `[a, m)` and `[m, b)` add up to those of `[a, b)`.
 */
export function periodFigures(
  input: { start: readonly BoundaryPosition[]; end: readonly BoundaryPosition[]; flows: readonly FlowTotal[]; startAt: Date; endAt: Date },
  valuing: Valuing,
): PeriodFigures {
  const { flows } = input;
  const valued = (positions: readonly BoundaryPosition[], t: Date) =>
    positions.map((position) => ({ position, value: boundaryValue(position, valuing, t) }));
  const atStart = valued(input.start, input.startAt);
  const atEnd = valued(input.end, input.endAt);
  const total = (rows: { value: bigint }[]) => rows.reduce((sum, row) => sum + row.value, 0n);
  const unrealized = (rows: { position: BoundaryPosition; value: bigint }[]) =>
    rows.filter((row) => row.position.kind === 'yield_source').reduce((sum, row) => sum + row.value - row.position.openCost, 0n);
  const startingValue = total(atStart);
  const endingValue = total(atEnd);
  const externalDeposits = sumWhere(flows, 'deposit');
  const externalPayouts = sumWhere(flows, 'payout');
  const explicitFees = sumWhere(flows, 'fee');
  const groundCredits = 0n;
  const investmentPerformance = endingValue - startingValue - externalDeposits + externalPayouts - groundCredits + explicitFees;
  const realizedPerformance = sumWhere(flows, 'redeem', (flow) => flow.realized);
  return {
    startingValue,
    endingValue,
    externalDeposits,
    externalPayouts,
    groundCredits,
    explicitFees,
    realizedPerformance,
    unrealizedPerformance: investmentPerformance - realizedPerformance,
    investmentPerformance,
    sources: sourcePerformance(atStart, atEnd, flows),
    unrealizedAtStart: unrealized(atStart),
    unrealizedAtEnd: unrealized(atEnd),
  };
}

/** Each yield source with a value at either boundary or a flow in between; an organization's sources summed over its wallets. */
function sourcePerformance(
  atStart: { position: BoundaryPosition; value: bigint }[],
  atEnd: { position: BoundaryPosition; value: bigint }[],
  flows: readonly FlowTotal[],
): SourcePerformance[] {
  const sources = new Map<string, SourcePerformance>();
  const of = (id: string) => {
    let source = sources.get(id);
    if (!source) {
      source = { yieldSourceId: id, entryValue: 0n, exitValue: 0n, netPerformance: 0n };
      sources.set(id, source);
    }
    return source;
  };
  for (const { position, value } of atStart) if (position.kind === 'yield_source') of(position.positionId).entryValue += value;
  for (const { position, value } of atEnd) if (position.kind === 'yield_source') of(position.positionId).exitValue += value;
  const moved = new Map<string, bigint>();
  for (const flow of flows) {
    if (flow.kind !== 'yield_source') continue;
    of(flow.positionId);
    const sign = flow.type === 'buy' ? -1n : flow.type === 'redeem' ? 1n : 0n;
    moved.set(flow.positionId, (moved.get(flow.positionId) ?? 0n) + sign * flow.amount);
  }
  return [...sources.values()]
    .map((source) => ({ ...source, netPerformance: source.exitValue - source.entryValue + (moved.get(source.yieldSourceId) ?? 0n) }))
    .filter((source) => source.entryValue !== 0n || source.exitValue !== 0n || moved.has(source.yieldSourceId))
    .sort((a, b) => (a.yieldSourceId < b.yieldSourceId ? -1 : 1));
}

/**
 * Whether the ledger reproduces the positions table: each position's last event carries its
 * amount (and, for a yield source, when its accrual was settled). A position with money and no
 * event predates the ledger. The reason when it does not, null when it does.
 */
export function reconciliationReason(
  current: readonly {
    positionId: string;
    walletId: string;
    kind: string;
    amount: bigint;
    accruedAtMs: number;
    last: BoundaryPosition | null;
  }[],
  figures: Pick<PeriodFigures, 'unrealizedPerformance' | 'unrealizedAtStart' | 'unrealizedAtEnd'>,
): string | null {
  for (const position of current) {
    if (!position.last) {
      if (position.amount !== 0n) {
        return `Position ${position.positionId} of wallet ${position.walletId} holds money moved before the accounting ledger existed.`;
      }
      continue;
    }
    const accruedDiffers = position.kind === 'yield_source' && position.last.accruedAt.getTime() !== position.accruedAtMs;
    if (position.last.amount !== position.amount || accruedDiffers) {
      return `Position ${position.positionId} of wallet ${position.walletId} differs from the state its accounting events give.`;
    }
  }
  if (figures.unrealizedAtEnd - figures.unrealizedAtStart !== figures.unrealizedPerformance) {
    return 'The open lots do not account for the unrealized performance.';
  }
  return null;
}
