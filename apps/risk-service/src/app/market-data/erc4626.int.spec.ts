import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ANVIL_DEV_KEYS, compileSolidity, type LocalChain, startAnvil } from '@service/chain';
import { SubjectClient } from '@service/nats';
import { type InProcessService, startServiceInProcess } from '@service/service-testing';
import { type Abi, createPublicClient, createWalletClient, defineChain, http, type PublicClient, type WalletClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { riskConfigSpec } from '../../config.js';
import { AppModule } from '../app.module.js';
import { annualizedBps, Erc4626Reader } from './erc4626.reader.js';
import { MarketDataService } from './market-data.service.js';

/**
 * The onchain provider against an ERC-4626 vault deployed on an anvil of its own
 * (solidity/TestVault.sol, compiled here with solc-js): TVL, withdrawable liquidity and the APY
 * of the share price's change; then risk-service reading it as one source's provider.
 */
const SOURCES = readFileSync(new URL('../../../solidity/TestVault.sol', import.meta.url), 'utf8');
const USD = 1_000_000n;
const YEAR_MS = 365 * 24 * 3600 * 1000;

let chain: LocalChain;
let publicClient: PublicClient;
let wallet: WalletClient;
let vault: `0x${string}`;
const account = privateKeyToAccount(ANVIL_DEV_KEYS[0]);

async function deploy(name: string, args: unknown[] = []): Promise<{ address: `0x${string}`; abi: Abi }> {
  const { abi, bytecode } = compileSolidity({ 'TestVault.sol': SOURCES }, name);
  const hash = await wallet.deployContract({ abi, bytecode, args, account, chain: wallet.chain });
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  return { address: receipt.contractAddress!, abi };
}

async function send(address: `0x${string}`, abi: Abi, functionName: string, args: unknown[]): Promise<void> {
  const hash = await wallet.writeContract({ address, abi, functionName, args, account, chain: wallet.chain });
  await publicClient.waitForTransactionReceipt({ hash });
}

let vaultAbi: Abi;

beforeAll(async () => {
  chain = await startAnvil({ chainId: 31337 });
  const local = defineChain({
    id: 31337,
    name: 'anvil',
    nativeCurrency: { name: 'ETH', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [chain.rpcUrl] } },
  });
  publicClient = createPublicClient({ chain: local, transport: http(chain.rpcUrl) });
  wallet = createWalletClient({ chain: local, transport: http(chain.rpcUrl), account });
  const usd = await deploy('TestUsd');
  const deployed = await deploy('TestVault', [usd.address]);
  vault = deployed.address;
  vaultAbi = deployed.abi;
  await send(usd.address, usd.abi, 'mint', [account.address, 1_000_000n * USD]);
  await send(usd.address, usd.abi, 'approve', [vault, 1_000_000n * USD]);
  await send(vault, vaultAbi, 'deposit', [1_000_000n * USD, account.address]);
  await send(vault, vaultAbi, 'deploy', [400_000n * USD]);
}, 120_000);

afterAll(async () => {
  await chain?.stop();
});

describe('the ERC-4626 reader', () => {
  it('reads TVL and withdrawable liquidity, and the APY of the share price between readings', async () => {
    const reader = new Erc4626Reader(chain.rpcUrl, vault);
    const start = new Date('2026-11-01T00:00:00.000Z');
    expect(await reader.read(start)).toEqual({ apy_bps: null, tvl_usd: 1_000_000, available_withdrawal_liquidity_usd: 600_000 });

    // 1 % in a twelfth of a year: about 12.7 % a year compounded.
    await send(vault, vaultAbi, 'accrue', [10_000n * USD]);
    const later = await reader.read(new Date(start.getTime() + YEAR_MS / 12));
    expect(later.tvl_usd).toBe(1_010_000);
    expect(later.available_withdrawal_liquidity_usd).toBe(610_000);
    expect(later.apy_bps).toBe(annualizedBps(1_000_000n, 1_010_000n, YEAR_MS / 12 / 1000));
    expect(later.apy_bps).toBeGreaterThan(1268);
    expect(later.apy_bps).toBeLessThan(1269);

    // No change: no yield.
    expect((await reader.read(new Date(start.getTime() + YEAR_MS / 6))).apy_bps).toBe(0);
  });

  it('annualizes nothing without elapsed time or from a zero price', () => {
    expect(annualizedBps(1n, 2n, 0)).toBeNull();
    expect(annualizedBps(0n, 2n, 10)).toBeNull();
    expect(annualizedBps(100n, 100n, 10)).toBe(0);
  });
});

describe('risk-service with an onchain source', () => {
  let service: InProcessService;

  beforeAll(async () => {
    service = await startServiceInProcess({
      name: 'risk',
      module: AppModule.forRoot,
      spec: riskConfigSpec,
      env: { RISK_OBSERVATION_INTERVAL_MS: '0', RISK_ONCHAIN_VAULTS: `service-ustb-vault=${vault}`, RISK_CHAIN_RPC_URL: chain.rpcUrl },
    });
  });

  afterAll(async () => {
    await service?.stop();
  });

  it('reads that source from the vault and the others from the simulation', async () => {
    expect(await service.running.app.get(MarketDataService).readAll()).toBe(4);
    const ctx = { orgId: `org_${randomUUID()}`, role: 'member' as const, principalId: 'user', requestId: randomUUID() };
    const { data } = await new SubjectClient(service.requester).request('risk.metrics.list', { ctx });
    const bySource = new Map(data.map((entry) => [entry.yieldSourceId, entry.observations[0]]));
    expect(bySource.get('service-ustb-vault')).toMatchObject({
      source: 'onchain',
      protocol: 'superstate',
      metrics: { tvl_usd: 1_010_000, available_withdrawal_liquidity_usd: 610_000, apy_bps: null },
    });
    expect(bySource.get('service-jaaa-usdc-vault')).toMatchObject({ source: 'simulated' });
  });
});
