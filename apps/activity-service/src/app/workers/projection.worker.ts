import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import type { DomainEvent } from '@service/contracts';
import { DurableConsumer } from '@service/events';
import type { PipelinedSqlExecutor } from '@service/sql';
import { NATS_CONNECTION, SERVICE_CONFIG, SERVICE_LOGGER, serviceEventStream } from '@service/service-runtime';
import type { Logger } from 'pino';
import type { ActivityConfig } from '../../config.js';
import { PROJECTED_EVENTS_FILTER, type ProjectedItem, projectEvent } from '../domain/activity-item.js';
import { upsertItems } from '../repositories/activity-items.repository.js';
import { ProjectionSql } from '../repositories/projection-sql.js';

export const PROJECTION_DURABLE = 'activity-projection';
/** Most events projected in one transaction (one statement for their items). */
const BATCH = 128;
/** Transactions at once. */
const WRITERS = 2;

/**
 * Builds the feed from the wallet events on the stream: one durable shared by replicas. Events
 * that arrive while earlier ones are being written, or within `ACTIVITY_EVENT_LINGER_MS` of each
 * other (10 ms by default: under write load several times fewer transactions than writing at
 * once, for at most that much more before the feed shows an event), go together: one
 * transaction and one upsert per batch, sent with its COMMIT in one round trip.
 */
@Injectable()
export class ProjectionWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private consumer: DurableConsumer<PipelinedSqlExecutor> | undefined;

  constructor(
    private readonly sql: ProjectionSql,
    @Inject(SERVICE_CONFIG) private readonly config: ActivityConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
    @Inject(NATS_CONNECTION) private readonly connection: NatsConnection,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.consumer = new DurableConsumer<PipelinedSqlExecutor>({
      ...(await serviceEventStream(this.config, this.connection, this.logger)),
      durable: PROJECTION_DURABLE,
      filterSubject: `${this.config.EVENTS_SUBJECT_PREFIX}.wallet.${PROJECTED_EVENTS_FILTER}`,
      db: this.sql,
      ackWaitMs: this.config.ACTIVITY_EVENT_ACK_WAIT_MS,
      handle: (event, tx) => this.apply([event], tx),
      handleBatch: (events, tx) => this.apply(events, tx),
      batchSize: BATCH,
      concurrency: WRITERS,
      lingerMs: this.config.ACTIVITY_EVENT_LINGER_MS,
      // The upsert keeps the item furthest along whatever arrives, again or out of order (see
      // upsertItems): a redelivery changes nothing, so no processed_events row is written.
      idempotentHandler: true,
    });
    await this.consumer.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.consumer?.stop();
  }

  private async apply(events: readonly DomainEvent[], tx: PipelinedSqlExecutor): Promise<void> {
    const items: ProjectedItem[] = [];
    for (const event of events) {
      const projection = projectEvent(event);
      if (projection.kind === 'malformed') {
        // Retrying cannot fix the payload; it is recorded as processed so it does not block the stream.
        this.logger.error({ eventId: event.id, type: event.type, reason: projection.reason }, 'skipping a malformed wallet event');
      } else if (projection.kind === 'item') {
        items.push(projection.item);
      }
    }
    await upsertItems(tx, items);
  }
}
