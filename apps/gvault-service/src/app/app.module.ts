import { type DynamicModule, Module } from '@nestjs/common';
import { defineServiceModule } from '@service/service-runtime';
import type { Logger } from 'pino';
import type { GVaultConfig } from '../config.js';
import { AllowlistFollower } from './allowlist/allowlist-follower.service.js';
import { AllowlistMsController } from './allowlist/allowlist-ms.controller.js';
import { AllowlistService } from './allowlist/allowlist.service.js';
import { allowlistTargetFor } from './chain/allowlist-target.js';
import { ALLOWLIST_TARGET } from './injection.js';
import { PrismaService } from './prisma.service.js';
import { AllowlistChangesRepository } from './repositories/allowlist-changes.repository.js';
import { YieldSourcesMsController } from './yield-sources/yield-sources-ms.controller.js';

@Module({})
export class AppModule {
  static forRoot(config: GVaultConfig, logger: Logger): DynamicModule {
    return defineServiceModule(AppModule, {
      name: 'gvault',
      config,
      logger,
      prisma: PrismaService,
      controllers: [YieldSourcesMsController, AllowlistMsController],
      providers: [
        { provide: ALLOWLIST_TARGET, useValue: allowlistTargetFor(config) },
        AllowlistChangesRepository,
        AllowlistService,
        AllowlistFollower,
      ],
    });
  }
}
