import { formatUsd } from '@service/money';
import { ServiceError } from '@service/errors';
import type { Catalogue } from './catalogue/catalogue.js';
import type { Valuation } from './chains.js';
import { accruedYield, isCashPositionId } from './positions.js';

export interface PositionRow {
  positionId: string;
  kind: string;
  amount: bigint;
  reserved: bigint;
  earned: bigint;
  accruedAt: Date;
}

/** What a position is worth at `now`: its amount plus yield accrued since it was last settled. */
export function valueAt(row: PositionRow, catalogue: Catalogue, timeScale: number, now: Date): { value: bigint; earned: bigint } {
  const source = row.kind === 'yield_source' ? catalogue.find(row.positionId) : undefined;
  const pending = source ? accruedYield(row.amount, catalogue.accrualBps(source), now.getTime() - row.accruedAt.getTime(), timeScale) : 0n;
  return { value: row.amount + pending, earned: row.earned + pending };
}

/**
 * The positions of one wallet and what moves them, in memory: the repositories read it (under
 * the wallet's row lock) and write back what changed. Accrued yield is settled into `amount`
 * before anything moves, so every movement works on exact values and the sum of positions always
 * equals deposits plus earned yield.
 */
export class Ledger {
  /** Positions changed since the last save, in the order they were first changed. */
  private readonly touched = new Set<string>();

  private constructor(
    readonly walletId: string,
    private readonly rows: Map<string, PositionRow>,
  ) {}

  /** The stored positions with the yield accrued until `now` settled into their amounts. */
  static settled(walletId: string, rows: PositionRow[], valuation: Valuation, now: Date): Ledger {
    const ledger = new Ledger(walletId, new Map(rows.map((row) => [row.positionId, row])));
    for (const row of ledger.rows.values()) {
      const { value, earned } = valueAt(row, valuation.catalogue, valuation.timeScale, now);
      if (value !== row.amount) ledger.touched.add(row.positionId);
      // A row another transaction valued later than `now` (read after waiting for the wallet's
      // lock) keeps its time: moving it back would accrue that stretch twice.
      Object.assign(row, { amount: value, earned, accruedAt: row.accruedAt > now ? row.accruedAt : now });
    }
    return ledger;
  }

  /** A ledger over copies of already valued rows, which nothing saves: what a preview moves. */
  static fromRows(walletId: string, rows: PositionRow[]): Ledger {
    return new Ledger(walletId, new Map(rows.map((row) => [row.positionId, { ...row }])));
  }

  positions(): PositionRow[] {
    return [...this.rows.values()];
  }

  available(positionId: string): bigint {
    const row = this.rows.get(positionId);
    return row ? row.amount - row.reserved : 0n;
  }

  private row(positionId: string): PositionRow {
    let row = this.rows.get(positionId);
    if (!row) {
      row = {
        positionId,
        kind: isCashPositionId(positionId) ? 'cash' : 'yield_source',
        amount: 0n,
        reserved: 0n,
        earned: 0n,
        accruedAt: new Date(),
      };
      this.rows.set(positionId, row);
    }
    this.touched.add(positionId);
    return row;
  }

  credit(positionId: string, amount: bigint): void {
    this.row(positionId).amount += amount;
  }

  /** Takes `amount` out of a position; more than it holds is `insufficient_funds`. */
  debit(positionId: string, amount: bigint): void {
    const row = this.row(positionId);
    if (row.amount - row.reserved < amount) {
      throw new ServiceError(
        'insufficient_funds',
        `Position ${positionId} holds ${formatUsd(row.amount - row.reserved)} USD available, less than ${formatUsd(amount)}.`,
      );
    }
    row.amount -= amount;
  }

  /** Applies every move in order, or none when one would take more than its source has free. */
  applyAll(moves: readonly { from: string; to: string; amount: bigint }[]): boolean {
    const free = new Map<string, bigint>();
    const freeOf = (positionId: string) => free.get(positionId) ?? this.available(positionId);
    for (const move of moves) {
      const left = freeOf(move.from) - move.amount;
      if (left < 0n) return false;
      free.set(move.from, left);
      free.set(move.to, freeOf(move.to) + move.amount);
    }
    for (const move of moves) {
      this.debit(move.from, move.amount);
      this.credit(move.to, move.amount);
    }
    return true;
  }

  reserve(positionId: string, amount: bigint): void {
    this.row(positionId).reserved += amount;
  }

  release(positionId: string, amount: bigint): void {
    const row = this.row(positionId);
    row.reserved = row.reserved > amount ? row.reserved - amount : 0n;
  }

  /** What changed since the last save, in the order it first changed; `saved()` starts afresh. */
  changed(): PositionRow[] {
    return [...this.touched].flatMap((positionId) => this.rows.get(positionId) ?? []);
  }

  saved(): void {
    this.touched.clear();
  }

  /** The wallet's totals: cash, what is invested in yield sources, and both. */
  balance(): { totalUsd: string; cashUsd: string; investedUsd: string } {
    let cash = 0n;
    let invested = 0n;
    for (const row of this.rows.values()) {
      if (row.kind === 'cash') cash += row.amount;
      else invested += row.amount;
    }
    return { totalUsd: formatUsd(cash + invested), cashUsd: formatUsd(cash), investedUsd: formatUsd(invested) };
  }
}
