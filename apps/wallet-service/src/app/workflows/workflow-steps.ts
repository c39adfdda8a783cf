import { Inject, Injectable } from '@nestjs/common';
import { runQueries } from '@service/sql';
import { expireChange } from '../approvals/approval-changes.js';
import { policyFrom } from '../approvals/policy-in-force.js';
import { expireSetup } from '../deposit-addresses/setup-changes.js';
import { deriveDepositAddresses } from '../domain/addresses/deposit-addresses.js';
import { walletNotFound } from '../domain/errors.js';
import { Ledger } from '../domain/ledger.js';
import { WalletEnvironment } from '../environment/wallet-environment.js';
import { getChange } from '../repositories/approval-changes.repository.js';
import { lockApprovalsSql } from '../repositories/approvals.repository.js';
import { getApproval } from '../repositories/deposit-address-approvals.repository.js';
import { getDeposit } from '../repositories/deposits.repository.js';
import { type DueItem, forgetProvision } from '../repositories/due-work.repository.js';
import { openLedger } from '../repositories/positions.repository.js';
import { WalletSql } from '../repositories/wallet-sql.js';
import { rebalanceStepsQuery } from '../repositories/rebalances.repository.js';
import { lockWallet, lockWalletQuery, lockWalletsQuery } from '../repositories/wallets.repository.js';
import { Writes } from '../repositories/writes.js';
import { payoutStepQuery } from '../repositories/withdrawals.repository.js';
import { settleDeposit } from './deposit-settlement.js';
import { setWalletStatus } from '../wallets/wallet-status-changes.js';
import { addRebalanceStep } from './rebalance-progress.js';
import { advanceWithdrawal } from './withdrawal-progress.js';

/** An item a step advances, and the wallet whose lock the step takes. */
export type Due = DueItem;

/** Each step: lock the wallet, re-read the item, act only if it is still due. */
@Injectable()
export class WorkflowSteps {
  constructor(
    @Inject(WalletEnvironment) private readonly env: WalletEnvironment,
    @Inject(WalletSql) private readonly sql: WalletSql,
  ) {}

  /**
   * `creating` -> `idle` once its deposit addresses are derived; PgPoolSql, two round trips. A
   * wallet no longer creating leaves `wallet_provisions` (a row the start-up look added while the
   * wallet was being provisioned), so the worker does not come back to it.
   */
  provisionWallet(orgId: string, walletId: string): Promise<void> {
    return this.sql.$transaction(async (tx) => {
      const wallet = await lockWallet(tx, orgId, walletId);
      if (wallet.status !== 'creating') {
        await forgetProvision(tx, walletId);
        return;
      }
      const depositAddresses = deriveDepositAddresses(this.env.seed, wallet.id, this.env.chains);
      await setWalletStatus(tx, wallet, 'idle', this.env.now(), { depositAddresses });
    });
  }

  /** PgPoolSql: the lock, the deposit, the positions, the landing in one statement (then an autoRebalance wallet's rebalance). */
  settleDeposit(due: Due): Promise<void> {
    return this.sql.$transaction(async (tx) => {
      const wallet = await lockWallet(tx, due.orgId, due.walletId);
      const deposit = await getDeposit(tx, due.id);
      const now = this.env.now();
      if (deposit.status !== 'processing' || deposit.settleAt > now) return;
      const ledger = await openLedger(tx, wallet.id, this.env, now);
      await settleDeposit(tx, { wallet, deposit, ledger, env: this.env, now });
    });
  }

  /** One rebalance step, waiting for its wallet's lock: {@link advanceRebalances} of one. */
  async advanceRebalance(due: Due): Promise<void> {
    await this.advanceRebalances([due], { skipLocked: false });
  }

  /**
   * PgPoolSql, every allocation takes two rebalance steps, as many as the requests themselves; this
   * takes the due steps of several wallets (one each) in one transaction of two round trips: BEGIN,
   * the locks and every rebalance with its wallet's positions and what else runs on the wallet;
   * then every write (the wallets' statuses among them), one prepared statement a wallet, with
   * COMMIT. (One statement of every wallet's writes had a shape of its own each time, parsed and
   * planned on every call.) Five round
   * trips a step before, each a wake-up of PostgreSQL and of this service on a machine the write
   * load keeps busy. `skipLocked`: wallets another transaction holds are not waited for; their
   * steps are returned, not taken.
   */
  async advanceRebalances(due: readonly Due[], options: { skipLocked: boolean }): Promise<Due[]> {
    if (new Set(due.map((item) => item.walletId)).size !== due.length) throw new Error('advanceRebalances takes one step per wallet');
    return this.sql.$transaction(async (tx) => {
      const now = this.env.now();
      // The reads of wallets another transaction holds are thrown away.
      const [wallets, states] = await runQueries(tx, [
        lockWalletsQuery(due, options),
        rebalanceStepsQuery(
          due.map((item) => ({ walletId: item.walletId, rebalanceId: item.id })),
          this.env,
          now,
        ),
      ]);
      const missing = due.filter((item) => !wallets.has(item.walletId));
      // Waiting, a wallet is missing only when its organization holds no such wallet.
      if (!options.skipLocked && missing[0]) throw walletNotFound(missing[0].walletId);
      const locked = due.filter((item) => wallets.has(item.walletId));
      if (locked.length === 0) return missing;
      for (const item of locked) {
        const wallet = wallets.get(item.walletId);
        const state = states.get(item.id);
        if (!wallet || !state || !['created', 'processing'].includes(state.row.status) || state.row.nextRunAt > now) continue;
        // A statement per wallet, each of the few shapes a single step has, so each is prepared
        // once per connection; they wait for the COMMIT's round trip together.
        const writes = new Writes();
        addRebalanceStep(writes, { wallet, ...state, now, processingMs: this.env.config.WALLET_REBALANCE_PROCESSING_MS, env: this.env });
        await writes.run(tx);
      }
      return missing;
    });
  }

  /**
   * PgPoolSql, every withdrawal takes several of these steps: BEGIN, the lock and the withdrawal
   * with its policy, what else runs on the wallet and the positions, in one round trip; at most
   * the sandbox's armed failure; then every write in one statement with COMMIT.
   */
  advanceWithdrawal(due: Due): Promise<void> {
    return this.sql.$transaction(async (tx) => {
      const [wallet, state] = await runQueries(tx, [lockWalletQuery(due.orgId, due.walletId), payoutStepQuery(due.id)]);
      const now = this.env.now();
      if (state.row.status !== 'processing' || state.row.nextRunAt > now) return;
      const ledger = Ledger.settled(wallet.id, state.positions, this.env, now);
      await advanceWithdrawal({ tx, wallet, ledger, env: this.env, now }, state, policyFrom(state.policy, this.env, wallet.orgId));
    });
  }

  /** PgPoolSql: a Stellar setup whose approvers' deadline passed without quorum fails (its activity too). */
  expireDepositAddressSetup(due: Due): Promise<void> {
    return this.sql.$transaction(async (tx) => {
      await lockWallet(tx, due.orgId, due.walletId);
      const row = await getApproval(tx, due.id);
      const now = this.env.now();
      if (row.status !== 'pending' || row.dueAt > now) return;
      await expireSetup(tx, row, now);
    });
  }

  /**
   * PgPoolSql, under the organization's approvals lock: a change to its approvers, policy or
   * address book whose deadline passed without quorum fails (its activity too).
   */
  expireApprovalChange(due: Due): Promise<void> {
    return this.sql.$transaction(async (tx) => {
      await lockApprovalsSql(tx, due.orgId);
      const row = await getChange(tx, due.id);
      const now = this.env.now();
      if (row.status !== 'pending' || row.dueAt > now) return;
      await expireChange(tx, row, now);
    });
  }
}
