import { isNonzeroEvmAddress, toChecksumAddress } from '@service/evm';
import type { ConfigOf, ServiceConfig } from '@service/service-runtime';

function optionalAddress(raw: string): `0x${string}` | null {
  if (raw === '') return null;
  if (!isNonzeroEvmAddress(raw)) throw new Error(`must be a nonzero EVM address (EIP-55 checksum when mixed case), got "${raw}"`);
  return toChecksumAddress(raw);
}

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
};

export type GVaultConfig = ServiceConfig & ConfigOf<typeof gvaultConfigSpec>;
