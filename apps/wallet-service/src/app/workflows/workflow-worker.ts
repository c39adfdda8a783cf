import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { PollingLoop } from '@service/events';
import { OutboxRelayService, SERVICE_LOGGER } from '@service/service-runtime';
import type { Logger } from 'pino';
import { WalletEnvironment } from '../environment/wallet-environment.js';
import type { WorkWaker } from '../injection.js';
import { findDueApprovals } from '../repositories/deposit-address-approvals.repository.js';
import { findDueDeposits } from '../repositories/deposits.repository.js';
import { PrismaService } from '../repositories/prisma.service.js';
import { findDueRebalances } from '../repositories/rebalances.repository.js';
import { findCreatingWallets } from '../repositories/wallets.repository.js';
import { findDueWithdrawals } from '../repositories/withdrawals.repository.js';
import { type Due, WorkflowSteps } from './workflow-steps.js';

const BATCH = 50;
/**
 * Wallets whose due steps run at once. A wallet's own steps run one after the other (they would
 * only wait on its lock); each running wallet holds one connection of the plain-pg pool
 * (`WALLET_PG_POOL_SIZE`, 10 by default), which the routes share.
 */
const WALLETS_AT_ONCE = 4;

/**
 * Advances what is due: wallets to provision, sandbox deposits to settle, rebalances to move,
 * withdrawals' payout legs to run (and approvals to expire), deposit-address setups whose approval expired.
 * State lives in the database and each step is one transaction under the wallet lock, so any
 * replica may run any step, a crash repeats at most the step it interrupted, and a step whose
 * work another replica already did changes nothing and announces nothing.
 */
@Injectable()
export class WorkflowWorker implements OnApplicationBootstrap, BeforeApplicationShutdown, WorkWaker {
  private readonly loop: PollingLoop;

  constructor(
    @Inject(PrismaService) private readonly prisma: PrismaService,
    @Inject(WalletEnvironment) env: WalletEnvironment,
    @Inject(WorkflowSteps) private readonly steps: WorkflowSteps,
    @Inject(OutboxRelayService) private readonly relay: OutboxRelayService,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
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
      (await this.expireDepositAddressSetups());
    if (changed > 0) {
      this.relay.wake();
      // More may be due right behind what just moved.
      this.loop.wake();
    }
  }

  private async provisionWallets(): Promise<number> {
    const due = await findCreatingWallets(this.prisma, BATCH);
    for (const wallet of due) await this.steps.provisionWallet(wallet.orgId, wallet.id);
    return due.length;
  }

  private settleDeposits(): Promise<number> {
    return this.each(findDueDeposits(this.prisma, new Date(), BATCH), (due) => this.steps.settleDeposit(due));
  }

  /**
   * The due rebalance steps in rounds of one step per wallet, each round one transaction
   * ({@link WorkflowSteps.advanceRebalances}) that passes over wallets a request holds; they come
   * first in the next round. When a round could lock none, or failed, the rest go one by one as
   * other steps do ({@link each}: waiting for each lock, a failing step ending only its wallet's
   * turn), so a busy wallet still moves, the worker does not spin, and one bad step does not
   * hold up the others.
   */
  private async advanceRebalances(): Promise<number> {
    const due = await findDueRebalances(this.prisma, new Date(), BATCH);
    const queues = [...byWallet(due).values()];
    while (queues.length > 0) {
      const round = queues.map((items) => items[0] as Due);
      const passedOver = await this.steps.advanceRebalances(round, { skipLocked: true }).catch((error: unknown) => {
        this.logger.warn({ err: error, steps: round.length }, 'rebalance steps failed together; taking them one by one');
        return round;
      });
      if (passedOver.length === round.length) {
        await this.each(Promise.resolve(queues.flat()), (item) => this.steps.advanceRebalance(item));
        break;
      }
      this.relay.wake();
      const waiting = new Set(passedOver.map((item) => item.id));
      for (let index = queues.length - 1; index >= 0; index -= 1) {
        const items = queues[index] as Due[];
        if (!waiting.has((items[0] as Due).id)) items.shift();
        if (items.length === 0) queues.splice(index, 1);
      }
    }
    return due.length;
  }

  private advanceWithdrawals(): Promise<number> {
    return this.each(findDueWithdrawals(this.prisma, new Date(), BATCH), (due) => this.steps.advanceWithdrawal(due));
  }

  private expireDepositAddressSetups(): Promise<number> {
    return this.each(findDueApprovals(this.prisma, new Date(), BATCH), (due) => this.steps.expireDepositAddressSetup(due));
  }

  /**
   * Runs `step` on each due item: the items of one wallet one after the other, up to
   * {@link WALLETS_AT_ONCE} wallets at a time (steps are latency-bound round trips, and a wallet's
   * lock is all that orders them). Wakes the relay after each step that ran, so its events go out
   * at once rather than after the whole batch; how many there were. A failing step ends its
   * wallet's turn; the others finish, then the tick fails and the loop retries at the next poll.
   */
  private async each(found: Promise<Due[]>, step: (due: Due) => Promise<void>): Promise<number> {
    const due = await found;
    const wallets = [...byWallet(due).values()];
    const runner = async () => {
      for (let items = wallets.shift(); items; items = wallets.shift()) {
        for (const item of items) {
          await step(item);
          this.relay.wake();
        }
      }
    };
    const outcomes = await Promise.allSettled(Array.from({ length: Math.min(WALLETS_AT_ONCE, wallets.length) }, runner));
    const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (failed) throw failed.reason;
    return due.length;
  }
}

/** Due items by wallet, each wallet's in the order found. */
function byWallet(due: readonly Due[]): Map<string, Due[]> {
  const wallets = new Map<string, Due[]>();
  for (const item of due) {
    const items = wallets.get(item.walletId);
    if (items) items.push(item);
    else wallets.set(item.walletId, [item]);
  }
  return wallets;
}
