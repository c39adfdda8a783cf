import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { type MicroVaultCreatedVault, type MicroVaultPauseStatusDto, type RpcRequest, SUBJECTS } from '@service/contracts';
import { VaultsService } from './vaults.service.js';

@Controller()
export class VaultsMsController {
  constructor(private readonly vaults: VaultsService) {}

  @MessagePattern(SUBJECTS.microvault.pauseStatusGet)
  pauseStatus(@Payload() request: RpcRequest<{ vaultId: string }>): Promise<MicroVaultPauseStatusDto> {
    return this.vaults.pauseStatus(request.ctx.orgId, request.vaultId);
  }

  @MessagePattern(SUBJECTS.microvault.organizationsEnable)
  enable(@Payload() request: RpcRequest): Promise<{ orgId: string; enabledAt: string }> {
    return this.vaults.enableOrganization(request.ctx.orgId);
  }

  @MessagePattern(SUBJECTS.microvault.vaultsCreate)
  create(@Payload() request: RpcRequest): Promise<MicroVaultCreatedVault> {
    return this.vaults.createVault(request.ctx.orgId);
  }
}
