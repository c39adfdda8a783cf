import type { Rebalance, Wallet } from '../../generated/prisma/client.js';
import { movesOf, releaseReservations } from '../domain/instructions.js';
import type { Ledger } from '../domain/ledger.js';
import type { RebalanceStatus } from '../domain/rebalance-view.js';
import type { Tx } from '../repositories/db.js';
import { announceBalance, saveLedger } from '../repositories/positions.repository.js';
import { announceRebalance, finishRebalance, startProcessing } from '../repositories/rebalances.repository.js';
import { refreshWalletStatus } from '../repositories/wallets.repository.js';

/**
 * One step of a due workflow, under the wallet lock: `created` -> `processing` (the wallet shows
 * rebalance_active), then `processing` -> `completed` (amounts move, reservations are released)
 * or `failed`. Each step is one transaction, so a crash repeats the step and nothing else.
 */
export async function advanceRebalance(
  tx: Tx,
  input: { wallet: Wallet; ledger: Ledger; row: Rebalance; now: Date; processingMs: number },
): Promise<void> {
  const { wallet, ledger, row, now } = input;
  const scope = { orgId: wallet.orgId, observedAt: now };
  if (row.status === 'created') {
    const next = await startProcessing(tx, row.id, new Date(now.getTime() + input.processingMs));
    await announceRebalance(tx, next, now);
    await refreshWalletStatus(tx, wallet, now);
    return;
  }
  releaseReservations(ledger, row.reservations);
  const status: RebalanceStatus = ledger.applyAll(movesOf(row.allocations as never)) ? 'completed' : 'failed';
  const done = await finishRebalance(tx, row.id, status, now);
  await saveLedger(tx, ledger, scope, true);
  if (status === 'completed') await announceBalance(tx, ledger, scope);
  await announceRebalance(tx, done, now);
  await refreshWalletStatus(tx, wallet, now);
}
