import type { JetStreamManager } from '@nats-io/jetstream';
import { DiscardPolicy, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';

export interface EventStreamConfig {
  /** JetStream stream name, e.g. `DOMAIN_EVENTS`; tests use one per run. */
  readonly stream: string;
  /** Subject prefix of every event, e.g. `events`; the stream captures `<prefix>.>`. */
  readonly subjectPrefix: string;
}

const DUPLICATE_WINDOW_MS = 10 * 60 * 1000;

/**
 * Creates the stream of domain events, or brings an existing one to this configuration. Events
 * are kept (file storage, no age limit) so a projection can be rebuilt from the beginning; the
 * duplicate window drops an event the relay publishes twice after a crash.
 */
export async function ensureEventStream(jsm: JetStreamManager, config: EventStreamConfig): Promise<void> {
  const wanted = {
    name: config.stream,
    subjects: [`${config.subjectPrefix}.>`],
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    discard: DiscardPolicy.Old,
    duplicate_window: nanos(DUPLICATE_WINDOW_MS),
  };
  try {
    await jsm.streams.info(config.stream);
    await jsm.streams.update(config.stream, { subjects: wanted.subjects, duplicate_window: wanted.duplicate_window });
  } catch (error) {
    if (!isNotFound(error)) throw error;
    try {
      await jsm.streams.add(wanted);
    } catch (addError) {
      // Another replica created it first.
      if (!/already in use|exists/i.test((addError as Error).message)) throw addError;
    }
  }
}

export function isNotFound(error: unknown): boolean {
  return /not found/i.test((error as Error | undefined)?.message ?? '');
}
