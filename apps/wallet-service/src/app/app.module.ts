import { type DynamicModule, Module } from '@nestjs/common';
import { defineServiceModule, type ServiceConfig } from '@service/service-runtime';
import type { Logger } from 'pino';
import { PrismaService } from './prisma.service.js';

@Module({})
export class AppModule {
  static forRoot(config: ServiceConfig, logger: Logger): DynamicModule {
    return defineServiceModule(AppModule, { name: 'wallet', config, logger, prisma: PrismaService });
  }
}
