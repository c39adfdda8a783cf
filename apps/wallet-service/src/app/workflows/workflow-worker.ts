import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { PollingLoop } from '@service/events';
import { OutboxRelayService, SERVICE_LOGGER } from '@service/service-runtime';
import type { Logger } from 'pino';
import { WalletEnvironment } from '../environment/wallet-environment.js';
import type { WorkWaker } from '../injection.js';
import { addUnlistedProvisions, type DueWork, findDueWork } from '../repositories/due-work.repository.js';
import { WalletSql } from '../repositories/wallet-sql.js';
import { type Due, WorkflowSteps } from './workflow-steps.js';

const BATCH = 50;
/**
 * Wallets whose due steps run at once. A wallet's own steps run one after the other (they would
 * only wait on its lock); each running wallet holds one connection of the PgPoolSql pool
 * (`WALLET_PG_POOL_SIZE`, 10 by default), which the routes share. More at once leaves the routes
 * queueing for connections under write load (eight doubles allocate's p99).
 */
const WALLETS_AT_ONCE = 4;
/**
 * How often the worker looks for `creating` wallets missing from `wallet_provisions` (a scan of
 * every wallet): when it starts, and again this often, for one a replica of a release before that
 * table left while this one was already running.
 */
const UNLISTED_PROVISIONS_EVERY_MS = 10 * 60_000;

/**
 * Advances what is due: wallets to provision, sandbox deposits to settle, rebalances to move,
 * withdrawals' payout legs to run (and approvals to expire), deposit-address setups whose approval expired,
 * changes to approvers, policy or address book whose approval expired.
 * State lives in the database and each step is one transaction under the wallet lock, so any
 * replica may run any step, a crash repeats at most the step it interrupted, and a step whose
 * work another replica already did changes nothing and announces nothing.
 */
@Injectable()
export class WorkflowWorker implements OnApplicationBootstrap, BeforeApplicationShutdown, WorkWaker {
  private readonly loop: PollingLoop;
  /** When this worker last looked for creating wallets missing from `wallet_provisions` (`Date.now()`; never: -Infinity). */
  private listedProvisionsAt = -Infinity;

  constructor(
    @Inject(WalletSql) private readonly sql: WalletSql,
    @Inject(WalletEnvironment) private readonly env: WalletEnvironment,
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
    if (Date.now() - this.listedProvisionsAt >= UNLISTED_PROVISIONS_EVERY_MS) {
      const added = await addUnlistedProvisions(this.sql);
      if (added > 0) this.logger.info({ wallets: added }, 'creating wallets without a provisioning row found; queued');
      this.listedProvisionsAt = Date.now();
    }
    const due = await findDueWork(this.sql, this.env.now(), BATCH);
    const changed =
      (await this.provisionWallets(due)) +
      (await this.each(due.deposits, (item) => this.steps.settleDeposit(item))) +
      (await this.advanceRebalances(due)) +
      (await this.each(due.withdrawals, (item) => this.steps.advanceWithdrawal(item))) +
      (await this.each(due.approvals, (item) => this.steps.expireDepositAddressSetup(item))) +
      // Their `walletId` is empty: one after the other, as one wallet's.
      (await this.each(due.changes, (item) => this.steps.expireApprovalChange(item)));
    if (changed > 0) {
      this.relay.wake();
      // More may be due right behind what just moved.
      this.loop.wake();
    }
  }

  private async provisionWallets({ wallets }: DueWork): Promise<number> {
    for (const wallet of wallets) await this.steps.provisionWallet(wallet.orgId, wallet.id);
    return wallets.length;
  }

  /**
   * The due rebalance steps in rounds of one step per wallet, each round one transaction
   * ({@link WorkflowSteps.advanceRebalances}) that passes over wallets a request holds; they come
   * first in the next round. When a round could lock none, or failed, the rest go one by one as
   * other steps do ({@link each}: waiting for each lock, a failing step ending only its wallet's
   * turn), so a busy wallet still moves, the worker does not spin, and one bad step does not
   * hold up the others.
   */
  private async advanceRebalances({ rebalances: due }: Pick<DueWork, 'rebalances'>): Promise<number> {
    const queues = [...byWallet(due).values()];
    while (queues.length > 0) {
      const round = queues.map((items) => items[0] as Due);
      const passedOver = await this.steps.advanceRebalances(round, { skipLocked: true }).catch((error: unknown) => {
        this.logger.warn({ err: error, steps: round.length }, 'rebalance steps failed together; taking them one by one');
        return round;
      });
      if (passedOver.length === round.length) {
        await this.each(queues.flat(), (item) => this.steps.advanceRebalance(item));
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

  /**
   * Runs `step` on each due item: the items of one wallet one after the other, up to
   * {@link WALLETS_AT_ONCE} wallets at a time (steps are latency-bound round trips, and a wallet's
   * lock is all that orders them). Wakes the relay after each step that ran, so its events go out
   * at once rather than after the whole batch; how many there were. A failing step ends its
   * wallet's turn; the others finish, then the tick fails and the loop retries at the next poll.
   */
  private async each(due: readonly Due[], step: (due: Due) => Promise<void>): Promise<number> {
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
