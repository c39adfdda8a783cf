import { type DynamicModule, Module } from '@nestjs/common';
import { defineServiceModule } from '@service/service-runtime';
import type { Logger } from 'pino';
import type { IdentityConfig } from '../config.js';
import { ApiKeysMsController } from './api-keys/api-keys-ms.controller.js';
import { ApiKeysService } from './api-keys/api-keys.service.js';
import { EndAnnouncer } from './api-keys/end-announcer.js';
import { PrismaService } from './prisma.service.js';
import { ApiKeysRepository } from './repositories/api-keys.repository.js';
import { ExpirySweeper } from './workers/expiry-sweeper.js';
import { UsageRecorder } from './workers/usage-recorder.js';

@Module({})
export class AppModule {
  static forRoot(config: IdentityConfig, logger: Logger): DynamicModule {
    return defineServiceModule(AppModule, {
      name: 'identity',
      config,
      logger,
      prisma: PrismaService,
      controllers: [ApiKeysMsController],
      providers: [ApiKeysRepository, EndAnnouncer, ApiKeysService, ExpirySweeper, UsageRecorder],
    });
  }
}
