import { type DynamicModule, Module } from '@nestjs/common';
import { defineServiceModule } from '@service/service-runtime';
import type { Logger } from 'pino';
import type { ActivityConfig } from '../config.js';
import { ActivityMsController } from './activity/activity-ms.controller.js';
import { ActivityService } from './activity/activity.service.js';
import { FeedReader } from './activity/feed-reader.js';
import { ProjectionService } from './activity/projection.service.js';
import { PrismaService } from './prisma.service.js';
import { ProjectionSql } from './projection-sql.js';

@Module({})
export class AppModule {
  static forRoot(config: ActivityConfig, logger: Logger): DynamicModule {
    return defineServiceModule(AppModule, {
      name: 'activity',
      config,
      logger,
      prisma: PrismaService,
      controllers: [ActivityMsController],
      providers: [ProjectionSql, FeedReader, ActivityService, ProjectionService],
    });
  }
}
