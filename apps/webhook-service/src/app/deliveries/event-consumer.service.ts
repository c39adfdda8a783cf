import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { DurableConsumer, type SqlExecutor, type TransactionalSql } from '@service/events';
import { NATS_CONNECTION, SERVICE_CONFIG, SERVICE_LOGGER } from '@service/service-runtime';
import type { Logger } from 'pino';
import type { WebhookConfig } from '../../config.js';
import { PgSql } from '../pg-sql.js';
import { DeliveryDispatcher } from './dispatcher.service.js';
import { fanOut } from './fan-out.js';

export const DELIVERIES_DURABLE = 'webhook-deliveries';

/**
 * Takes every domain event from the stream (one durable shared by replicas) and records its
 * deliveries in the transaction that marks it processed; the ack follows the commit. The
 * dispatcher is woken after each commit so a delivery usually leaves within milliseconds.
 */
const FAN_OUT_CONCURRENCY = 16;

@Injectable()
export class EventConsumerService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private consumer: DurableConsumer<SqlExecutor> | undefined;

  constructor(
    private readonly sql: PgSql,
    private readonly dispatcher: DeliveryDispatcher,
    @Inject(SERVICE_CONFIG) private readonly config: WebhookConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
    @Inject(NATS_CONNECTION) private readonly connection: NatsConnection,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.consumer = new DurableConsumer<SqlExecutor>({
      durable: DELIVERIES_DURABLE,
      filterSubject: `${this.config.EVENTS_SUBJECT_PREFIX}.>`,
      stream: this.config.EVENTS_STREAM,
      subjectPrefix: this.config.EVENTS_SUBJECT_PREFIX,
      db: this.wakingAfterCommit(),
      ackWaitMs: this.config.WEBHOOK_EVENT_ACK_WAIT_MS,
      // Fan-out of one event touches only that event's rows, so events are recorded side by side.
      concurrency: FAN_OUT_CONCURRENCY,
      js: jetstream(this.connection),
      jsm: await jetstreamManager(this.connection),
      logger: this.logger,
      handle: async (event, tx) => {
        await fanOut(tx, event);
      },
    });
    await this.consumer.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.consumer?.stop();
  }

  private wakingAfterCommit(): TransactionalSql<SqlExecutor> {
    const { sql, dispatcher } = this;
    return {
      $queryRawUnsafe: (query, ...values) => sql.$queryRawUnsafe(query, ...values),
      $executeRawUnsafe: (query, ...values) => sql.$executeRawUnsafe(query, ...values),
      async $transaction(fn) {
        const result = await sql.$transaction(fn);
        dispatcher.wake();
        return result;
      },
    };
  }
}
