import { Controller } from '@nestjs/common';
import { type MicroVaultCreatedVault, type MicroVaultPauseStatusDto, SUBJECTS, type WireRequestOf } from '@service/contracts';
import { Handles } from '@service/service-runtime';
import { VaultsService } from './vaults.service.js';

@Controller()
export class VaultsMsController {
  constructor(private readonly vaults: VaultsService) {}

  @Handles(SUBJECTS.microvault.pauseStatusGet)
  pauseStatus(request: WireRequestOf<typeof SUBJECTS.microvault.pauseStatusGet>): Promise<MicroVaultPauseStatusDto> {
    return this.vaults.pauseStatus(request.ctx.orgId, request.vaultId);
  }

  @Handles(SUBJECTS.microvault.organizationsEnable)
  enable(request: WireRequestOf<typeof SUBJECTS.microvault.organizationsEnable>): Promise<{ orgId: string; enabledAt: string }> {
    return this.vaults.enableOrganization(request.ctx.orgId);
  }

  @Handles(SUBJECTS.microvault.vaultsCreate)
  create(request: WireRequestOf<typeof SUBJECTS.microvault.vaultsCreate>): Promise<MicroVaultCreatedVault> {
    return this.vaults.createVault(request.ctx.orgId);
  }
}
