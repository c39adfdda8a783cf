import { chainErrorLogFields } from '@service/evm';
import { counter } from '@service/metrics';
import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { SERVICE_CONFIG, SERVICE_LOGGER } from '@service/service-runtime';
import type { Logger } from 'pino';
import type { Address, Hex } from 'viem';
import type { MicroVaultConfig } from '../../config.js';
import type { Task } from '../../generated/prisma/client.js';
import { ChainClient } from '../chain/chain.client.js';
import { chainErrorMessage, isChainUnavailable } from '../chain/chain-errors.js';
import { SignerLeaseRepository } from '../repositories/signer-lease.repository.js';
import { TasksRepository, type TaskWithVault } from '../repositories/tasks.repository.js';
import { vaultCallOf } from '../tasks/task-calls.js';
import type { TaskRunner } from '../tasks/task-runner.js';
import type { MicroVaultTaskKind } from '@service/contracts';

const chainRpcErrors = counter({
  name: 'microvault_chain_rpc_errors_total',
  help: 'Chain RPC calls of the task worker that failed: the node unreachable (the round ends) or the call refused (the task fails).',
  labelNames: ['kind'] as const,
});
const CHAIN_RPC_ERRORS = { unavailable: chainRpcErrors.labels('unavailable'), call_failed: chainRpcErrors.labels('call_failed') } as const;

/** Thrown to end a round when the node is unreachable; the next round retries. */
class ChainUnavailable extends Error {}

const BATCH = 20;

/**
 * Moves tasks through submitted -> broadcast -> confirmed | failed, one round at a time, only in
 * the replica holding the signer lease. Each transaction is signed, then stored, then sent: a
 * crash at any point leaves either nothing (sign again) or the stored bytes, which the next round
 * (in this or a restarted process) re-sends unchanged, so a task never gets a second transaction.
 * New transactions are signed only once every stored one was accepted by the node, so a nonce
 * is never handed out twice.
 */
@Injectable()
export class TaskWorker implements TaskRunner, OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> = Promise.resolve();
  private pendingWake = false;
  private stopped = false;
  private leader = false;

  constructor(
    private readonly tasks: TasksRepository,
    private readonly chain: ChainClient,
    private readonly lease: SignerLeaseRepository,
    @Inject(SERVICE_CONFIG) private readonly config: MicroVaultConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    if (this.chain.canSign) return this.wake();
    this.stopped = true;
    this.logger.warn('MICROVAULT_OPERATOR_KEY is not set: vault changes are refused and no task is processed');
  }

  /** Runs a round soon (after a new task) instead of waiting for the interval. */
  wake(): void {
    if (this.stopped || this.pendingWake) return;
    this.pendingWake = true;
    clearTimeout(this.timer);
    this.round = this.round.then(() => this.runRound());
  }

  /**
   * Runs `work` with the operator key to itself: inside this process no round runs meanwhile, and
   * across replicas this one holds the signer lease (waiting for it up to one lease period).
   */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const result = this.round.then(async () => {
      await this.waitForLease();
      return work();
    });
    this.round = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.round;
    if (this.leader) await this.lease.release().catch(() => undefined);
  }

  private async runRound(): Promise<void> {
    this.pendingWake = false;
    try {
      if (await this.takeLease()) await this.advance();
    } catch (error) {
      if (!(error instanceof ChainUnavailable)) this.logger.error(chainErrorLogFields(error), 'task worker round failed');
    } finally {
      clearTimeout(this.timer);
      if (!this.stopped) this.timer = setTimeout(() => this.wake(), this.config.MICROVAULT_WORKER_INTERVAL_MS);
    }
  }

  private async takeLease(): Promise<boolean> {
    const held = await this.lease.acquire();
    // Another replica may have signed while this one did not hold the lease.
    if (held && !this.leader) this.chain.resetNonces();
    this.leader = held;
    return held;
  }

  private async waitForLease(): Promise<void> {
    const deadline = Date.now() + this.config.MICROVAULT_SIGNER_LEASE_MS * 2;
    while (!(await this.takeLease())) {
      if (Date.now() > deadline) throw new ChainUnavailable('another replica holds the operator key');
      await new Promise((resolve) => setTimeout(resolve, Math.min(this.config.MICROVAULT_SIGNER_LEASE_MS / 4, 500)));
    }
  }

  private async advance(): Promise<void> {
    const stored = await this.tasks.withStoredTransaction();
    for (const task of stored) await this.settle(task);
    if ((await this.tasks.countUnsent()) > 0) return;
    const fresh = await this.tasks.unsigned(BATCH);
    for (const task of fresh) await this.submit(task);
  }

  /** Simulate (a revert fails the task without spending gas), sign, store, send. */
  private async submit(task: TaskWithVault): Promise<void> {
    const vault = task.vault.address as Address;
    const call = vaultCallOf(task.kind as MicroVaultTaskKind, task.input);
    const simulated = await this.attempt(() => this.chain.simulate(vault, call));
    if (!simulated.ok) return this.fail(task, simulated.error);
    // Renewed right before signing, so the lease cannot have lapsed during a slow simulation.
    if (!(await this.lease.acquire())) return;
    const signed = await this.attempt(() => this.chain.sign(vault, call));
    if (!signed.ok) return this.fail(task, signed.error);
    await this.settle(await this.tasks.storeSigned(task.id, signed.value));
  }

  /** Brings a stored transaction's task in line with the chain, re-sending the bytes if the node lacks them. */
  private async settle(task: TaskWithVault): Promise<void> {
    const hash = task.txHash as Hex;
    const receipt = await this.onChain(() => this.chain.receipt(hash));
    if (receipt) {
      if ((await this.onChain(() => this.chain.confirmationsOf(receipt))) < this.chain.requiredConfirmations) {
        return this.markBroadcast(task);
      }
      if (receipt.status === 'success') return this.setStatus(task, 'confirmed', null);
      return this.setStatus(task, 'failed', 'transaction reverted onchain');
    }
    if (await this.onChain(() => this.chain.knows(hash))) return this.markBroadcast(task);
    const sent = await this.attempt(() => this.chain.broadcast(task.signedTx as Hex));
    if (sent.ok || (await this.onChain(() => this.chain.knows(hash)))) return this.markBroadcast(task);
    // The node refused these exact bytes for good (e.g. their nonce was used): nothing was spent.
    this.chain.resetNonces();
    return this.fail(task, sent.error);
  }

  /** Runs a chain call; an unreachable node ends the round, any other error is returned for the task. */
  private async attempt<T>(call: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: string }> {
    try {
      return { ok: true, value: await call() };
    } catch (error) {
      const unavailable = isChainUnavailable(error);
      CHAIN_RPC_ERRORS[unavailable ? 'unavailable' : 'call_failed'].inc();
      if (unavailable) throw new ChainUnavailable(chainErrorMessage(error));
      return { ok: false, error: chainErrorMessage(error) };
    }
  }

  private async onChain<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      CHAIN_RPC_ERRORS.unavailable.inc();
      throw new ChainUnavailable(chainErrorMessage(error));
    }
  }

  private async markBroadcast(task: Task): Promise<void> {
    if (task.status !== 'broadcast') await this.setStatus(task, 'broadcast', null);
  }

  private fail(task: Task, error: string): Promise<void> {
    this.logger.warn({ taskId: task.id, error }, 'task failed');
    return this.setStatus(task, 'failed', error);
  }

  private async setStatus(task: Task, status: string, error: string | null): Promise<void> {
    await this.tasks.setStatus(task.id, status, error);
    this.logger.info({ taskId: task.id, status, txHash: task.txHash }, 'task status changed');
  }
}
