import { type DynamicModule, Module } from '@nestjs/common';
import { defineServiceModule } from '@service/service-runtime';
import type { Logger } from 'pino';
import type { ActivityConfig } from '../config.js';
import { ActivityMsController } from './activity/activity-ms.controller.js';
import { ActivityService } from './activity/activity.service.js';
import { PrismaService } from './prisma.service.js';
import { FeedRepository } from './repositories/feed.repository.js';
import { ProjectionSql } from './repositories/projection-sql.js';
import { ProjectionWorker } from './workers/projection.worker.js';

@Module({})
export class AppModule {
  static forRoot(config: ActivityConfig, logger: Logger): DynamicModule {
    return defineServiceModule(AppModule, {
      name: 'activity',
      config,
      logger,
      prisma: PrismaService,
      controllers: [ActivityMsController],
      providers: [ProjectionSql, FeedRepository, ActivityService, ProjectionWorker],
    });
  }
}
