import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { PollingLoop } from '@service/events';
import { OutboxRelayService, SERVICE_LOGGER } from '@service/service-runtime';
import type { Logger } from 'pino';
import { PrismaService } from '../prisma.service.js';
import { WalletEnvironment } from '../shared/wallet-environment.js';
import { WorkflowSteps } from './workflow-steps.js';

const BATCH = 50;

/**
 * Advances what is due: wallets to provision, sandbox deposits to settle, rebalances to move,
 * withdrawals' payout legs to run, deposit-address setups to approve.
 * State lives in the database and each step is one transaction under the wallet lock, so any
 * replica may run any step, a crash repeats at most the step it interrupted, and a step whose
 * work another replica already did changes nothing and announces nothing.
 */
@Injectable()
export class WorkflowWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly loop: PollingLoop;

  constructor(
    @Inject(PrismaService) private readonly prisma: PrismaService,
    @Inject(WalletEnvironment) env: WalletEnvironment,
    @Inject(WorkflowSteps) private readonly steps: WorkflowSteps,
    @Inject(OutboxRelayService) private readonly relay: OutboxRelayService,
    @Inject(SERVICE_LOGGER) logger: Logger,
  ) {
    this.loop = new PollingLoop(
      () => this.tick(),
      env.config.WALLET_WORKER_POLL_MS,
      (error) => logger.error({ err: error }, 'workflow step failed; retrying at the next poll'),
    );
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }

  /** Look for due work now rather than at the next poll (after a commit that created some). */
  kick(): void {
    this.loop.wake();
  }

  private async tick(): Promise<void> {
    const changed =
      (await this.provisionWallets()) +
      (await this.settleDeposits()) +
      (await this.advanceRebalances()) +
      (await this.advanceWithdrawals()) +
      (await this.approveDepositAddresses());
    if (changed > 0) {
      this.relay.wake();
      // More may be due right behind what just moved.
      this.loop.wake();
    }
  }

  private async provisionWallets(): Promise<number> {
    const due = await this.prisma.wallet.findMany({ where: { status: 'creating' }, select: { id: true, orgId: true }, take: BATCH });
    for (const wallet of due) await this.steps.provisionWallet(wallet.orgId, wallet.id);
    return due.length;
  }

  private async settleDeposits(): Promise<number> {
    const due = await this.prisma.deposit.findMany({
      where: { status: 'processing', settleAt: { lte: new Date() } },
      select: { id: true, orgId: true, walletId: true },
      take: BATCH,
    });
    for (const deposit of due) await this.steps.settleDeposit(deposit);
    return due.length;
  }

  private async advanceRebalances(): Promise<number> {
    const due = await this.prisma.rebalance.findMany({
      where: { status: { in: ['created', 'processing'] }, nextRunAt: { lte: new Date() } },
      select: { id: true, orgId: true, walletId: true },
      orderBy: { createdAt: 'asc' },
      take: BATCH,
    });
    for (const rebalance of due) await this.steps.advanceRebalance(rebalance);
    return due.length;
  }

  private async advanceWithdrawals(): Promise<number> {
    const due = await this.prisma.withdrawal.findMany({
      where: { status: 'processing', nextRunAt: { lte: new Date() } },
      select: { id: true, orgId: true, walletId: true },
      orderBy: { createdAt: 'asc' },
      take: BATCH,
    });
    for (const withdrawal of due) await this.steps.advanceWithdrawal(withdrawal);
    return due.length;
  }

  private async approveDepositAddresses(): Promise<number> {
    const due = await this.prisma.depositAddressApproval.findMany({
      where: { status: 'pending', dueAt: { lte: new Date() } },
      select: { id: true, orgId: true, walletId: true },
      take: BATCH,
    });
    for (const approval of due) await this.steps.approveDepositAddress(approval);
    return due.length;
  }
}
