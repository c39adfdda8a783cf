import { formatUsd } from '@service/money';
import { ServiceError } from '@service/errors';
import type { WalletConfig } from '../../config.js';
import type { Catalogue } from '../yield-sources/catalogue.js';
import type { Tx } from './db.js';
import { emitWalletEvent } from './events.js';
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
 * The positions of one wallet inside a transaction that holds the wallet's row lock. Accrued
 * yield is settled into `amount` before anything moves, so every movement works on exact values
 * and the sum of positions always equals deposits plus earned yield.
 */
export class Ledger {
  private readonly touched = new Set<string>();

  private constructor(
    /** Null for a preview, which is never saved. */
    private readonly tx: Tx | null,
    private readonly walletId: string,
    private readonly rows: Map<string, PositionRow>,
  ) {}

  static async open(tx: Tx, walletId: string, catalogue: Catalogue, config: WalletConfig, now: Date): Promise<Ledger> {
    const rows = await tx.position.findMany({ where: { walletId } });
    const ledger = new Ledger(tx, walletId, new Map(rows.map((row) => [row.positionId, row])));
    for (const row of ledger.rows.values()) {
      const { value, earned } = valueAt(row, catalogue, config.WALLET_YIELD_TIME_SCALE, now);
      if (value !== row.amount) ledger.touched.add(row.positionId);
      Object.assign(row, { amount: value, earned, accruedAt: now });
    }
    return ledger;
  }

  /** A ledger over already valued rows that is never saved: what a preview moves. */
  static fromRows(walletId: string, rows: PositionRow[]): Ledger {
    return new Ledger(null, walletId, new Map(rows.map((row) => [row.positionId, { ...row }])));
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
      row = { positionId, kind: isCashPositionId(positionId) ? 'cash' : 'yield_source', amount: 0n, reserved: 0n, earned: 0n, accruedAt: new Date() };
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
      throw new ServiceError('insufficient_funds', `Position ${positionId} holds ${formatUsd(row.amount - row.reserved)} USD available, less than ${formatUsd(amount)}.`);
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

  /** Writes every changed position back; `position.updated` events for the given ones. */
  async save(scope: { orgId: string; observedAt: Date }, announce: boolean): Promise<void> {
    if (!this.tx) throw new Error('a preview ledger is never saved');
    for (const positionId of this.touched) {
      const row = this.rows.get(positionId);
      if (!row) continue;
      const data = { kind: row.kind, amount: row.amount, reserved: row.reserved, earned: row.earned, accruedAt: row.accruedAt };
      await this.tx.position.upsert({
        where: { walletId_positionId: { walletId: this.walletId, positionId } },
        create: { walletId: this.walletId, positionId, ...data },
        update: data,
      });
      if (announce) {
        await emitWalletEvent(this.tx, { ...scope, walletId: this.walletId }, 'portfolio_wallet.position.updated', {
          position: { id: positionId, kind: row.kind, amountUsd: formatUsd(row.amount) },
        });
      }
    }
    this.touched.clear();
  }

  /** `portfolio_wallet.balance.updated` with the wallet's totals after the change. */
  async announceBalance(scope: { orgId: string; observedAt: Date }): Promise<void> {
    if (!this.tx) throw new Error('a preview ledger announces nothing');
    let cash = 0n;
    let invested = 0n;
    for (const row of this.rows.values()) {
      if (row.kind === 'cash') cash += row.amount;
      else invested += row.amount;
    }
    await emitWalletEvent(this.tx, { ...scope, walletId: this.walletId }, 'portfolio_wallet.balance.updated', {
      balance: { totalUsd: formatUsd(cash + invested), cashUsd: formatUsd(cash), investedUsd: formatUsd(invested) },
    });
  }
}
