import { type DynamicModule, Module } from '@nestjs/common';
import { defineServiceModule } from '@service/service-runtime';
import type { Logger } from 'pino';
import type { RiskConfig } from '../config.js';
import { MarketDataService } from './market-data/market-data.service.js';
import { PrismaService } from './prisma.service.js';
import { RiskRepository } from './repositories/risk.repository.js';
import { EngineService } from './risk/engine.service.js';
import { RiskMsController } from './risk/risk-ms.controller.js';
import { RulesService } from './risk/rules.service.js';
import { ExecutionsWorker } from './workers/executions.worker.js';
import { ObservationWorker } from './workers/observation.worker.js';

@Module({})
export class AppModule {
  static forRoot(config: RiskConfig, logger: Logger): DynamicModule {
    return defineServiceModule(AppModule, {
      name: 'risk',
      config,
      logger,
      prisma: PrismaService,
      controllers: [RiskMsController],
      providers: [RiskRepository, EngineService, RulesService, MarketDataService, ObservationWorker, ExecutionsWorker],
    });
  }
}
