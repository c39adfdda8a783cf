import type { Ledger } from '../domain/ledger.js';
import { addAccountingEvents } from '../repositories/accounting.repository.js';
import type { Writes } from '../repositories/writes.js';

/**
 * Records the accounting of what the use case did to the ledger (deposits landed, lots bought and
 * redeemed, payouts and fees, accrual settled into the positions about to be saved) as part of
 * the statement's `writes`, so the events commit with the movement. Every use case that saves a
 * ledger calls it right before `addLedger`, which refuses positions whose accounting was not taken.
 */
export function recordAccounting(writes: Writes, ledger: Ledger, orgId: string): void {
  addAccountingEvents(writes, { orgId, walletId: ledger.walletId, entries: ledger.takeAccounting() });
}
