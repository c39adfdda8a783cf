import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { type ConsumerMessages, jetstream, jetstreamManager, type JsMsg } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { DomainEvent } from '@service/contracts';
import { consumerSpan, domainEventsOf, ensureDurableConsumer, ensureEventStream, redeliveryDelayMs, watchConsumer } from '@service/events';
import { GroupCommit } from '@service/sql';
import { NATS_CONNECTION, SERVICE_CONFIG, SERVICE_LOGGER } from '@service/service-runtime';
import { endSpan, type Span, startSpan, traceparentOf, tracingEnabled } from '@service/tracing';
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
 * Takes every domain event from the stream (one durable pull consumer shared by replicas) and
 * records its deliveries in the statement that marks it processed (`processed_events`), so each
 * event fans out exactly once; the ack follows the commit, and a redelivery after a crash finds
 * the event processed and adds nothing.
 *
 * Events are recorded in batches, group-commit style ({@link GroupCommit}): a statement starts
 * when a writer is free and {@link BATCH} events wait or the oldest has waited
 * `WEBHOOK_EVENT_LINGER_MS` (10 ms by default: under the bench's write load four to five times
 * fewer statements than writing at once, for at most that much more from event to delivery);
 * those arriving while statements are running go together in the next one (one round trip and one
 * commit for up to {@link BATCH} events, in any order, which consumers must tolerate anyway). A
 * batch that fails is retried event by event, so one bad event is retried later with backoff
 * without holding back the others. The dispatcher is woken after each commit that recorded
 * deliveries, so a delivery usually leaves within milliseconds.
 */
@Injectable()
export class EventConsumerService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private messages: ConsumerMessages | undefined;
  private loop: Promise<void> | undefined;
  private readonly batches: GroupCommit<JsMsg>;
  /** Whose events of which type nobody wanted at the last look: they are recorded without building their bodies. */
  private readonly unsubscribed = new UnsubscribedPairs();
  private unwatch: (() => void) | undefined;

  constructor(
    private readonly sql: PgSql,
    private readonly dispatcher: DeliveryDispatcher,
    @Inject(SERVICE_CONFIG) private readonly config: WebhookConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
    @Inject(NATS_CONNECTION) private readonly connection: NatsConnection,
  ) {
    this.batches = new GroupCommit({
      batchSize: BATCH,
      concurrency: WRITERS,
      lingerMs: config.WEBHOOK_EVENT_LINGER_MS,
      maxWaiting: MAX_PENDING,
      write: (batch) => this.record(batch),
      onError: (error) => logger.error({ err: error }, 'event batch failed unexpectedly; its events come again after the ack wait'),
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    const js = jetstream(this.connection);
    const jsm = await jetstreamManager(this.connection);
    await ensureEventStream(jsm, { stream: this.config.EVENTS_STREAM, subjectPrefix: this.config.EVENTS_SUBJECT_PREFIX });
    await ensureDurableConsumer(jsm, {
      stream: this.config.EVENTS_STREAM,
      durable: DELIVERIES_DURABLE,
      filterSubject: `${this.config.EVENTS_SUBJECT_PREFIX}.>`,
      ackWaitMs: this.config.WEBHOOK_EVENT_ACK_WAIT_MS,
    });
    const consumer = await js.consumers.get(this.config.EVENTS_STREAM, DELIVERIES_DURABLE);
    this.messages = await consumer.consume({ max_messages: BATCH });
    this.loop = this.run(this.messages);
    this.unwatch = watchConsumer(jsm, this.config.EVENTS_STREAM, DELIVERIES_DURABLE);
  }

  /** Takes no more events and waits for those taken to be recorded (and acked) or given back. */
  async beforeApplicationShutdown(): Promise<void> {
    this.unwatch?.();
    await this.messages?.close();
    await this.loop;
  }

  private async run(messages: ConsumerMessages): Promise<void> {
    // The client stops pulling while enough wait.
    for await (const message of messages) await this.batches.add(message);
    await this.batches.drained();
  }

  private async record(batch: JsMsg[]): Promise<void> {
    const events = domainEventsOf(batch, this.logger);
    if (events.length === 0) return;
    const spans = tracingEnabled() ? events.map(({ message, event }) => startSpan(`${DELIVERIES_DURABLE} ${event.type}`, consumerSpan(message, event))) : [];
    try {
      const registrations = await fanOut(this.sql, DELIVERIES_DURABLE, events.map(({ event }) => event), traceContexts(events, spans), this.unsubscribed);
      for (const span of spans) endSpan(span);
      for (const { message } of events) message.ack();
      if (registrations.length > 0) this.dispatcher.wake(registrations);
    } catch (error) {
      for (const span of spans) endSpan(span, error);
      if (events.length > 1) {
        // Find the event that fails: every other one is recorded now.
        for (const { message } of events) await this.record([message]);
        return;
      }
      const [{ message, event }] = events as [{ message: JsMsg; event: DomainEvent }];
      const delay = redeliveryDelayMs(message);
      this.logger.warn({ err: error, eventId: event.id, type: event.type, retryInMs: delay }, 'event handler failed; will retry');
      message.nak(delay);
    }
  }
}

/**
 * Per event id, the traceparent of the consumer span that recorded it (each span continues the
 * trace of the request that wrote the event): its deliveries keep it for their own span's link.
 */
function traceContexts(events: readonly { event: DomainEvent }[], spans: readonly (Span | undefined)[]): Map<string, string> | undefined {
  if (spans.length === 0) return undefined;
  const contexts = new Map<string, string>();
  events.forEach(({ event }, index) => {
    const span = spans[index];
    if (span) contexts.set(event.id, traceparentOf(span));
  });
  return contexts;
}
