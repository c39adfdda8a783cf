import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createPublicClient, createWalletClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { sepolia } from 'viem/chains';
import { ANVIL_DEV_KEYS, compileSolidity, type LocalChain, SEPOLIA_CHAIN_ID, startAnvil } from './index.js';

const COUNTER = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
contract Counter {
  uint256 public count;
  event Incremented(uint256 count);
  function increment() external { count += 1; emit Incremented(count); }
}`;

let chain: LocalChain;

beforeAll(async () => {
  chain = await startAnvil();
});

afterAll(async () => {
  await chain?.stop();
});

describe('local chain', () => {
  it('answers as Sepolia, and runs a contract compiled with solc-js', async () => {
    const transport = http(chain.rpcUrl, { retryCount: 0 });
    const client = createPublicClient({ chain: sepolia, transport });
    expect(await client.getChainId()).toBe(SEPOLIA_CHAIN_ID);

    const { abi, bytecode } = compileSolidity({ 'Counter.sol': COUNTER }, 'Counter');
    const wallet = createWalletClient({ chain: sepolia, transport, account: privateKeyToAccount(ANVIL_DEV_KEYS[0]) });
    const deployment = await wallet.deployContract({ abi, bytecode });
    const { contractAddress } = await client.waitForTransactionReceipt({ hash: deployment });
    const address = contractAddress as `0x${string}`;
    await client.waitForTransactionReceipt({ hash: await wallet.writeContract({ address, abi, functionName: 'increment' }) });
    expect(await client.readContract({ address, abi, functionName: 'count' })).toBe(1n);
  });

  it('reports compiler errors', () => {
    expect(() => compileSolidity({ 'Bad.sol': 'contract {' }, 'Bad')).toThrow(/Solidity compilation failed/);
  });
});
