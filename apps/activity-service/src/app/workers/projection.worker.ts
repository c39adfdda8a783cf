import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { DomainEvent } from '@service/contracts';
import { DurableConsumer, type SqlExecutor } from '@service/events';
import { NATS_CONNECTION, SERVICE_CONFIG, SERVICE_LOGGER } from '@service/service-runtime';
import type { Logger } from 'pino';
import type { ActivityConfig } from '../../config.js';
import { ProjectionSql } from '../projection-sql.js';
import { type ProjectedItem, projectEvent } from './activity-item.js';

export const PROJECTION_DURABLE = 'activity-projection';

/**
 * Keeps the item only when the incoming state is further along: a higher status rank, or the same
 * rank observed later (event id breaks ties). The winner does not depend on arrival order, so late,
 * repeated or reordered events, and a replay from the start of the stream, give the same row.
 */
const UPSERT_ITEM = `
  INSERT INTO activity_items (org_id, id, wallet_id, type, status, status_rank, amount_usd, "timestamp", resource, observed_at, event_id)
  VALUES ($1, $2::uuid, $3::uuid, $4, $5, $6, $7::bigint, $8::timestamptz, $9::jsonb, $10::timestamptz, $11::uuid)
  ON CONFLICT (org_id, id) DO UPDATE SET
    wallet_id = EXCLUDED.wallet_id, status = EXCLUDED.status, status_rank = EXCLUDED.status_rank,
    amount_usd = EXCLUDED.amount_usd, "timestamp" = EXCLUDED."timestamp", resource = EXCLUDED.resource,
    observed_at = EXCLUDED.observed_at, event_id = EXCLUDED.event_id
  WHERE activity_items.type = EXCLUDED.type
    AND (EXCLUDED.status_rank, EXCLUDED.observed_at, EXCLUDED.event_id)
      > (activity_items.status_rank, activity_items.observed_at, activity_items.event_id)`;

export async function upsertItem(tx: SqlExecutor, item: ProjectedItem): Promise<void> {
  await tx.$executeRawUnsafe(
    UPSERT_ITEM,
    item.orgId,
    item.id,
    item.walletId,
    item.type,
    item.status,
    item.statusRank,
    item.amountMicros.toString(),
    item.timestamp.toISOString(),
    JSON.stringify(item.resource),
    item.observedAt.toISOString(),
    item.eventId,
  );
}

/** Builds the feed from the wallet events on the stream: one durable shared by replicas. */
@Injectable()
export class ProjectionService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private consumer: DurableConsumer<SqlExecutor> | undefined;

  constructor(
    private readonly sql: ProjectionSql,
    @Inject(SERVICE_CONFIG) private readonly config: ActivityConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
    @Inject(NATS_CONNECTION) private readonly connection: NatsConnection,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.consumer = new DurableConsumer<SqlExecutor>({
      durable: PROJECTION_DURABLE,
      filterSubject: `${this.config.EVENTS_SUBJECT_PREFIX}.wallet.>`,
      stream: this.config.EVENTS_STREAM,
      subjectPrefix: this.config.EVENTS_SUBJECT_PREFIX,
      db: this.sql,
      ackWaitMs: this.config.ACTIVITY_EVENT_ACK_WAIT_MS,
      js: jetstream(this.connection),
      jsm: await jetstreamManager(this.connection),
      logger: this.logger,
      handle: (event, tx) => this.apply(event, tx),
    });
    await this.consumer.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.consumer?.stop();
  }

  private async apply(event: DomainEvent, tx: SqlExecutor): Promise<void> {
    const projection = projectEvent(event);
    if (projection.kind === 'malformed') {
      // Retrying cannot fix the payload; it is recorded as processed so it does not block the stream.
      this.logger.error({ eventId: event.id, type: event.type, reason: projection.reason }, 'skipping a malformed wallet event');
      return;
    }
    if (projection.kind === 'item') await upsertItem(tx, projection.item);
  }
}
