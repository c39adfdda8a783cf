import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { OutboxRelay } from '@service/events';
import type { SqlExecutor } from '@service/sql';
import type { Logger } from 'pino';
import type { ServiceConfig } from './config.js';
import { serviceEventStream } from './event-stream.js';
import { NATS_CONNECTION, RELAY_DB, SERVICE_CONFIG, SERVICE_LOGGER, SERVICE_NAME } from './injection.js';

/** Runs the service's outbox relay for the life of the process. */
@Injectable()
export class OutboxRelayService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private relay: OutboxRelay | undefined;

  constructor(
    @Inject(SERVICE_NAME) private readonly service: string,
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
    @Inject(NATS_CONNECTION) private readonly connection: NatsConnection,
    @Inject(RELAY_DB) private readonly db: SqlExecutor,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.relay = new OutboxRelay({
      ...(await serviceEventStream(this.config, this.connection, this.logger)),
      source: this.service,
      db: this.db,
    });
    await this.relay.start();
  }

  /** Publish right after a commit instead of waiting for the next poll. */
  wake(): void {
    this.relay?.wake();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.relay?.stop();
  }
}
