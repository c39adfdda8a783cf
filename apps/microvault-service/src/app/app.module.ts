import { type DynamicModule, Module } from '@nestjs/common';
import { defineServiceModule } from '@service/service-runtime';
import type { Logger } from 'pino';
import type { MicroVaultConfig } from '../config.js';
import { ChainClient } from './chain/chain.client.js';
import { TASK_RUNNER } from './injection.js';
import { PrismaService } from './prisma.service.js';
import { OrganizationsRepository } from './repositories/organizations.repository.js';
import { SignerLeaseRepository } from './repositories/signer-lease.repository.js';
import { TasksRepository } from './repositories/tasks.repository.js';
import { VaultsRepository } from './repositories/vaults.repository.js';
import { TasksMsController } from './tasks/tasks-ms.controller.js';
import { TasksService } from './tasks/tasks.service.js';
import { VaultAccess } from './vaults/vault-access.js';
import { VaultsMsController } from './vaults/vaults-ms.controller.js';
import { VaultsService } from './vaults/vaults.service.js';
import { TaskWorker } from './workers/task-worker.js';

@Module({})
export class AppModule {
  static forRoot(config: MicroVaultConfig, logger: Logger): DynamicModule {
    return defineServiceModule(AppModule, {
      name: 'microvault',
      config,
      logger,
      prisma: PrismaService,
      controllers: [TasksMsController, VaultsMsController],
      providers: [
        ChainClient,
        OrganizationsRepository,
        VaultsRepository,
        TasksRepository,
        SignerLeaseRepository,
        TaskWorker,
        { provide: TASK_RUNNER, useExisting: TaskWorker },
        VaultAccess,
        TasksService,
        VaultsService,
      ],
    });
  }
}
