import { readFileSync } from 'node:fs';
import { ANVIL_DEV_KEYS, compileSolidity, type LocalChain, startAnvil } from '@service/chain';
import { type Abi, createPublicClient, createWalletClient, getAddress, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { sepolia } from 'viem/chains';
import { formatAbiItem } from 'viem/utils';
import { ALLOWLIST_ABI } from '../src/app/allowlist/allowlist-abi.js';

/** The test allowlist's ABI, typed for viem: the service's interface plus the owner's setter. */
export const TEST_ALLOWLIST_ABI = [
  ...ALLOWLIST_ABI,
  {
    type: 'function',
    name: 'setAllowed',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'account', type: 'address' },
      { name: 'value', type: 'bool' },
    ],
    outputs: [],
  },
] as const;

export interface TestAllowlistArtifact {
  readonly abi: typeof TEST_ALLOWLIST_ABI;
  readonly bytecode: `0x${string}`;
}

/** Owner of the contracts deployed here: anvil's first public dev key. */
export const TEST_ALLOWLIST_OWNER_KEY = ANVIL_DEV_KEYS[0];

/**
 * Compiles TestAllowlist.sol with solc-js and refuses an ABI that lost an item the typed
 * {@link TEST_ALLOWLIST_ABI} declares, so the typed artifact cannot drift from the source.
 */
export function compileTestAllowlist(): TestAllowlistArtifact {
  const source = readFileSync(new URL('./TestAllowlist.sol', import.meta.url), 'utf8');
  const compiled = compileSolidity({ 'TestAllowlist.sol': source }, 'TestAllowlist');
  const signatures = new Set(
    (compiled.abi as Abi).flatMap((item) => (item.type === 'function' || item.type === 'event' ? [formatAbiItem(item)] : [])),
  );
  const missing = TEST_ALLOWLIST_ABI.map((item) => formatAbiItem(item)).filter((signature) => !signatures.has(signature));
  if (missing.length > 0) throw new Error(`TestAllowlist.sol no longer declares: ${missing.join(', ')}`);
  return { abi: TEST_ALLOWLIST_ABI, bytecode: compiled.bytecode };
}

/** Deploys a fresh test allowlist owned by {@link TEST_ALLOWLIST_OWNER_KEY}; resolves to its EIP-55 address. */
export async function deployTestAllowlist(rpcUrl: string): Promise<`0x${string}`> {
  const { abi, bytecode } = compileTestAllowlist();
  const transport = http(rpcUrl, { retryCount: 0 });
  const wallet = createWalletClient({ chain: sepolia, transport, account: privateKeyToAccount(TEST_ALLOWLIST_OWNER_KEY) });
  const hash = await wallet.deployContract({ abi, bytecode });
  const receipt = await createPublicClient({ chain: sepolia, transport }).waitForTransactionReceipt({ hash, pollingInterval: 50 });
  if (!receipt.contractAddress) throw new Error('the test allowlist deployment created no contract');
  return getAddress(receipt.contractAddress);
}

export interface LocalAllowlistChain {
  readonly chain: LocalChain;
  readonly allowlistAddress: `0x${string}`;
  /** What gvault-service needs to read and follow this allowlist in sandbox. */
  readonly env: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * A local anvil node (Sepolia's chain id) with the test allowlist deployed: what `npm start` and
 * the end-to-end tests run the sandbox against instead of the real Sepolia.
 */
export async function startLocalAllowlistChain(options: { port?: number; blockTimeSeconds?: number } = {}): Promise<LocalAllowlistChain> {
  const chain = await startAnvil(options);
  try {
    const allowlistAddress = await deployTestAllowlist(chain.rpcUrl);
    return {
      chain,
      allowlistAddress,
      env: { CHAIN_RPC_URL_ETHEREUM_SEPOLIA: chain.rpcUrl, GVAULT_ALLOWLIST_ADDRESS: allowlistAddress },
      stop: () => chain.stop(),
    };
  } catch (error) {
    await chain.stop();
    throw error;
  }
}
