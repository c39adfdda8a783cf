import { formatUsd } from '@service/money';
import { ServiceError } from '@service/errors';
import type { Catalogue } from './catalogue/catalogue.js';
import type { Valuation } from './chains.js';
import {
  type AccountingEntry,
  type AccountingEntryType,
  type AccountingReference,
  advanceTotals,
  entryOf,
  NO_TOTALS,
  type RunningTotals,
} from './accounting-ledger/entries.js';
import { buyLot, type Lot, redeemLots } from './accounting-ledger/lots.js';
import { accruedYieldOver, isCashPositionId } from './positions.js';

export interface PositionRow {
  positionId: string;
  kind: string;
  amount: bigint;
  reserved: bigint;
  earned: bigint;
  accruedAt: Date;
  /** A yield source's open FIFO lots, oldest first (absent: none). */
  lots?: Lot[];
  /** The position's running accounting totals (absent: none yet). */
  totals?: RunningTotals;
  /** Read without its lots and totals (a wallet view): valued, never saved. */
  viewOnly?: true;
}

/** The yield a position of `amount` settled at `accruedAt` has accrued by `now` (piecewise over rate changes). */
export function pendingYield(
  position: { positionId: string; kind: string; amount: bigint; accruedAt: Date },
  catalogue: Catalogue,
  timeScale: number,
  now: Date,
): bigint {
  const source = position.kind === 'yield_source' ? catalogue.find(position.positionId) : undefined;
  if (!source) return 0n;
  return accruedYieldOver(position.amount, catalogue.rateSegments(source, position.accruedAt.getTime(), now.getTime()), timeScale);
}

/** What a position is worth at `now`: its amount plus yield accrued since it was last settled. */
export function valueAt(row: PositionRow, catalogue: Catalogue, timeScale: number, now: Date): { value: bigint; earned: bigint } {
  const pending = pendingYield(row, catalogue, timeScale, now);
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
  /**
   * The accounting of the movements since the last {@link takeAccounting}, in order, and the
   * settlement of each yield position's accrual (written only for positions that are saved).
   */
  private readonly journal: AccountingEntry[] = [];
  private readonly accruals = new Map<string, AccountingEntry>();

  private constructor(
    readonly walletId: string,
    private readonly rows: Map<string, PositionRow>,
    /** When this ledger's movements happen (new positions start accruing then). */
    readonly now: Date = new Date(),
  ) {}

  /**
   * The stored positions with the yield accrued until `now` settled into their amounts; each
   * yield position's settlement is an `accrual` entry, with the rate in force at `now`.
   */
  static settled(walletId: string, rows: PositionRow[], valuation: Valuation, now: Date): Ledger {
    const ledger = new Ledger(walletId, new Map(rows.map((row) => [row.positionId, row])), now);
    for (const row of ledger.rows.values()) {
      const { value, earned } = valueAt(row, valuation.catalogue, valuation.timeScale, now);
      if (value !== row.amount) ledger.touched.add(row.positionId);
      const pending = value - row.amount;
      const from = row.accruedAt;
      // A row another transaction valued later than `now` (read after waiting for the wallet's
      // lock) keeps its time: moving it back would accrue that stretch twice.
      Object.assign(row, { amount: value, earned, accruedAt: row.accruedAt > now ? row.accruedAt : now });
      const source = row.kind === 'yield_source' ? valuation.catalogue.find(row.positionId) : undefined;
      if (source && from < now) {
        ledger.accruals.set(
          row.positionId,
          entryOf('accrual', row, { amount: pending, at: now, rateBps: valuation.catalogue.accrualBps(source, now), accruedFrom: from }),
        );
      }
    }
    return ledger;
  }

  /** A ledger over copies of already valued rows, which nothing saves: what a preview moves. */
  static fromRows(walletId: string, rows: PositionRow[]): Ledger {
    return new Ledger(
      walletId,
      new Map(
        rows.map((row) => [
          row.positionId,
          { ...row, lots: row.lots ? [...row.lots] : undefined, totals: row.totals ? { ...row.totals } : undefined },
        ]),
      ),
    );
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
        accruedAt: this.now,
        lots: [],
        totals: { ...NO_TOTALS },
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
  applyAll(moves: readonly { from: string; to: string; amount: bigint }[], reference?: AccountingReference): boolean {
    const free = new Map<string, bigint>();
    const freeOf = (positionId: string) => free.get(positionId) ?? this.available(positionId);
    for (const move of moves) {
      const left = freeOf(move.from) - move.amount;
      if (left < 0n) return false;
      free.set(move.from, left);
      free.set(move.to, freeOf(move.to) + move.amount);
    }
    for (const move of moves) this.transfer(move.from, move.to, move.amount, reference);
    return true;
  }

  /**
   * Moves `amount` between two positions and records it: out of a yield source a `redeem` (its
   * FIFO lots give up the units the proceeds are worth), out of cash a `transfer_out`; into a
   * yield source a `buy` (a new lot at cost `amount`), into cash a `transfer_in`.
   */
  transfer(from: string, to: string, amount: bigint, reference?: AccountingReference): void {
    this.takeOut(from, amount, reference);
    const row = this.row(to);
    const before = row.amount;
    this.credit(to, amount);
    if (row.kind === 'yield_source') {
      row.lots = buyLot(row.lots ?? [], before, amount, this.now);
      this.record('buy', row, { amount, cost: amount, reference });
    } else {
      this.record('transfer_in', row, { amount, reference });
    }
  }

  /** An external deposit of `amount` lands in the cash position `positionId`. */
  receiveDeposit(positionId: string, amount: bigint, reference: AccountingReference): void {
    this.credit(positionId, amount);
    this.record('deposit', this.row(positionId), { amount, reference });
  }

  /**
   * A delivered payout leg: `amount` leaves `positionId` (a yield source redeems it first), of
   * which `fee` is the withdrawal's fee and the rest the payout.
   */
  payOut(positionId: string, amount: bigint, fee: bigint, reference: AccountingReference): void {
    this.takeOut(positionId, amount, reference, false);
    const row = this.row(positionId);
    if (fee > 0n) this.record('fee', row, { amount: fee, reference });
    if (amount - fee > 0n) this.record('payout', row, { amount: amount - fee, reference });
  }

  /** Debits `amount` from `positionId`; a yield source's redemption is recorded, a cash debit when `recordCash`. */
  private takeOut(positionId: string, amount: bigint, reference: AccountingReference | undefined, recordCash = true): void {
    const row = this.row(positionId);
    const before = row.amount;
    this.debit(positionId, amount);
    if (row.kind === 'yield_source') {
      const { lots, consumedCost } = redeemLots(row.lots ?? [], before, amount);
      row.lots = lots;
      this.record('redeem', row, { amount, cost: consumedCost, realized: amount - consumedCost, reference });
    } else if (recordCash) {
      this.record('transfer_out', row, { amount, reference });
    }
  }

  /** An entry of a movement: the row's running totals advance, then the entry records the row as it stands. */
  private record(
    type: AccountingEntryType,
    row: PositionRow,
    input: { amount: bigint; cost?: bigint; realized?: bigint; reference?: AccountingReference },
  ): void {
    row.totals = advanceTotals(row.totals, type, input.amount, input.realized ?? 0n);
    this.journal.push(entryOf(type, row, { ...input, at: this.now }));
  }

  /**
   * The accounting entries to write with the positions about to be saved: the accrual settled
   * into each changed yield position, then every movement in order. Taken once.
   */
  takeAccounting(): AccountingEntry[] {
    const accruals = [...this.touched].flatMap((positionId) => {
      const entry = this.accruals.get(positionId);
      if (entry) this.accruals.delete(positionId);
      return entry ? [entry] : [];
    });
    return [...accruals, ...this.journal.splice(0)];
  }

  /** Whether positions about to be saved carry accounting not yet taken ({@link takeAccounting}). */
  hasUntakenAccounting(): boolean {
    return this.journal.length > 0 || [...this.touched].some((positionId) => this.accruals.has(positionId));
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
