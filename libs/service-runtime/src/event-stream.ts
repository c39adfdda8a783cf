import { type JetStreamClient, type JetStreamManager, jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from 'pino';
import type { ServiceConfig } from './config.js';

/** What the outbox relay and every durable consumer of a service take from its configuration and NATS connection. */
export interface ServiceEventStream {
  readonly stream: string;
  readonly subjectPrefix: string;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  readonly logger: Logger;
}

/**
 * The service's event stream (`EVENTS_STREAM`, `EVENTS_SUBJECT_PREFIX`) on its JetStream
 * connection, with its logger: spread into `OutboxRelay`'s or a `DurableConsumer`'s options.
 */
export async function serviceEventStream(
  config: Pick<ServiceConfig, 'EVENTS_STREAM' | 'EVENTS_SUBJECT_PREFIX'>,
  connection: NatsConnection,
  logger: Logger,
): Promise<ServiceEventStream> {
  return {
    stream: config.EVENTS_STREAM,
    subjectPrefix: config.EVENTS_SUBJECT_PREFIX,
    js: jetstream(connection),
    jsm: await jetstreamManager(connection),
    logger,
  };
}
