import { type DynamicModule, Module } from '@nestjs/common';
import { defineServiceModule } from '@service/service-runtime';
import type { Logger } from 'pino';
import type { WebhookConfig } from '../config.js';
import { DeliveriesMsController } from './deliveries/deliveries-ms.controller.js';
import { DeliveriesService } from './deliveries/deliveries.service.js';
import { PrismaService } from './prisma.service.js';
import { RegistrationsMsController } from './registrations/registrations-ms.controller.js';
import { RegistrationsService } from './registrations/registrations.service.js';
import { DeliveriesRepository } from './repositories/deliveries.repository.js';
import { DispatchSql, PgSql } from './repositories/pg-sql.js';
import { RegistrationsRepository } from './repositories/registrations.repository.js';
import { webhookProviders } from './webhook.providers.js';
import { DeliveryDispatcher } from './workers/delivery-dispatcher.js';
import { EventConsumerService } from './workers/event-consumer.js';

@Module({})
export class AppModule {
  static forRoot(config: WebhookConfig, logger: Logger): DynamicModule {
    return defineServiceModule(AppModule, {
      name: 'webhook',
      config,
      logger,
      prisma: PrismaService,
      controllers: [RegistrationsMsController, DeliveriesMsController],
      providers: [
        ...webhookProviders,
        PgSql,
        DispatchSql,
        RegistrationsRepository,
        DeliveriesRepository,
        RegistrationsService,
        DeliveriesService,
        DeliveryDispatcher,
        EventConsumerService,
      ],
    });
  }
}
