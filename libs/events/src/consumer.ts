import type { ConsumerMessages, JetStreamClient, JetStreamManager, JsMsg } from '@nats-io/jetstream';
import { AckPolicy, DeliverPolicy } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import { ALL_ORGANIZATIONS, ALL_ORGANIZATIONS_EVENTS, type AnyDomainEvent, eventSubject, publisherOf } from '@service/contracts';
import { endSpan, type Span, SpanKind, type SpanOptions, startSpan, TRACEPARENT, tracingEnabled } from '@service/tracing';
import { GroupCommit, type SqlExecutor, type TransactionalSql } from '@service/sql';
import type { EventLogger } from './event-logger.js';
import { type EventStreamConfig, ensureEventStream, isNotFound, warnOfStreamDifferences } from './stream.js';
import { refusedEvents, watchConsumer } from './metrics.js';

/** Where a durable consumer's events come from and how they are batched. */
export interface ConsumerStreamOptions extends EventStreamConfig {
  /** Durable name: one per consuming purpose; replicas using it share the events. */
  readonly durable: string;
  /**
   * Subject to receive, e.g. `events.wallet.>`; every event when absent. One subject, not a list:
   * multi-subject filters need NATS 2.10 and the Debian server here is 2.9.
   */
  readonly filterSubject?: string;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  readonly logger: EventLogger;
  readonly ackWaitMs?: number;
  /**
   * Most events recorded in one transaction (default 1). Events arriving while every transaction
   * slot is busy wait and go together in the next one (group commit), so a busy stream costs one
   * transaction per batch rather than per event. Above 1, events may be applied in any order,
   * which consumers must tolerate anyway: arrival order is not guaranteed.
   */
  readonly batchSize?: number;
  /** Transactions at once (default 1); above 1 the same caveat on order holds. */
  readonly concurrency?: number;
  /**
   * How long an event may wait for others before a transaction starts with less than a full batch
   * (default 0: at once when a slot is free; see {@link GroupCommit}).
   */
  readonly lingerMs?: number;
  /** Events waiting for a transaction beyond which no more are taken from the stream (default a batch per slot). */
  readonly maxWaiting?: number;
}

export interface DurableConsumerOptions<Tx extends SqlExecutor> extends ConsumerStreamOptions {
  readonly db: TransactionalSql<Tx>;
  /** Applies one event inside the transaction that also records it as processed. */
  readonly handle: (event: AnyDomainEvent, tx: Tx) => Promise<void>;
  /**
   * Applies the new events of a batch at once (one statement for all, say), inside the
   * transaction that records them as processed; {@link handle} runs for each when absent.
   */
  readonly handleBatch?: (events: AnyDomainEvent[], tx: Tx) => Promise<void>;
  /**
   * The handler's effect is the same however often it runs for an event, in any order (a
   * convergent upsert, say): then no `processed_events` row is written, and each transaction runs
   * only the handler. Default false: every event is recorded as processed, and applied once.
   */
  readonly idempotentHandler?: boolean;
}

/** An event taken from the stream: its message, and the consumer span handling it (undefined while tracing is off). */
export interface ConsumedEvent {
  readonly message: JsMsg;
  readonly event: AnyDomainEvent;
  readonly span: Span | undefined;
}

/**
 * A consumer whose handler records its events as processed itself, in the statement that applies
 * them (webhook-service's fan-out), rather than in a transaction of the consumer's.
 */
export interface SelfRecordingConsumerOptions extends ConsumerStreamOptions {
  /**
   * Applies a batch (a redelivery included) and records it as processed, atomically. Once it
   * resolves the messages are acked, then the function it resolved to, if any, runs (to act on
   * what was committed); when it rejects, the batch is retried as for a transaction that failed.
   */
  readonly commit: (events: readonly ConsumedEvent[]) => Promise<(() => void) | undefined>;
}

const MAX_RETRY_DELAY_MS = 60_000;

/**
 * Runs a durable pull consumer whose handler takes effect exactly once: each event is applied in a
 * transaction that also inserts `(consumer, event id)` into `processed_events`, and the message is
 * acked only after that commit. A redelivery after a crash finds the row and is just acked.
 *
 * A handler that is idempotent by itself ({@link DurableConsumerOptions.idempotentHandler}) skips
 * that record: a redelivery is applied again and changes nothing. The record costs a statement
 * whose answer the handler waits for (one round trip more per transaction) and a row per event
 * that nothing ever deletes. A handler that records the events itself, in the statement that applies
 * them, takes the place of the transaction ({@link SelfRecordingConsumerOptions}).
 *
 * A batch that fails is retried event by event, so every other event is applied at once and the
 * one that fails is given back with a growing delay ({@link redeliveryDelayMs}); a message that is
 * not a domain event, or an event its type's publisher did not send ({@link refusalOf}), is
 * terminated before any handler sees it.
 */
export class DurableConsumer<Tx extends SqlExecutor = SqlExecutor> {
  private messages: ConsumerMessages | undefined;
  private loop: Promise<void> | undefined;
  private unwatch: (() => void) | undefined;
  private readonly batchSize: number;
  /** Messages taken from the stream, in transactions of a batch. */
  private readonly batches: GroupCommit<JsMsg>;

  constructor(private readonly options: DurableConsumerOptions<Tx> | SelfRecordingConsumerOptions) {
    this.batchSize = Math.max(1, options.batchSize ?? 1);
    this.batches = new GroupCommit({
      batchSize: this.batchSize,
      concurrency: Math.max(1, options.concurrency ?? 1),
      lingerMs: options.lingerMs ?? 0,
      maxWaiting: options.maxWaiting,
      write: (batch) => this.process(batch),
      onError: (error) =>
        options.logger.error(
          { err: error, durable: options.durable },
          'event batch failed unexpectedly; its events come again after the ack wait',
        ),
    });
  }

  async start(): Promise<void> {
    const { jsm, js, stream, durable } = this.options;
    warnOfStreamDifferences(this.options.logger, this.options, await ensureEventStream(jsm, this.options));
    await ensureDurableConsumer(jsm, {
      stream,
      durable,
      filterSubject: this.options.filterSubject ?? `${this.options.subjectPrefix}.>`,
      ackWaitMs: this.options.ackWaitMs ?? 30_000,
    });
    const consumer = await js.consumers.get(stream, durable);
    this.messages = await consumer.consume({ max_messages: Math.max(64, this.batchSize) });
    this.loop = this.run(this.messages);
    this.unwatch = watchConsumer(jsm, stream, durable);
  }

  async stop(): Promise<void> {
    this.unwatch?.();
    await this.messages?.close();
    await this.loop;
  }

  private async run(messages: ConsumerMessages): Promise<void> {
    // The client stops pulling while enough wait to fill every slot's next batch.
    for await (const message of messages) await this.batches.add(message);
    await this.batches.drained();
  }

  private async process(batch: readonly JsMsg[]): Promise<void> {
    const { durable, logger, subjectPrefix } = this.options;
    const parsed = domainEventsOf(batch, logger, { subjectPrefix, durable });
    if (parsed.length === 0) return;
    // A consumer span per event continuing the trace of the request that wrote it (tracing on).
    const tracing = tracingEnabled();
    const events: ConsumedEvent[] = parsed.map(({ message, event }) => ({
      message,
      event,
      span: tracing ? startSpan(`${durable} ${event.type}`, consumerSpan(message, event)) : undefined,
    }));
    try {
      const committed = await this.commit(events);
      for (const { span } of events) endSpan(span);
      for (const { message } of events) message.ack();
      committed?.();
    } catch (error) {
      for (const { span } of events) endSpan(span, error);
      if (events.length > 1) {
        // Find the event that fails: every other one is applied now.
        for (const { message } of events) await this.process([message]);
        return;
      }
      const [{ message, event }] = events as [ConsumedEvent];
      const delay = redeliveryDelayMs(message);
      logger.warn({ err: error, eventId: event.id, type: event.type, retryInMs: delay }, 'event handler failed; will retry');
      message.nak(delay);
    }
  }

  /** Applies a batch and records it as processed: in a transaction of the consumer's, or by the handler's own statement. */
  private async commit(events: readonly ConsumedEvent[]): Promise<(() => void) | undefined> {
    const options = this.options;
    if ('commit' in options) return options.commit(events);
    await options.db.$transaction(async (tx) => {
      const fresh = options.idempotentHandler ? uniqueEvents(events) : await this.recordProcessed(options, tx, events);
      if (fresh.length > 0) await apply(options, fresh, tx);
    });
    return undefined;
  }

  /** Inserts `(consumer, event id)` for each event; returns the events not processed before, once each. */
  private async recordProcessed(
    options: DurableConsumerOptions<Tx>,
    tx: Tx,
    events: readonly { event: AnyDomainEvent }[],
  ): Promise<AnyDomainEvent[]> {
    const { durable } = options;
    const [only] = events;
    if (events.length === 1 && only) {
      const inserted = await tx.$executeRawUnsafe(INSERT_PROCESSED, durable, only.event.id);
      return inserted === 1 ? [only.event] : [];
    }
    const rows = await tx.$queryRawUnsafe<{ event_id: string }[]>(
      INSERT_PROCESSED_BATCH,
      durable,
      events.map(({ event }) => event.id),
    );
    const fresh = new Set(rows.map((row) => row.event_id));
    return uniqueEvents(events.filter(({ event }) => fresh.has(event.id.toLowerCase())));
  }
}

/** Runs the handler on the new events of a batch: all at once when it takes batches. */
async function apply<Tx extends SqlExecutor>(options: DurableConsumerOptions<Tx>, events: AnyDomainEvent[], tx: Tx): Promise<void> {
  const { handle, handleBatch } = options;
  if (handleBatch) {
    await handleBatch(events, tx);
    return;
  }
  for (const event of events) await handle(event, tx);
}

/** The events of a batch, an id that came twice (a publisher's retry) once. */
function uniqueEvents(events: readonly { event: AnyDomainEvent }[]): AnyDomainEvent[] {
  const unique = new Map<string, AnyDomainEvent>();
  for (const { event } of events) unique.set(event.id.toLowerCase(), event);
  return [...unique.values()];
}

const INSERT_PROCESSED = 'INSERT INTO processed_events (consumer, event_id) VALUES ($1, $2::uuid) ON CONFLICT DO NOTHING';
/** One row per id (an id twice in a batch, a redelivery, is inserted once); returns the new ids. */
const INSERT_PROCESSED_BATCH =
  'INSERT INTO processed_events (consumer, event_id) SELECT $1, unnest($2::uuid[]) ON CONFLICT DO NOTHING RETURNING event_id::text';

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
 * retried). Its payload is trusted as the type's once {@link refusalOf} finds nothing wrong: only
 * the type's publisher may publish on its subject.
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

/**
 * Why an event that came on `subject` must not be acted on, or undefined when it may. The subject
 * is the only part the server vouches for (each service's user publishes only under
 * `<prefix>.<service>.>`), so an event counts only on the exact subject its type's publisher uses
 * (`EVENT_PUBLISHERS` of `@service/contracts`), and only the types of `ALL_ORGANIZATIONS_EVENTS`
 * may name every organization (`orgId` `*`). Otherwise any service's credential could publish a
 * wallet event, for every organization, that webhook-service would sign and deliver.
 */
export function refusalOf(
  subject: string,
  event: { readonly type: string; readonly orgId: string },
  subjectPrefix: string,
): string | undefined {
  const publisher = publisherOf(event.type);
  if (!publisher) return 'unknown event type';
  if (subject !== eventSubject(subjectPrefix, publisher, event.type as AnyDomainEvent['type'])) return `not published by ${publisher}`;
  if (event.orgId === ALL_ORGANIZATIONS && !(ALL_ORGANIZATIONS_EVENTS as readonly string[]).includes(event.type)) {
    return 'all organizations for an event of one';
  }
  return undefined;
}

/**
 * The domain events of a batch of messages; a message that is not one, or an event refused by
 * {@link refusalOf}, is logged (subject and type, never the payload), counted and terminated (not
 * retried).
 */
export function domainEventsOf(
  batch: readonly JsMsg[],
  logger: EventLogger,
  { subjectPrefix, durable }: { readonly subjectPrefix: string; readonly durable: string },
): { message: JsMsg; event: AnyDomainEvent }[] {
  const events: { message: JsMsg; event: AnyDomainEvent }[] = [];
  for (const message of batch) {
    const event = parseDomainEvent(message);
    if (!event) {
      logger.error({ subject: message.subject, seq: message.seq }, 'dropping a message that is not a domain event');
      message.term();
      continue;
    }
    const refusal = refusalOf(message.subject, event, subjectPrefix);
    if (refusal) {
      logger.warn(
        { subject: message.subject, type: event.type, seq: message.seq, durable, refusal },
        'refusing an event its publisher did not send',
      );
      refusedEvents.labels(durable).inc();
      message.term();
      continue;
    }
    events.push({ message, event });
  }
  return events;
}

/** The options of the span that handles `event`: a consumer span whose parent is the message's `traceparent`. */
export function consumerSpan(message: JsMsg, event: { readonly id: string }): SpanOptions {
  return {
    kind: SpanKind.CONSUMER,
    parent: message.headers?.get(TRACEPARENT),
    attributes: { 'messaging.system': 'nats', 'messaging.destination.name': message.subject, 'messaging.message.id': event.id },
  };
}
