import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { ALL_ORGANIZATIONS } from '@service/contracts';
import { PollingLoop } from '@service/events';
import { chainErrorLogFields, toChecksumAddress } from '@service/evm';
import { OutboxRelayService, SERVICE_CONFIG, SERVICE_LOGGER } from '@service/service-runtime';
import type { Logger } from 'pino';
import type { GVaultConfig } from '../../config.js';
import { type AllowlistTarget, confirmedHead } from '../chain/allowlist-target.js';
import { ALLOWLIST_TARGET } from '../injection.js';
import { AllowlistChangesRepository, type AllowlistUpdatedEvent } from '../repositories/allowlist-changes.repository.js';
import { ALLOWLIST_UPDATED_EVENT } from './allowlist-abi.js';
import { AllowlistService } from './allowlist.service.js';

/** Many RPC providers refuse `eth_getLogs` over wider ranges. */
const MAX_BLOCK_RANGE = 1_000n;

interface AllowlistChangeLog {
  transactionHash: `0x${string}`;
  logIndex: number;
  blockNumber: bigint;
  args: { account: `0x${string}`; allowed: boolean };
}

/**
 * Follows the allowlist contract's `AllowlistUpdated` logs up to the confirmed head and turns each
 * into a `gvault.allowlist.updated` event through the outbox. The position is stored in the same
 * transaction as the events, so a restart resumes where it stopped; the key (txHash, logIndex)
 * keeps a log read twice (a crash before the commit, two replicas) from emitting twice.
 */
@Injectable()
export class AllowlistFollower implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly loop: PollingLoop;
  private readonly cursorId: string;

  constructor(
    @Inject(ALLOWLIST_TARGET) private readonly target: AllowlistTarget,
    @Inject(SERVICE_CONFIG) private readonly config: GVaultConfig,
    @Inject(SERVICE_LOGGER) logger: Logger,
    private readonly changes: AllowlistChangesRepository,
    private readonly relay: OutboxRelayService,
    private readonly allowlist: AllowlistService,
  ) {
    this.cursorId = `${target.chain}:${target.contractAddress}`;
    this.loop = new PollingLoop(
      () => this.catchUp(),
      config.CHAIN_POLL_INTERVAL_MS,
      (error) =>
        logger.warn({ ...chainErrorLogFields(error), chain: target.chain }, 'allowlist follower could not read the chain; will retry'),
    );
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  /** Stops polling and lets the range in flight commit, so shutdown leaves a consistent position. */
  beforeApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }

  private async catchUp(): Promise<void> {
    const head = await confirmedHead(this.target);
    if (head === null) return;
    let from = await this.nextBlock(head);
    while (from <= head && !this.loop.stopped) {
      const to = from + MAX_BLOCK_RANGE - 1n < head ? from + MAX_BLOCK_RANGE - 1n : head;
      const logs = await this.target.client.getLogs({
        address: this.target.contractAddress,
        event: ALLOWLIST_UPDATED_EVENT,
        fromBlock: from,
        toBlock: to,
        strict: true,
      });
      await this.apply(logs, to);
      from = to + 1n;
    }
  }

  /** First block not yet applied. Without a stored position, history before the first start is not news. */
  private async nextBlock(confirmedHeadBlock: bigint): Promise<bigint> {
    const lastBlock = await this.changes.lastBlock(this.cursorId);
    if (lastBlock !== null) return lastBlock + 1n;
    if (this.config.CHAIN_START_BLOCK !== null) return this.config.CHAIN_START_BLOCK;
    await this.changes.startAt(this.cursorId, confirmedHeadBlock);
    return confirmedHeadBlock + 1n;
  }

  private async apply(logs: AllowlistChangeLog[], lastBlock: bigint): Promise<void> {
    const entries = logs.map((log) => {
      const address = toChecksumAddress(log.args.account);
      const row = {
        txHash: log.transactionHash,
        logIndex: log.logIndex,
        chain: this.target.chain,
        contractAddress: this.target.contractAddress,
        address,
        allowed: log.args.allowed,
        blockNumber: log.blockNumber,
      };
      return { row, event: this.allowlistUpdated(log, address) };
    });
    const changed = await this.changes.applyRange(this.cursorId, entries, lastBlock);
    if (changed.length === 0) return;
    this.relay.wake();
    for (const address of changed) this.allowlist.forget(address);
  }

  /** What a change announces: `gvault.allowlist.updated`, to every organization. */
  private allowlistUpdated(log: AllowlistChangeLog, address: `0x${string}`): AllowlistUpdatedEvent {
    return {
      type: 'gvault.allowlist.updated',
      orgId: ALL_ORGANIZATIONS,
      payload: {
        gVaultId: this.target.gVaultId,
        chain: this.target.chain,
        address,
        allowed: log.args.allowed,
        blockNumber: log.blockNumber.toString(),
        txHash: log.transactionHash,
      },
    };
  }
}
