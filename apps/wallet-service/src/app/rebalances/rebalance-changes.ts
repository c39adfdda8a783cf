import type { Rebalance } from '../../generated/prisma/client.js';
import { rebalanceChanged } from '../domain/wallet-events.js';
import { recordAccounting } from '../accounting/record-accounting.js';
import { addLedger } from '../repositories/positions.repository.js';
import { addRebalance, type NewRebalance } from '../repositories/rebalances.repository.js';
import type { WalletTx } from '../repositories/wallet-sql.js';
import { Writes } from '../repositories/writes.js';

/**
 * A rebalance in `created` holding what its sources give up, announced with
 * `portfolio_wallet.rebalance.status_changed`, as part of the statement's `writes`; the row.
 */
export function addNewRebalance(writes: Writes, input: NewRebalance): Rebalance {
  const row = addRebalance(writes, input);
  // The held positions, with the accrual settled into them.
  recordAccounting(writes, input.ledger, input.wallet.orgId);
  addLedger(writes, input.ledger);
  writes.addEvent(rebalanceChanged(row, input.now));
  return row;
}

/** {@link addNewRebalance} in a statement of its own (the row, the held positions and the event: one round trip). */
export async function createRebalance(tx: WalletTx, input: NewRebalance): Promise<Rebalance> {
  const writes = new Writes();
  const row = addNewRebalance(writes, input);
  await writes.run(tx);
  return row;
}
