import { counter } from '@service/metrics';
import { Inject, Injectable } from '@nestjs/common';
import type { GVaultAllowlistDto } from '@service/contracts';
import { ServiceError } from '@service/errors';
import { chainErrorLogFields, toChecksumAddress } from '@service/evm';
import { SERVICE_CONFIG, SERVICE_LOGGER } from '@service/service-runtime';
import type { Logger } from 'pino';
import type { GVaultConfig } from '../../config.js';
import { type AllowlistTarget, confirmedHead } from '../chain/allowlist-target.js';
import { ALLOWLIST_TARGET } from '../injection.js';
import { ALLOWLIST_ABI } from './allowlist-abi.js';

const cacheLookups = counter({
  name: 'gvault_allowlist_cache_lookups_total',
  help: 'Allowlist reads answered from the cache (hit) or from the chain (miss).',
  labelNames: ['result'] as const,
});
const CACHE = { hit: cacheLookups.labels('hit'), miss: cacheLookups.labels('miss') } as const;

/**
 * Answers whether an address may deposit, from the allowlist contract at a confirmed block.
 * Identical reads within the cache TTL (at most one block) share one answer, including a read
 * still in flight, so a burst of polling clients costs one pair of RPC calls.
 */
@Injectable()
export class AllowlistService {
  private readonly cache = new Map<`0x${string}`, Promise<boolean>>();
  private readonly ttlMs: number;

  constructor(
    @Inject(ALLOWLIST_TARGET) private readonly target: AllowlistTarget,
    @Inject(SERVICE_CONFIG) config: GVaultConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {
    this.ttlMs = config.GVAULT_ALLOWLIST_CACHE_TTL_MS;
  }

  /** `address` as the gateway validated it: a nonzero EVM address, EIP-55 checksummed when mixed case. */
  async check(address: string): Promise<GVaultAllowlistDto> {
    return { allowed: await this.cached(toChecksumAddress(address as `0x${string}`)) };
  }

  /** Drops a cached answer for an address whose permission has just changed onchain. */
  forget(address: `0x${string}`): void {
    this.cache.delete(toChecksumAddress(address));
  }

  private cached(address: `0x${string}`): Promise<boolean> {
    const hit = this.cache.get(address);
    CACHE[hit ? 'hit' : 'miss'].inc();
    if (hit) return hit;
    const answer = this.readConfirmed(address);
    if (this.ttlMs === 0) return answer;
    this.cache.set(address, answer);
    const evict = () => {
      if (this.cache.get(address) === answer) this.cache.delete(address);
    };
    setTimeout(evict, this.ttlMs).unref();
    answer.catch(evict);
    return answer;
  }

  private async readConfirmed(address: `0x${string}`): Promise<boolean> {
    const { client, contractAddress } = this.target;
    try {
      const blockNumber = await confirmedHead(this.target);
      if (blockNumber === null) throw new Error('the chain has no confirmed block yet');
      return await client.readContract({
        address: contractAddress,
        abi: ALLOWLIST_ABI,
        functionName: 'isAllowed',
        args: [address],
        blockNumber,
      });
    } catch (error) {
      this.logger.warn({ ...chainErrorLogFields(error), chain: this.target.chain }, 'allowlist read failed');
      throw new ServiceError('service_temporarily_unavailable', 'The chain could not be read. Retry shortly.');
    }
  }
}
