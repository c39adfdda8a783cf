import type { ConsumerMessages, JetStreamClient, JetStreamManager, JsMsg } from '@nats-io/jetstream';
import { AckPolicy, DeliverPolicy } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import type { AnyDomainEvent } from '@service/contracts';
import { inSpan, SpanKind, type SpanOptions, TRACEPARENT } from '@service/tracing';
import type { EventLogger, SqlExecutor, TransactionalSql } from './sql.js';
import { type EventStreamConfig, ensureEventStream, isNotFound } from './stream.js';
import { watchConsumer } from './metrics.js';

export interface DurableConsumerOptions<Tx extends SqlExecutor> extends EventStreamConfig {
  /** Durable name: one per consuming purpose; replicas using it share the events. */
  readonly durable: string;
  /**
   * Subject to receive, e.g. `events.wallet.>`; every event when absent. One subject, not a list:
   * multi-subject filters need NATS 2.10 and the Debian server here is 2.9.
   */
  readonly filterSubject?: string;
  readonly db: TransactionalSql<Tx>;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  readonly logger: EventLogger;
  /** Applies one event inside the transaction that also records it as processed. */
  readonly handle: (event: AnyDomainEvent, tx: Tx) => Promise<void>;
  readonly ackWaitMs?: number;
  /**
   * Events handled at once (default 1). Above 1, events of this consumer may be applied in any
   * order, which consumers must tolerate anyway: arrival order is not guaranteed.
   */
  readonly concurrency?: number;
}

const MAX_RETRY_DELAY_MS = 60_000;

/**
 * Runs a durable pull consumer whose handler takes effect exactly once: each event is applied in a
 * transaction that also inserts `(consumer, event id)` into `processed_events`, and the message is
 * acked only after that commit. A redelivery after a crash finds the row and is just acked.
 */
export class DurableConsumer<Tx extends SqlExecutor> {
  private messages: ConsumerMessages | undefined;
  private loop: Promise<void> | undefined;
  private unwatch: (() => void) | undefined;

  constructor(private readonly options: DurableConsumerOptions<Tx>) {}

  async start(): Promise<void> {
    const { jsm, js, stream, durable } = this.options;
    await ensureEventStream(jsm, this.options);
    await ensureDurableConsumer(jsm, {
      stream,
      durable,
      filterSubject: this.options.filterSubject ?? `${this.options.subjectPrefix}.>`,
      ackWaitMs: this.options.ackWaitMs ?? 30_000,
    });
    const consumer = await js.consumers.get(stream, durable);
    this.messages = await consumer.consume({ max_messages: 64 });
    this.loop = this.run(this.messages);
    this.unwatch = watchConsumer(jsm, stream, durable);
  }

  async stop(): Promise<void> {
    this.unwatch?.();
    await this.messages?.close();
    await this.loop;
  }

  private async run(messages: ConsumerMessages): Promise<void> {
    const limit = Math.max(1, this.options.concurrency ?? 1);
    const inFlight = new Set<Promise<void>>();
    for await (const message of messages) {
      const handled = this.process(message).finally(() => inFlight.delete(handled));
      inFlight.add(handled);
      if (inFlight.size >= limit) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
  }

  private async process(message: JsMsg): Promise<void> {
    const { db, durable, handle, logger } = this.options;
    const event = parseDomainEvent(message);
    if (!event) {
      logger.error({ subject: message.subject, seq: message.seq }, 'dropping a message that is not a domain event');
      message.term();
      return;
    }
    try {
      // A consumer span continuing the trace of the request that wrote the event (tracing on).
      await inSpan(`${durable} ${event.type}`, consumerSpan(message, event), () =>
        db.$transaction(async (tx) => {
          const fresh = await tx.$executeRawUnsafe(
            'INSERT INTO processed_events (consumer, event_id) VALUES ($1, $2::uuid) ON CONFLICT DO NOTHING',
            durable,
            event.id,
          );
          if (fresh === 1) await handle(event, tx);
        }),
      );
      message.ack();
    } catch (error) {
      const delay = redeliveryDelayMs(message);
      logger.warn({ err: error, eventId: event.id, type: event.type, retryInMs: delay }, 'event handler failed; will retry');
      message.nak(delay);
    }
  }
}

/**
 * Creates the durable pull consumer (explicit acks, from the stream's start, redelivered without
 * limit) or brings an existing one's subject filter and ack wait up to date.
 */
export async function ensureDurableConsumer(
  jsm: JetStreamManager,
  options: { stream: string; durable: string; filterSubject: string; ackWaitMs: number },
): Promise<void> {
  const { stream, durable, filterSubject } = options;
  const ackWait = nanos(options.ackWaitMs);
  try {
    await jsm.consumers.info(stream, durable);
    await jsm.consumers.update(stream, durable, { filter_subject: filterSubject, ack_wait: ackWait });
  } catch (error) {
    if (!isNotFound(error)) throw error;
    await jsm.consumers.add(stream, {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: ackWait,
      max_deliver: -1,
      filter_subject: filterSubject,
    });
  }
}

/** How long a failed event waits before it is delivered again: doubling from 2 s, at most a minute. */
export function redeliveryDelayMs(message: JsMsg): number {
  return Math.min(1000 * 2 ** Math.min(message.info.deliveryCount, 16), MAX_RETRY_DELAY_MS);
}

/**
 * The domain event a message carries, or undefined when it is not one (to be terminated, not
 * retried). Its payload is trusted as the type's: only our outboxes publish on the stream.
 */
export function parseDomainEvent(message: JsMsg): AnyDomainEvent | undefined {
  try {
    const event = message.json<AnyDomainEvent>();
    const valid = typeof event?.id === 'string' && typeof event.type === 'string' && typeof event.orgId === 'string';
    return valid ? event : undefined;
  } catch {
    return undefined;
  }
}

/** The options of the span that handles `event`: a consumer span whose parent is the message's `traceparent`. */
export function consumerSpan(message: JsMsg, event: { readonly id: string }): SpanOptions {
  return {
    kind: SpanKind.CONSUMER,
    parent: message.headers?.get(TRACEPARENT),
    attributes: { 'messaging.system': 'nats', 'messaging.destination.name': message.subject, 'messaging.message.id': event.id },
  };
}
