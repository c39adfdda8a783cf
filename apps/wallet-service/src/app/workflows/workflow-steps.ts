import { Inject, Injectable } from '@nestjs/common';
import { policyFrom } from '../approvals/policy-in-force.js';
import { expireSetup } from '../deposit-addresses/setup-changes.js';
import { deriveDepositAddresses } from '../domain/addresses/deposit-addresses.js';
import { Ledger } from '../domain/ledger.js';
import { WalletEnvironment } from '../environment/wallet-environment.js';
import { inTransaction } from '../repositories/db.js';
import { getApproval } from '../repositories/deposit-address-approvals.repository.js';
import { getDeposit } from '../repositories/deposits.repository.js';
import { openLedger } from '../repositories/positions.repository.js';
import { PrismaService } from '../repositories/prisma.service.js';
import { WalletSql } from '../repositories/wallet-sql.js';
import { readRebalanceStep } from '../repositories/rebalances.repository.js';
import { lockWallet, setWalletStatus } from '../repositories/wallets.repository.js';
import { readPayoutStep } from '../repositories/withdrawals.repository.js';
import { settleDeposit } from './deposit-settlement.js';
import { advanceRebalance } from './rebalance-progress.js';
import { advanceWithdrawal } from './withdrawal-progress.js';

export interface Due {
  readonly id: string;
  readonly orgId: string;
  readonly walletId: string;
}

/** Each step: lock the wallet, re-read the item, act only if it is still due. */
@Injectable()
export class WorkflowSteps {
  constructor(
    @Inject(PrismaService) private readonly prisma: PrismaService,
    @Inject(WalletEnvironment) private readonly env: WalletEnvironment,
    @Inject(WalletSql) private readonly sql: WalletSql,
  ) {}

  /** `creating` -> `idle` once its deposit addresses are derived; plain pg, two round trips. */
  provisionWallet(orgId: string, walletId: string): Promise<void> {
    return this.sql.$transaction(async (tx) => {
      const wallet = await lockWallet(tx, orgId, walletId);
      if (wallet.status !== 'creating') return;
      const depositAddresses = deriveDepositAddresses(this.env.seed, wallet.id, this.env.chains);
      await setWalletStatus(tx, wallet, 'idle', new Date(), { depositAddresses });
    });
  }

  /** Plain pg: the lock, the deposit, the positions, the landing in one statement (then an autoRebalance wallet's rebalance). */
  settleDeposit(due: Due): Promise<void> {
    return this.sql.$transaction(async (tx) => {
      const wallet = await lockWallet(tx, due.orgId, due.walletId);
      const deposit = await getDeposit(tx, due.id);
      const now = new Date();
      if (deposit.status !== 'processing' || deposit.settleAt > now) return;
      const ledger = await openLedger(tx, wallet.id, this.env, now);
      await settleDeposit(tx, { wallet, deposit, ledger, env: this.env, now });
    });
  }

  /**
   * Plain pg, every allocation takes two of these steps, as many as the requests themselves: the
   * lock, the rebalance with the positions and what else runs on the wallet, every write
   * (the wallet's status among them) in one statement.
   */
  advanceRebalance(due: Due): Promise<void> {
    return this.sql.$transaction(async (tx) => {
      const wallet = await lockWallet(tx, due.orgId, due.walletId);
      const now = new Date();
      const { row, ledger, others } = await readRebalanceStep(tx, wallet.id, due.id, this.env, now);
      if (!['created', 'processing'].includes(row.status) || row.nextRunAt > now) return;
      await advanceRebalance(tx, { wallet, ledger, row, others, now, processingMs: this.env.config.WALLET_REBALANCE_PROCESSING_MS });
    });
  }

  /**
   * Plain pg, every withdrawal takes several of these steps: the lock, the withdrawal with its
   * policy, what else runs on the wallet and the positions, at most the sandbox's armed failure,
   * then every write in one statement.
   */
  advanceWithdrawal(due: Due): Promise<void> {
    return this.sql.$transaction(async (tx) => {
      const wallet = await lockWallet(tx, due.orgId, due.walletId);
      const state = await readPayoutStep(tx, due.id);
      const now = new Date();
      if (state.row.status !== 'processing' || state.row.nextRunAt > now) return;
      const ledger = Ledger.settled(wallet.id, state.positions, this.env, now);
      await advanceWithdrawal({ tx, wallet, ledger, env: this.env, now }, state, policyFrom(state.policy, this.env, wallet.orgId));
    });
  }

  /** A Stellar setup whose approvers' deadline passed without quorum fails (its activity too). */
  expireDepositAddressSetup(due: Due): Promise<void> {
    return inTransaction(this.prisma, async (tx) => {
      await lockWallet(tx, due.orgId, due.walletId);
      const row = await getApproval(tx, due.id);
      const now = new Date();
      if (row.status !== 'pending' || row.dueAt > now) return;
      await expireSetup(tx, row, now);
    });
  }
}
