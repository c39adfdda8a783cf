import { jetstreamManager } from '@nats-io/jetstream';
import { updateEventStream } from '@service/events';
import { connectNats } from '@service/nats';
import { loadConfig, serviceConfigSpec } from '@service/service-runtime';
import type { OperatorNats } from './operator.js';

/** The stream's name and subject prefix, as the services read them (EVENTS_STREAM, EVENTS_SUBJECT_PREFIX; defaults DOMAIN_EVENTS, events). */
export function eventStreamFromEnv(env: Record<string, string | undefined> = process.env): { stream: string; subjectPrefix: string } {
  const { EVENTS_STREAM, EVENTS_SUBJECT_PREFIX } = serviceConfigSpec('unused');
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const config = loadConfig({ EVENTS_STREAM, EVENTS_SUBJECT_PREFIX }, given);
  return { stream: config.EVENTS_STREAM, subjectPrefix: config.EVENTS_SUBJECT_PREFIX };
}

/**
 * Creates the stream of domain events, or brings its subjects and duplicate window up to date: the
 * services may create it on a new cluster but never change it. Runs as the NATS user `ops`, the
 * only one the shipped configuration lets manage streams.
 */
export async function ensureStream(
  nats: OperatorNats,
  config: { stream: string; subjectPrefix: string },
): Promise<'created' | 'updated' | 'unchanged'> {
  const connection = await connectNats({ url: nats.url, name: 'admin-cli', auth: nats.auth });
  try {
    return await updateEventStream(await jetstreamManager(connection), config);
  } finally {
    await connection.close();
  }
}
