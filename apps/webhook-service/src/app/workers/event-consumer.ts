import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { isInternalEvent } from '@service/contracts';
import { type ConsumedEvent, DurableConsumer } from '@service/events';
import { NATS_CONNECTION, SERVICE_CONFIG, SERVICE_LOGGER, serviceEventStream } from '@service/service-runtime';
import { traceparentOf } from '@service/tracing';
import type { Logger } from 'pino';
import type { WebhookConfig } from '../../config.js';
import { fanOut, UnsubscribedPairs } from '../repositories/fan-out.js';
import { PgSql } from '../repositories/pg-sql.js';
import { DeliveryDispatcher } from './delivery-dispatcher.js';

export const DELIVERIES_DURABLE = 'webhook-deliveries';

/** Events taken from the stream and not yet recorded, at most. */
const MAX_PENDING = 512;
/** Most events recorded by one statement. */
const BATCH = 128;
/** Statements recording events at the same time. */
const WRITERS = 2;

/**
 * Takes every domain event from the stream (one durable pull consumer shared by replicas, a
 * {@link DurableConsumer} whose handler records its own batches) and records its deliveries in
 * the statement that marks it processed (`processed_events`), so each event fans out exactly once;
 * the ack follows the commit, and a redelivery after a crash finds the event processed and adds
 * nothing.
 *
 * Events are recorded in batches, group-commit style: a statement starts when a writer is free
 * and {@link BATCH} events wait or the oldest has waited `WEBHOOK_EVENT_LINGER_MS` (10 ms by
 * default: under write load several times fewer statements than writing at once,
 * for at most that much more from event to delivery);
 * those arriving while statements are running go together in the next one (one round trip and one
 * commit for up to {@link BATCH} events, in any order, which consumers must tolerate anyway). A
 * batch that fails is retried event by event, so one bad event is retried later with backoff
 * without holding back the others. The dispatcher is woken after each commit that recorded
 * deliveries, so a delivery usually leaves within milliseconds.
 */
@Injectable()
export class EventConsumerService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private consumer: DurableConsumer | undefined;
  /** Whose events of which type nobody wanted at the last look: they are recorded without building their bodies. */
  private readonly unsubscribed = new UnsubscribedPairs();

  constructor(
    private readonly sql: PgSql,
    private readonly dispatcher: DeliveryDispatcher,
    @Inject(SERVICE_CONFIG) private readonly config: WebhookConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
    @Inject(NATS_CONNECTION) private readonly connection: NatsConnection,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.consumer = new DurableConsumer({
      ...(await serviceEventStream(this.config, this.connection, this.logger)),
      durable: DELIVERIES_DURABLE,
      ackWaitMs: this.config.WEBHOOK_EVENT_ACK_WAIT_MS,
      batchSize: BATCH,
      concurrency: WRITERS,
      lingerMs: this.config.WEBHOOK_EVENT_LINGER_MS,
      maxWaiting: MAX_PENDING,
      commit: (events) => this.record(events),
    });
    await this.consumer.start();
  }

  /** Takes no more events and waits for those taken to be recorded (and acked) or given back. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.consumer?.stop();
  }

  /**
   * Records a batch's deliveries and processed events in one statement; once acked, wakes the
   * dispatcher for them. Internal events (`INTERNAL_EVENTS`: risk-service's observations), which
   * no registration can subscribe to, are only acked: no statement, no row.
   */
  private async record(batch: readonly ConsumedEvent[]): Promise<(() => void) | undefined> {
    const events = batch.filter(({ event }) => !isInternalEvent(event.type));
    if (events.length === 0) return undefined;
    const registrations = await fanOut(
      this.sql,
      DELIVERIES_DURABLE,
      events.map(({ event }) => event),
      traceContexts(events),
      this.unsubscribed,
    );
    return registrations.length > 0 ? () => this.dispatcher.wake(registrations) : undefined;
  }
}

/**
 * Per event id, the traceparent of the consumer span that recorded it (each span continues the
 * trace of the request that wrote the event): its deliveries keep it for their own span's link.
 * Undefined while tracing is off.
 */
function traceContexts(events: readonly ConsumedEvent[]): Map<string, string> | undefined {
  let contexts: Map<string, string> | undefined;
  for (const { event, span } of events) if (span) (contexts ??= new Map()).set(event.id, traceparentOf(span));
  return contexts;
}
