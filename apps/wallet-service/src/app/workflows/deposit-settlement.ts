import type { Deposit, Wallet } from '../../generated/prisma/client.js';
import type { Ledger } from '../domain/ledger.js';
import { cashPositionId } from '../domain/positions.js';
import { planDepositAllocation } from '../domain/rebalance-plans.js';
import type { Strategy } from '../domain/strategy.js';
import type { WalletEnvironment } from '../environment/wallet-environment.js';
import type { Tx } from '../repositories/db.js';
import { announceDeposit, completeDeposit } from '../repositories/deposits.repository.js';
import { announceBalance, saveLedger } from '../repositories/positions.repository.js';
import { createRebalance } from '../repositories/rebalances.repository.js';

/**
 * `processing` -> `completed`: the amount lands in the cash position of its chain and token and,
 * on an autoRebalance wallet, a rebalance takes each source's share of it.
 */
export async function settleDeposit(
  tx: Tx,
  input: { wallet: Wallet; deposit: Deposit; ledger: Ledger; env: WalletEnvironment; now: Date },
): Promise<void> {
  const { wallet, deposit, ledger, env, now } = input;
  const scope = { orgId: wallet.orgId, observedAt: now };
  const cashId = cashPositionId(deposit.chain, deposit.token);
  const completed = await completeDeposit(tx, deposit.id, now);
  ledger.credit(cashId, deposit.amount);
  await saveLedger(tx, ledger, scope, true);
  await announceDeposit(tx, completed, now);
  await announceBalance(tx, ledger, scope);
  if (!wallet.autoRebalance) return;
  const moves = planDepositAllocation(wallet.strategy as Strategy, cashId, deposit.amount, env);
  if (moves.length > 0) await createRebalance(tx, { wallet, ledger, moves, now });
}
