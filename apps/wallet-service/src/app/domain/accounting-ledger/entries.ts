import { type Lot, openCost } from './lots.js';

/**
 * A position's running totals since its first event: what came in and went out by kind. Every
 * event carries them as they stand after it, so a period's flows are the difference between the
 * totals at its two boundaries (two index probes per position), whatever the number of events.
 */
export interface RunningTotals {
  deposits: bigint;
  payouts: bigint;
  fees: bigint;
  bought: bigint;
  redeemed: bigint;
  realized: bigint;
}

export const NO_TOTALS: Readonly<RunningTotals> = { deposits: 0n, payouts: 0n, fees: 0n, bought: 0n, redeemed: 0n, realized: 0n };
const TOTAL_KEYS = Object.keys(NO_TOTALS) as (keyof RunningTotals)[];

/** As the `positions.totals` column stores them: `{"deposits": "<micro-dollars>", ...}`. */
export function totalsOf(stored: unknown): RunningTotals {
  const object = (stored ?? {}) as Partial<Record<keyof RunningTotals, string>>;
  return Object.fromEntries(TOTAL_KEYS.map((key) => [key, BigInt(object[key] ?? '0')])) as unknown as RunningTotals;
}

export function storedTotals(totals: RunningTotals | undefined): Record<keyof RunningTotals, string> {
  const value = totals ?? NO_TOTALS;
  return Object.fromEntries(TOTAL_KEYS.map((key) => [key, value[key].toString()])) as Record<keyof RunningTotals, string>;
}

/** The totals after an event of `type` moving `amount` (and, a redemption, realizing `realized`). */
export function advanceTotals(
  totals: RunningTotals | undefined,
  type: AccountingEntryType,
  amount: bigint,
  realized: bigint,
): RunningTotals {
  const next = { ...(totals ?? NO_TOTALS) };
  if (type === 'deposit') next.deposits += amount;
  else if (type === 'payout') next.payouts += amount;
  else if (type === 'fee') next.fees += amount;
  else if (type === 'buy') next.bought += amount;
  else if (type === 'redeem') {
    next.redeemed += amount;
    next.realized += realized;
  }
  return next;
}

/**
 * What the accounting ledger records (table `accounting_events`):
 * - `deposit`: an external deposit landed in a cash position;
 * - `payout` / `fee`: a payout leg delivered; the withdrawal's flat fee is the first delivered
 *   money (up to the fee), the rest is the payout, so a withdrawal's payouts sum to `amountPaid`;
 * - `buy` / `redeem`: money went into / came out of a yield source (a lot bought at its cost /
 *   proceeds with the FIFO cost they consumed and the realized performance);
 * - `transfer_in` / `transfer_out`: money moved between two cash positions of the wallet;
 * - `accrual`: accrued yield settled into a yield position, with the rate in force then.
 */
export const ACCOUNTING_ENTRY_TYPES = ['deposit', 'payout', 'fee', 'buy', 'redeem', 'transfer_in', 'transfer_out', 'accrual'] as const;
export type AccountingEntryType = (typeof ACCOUNTING_ENTRY_TYPES)[number];

/** What a movement belongs to: the deposit, rebalance or withdrawal (and its chain, token and transaction). */
export interface AccountingReference {
  readonly type: 'deposit' | 'rebalance' | 'withdrawal';
  readonly id: string;
  readonly chain?: string | null;
  readonly token?: string | null;
  readonly txHash?: string | null;
}

/**
 * One accounting event: the movement and the state of its position right after it (amount, when
 * its accrual was last settled, the open lots' cost), so the ledger alone values the position at
 * any instant.
 */
export interface AccountingEntry {
  type: AccountingEntryType;
  positionId: string;
  positionKind: string;
  /** The movement, micro-dollars, never negative (its direction is its type). */
  amount: bigint;
  /** `buy`: the lot's cost; `redeem`: the FIFO cost consumed. */
  cost: bigint;
  /** `redeem`: proceeds minus consumed cost. */
  realized: bigint;
  /** `accrual`: the rate in force at the settlement, basis points. */
  rateBps: number | null;
  /** `accrual`: when the settled stretch began. */
  accruedFrom: Date | null;
  positionAmount: bigint;
  positionAccruedAt: Date;
  openCost: bigint;
  /** The position's running totals after the event. */
  totals: RunningTotals;
  reference: AccountingReference | null;
  at: Date;
}

/** An entry of `type` for `row` as it stands now (after the movement). */
export function entryOf(
  type: AccountingEntryType,
  row: { positionId: string; kind: string; amount: bigint; accruedAt: Date; lots?: Lot[]; totals?: RunningTotals },
  input: {
    amount: bigint;
    at: Date;
    cost?: bigint;
    realized?: bigint;
    rateBps?: number;
    accruedFrom?: Date;
    reference?: AccountingReference;
  },
): AccountingEntry {
  return {
    type,
    positionId: row.positionId,
    positionKind: row.kind,
    amount: input.amount,
    cost: input.cost ?? 0n,
    realized: input.realized ?? 0n,
    rateBps: input.rateBps ?? null,
    accruedFrom: input.accruedFrom ?? null,
    positionAmount: row.amount,
    positionAccruedAt: row.accruedAt,
    openCost: openCost(row.lots ?? []),
    totals: { ...(row.totals ?? NO_TOTALS) },
    reference: input.reference ?? null,
    at: input.at,
  };
}

/**
 * The fee part of a delivered payout leg: the withdrawal's flat `fee` is taken from the first
 * money delivered, so after `deliveredBefore` of its other legs, this leg's `amount` carries
 * `min(fee, deliveredBefore + amount) - min(fee, deliveredBefore)`.
 */
export function feeShare(fee: bigint, deliveredBefore: bigint, amount: bigint): bigint {
  const min = (a: bigint, b: bigint) => (a < b ? a : b);
  return min(fee, deliveredBefore + amount) - min(fee, deliveredBefore);
}
