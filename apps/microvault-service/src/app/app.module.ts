import { type DynamicModule, Module } from '@nestjs/common';
import { defineServiceModule } from '@service/service-runtime';
import type { Logger } from 'pino';
import type { MicroVaultConfig } from '../config.js';
import { ChainClient } from './chain/chain.client.js';
import { PrismaService } from './prisma.service.js';
import { SignerLease } from './tasks/signer-lease.js';
import { TaskWorker } from './tasks/task-worker.js';
import { TasksMsController } from './tasks/tasks-ms.controller.js';
import { TasksService } from './tasks/tasks.service.js';
import { VaultAccess } from './vaults/vault-access.js';
import { VaultsMsController } from './vaults/vaults-ms.controller.js';
import { VaultsService } from './vaults/vaults.service.js';

@Module({})
export class AppModule {
  static forRoot(config: MicroVaultConfig, logger: Logger): DynamicModule {
    return defineServiceModule(AppModule, {
      name: 'microvault',
      config,
      logger,
      prisma: PrismaService,
      controllers: [TasksMsController, VaultsMsController],
      providers: [ChainClient, SignerLease, TaskWorker, VaultAccess, TasksService, VaultsService],
    });
  }
}
