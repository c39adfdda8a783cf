import type { Deposit, Wallet } from '../../generated/prisma/client.js';
import type { Ledger } from '../domain/ledger.js';
import { cashPositionId } from '../domain/positions.js';
import { planDepositAllocation } from '../domain/rebalance-plans.js';
import type { Strategy } from '../domain/strategy.js';
import type { WalletEnvironment } from '../environment/wallet-environment.js';
import { addCompleteDeposit } from '../repositories/deposits.repository.js';
import { addBalanceEvent, addLedger } from '../repositories/positions.repository.js';
import { createRebalance } from '../repositories/rebalances.repository.js';
import type { WalletTx } from '../repositories/wallet-sql.js';
import { Writes } from '../repositories/writes.js';

/**
 * `processing` -> `completed`: the amount lands in the cash position of its chain and token and,
 * on an autoRebalance wallet, a rebalance takes each source's share of it. The landing in one
 * statement (positions, deposit, their events), the rebalance in another.
 */
export async function settleDeposit(
  tx: WalletTx,
  input: { wallet: Wallet; deposit: Deposit; ledger: Ledger; env: WalletEnvironment; now: Date },
): Promise<void> {
  const { wallet, deposit, ledger, env, now } = input;
  const scope = { orgId: wallet.orgId, observedAt: now };
  const cashId = cashPositionId(deposit.chain, deposit.token);
  ledger.credit(cashId, deposit.amount);
  const writes = new Writes();
  addLedger(writes, ledger, scope, true);
  addCompleteDeposit(writes, deposit, now);
  addBalanceEvent(writes, ledger, scope);
  await writes.run(tx);
  if (!wallet.autoRebalance) return;
  const moves = planDepositAllocation(wallet.strategy as Strategy, cashId, deposit.amount, env);
  if (moves.length > 0) await createRebalance(tx, { wallet, ledger, moves, now });
}
