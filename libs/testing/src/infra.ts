import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { applyMigrations } from '@service/migrator';
import pg from 'pg';
import type { NatsAccess } from './nats-server.js';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const TEST_DATABASE_URL = process.env['TEST_DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/service_test';
export const TEST_NATS_URL = process.env['TEST_NATS_URL'] ?? 'nats://127.0.0.1:4222';
export const TEST_REDIS_URL = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/** A short id that keeps one test run's schemas, streams and keys apart from every other run. */
export function newRunId(): string {
  return `t${randomBytes(5).toString('hex')}`;
}

/** Creates the test database on first use. */
export async function ensureTestDatabase(url = TEST_DATABASE_URL): Promise<void> {
  const target = new URL(url);
  const database = target.pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) {
      await client.query(`CREATE DATABASE "${database.replace(/"/g, '""')}"`).catch((error: { code?: string }) => {
        if (error.code !== '42P04' && error.code !== '23505') throw error;
      });
    }
  } finally {
    await client.end();
  }
}

export interface IsolatedSchema {
  readonly schema: string;
  drop(): Promise<void>;
}

/** A fresh schema with every migration of `apps/<app>` applied, as the real deploy would. */
export async function migratedSchema(app: string, runId: string, url = TEST_DATABASE_URL): Promise<IsolatedSchema> {
  await ensureTestDatabase(url);
  const schema = `${app.replace(/-service$/, '').replace(/-/g, '_')}_${runId}`;
  await applyMigrations({
    connectionString: url,
    schema,
    migrationsDir: path.join(REPO_ROOT, 'apps', app, 'prisma', 'migrations'),
  });
  return {
    schema,
    async drop() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}

export interface IsolatedStream {
  readonly EVENTS_STREAM: string;
  readonly EVENTS_SUBJECT_PREFIX: string;
  destroy(): Promise<void>;
}

/** Stream and subject prefix of one test run; `destroy` deletes the stream and its consumers. */
export function isolatedEventStream(runId: string, natsUrl = TEST_NATS_URL): IsolatedStream {
  const stream = `EVENTS_${runId.toUpperCase()}`;
  return {
    EVENTS_STREAM: stream,
    EVENTS_SUBJECT_PREFIX: `${runId}.events`,
    async destroy() {
      const connection = await connect({ servers: natsUrl });
      try {
        const jsm = await jetstreamManager(connection);
        await jsm.streams.delete(stream).catch(() => undefined);
      } finally {
        await connection.close();
      }
    },
  };
}

/**
 * The event stream of a run on `nats`: on a server of the shipped configuration, the production
 * stream and prefix (DOMAIN_EVENTS, `events`), the only ones its users may use, which the server
 * of the run (or of its Jest worker, whose test files take turns) holds for that run alone; on an
 * open server, the run's own ({@link isolatedEventStream}). `destroy` deletes it as the `ops` user.
 */
export function eventStreamOf(runId: string, nats: NatsAccess): IsolatedStream {
  if (!nats.passwords) return isolatedEventStream(runId, nats.url);
  const stream = 'DOMAIN_EVENTS';
  return {
    EVENTS_STREAM: stream,
    EVENTS_SUBJECT_PREFIX: 'events',
    async destroy() {
      const connection = await nats.connect('ops');
      try {
        const jsm = await jetstreamManager(connection);
        await jsm.streams.delete(stream).catch(() => undefined);
      } finally {
        await connection.close();
      }
    },
  };
}

/** Key webhook-service encrypts signing secrets with in tests (never used outside them). */
export const TEST_WEBHOOK_SECRET_ENCRYPTION_KEY = '74657374'.repeat(8);

/** Pepper identity-service hashes API keys with in tests (never used outside them). */
export const TEST_IDENTITY_KEY_PEPPER = '70657070'.repeat(8);

/** What a service of a test run is started with: its schema, the run's stream, the test servers. */
export function serviceTestEnv(
  schema: string,
  stream: Pick<IsolatedStream, 'EVENTS_STREAM' | 'EVENTS_SUBJECT_PREFIX'>,
): Record<string, string> {
  return {
    SERVICE_ENV: 'sandbox',
    NATS_URL: TEST_NATS_URL,
    DATABASE_URL: TEST_DATABASE_URL,
    DATABASE_SCHEMA: schema,
    EVENTS_STREAM: stream.EVENTS_STREAM,
    EVENTS_SUBJECT_PREFIX: stream.EVENTS_SUBJECT_PREFIX,
    // Fixed so a restarted webhook-service still reads the secrets it stored; test-only.
    WEBHOOK_SECRET_ENCRYPTION_KEY: TEST_WEBHOOK_SECRET_ENCRYPTION_KEY,
    IDENTITY_KEY_PEPPER: TEST_IDENTITY_KEY_PEPPER,
    // A stopped test service closes at once instead of sleeping its production grace period.
    SHUTDOWN_GRACE_MS: '0',
  };
}
