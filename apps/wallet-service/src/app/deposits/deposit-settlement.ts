import type { Deposit, Wallet } from '../../generated/prisma/client.js';
import { planDepositAllocation } from '../rebalances/plans.js';
import { createRebalance } from '../rebalances/rebalance-workflow.js';
import type { Tx } from '../shared/db.js';
import { emitWalletEvent } from '../shared/events.js';
import type { Ledger } from '../shared/ledger.js';
import { cashPositionId } from '../shared/positions.js';
import type { WalletEnvironment } from '../shared/wallet-environment.js';
import type { Strategy } from '../wallets/strategy.js';
import { depositView } from './deposit-view.js';

/**
 * `processing` -> `completed`: the amount lands in the cash position of its chain and token and,
 * on an autoRebalance wallet, a rebalance takes each source's share of it.
 */
export async function settleDeposit(
  tx: Tx,
  input: { wallet: Wallet; deposit: Deposit; ledger: Ledger; env: WalletEnvironment; now: Date },
): Promise<void> {
  const { wallet, deposit, ledger, env, now } = input;
  const scope = { orgId: wallet.orgId, walletId: wallet.id, observedAt: now };
  const cashId = cashPositionId(deposit.chain, deposit.token);
  const completed = await tx.deposit.update({ where: { id: deposit.id }, data: { status: 'completed', completedAt: now } });
  ledger.credit(cashId, deposit.amount);
  await ledger.save(scope, true);
  await emitWalletEvent(tx, scope, 'portfolio_wallet.deposit.status_changed', { deposit: depositView(completed) });
  await ledger.announceBalance(scope);
  if (!wallet.autoRebalance) return;
  const moves = planDepositAllocation(wallet.strategy as Strategy, cashId, deposit.amount, env);
  if (moves.length > 0) await createRebalance(tx, { wallet, ledger, moves, now });
}
