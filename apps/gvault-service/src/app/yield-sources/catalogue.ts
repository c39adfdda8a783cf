import type { GVaultYieldSourceDto } from '@service/contracts';
import { toChecksumAddress } from '@service/evm';
import type { GVaultConfig } from '../../config.js';

/**
 * The gtoken catalogue per environment: Superstate's USTB token proxy and Circle's USDC on
 * Ethereum mainnet (production) and Sepolia (sandbox), as Superstate and Circle publish them.
 */
const CATALOGUES: Record<GVaultConfig['SERVICE_ENV'], GVaultYieldSourceDto> = {
  production: {
    id: 'service-ustb-vault',
    name: 'Superstate Short Duration US Government Securities Fund (USTB)',
    chain: 'ethereum',
    contractAddress: '0x43415eB6ff9DB7E26A15b704e7A3eDCe97d31C4e',
    asset: { symbol: 'USDC', contractAddress: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', decimals: 6 },
    interface: 'service_ustb_v1',
  },
  sandbox: {
    id: 'service-ustb-vault',
    name: 'Superstate Short Duration US Government Securities Fund (USTB)',
    chain: 'ethereum_sepolia',
    contractAddress: '0x39727692cF58137Bd8c401eFE87Cc8A190D62ead',
    asset: { symbol: 'USDC', contractAddress: '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238', decimals: 6 },
    interface: 'service_ustb_v1',
  },
};

/** The environment's catalogue with configured overrides, every address EIP-55 checksummed. */
export function catalogueFor(config: GVaultConfig): GVaultYieldSourceDto[] {
  const base = CATALOGUES[config.SERVICE_ENV];
  const contractAddress = config.GVAULT_USTB_CONTRACT_ADDRESS ?? base.contractAddress;
  const assetAddress = config.GVAULT_USTB_ASSET_ADDRESS ?? base.asset.contractAddress;
  return [
    {
      id: base.id,
      name: base.name,
      chain: base.chain,
      contractAddress: toChecksumAddress(contractAddress as `0x${string}`),
      asset: { ...base.asset, contractAddress: toChecksumAddress(assetAddress as `0x${string}`) },
      interface: base.interface,
    },
  ];
}
