import { isNonzeroEvmAddress, toChecksumAddress } from '@service/evm';
import { type ConfigOf, parsers, type ServiceConfig } from '@service/service-runtime';

function optionalAddress(raw: string): `0x${string}` | null {
  if (raw === '') return null;
  if (!isNonzeroEvmAddress(raw)) throw new Error(`must be a nonzero EVM address (EIP-55 checksum when mixed case), got "${raw}"`);
  return toChecksumAddress(raw);
}

function optionalRpcUrl(raw: string): string | null {
  return raw === '' ? null : parsers.url('http:', 'https:')(raw);
}

function optionalBlock(raw: string): bigint | null {
  if (raw === '') return null;
  if (!/^(0|[1-9][0-9]*)$/.test(raw)) throw new Error(`must be a block number, got "${raw}"`);
  return BigInt(raw);
}

/** One Ethereum slot: a cached allowlist answer must never outlive the block it was read at. */
const BLOCK_TIME_MS = 12_000;

export const gvaultConfigSpec = {
  GVAULT_USTB_CONTRACT_ADDRESS: {
    description: "overrides the environment's USTB contract address (e.g. a contract on a local chain)",
    default: '',
    parse: optionalAddress,
  },
  GVAULT_USTB_ASSET_ADDRESS: {
    description: "overrides the environment's deposit asset (USDC) address",
    default: '',
    parse: optionalAddress,
  },
  CHAIN_RPC_URL_ETHEREUM: {
    description: 'JSON-RPC URL of Ethereum mainnet; required in production',
    default: '',
    parse: optionalRpcUrl,
  },
  CHAIN_RPC_URL_ETHEREUM_SEPOLIA: {
    description: 'JSON-RPC URL of Ethereum Sepolia, used in sandbox; the default is the local node of npm start',
    default: 'http://127.0.0.1:8545',
    parse: parsers.url('http:', 'https:'),
  },
  GVAULT_ALLOWLIST_ADDRESS: {
    description: "contract answering isAllowed(address) and emitting AllowlistUpdated; defaults to the environment's USTB token",
    default: '',
    parse: optionalAddress,
  },
  CHAIN_CONFIRMATIONS: {
    description: 'blocks, counting its own, a change needs before it is reported (1 = the latest block)',
    default: '12',
    parse: parsers.integer(1, 256),
  },
  CHAIN_RPC_TIMEOUT_MS: {
    description: "how long one RPC call may take before the caller gets a retryable 503; keep it below the gateway's NATS timeout",
    default: '2000',
    parse: parsers.integer(50, 60_000),
  },
  CHAIN_POLL_INTERVAL_MS: {
    description: 'how often the allowlist follower looks for newly confirmed blocks',
    default: '4000',
    parse: parsers.integer(20, 600_000),
  },
  CHAIN_START_BLOCK: {
    description: 'block the allowlist follower starts from when it has no stored position; empty: the confirmed head at first start',
    default: '',
    parse: optionalBlock,
  },
  GVAULT_ALLOWLIST_CACHE_TTL_MS: {
    description: `how long an identical allowlist read is answered from memory; 0 turns the cache off; at most ${BLOCK_TIME_MS} (one block)`,
    default: '1000',
    parse: parsers.integer(0, BLOCK_TIME_MS),
  },
};

export type GVaultConfig = ServiceConfig & ConfigOf<typeof gvaultConfigSpec>;
