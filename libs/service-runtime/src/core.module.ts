import { type DynamicModule, Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import type { ServiceName } from '@service/contracts';
import { connectNats } from '@service/nats';
import { shutdownTracing } from '@service/tracing';
import type { Logger } from 'pino';
import type { ServiceConfig } from './config.js';
import { natsClientAuthOf } from './nats-auth.js';
import { NATS_CONNECTION, SERVICE_CONFIG, SERVICE_LOGGER, SERVICE_NAME } from './injection.js';

class NatsConnectionCloser implements OnApplicationShutdown {
  constructor(@Inject(NATS_CONNECTION) private readonly connection: NatsConnection) {}

  async onApplicationShutdown(): Promise<void> {
    // Drain lets in-flight publishes and acks finish before the socket closes.
    if (!this.connection.isClosed()) await this.connection.drain();
    // Last: the spans of the messages just finished leave before the process does.
    await shutdownTracing();
  }
}

/** Config, logger and a NATS connection (for JetStream) shared by everything in a service. */
@Global()
@Module({})
export class ServiceCoreModule {
  static forRoot(options: { name: ServiceName; config: ServiceConfig; logger: Logger }): DynamicModule {
    return {
      module: ServiceCoreModule,
      providers: [
        { provide: SERVICE_NAME, useValue: options.name },
        { provide: SERVICE_CONFIG, useValue: options.config },
        { provide: SERVICE_LOGGER, useValue: options.logger },
        {
          provide: NATS_CONNECTION,
          // No stack captured per request: every JetStream publish of the relay and every ack of a
          // consumer is one, and building the two Errors shows in wallet-service's CPU under writes.
          useFactory: () =>
            connectNats({
              url: options.config.NATS_URL,
              name: `${options.name}-service-events`,
              asyncTraces: false,
              auth: natsClientAuthOf(options.config, options.name),
            }),
        },
        NatsConnectionCloser,
      ],
      exports: [SERVICE_NAME, SERVICE_CONFIG, SERVICE_LOGGER, NATS_CONNECTION],
    };
  }
}
