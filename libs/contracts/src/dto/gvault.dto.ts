import { ApiProperty } from '@nestjs/swagger';
import { IsNonzeroEvmAddress } from '@service/evm';
import { IsIn } from 'class-validator';

export const GVAULT_IDS = ['service-ustb-vault'] as const;
export type GVaultId = (typeof GVAULT_IDS)[number];

export class GVaultAssetDto {
  @ApiProperty({ example: 'USDC' })
  symbol!: string;

  @ApiProperty({ description: 'EIP-55 checksummed EVM address', example: '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238' })
  contractAddress!: string;

  @ApiProperty({ minimum: 0, example: 6 })
  decimals!: number;
}

export class GVaultYieldSourceDto {
  @ApiProperty({ enum: GVAULT_IDS })
  id!: GVaultId;

  @ApiProperty({ example: 'Superstate Short Duration US Government Securities Fund' })
  name!: string;

  @ApiProperty({ enum: ['ethereum', 'ethereum_sepolia'] })
  chain!: 'ethereum' | 'ethereum_sepolia';

  @ApiProperty({ description: 'Backing contract, EIP-55 checksummed' })
  contractAddress!: string;

  @ApiProperty({ type: GVaultAssetDto })
  asset!: GVaultAssetDto;

  @ApiProperty({ enum: ['service_ustb_v1'] })
  interface!: 'service_ustb_v1';
}

export class GVaultYieldSourceListDto {
  @ApiProperty({ type: [GVaultYieldSourceDto] })
  data!: GVaultYieldSourceDto[];
}

/** Path of `GET /v2/gvaults/{gVaultId}/allowlist/{address}`. */
export class GVaultAllowlistParamsDto {
  @IsIn(GVAULT_IDS, { message: `gVaultId must be one of: ${GVAULT_IDS.join(', ')}` })
  gVaultId!: GVaultId;

  @IsNonzeroEvmAddress()
  address!: string;
}

export class GVaultAllowlistDto {
  @ApiProperty({ description: 'Whether the address may deposit, read from the allowlist at a confirmed block' })
  allowed!: boolean;
}
