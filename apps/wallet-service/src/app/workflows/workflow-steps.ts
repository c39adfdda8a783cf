import { Inject, Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service.js';
import { deriveDepositAddresses } from '../addresses/deposit-addresses.js';
import { approveSetup } from '../addresses/deposit-address-setup.js';
import { settleDeposit } from '../deposits/deposit-settlement.js';
import { advanceRebalance } from '../rebalances/rebalance-workflow.js';
import { Ledger } from '../shared/ledger.js';
import { WalletEnvironment } from '../shared/wallet-environment.js';
import { lockWallet } from '../shared/wallet-lock.js';
import { setWalletStatus } from '../shared/wallet-status.js';
import { policyOf } from '../withdrawals/policy.js';
import { advanceWithdrawal } from '../withdrawals/withdrawal-workflow.js';

interface Due {
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
  ) {}

  /** `creating` -> `idle` once its deposit addresses are derived. */
  provisionWallet(orgId: string, walletId: string): Promise<void> {
    return this.prisma.$transaction(async (tx) => {
      const wallet = await lockWallet(tx, orgId, walletId);
      if (wallet.status !== 'creating') return;
      const depositAddresses = deriveDepositAddresses(this.env.seed, wallet.id, this.env.chains);
      await setWalletStatus(tx, wallet, 'idle', new Date(), { depositAddresses });
    });
  }

  settleDeposit(due: Due): Promise<void> {
    return this.prisma.$transaction(async (tx) => {
      const wallet = await lockWallet(tx, due.orgId, due.walletId);
      const deposit = await tx.deposit.findUniqueOrThrow({ where: { id: due.id } });
      const now = new Date();
      if (deposit.status !== 'processing' || deposit.settleAt > now) return;
      const ledger = await Ledger.open(tx, wallet.id, this.env.catalogue, this.env.config, now);
      await settleDeposit(tx, { wallet, deposit, ledger, env: this.env, now });
    });
  }

  advanceRebalance(due: Due): Promise<void> {
    return this.prisma.$transaction(async (tx) => {
      const wallet = await lockWallet(tx, due.orgId, due.walletId);
      const row = await tx.rebalance.findUniqueOrThrow({ where: { id: due.id } });
      const now = new Date();
      if (!['created', 'processing'].includes(row.status) || row.nextRunAt > now) return;
      const ledger = await Ledger.open(tx, wallet.id, this.env.catalogue, this.env.config, now);
      await advanceRebalance(tx, { wallet, ledger, row, now, processingMs: this.env.config.WALLET_REBALANCE_PROCESSING_MS });
    });
  }

  advanceWithdrawal(due: Due): Promise<void> {
    return this.prisma.$transaction(async (tx) => {
      const wallet = await lockWallet(tx, due.orgId, due.walletId);
      const row = await tx.withdrawal.findUniqueOrThrow({ where: { id: due.id } });
      const now = new Date();
      if (row.status !== 'processing' || row.nextRunAt > now) return;
      const ledger = await Ledger.open(tx, wallet.id, this.env.catalogue, this.env.config, now);
      const policy = policyOf(this.env.config.WALLET_WITHDRAWAL_POLICIES, wallet.orgId, this.env.sandbox);
      await advanceWithdrawal({ tx, wallet, ledger, env: this.env, now }, row, policy.requireApproval);
    });
  }

  approveDepositAddress(due: Due): Promise<void> {
    return this.prisma.$transaction(async (tx) => {
      const wallet = await lockWallet(tx, due.orgId, due.walletId);
      const row = await tx.depositAddressApproval.findUniqueOrThrow({ where: { id: due.id } });
      const now = new Date();
      if (row.status !== 'pending' || row.dueAt > now) return;
      await approveSetup(tx, { wallet, row, seed: this.env.seed, now });
    });
  }
}
