import { formatUsd } from '@service/money';
import type { Valuation } from '../domain/chains.js';
import { Ledger } from '../domain/ledger.js';
import type { Tx } from './db.js';
import { emitWalletEvent } from './events.repository.js';

/** The wallet's positions, valued at `now`; the caller holds the wallet's row lock. */
export async function openLedger(tx: Tx, walletId: string, valuation: Valuation, now: Date): Promise<Ledger> {
  const rows = await tx.position.findMany({ where: { walletId } });
  return Ledger.settled(walletId, rows, valuation, now);
}

/** Writes every changed position back; `position.updated` events for them when `announce`. */
export async function saveLedger(tx: Tx, ledger: Ledger, scope: { orgId: string; observedAt: Date }, announce: boolean): Promise<void> {
  const { walletId } = ledger;
  for (const row of ledger.changed()) {
    const { positionId } = row;
    const data = { kind: row.kind, amount: row.amount, reserved: row.reserved, earned: row.earned, accruedAt: row.accruedAt };
    await tx.position.upsert({
      where: { walletId_positionId: { walletId, positionId } },
      create: { walletId, positionId, ...data },
      update: data,
    });
    if (announce) {
      await emitWalletEvent(tx, { ...scope, walletId }, 'portfolio_wallet.position.updated', {
        position: { id: positionId, kind: row.kind, amountUsd: formatUsd(row.amount) },
      });
    }
  }
  ledger.saved();
}

/** `portfolio_wallet.balance.updated` with the wallet's totals after the change. */
export async function announceBalance(tx: Tx, ledger: Ledger, scope: { orgId: string; observedAt: Date }): Promise<void> {
  await emitWalletEvent(tx, { ...scope, walletId: ledger.walletId }, 'portfolio_wallet.balance.updated', { balance: ledger.balance() });
}
