import type { JetStreamManager, StreamConfig } from '@nats-io/jetstream';
import { DiscardPolicy, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import type { EventLogger } from './event-logger.js';

export interface EventStreamConfig {
  /** JetStream stream name, e.g. `DOMAIN_EVENTS`; tests use one per run. */
  readonly stream: string;
  /** Subject prefix of every event, e.g. `events`; the stream captures `<prefix>.>`. */
  readonly subjectPrefix: string;
}

const DUPLICATE_WINDOW_MS = 10 * 60 * 1000;

/** What the operator command runs to bring the stream up to date (k8s/base/nats/README.md). */
export const ENSURE_EVENT_STREAM_COMMAND = 'npm run -s admin -- streams ensure';

/**
 * The stream of domain events. Events are kept (file storage, no age limit) so a projection can be
 * rebuilt from the beginning; the duplicate window drops an event the relay publishes twice after
 * a crash.
 */
export function eventStreamSettings(config: EventStreamConfig): Partial<StreamConfig> & { name: string; subjects: string[] } {
  return {
    name: config.stream,
    subjects: [`${config.subjectPrefix}.>`],
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    discard: DiscardPolicy.Old,
    duplicate_window: nanos(DUPLICATE_WINDOW_MS),
  };
}

/**
 * What a service does at boot: creates the stream when there is none (a new cluster), and
 * otherwise leaves it as it is. Resolves to how the existing stream differs from
 * {@link eventStreamSettings} (empty: it matches), for the caller to log: the services may create
 * the stream but never change it (k8s/base/nats/nats-server.conf grants them STREAM.CREATE, not
 * UPDATE, DELETE or PURGE); the operator brings it up to date ({@link updateEventStream}, through
 * {@link ENSURE_EVENT_STREAM_COMMAND} as the NATS user `ops`).
 */
export async function ensureEventStream(jsm: JetStreamManager, config: EventStreamConfig): Promise<string[]> {
  const wanted = eventStreamSettings(config);
  try {
    const { config: current } = await jsm.streams.info(config.stream);
    return differencesOf(current, wanted);
  } catch (error) {
    if (!isNotFound(error)) throw error;
    try {
      await jsm.streams.add(wanted);
    } catch (addError) {
      // Another replica created it first.
      if (!/already in use|exists/i.test((addError as Error).message)) throw addError;
    }
    return [];
  }
}

/**
 * The operator's side (tools/admin `streams ensure`, as the NATS user `ops`): creates the stream, or
 * brings an existing one's subjects and duplicate window to {@link eventStreamSettings}.
 */
export async function updateEventStream(jsm: JetStreamManager, config: EventStreamConfig): Promise<'created' | 'updated' | 'unchanged'> {
  const wanted = eventStreamSettings(config);
  try {
    const { config: current } = await jsm.streams.info(config.stream);
    if (differencesOf(current, wanted).length === 0) return 'unchanged';
    await jsm.streams.update(config.stream, { subjects: wanted.subjects, duplicate_window: wanted.duplicate_window });
    return 'updated';
  } catch (error) {
    if (!isNotFound(error)) throw error;
    await jsm.streams.add(wanted);
    return 'created';
  }
}

/** The settings a service relies on where `current` is not `wanted`: its subjects and duplicate window. */
function differencesOf(current: Partial<StreamConfig>, wanted: ReturnType<typeof eventStreamSettings>): string[] {
  const differences: string[] = [];
  if (JSON.stringify(current.subjects ?? []) !== JSON.stringify(wanted.subjects))
    differences.push(`subjects ${JSON.stringify(current.subjects ?? [])}, expected ${JSON.stringify(wanted.subjects)}`);
  if (current.duplicate_window !== wanted.duplicate_window)
    differences.push(`duplicate_window ${current.duplicate_window ?? 'none'} ns, expected ${wanted.duplicate_window} ns`);
  return differences;
}

/** Logs how the stream differs from what the services expect, and who may fix it. */
export function warnOfStreamDifferences(logger: EventLogger, config: EventStreamConfig, differences: readonly string[]): void {
  if (differences.length === 0) return;
  logger.warn(
    { stream: config.stream, differences },
    `the event stream differs from this service's configuration and services may not change it: run \`${ENSURE_EVENT_STREAM_COMMAND}\` (NATS user ops)`,
  );
}

export function isNotFound(error: unknown): boolean {
  return /not found/i.test((error as Error | undefined)?.message ?? '');
}
