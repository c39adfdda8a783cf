import type { Rebalance, Wallet } from '../../generated/prisma/client.js';
import { recordAccounting } from '../accounting/record-accounting.js';
import type { WalletChains } from '../domain/chains.js';
import { instructionsView, movesOf, releaseReservations } from '../domain/instructions.js';
import { exitRemainder } from '../domain/rebalance-plans.js';
import type { Ledger } from '../domain/ledger.js';
import type { RebalanceStatus } from '../domain/rebalance-view.js';
import { balanceUpdated, positionsUpdated, rebalanceChanged } from '../domain/wallet-events.js';
import { addLedger } from '../repositories/positions.repository.js';
import { addFinish, addFinishWithAllocations, addStartProcessing } from '../repositories/rebalances.repository.js';
import type { Running } from '../domain/wallet-status.js';
import type { Writes } from '../repositories/writes.js';
import { addStatusOf } from '../wallets/wallet-status-changes.js';

/**
 * One step of a due workflow, under the wallet lock: `created` -> `processing` (the wallet shows
 * rebalance_active), then `processing` -> `completed` (amounts move, reservations are released)
 * or `failed`. Announced: the rebalance (`rebalance.status_changed`) at each step; on finishing,
 * each changed position (`position.updated`) and, completed, the wallet's totals
 * (`balance.updated`); the wallet's status when it follows (`status_changed`). The step's writes
 * and events, and the wallet's status from what runs after it, go
 * into `writes`, which holds at most one step of a wallet (its rows are written once). Each step
 * commits with its transaction, so a crash repeats the steps it interrupted and nothing else.
 */
export function addRebalanceStep(
  writes: Writes,
  input: { wallet: Wallet; ledger: Ledger; row: Rebalance; others: Running; now: Date; processingMs: number; env: WalletChains },
): void {
  const { wallet, ledger, row, others, now } = input;
  const scope = { orgId: wallet.orgId, observedAt: now };
  if (row.status === 'created') {
    const started = addStartProcessing(writes, row, new Date(now.getTime() + input.processingMs));
    writes.addEvent(rebalanceChanged(started, now));
    addStatusOf(writes, wallet, { ...others, rebalances: true }, now);
  } else {
    releaseReservations(ledger, row.reservations);
    const reference = { type: 'rebalance', id: row.id } as const;
    const status: RebalanceStatus = ledger.applyAll(movesOf(row.allocations as never), reference) ? 'completed' : 'failed';
    const sweep = status === 'completed' && row.exitSource !== null ? exitRemainder(ledger, row.exitSource, input.env) : undefined;
    if (sweep) ledger.applyAll([sweep], reference);
    const done = sweep
      ? addFinishWithAllocations(
          writes,
          { ...row, allocations: [...(row.allocations as never[]), ...instructionsView([sweep])] as never },
          now,
        )
      : addFinish(writes, row, status, now);
    writes.addEvent(rebalanceChanged(done, now));
    for (const event of positionsUpdated(ledger, scope)) writes.addEvent(event);
    recordAccounting(writes, ledger, wallet.orgId);
    addLedger(writes, ledger);
    if (status === 'completed') writes.addEvent(balanceUpdated(ledger, scope));
    addStatusOf(writes, wallet, others, now);
  }
}
