import { describe, expect, it } from '@jest/globals';
import { isNonzeroEvmAddress } from '@service/evm';
import type { GVaultConfig } from '../../config.js';
import { catalogueFor } from './catalogue.js';

const config = (overrides: Partial<GVaultConfig>) =>
  ({ SERVICE_ENV: 'sandbox', GVAULT_USTB_CONTRACT_ADDRESS: null, GVAULT_USTB_ASSET_ADDRESS: null, ...overrides }) as GVaultConfig;

describe('gtoken catalogue', () => {
  it('lists USTB on Sepolia in sandbox and on Ethereum in production, with exactly the interface fields', () => {
    const [sandbox] = catalogueFor(config({}));
    const [production] = catalogueFor(config({ SERVICE_ENV: 'production' }));
    expect(sandbox?.chain).toBe('ethereum_sepolia');
    expect(production?.chain).toBe('ethereum');
    for (const source of [sandbox, production]) {
      expect(Object.keys(source ?? {}).sort()).toEqual(['asset', 'chain', 'contractAddress', 'id', 'interface', 'name']);
      expect(Object.keys(source?.asset ?? {}).sort()).toEqual(['contractAddress', 'decimals', 'symbol']);
      expect(source?.id).toBe('service-ustb-vault');
      expect(source?.interface).toBe('service_ustb_v1');
      expect(isNonzeroEvmAddress(source?.contractAddress)).toBe(true);
      expect(isNonzeroEvmAddress(source?.asset.contractAddress)).toBe(true);
    }
  });

  it('checksums configured overrides', () => {
    const [source] = catalogueFor(config({ GVAULT_USTB_CONTRACT_ADDRESS: '0x52908400098527886e0f7030069857d2e4169ee7' as `0x${string}` }));
    expect(source?.contractAddress).toBe('0x52908400098527886E0F7030069857D2E4169EE7');
  });
});
