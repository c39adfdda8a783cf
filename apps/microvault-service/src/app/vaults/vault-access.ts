import { Inject, Injectable } from '@nestjs/common';
import { ServiceError } from '@service/errors';
import { SERVICE_CONFIG } from '@service/service-runtime';
import type { MicroVaultConfig } from '../../config.js';
import type { Vault } from '../../generated/prisma/client.js';
import { OrganizationsRepository } from '../repositories/organizations.repository.js';
import { VaultsRepository } from '../repositories/vaults.repository.js';

/** The checks every MicroVault request passes first: sandbox, an enabled organization, its own vault. */
@Injectable()
export class VaultAccess {
  constructor(
    private readonly organizations: OrganizationsRepository,
    private readonly vaults: VaultsRepository,
    @Inject(SERVICE_CONFIG) private readonly config: MicroVaultConfig,
  ) {}

  async requireEnabled(orgId: string): Promise<void> {
    if (this.config.SERVICE_ENV !== 'sandbox') {
      throw new ServiceError('microvaults_not_enabled', 'MicroVaults are a private preview available only in sandbox.');
    }
    if (!(await this.organizations.isEnabled(orgId))) {
      throw new ServiceError('microvaults_not_enabled', 'MicroVaults are not enabled for this organization.');
    }
  }

  /** Another organization's vault is reported exactly like an unknown one. */
  async requireVault(orgId: string, vaultId: string): Promise<Vault> {
    await this.requireEnabled(orgId);
    const vault = await this.vaults.findInOrg(orgId, vaultId);
    if (!vault) throw new ServiceError('vault_not_found', `No vault ${vaultId} in this organization.`);
    return vault;
  }
}
