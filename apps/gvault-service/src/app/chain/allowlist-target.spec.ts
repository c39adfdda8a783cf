import { describe, expect, it } from '@jest/globals';
import { loadConfig, serviceConfigSpec } from '@service/service-runtime';
import { type GVaultConfig, gvaultConfigSpec } from '../../config.js';
import { type AllowlistTarget, allowlistTargetFor, confirmedHead } from './allowlist-target.js';

const configOf = (env: Record<string, string>) =>
  loadConfig(
    { ...serviceConfigSpec('gvault'), ...gvaultConfigSpec },
    { DATABASE_URL: 'postgresql://u@db:5432/app', ...env },
  ) as GVaultConfig;

describe('allowlist target', () => {
  it('reads Sepolia in sandbox, at the USTB token unless configured', () => {
    const target = allowlistTargetFor(configOf({}));
    expect(target).toMatchObject({
      gVaultId: 'service-ustb-vault',
      chain: 'ethereum_sepolia',
      contractAddress: '0x39727692cF58137Bd8c401eFE87Cc8A190D62ead',
      confirmations: 12,
    });
    const local = allowlistTargetFor(configOf({ GVAULT_ALLOWLIST_ADDRESS: '0x5fbdb2315678afecb367f032d93f642f64180aa3' }));
    expect(local.contractAddress).toBe('0x5FbDB2315678afecb367f032d93F642f64180aa3');
    expect(target.client.chain.id).toBe(11155111);
  });

  it('reads Ethereum mainnet in production, at the USTB token unless configured, and needs its RPC URL', () => {
    expect(() => allowlistTargetFor(configOf({ SERVICE_ENV: 'production' }))).toThrow(/CHAIN_RPC_URL_ETHEREUM is required/);
    const target = allowlistTargetFor(configOf({ SERVICE_ENV: 'production', CHAIN_RPC_URL_ETHEREUM: 'https://rpc.example.com' }));
    expect(target).toMatchObject({ chain: 'ethereum', contractAddress: '0x43415eB6ff9DB7E26A15b704e7A3eDCe97d31C4e' });
    expect(target.client.chain.id).toBe(1);
  });

  it('refuses a cache that could outlive a block and a confirmation depth of zero', () => {
    expect(() => configOf({ GVAULT_ALLOWLIST_CACHE_TTL_MS: '12001' })).toThrow(/GVAULT_ALLOWLIST_CACHE_TTL_MS must be from 0 to 12000/);
    expect(() => configOf({ CHAIN_CONFIRMATIONS: '0' })).toThrow(/CHAIN_CONFIRMATIONS must be from 1/);
  });

  it('counts the block of a change as its first confirmation', async () => {
    const at = (head: bigint, confirmations: number) =>
      confirmedHead({ confirmations, client: { getBlockNumber: async () => head } } as unknown as AllowlistTarget);
    await expect(at(100n, 1)).resolves.toBe(100n);
    await expect(at(100n, 12)).resolves.toBe(89n);
    await expect(at(10n, 12)).resolves.toBeNull();
  });
});
