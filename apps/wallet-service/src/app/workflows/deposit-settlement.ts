import type { Deposit, Wallet } from '../../generated/prisma/client.js';
import { recordAccounting } from '../accounting/record-accounting.js';
import type { Ledger } from '../domain/ledger.js';
import { cashPositionId } from '../domain/positions.js';
import { planDepositAllocation } from '../domain/rebalance-plans.js';
import type { Strategy } from '../domain/strategy.js';
import type { WalletEnvironment } from '../environment/wallet-environment.js';
import { balanceUpdated, depositChanged, positionsUpdated } from '../domain/wallet-events.js';
import { createRebalance } from '../rebalances/rebalance-changes.js';
import { addCompleteDeposit } from '../repositories/deposits.repository.js';
import { addLedger } from '../repositories/positions.repository.js';
import { blockedSources } from '../repositories/risk-blocks.repository.js';
import type { WalletTx } from '../repositories/wallet-sql.js';
import { Writes } from '../repositories/writes.js';

/**
 * `processing` -> `completed`: the amount lands in the cash position of its chain and token and,
 * on an autoRebalance wallet, a rebalance takes each source's share of it. The landing in one
 * statement: the positions (`position.updated` for each), the deposit
 * (`deposit.status_changed`) and the wallet's totals (`balance.updated`); the rebalance
 * (`rebalance.status_changed`) in another.
 */
export async function settleDeposit(
  tx: WalletTx,
  input: { wallet: Wallet; deposit: Deposit; ledger: Ledger; env: WalletEnvironment; now: Date },
): Promise<void> {
  const { wallet, deposit, ledger, env, now } = input;
  const scope = { orgId: wallet.orgId, observedAt: now };
  const cashId = cashPositionId(deposit.chain, deposit.token);
  ledger.receiveDeposit(cashId, deposit.amount, {
    type: 'deposit',
    id: deposit.id,
    chain: deposit.chain,
    token: deposit.token,
    txHash: deposit.txHash,
  });
  const writes = new Writes();
  for (const event of positionsUpdated(ledger, scope)) writes.addEvent(event);
  recordAccounting(writes, ledger, wallet.orgId);
  addLedger(writes, ledger);
  const completed = addCompleteDeposit(writes, deposit, now);
  writes.addEvent(depositChanged(completed, now));
  writes.addEvent(balanceUpdated(ledger, scope));
  await writes.run(tx);
  if (!wallet.autoRebalance) return;
  // A source a risk action blocks is not bought: its share stays cash.
  const moves = planDepositAllocation(wallet.strategy as Strategy, cashId, deposit.amount, env, await blockedSources(tx, wallet.id));
  if (moves.length > 0) await createRebalance(tx, { wallet, ledger, moves, now });
}
