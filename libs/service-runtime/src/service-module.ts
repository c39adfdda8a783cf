import { type DynamicModule, Inject, Injectable, type OnApplicationShutdown, type Provider, type Type } from '@nestjs/common';
import type { ServiceName } from '@service/contracts';
import type { PrismaPg } from '@prisma/adapter-pg';
import type { Logger } from 'pino';
import type { ServiceConfig } from './config.js';
import { ServiceCoreModule } from './core.module.js';
import { HealthService, createHealthController } from './health.js';
import { OutboxRelayService } from './outbox-relay.service.js';
import { prismaAdapter } from './prisma.js';
import { EVENT_DB, RELAY_DB, SERVICE_CONFIG } from './injection.js';

// Mixins must take `any[]` constructor arguments (TS2545).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type PrismaClientClass = new (...args: any[]) => { $disconnect(): Promise<void> };

/**
 * A Nest provider class over a service's generated Prisma client, bound to the service's schema
 * and disconnected at shutdown. Each app declares `class PrismaService extends PrismaServiceFor(PrismaClient) {}`.
 */
export function PrismaServiceFor<C extends PrismaClientClass>(Client: C) {
  @Injectable()
  class PrismaService extends Client implements OnApplicationShutdown {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    constructor(@Inject(SERVICE_CONFIG) ...args: any[]) {
      const config = args[0] as ServiceConfig;
      const adapter: PrismaPg = prismaAdapter(config.DATABASE_URL, config.DATABASE_SCHEMA);
      super({ adapter });
    }

    async onApplicationShutdown(): Promise<void> {
      await this.$disconnect();
    }
  }
  return PrismaService;
}

export interface ServiceModuleOptions {
  readonly name: ServiceName;
  readonly config: ServiceConfig;
  readonly logger: Logger;
  /** The app's Prisma provider class. */
  readonly prisma: Type;
  /**
   * The provider the outbox relay runs its SQL on (a `SqlExecutor`; the Prisma client unless
   * given). A `PgPoolSql` (which prepares its statements) has PostgreSQL parse and plan the relay's
   * batch statement once per connection: through Prisma, every batch is a new unnamed statement,
   * planned again each time. It must be one of the app's providers.
   */
  readonly relayDb?: Type;
  readonly imports?: DynamicModule['imports'];
  readonly controllers?: Type[];
  readonly providers?: Provider[];
}

/**
 * The module every service starts from: core (config, logger, NATS), its Prisma client, the health
 * subject and the outbox relay, plus the app's own controllers and providers.
 */
export function defineServiceModule(module: Type, options: ServiceModuleOptions): DynamicModule {
  return {
    module,
    imports: [ServiceCoreModule.forRoot(options), ...(options.imports ?? [])],
    controllers: [createHealthController(options.name), ...(options.controllers ?? [])],
    providers: [
      options.prisma,
      { provide: EVENT_DB, useExisting: options.prisma },
      { provide: RELAY_DB, useExisting: options.relayDb ?? options.prisma },
      HealthService,
      OutboxRelayService,
      ...(options.providers ?? []),
    ],
    exports: [options.prisma, OutboxRelayService],
  };
}
