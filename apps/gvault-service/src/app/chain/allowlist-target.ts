import type { GVaultId } from '@service/contracts';
import { type Chain, createPublicClient, http, type PublicClient, type Transport } from 'viem';
import { mainnet, sepolia } from 'viem/chains';
import type { GVaultConfig } from '../../config.js';
import { catalogueFor } from '../yield-sources/catalogue.js';

/** Where the environment's gtoken allowlist is read and followed. */
export interface AllowlistTarget {
  readonly gVaultId: GVaultId;
  readonly chain: 'ethereum' | 'ethereum_sepolia';
  readonly contractAddress: `0x${string}`;
  readonly confirmations: number;
  readonly client: PublicClient<Transport, Chain>;
}

const VIEM_CHAINS = { ethereum: mainnet, ethereum_sepolia: sepolia } as const;

function rpcUrlOf(config: GVaultConfig, chain: AllowlistTarget['chain']): string {
  const variable = chain === 'ethereum' ? 'CHAIN_RPC_URL_ETHEREUM' : 'CHAIN_RPC_URL_ETHEREUM_SEPOLIA';
  const url = config[variable];
  if (!url) throw new Error(`${variable} is required when SERVICE_ENV=${config.SERVICE_ENV}`);
  return url;
}

export function allowlistTargetFor(config: GVaultConfig): AllowlistTarget {
  const [source] = catalogueFor(config);
  if (!source) throw new Error('the gtoken catalogue is empty');
  // No retries inside viem: one bounded call keeps the reply under the gateway's timeout.
  const transport = http(rpcUrlOf(config, source.chain), { timeout: config.CHAIN_RPC_TIMEOUT_MS, retryCount: 0 });
  return {
    gVaultId: source.id,
    chain: source.chain,
    // USTB itself answers `isAllowed`; a local chain runs a test allowlist at its own address.
    contractAddress: config.GVAULT_ALLOWLIST_ADDRESS ?? (source.contractAddress as `0x${string}`),
    confirmations: config.CHAIN_CONFIRMATIONS,
    client: createPublicClient({ chain: VIEM_CHAINS[source.chain], transport }),
  };
}

/**
 * The newest block with `confirmations` blocks counting itself, or null while the chain is
 * shorter than that. Reads at this block cannot show a change a reorganisation may still undo.
 */
export async function confirmedHead(target: AllowlistTarget): Promise<bigint | null> {
  const head = await target.client.getBlockNumber({ cacheTime: 0 });
  const confirmed = head - BigInt(target.confirmations - 1);
  return confirmed < 0n ? null : confirmed;
}
