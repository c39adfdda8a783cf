import { Inject, Injectable } from '@nestjs/common';
import type { MicroVaultCreatedVault, MicroVaultPauseStatusDto } from '@service/contracts';
import { ServiceError } from '@service/errors';
import { chainErrorLogFields } from '@service/evm';
import { SERVICE_CONFIG, SERVICE_LOGGER } from '@service/service-runtime';
import type { Logger } from 'pino';
import type { Address } from 'viem';
import type { MicroVaultConfig } from '../../config.js';
import { ChainClient } from '../chain/chain.client.js';
import { TASK_RUNNER } from '../injection.js';
import { OrganizationsRepository } from '../repositories/organizations.repository.js';
import { VaultsRepository } from '../repositories/vaults.repository.js';
import type { TaskRunner } from '../tasks/task-runner.js';
import { VaultAccess } from './vault-access.js';

const CHAIN_UNAVAILABLE = 'The chain node is temporarily unavailable. Retry later.';

@Injectable()
export class VaultsService {
  constructor(
    private readonly organizations: OrganizationsRepository,
    private readonly vaults: VaultsRepository,
    private readonly access: VaultAccess,
    private readonly chain: ChainClient,
    @Inject(TASK_RUNNER) private readonly worker: TaskRunner,
    @Inject(SERVICE_CONFIG) private readonly config: MicroVaultConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {}

  /** The vault's pause flags as the chain holds them now; never a cached value. */
  async pauseStatus(orgId: string, vaultId: string): Promise<MicroVaultPauseStatusDto> {
    const vault = await this.access.requireVault(orgId, vaultId);
    try {
      return { flags: (await this.chain.pauseFlags(vault.address as Address)).toString() };
    } catch {
      throw new ServiceError('service_temporarily_unavailable', CHAIN_UNAVAILABLE);
    }
  }

  /** Operator command: lets an organization use MicroVaults (sandbox only). Idempotent. */
  async enableOrganization(orgId: string): Promise<{ orgId: string; enabledAt: string }> {
    if (this.config.SERVICE_ENV !== 'sandbox') {
      throw new ServiceError('microvaults_not_enabled', 'MicroVaults are a private preview available only in sandbox.');
    }
    const enabledAt = await this.organizations.enable(orgId);
    return { orgId, enabledAt: enabledAt.toISOString() };
  }

  /** Operator command: deploys a vault contract operated by this service and registers it. */
  async createVault(orgId: string): Promise<MicroVaultCreatedVault> {
    await this.access.requireEnabled(orgId);
    let deployed: { address: Address; hash: string };
    try {
      deployed = await this.worker.exclusive(() => this.chain.deployVault());
    } catch (error) {
      if (error instanceof ServiceError) throw error;
      // The caller gets a retryable 503; the operator needs the node's own answer (not its URL).
      this.logger.warn({ orgId, ...chainErrorLogFields(error) }, 'could not deploy a vault contract');
      throw new ServiceError('service_temporarily_unavailable', CHAIN_UNAVAILABLE);
    }
    const vault = await this.vaults.create({ orgId, chainId: this.chain.chainId, address: deployed.address, deployTxHash: deployed.hash });
    return { id: vault.id, orgId, chainId: vault.chainId, address: vault.address };
  }
}
