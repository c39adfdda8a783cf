/* eslint-disable @typescript-eslint/no-explicit-any -- HTTP bodies are checked by the assertions, not by types */
import { randomUUID } from 'node:crypto';
import { jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { type DomainEvent, type DomainEventType, eventSubject } from '@service/contracts';
import {
  type AppProcess,
  type IsolatedSchema,
  isolatedEventStream,
  migratedSchema,
  serviceTestEnv,
  startApp,
  startTestSystem,
  TEST_DATABASE_URL,
  type TestSystem,
} from '@service/testing';
import pg from 'pg';

export const ACTIVITY_TEST_ENV = { ACTIVITY_EVENT_ACK_WAIT_MS: '1000', ACTIVITY_QUERY_TIMEOUT_MS: '1000' };
const WALLET_TEST_ENV = { WALLET_DEPOSIT_SETTLEMENT_MS: '100', WALLET_REBALANCE_PROCESSING_MS: '100', WALLET_WORKER_POLL_MS: '25' };

export interface Reply<T = any> {
  status: number;
  body: T;
}

export interface ActivitySystem {
  readonly system: TestSystem;
  readonly url: string;
  /** Superuser connection for the test's own checks and for revoking the service's access. */
  readonly db: pg.Client;
  readonly schema: string;
  publish(orgId: string, type: DomainEventType, payload: unknown, options?: { id?: string; msgId?: string }): Promise<DomainEvent>;
  get<T = any>(org: string, path: string): Promise<Reply<T>>;
  /** Deletes the durable and empties the projection, then starts the service again: it rebuilds from the stream. */
  rebuild(): Promise<void>;
  /** Takes the service's database role's access to its schema away, or gives it back. */
  setSchemaAccess(allowed: boolean): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The built gateway and activity-service (and optionally wallet-service) as processes on the
 * real PostgreSQL, NATS and Redis. activity-service logs in as its own role on its run's schema,
 * so a test can revoke that role's access without touching anyone else.
 */
export async function startActivitySystem(options: { withWallet?: boolean } = {}): Promise<ActivitySystem> {
  const system = await startTestSystem({
    services: [],
    gateways: 1,
    gatewayEnv: { RATE_LIMIT_READ_PER_MINUTE: '1000000', RATE_LIMIT_WRITE_PER_MINUTE: '1000000', NATS_REQUEST_TIMEOUT_MS: '5000' },
  });
  const stream = isolatedEventStream(system.runId, system.natsUrl);
  const schemas: IsolatedSchema[] = [await migratedSchema('activity-service', system.runId)];
  const schema = schemas[0]!.schema;
  const role = `activity_${system.runId}`;
  const db = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await db.connect();
  await db.query(`CREATE ROLE "${role}" LOGIN`);
  await db.query(`GRANT USAGE ON SCHEMA "${schema}" TO "${role}"`);
  await db.query(`GRANT ALL ON ALL TABLES IN SCHEMA "${schema}" TO "${role}"`);
  const databaseUrl = new URL(TEST_DATABASE_URL);
  databaseUrl.username = role;
  const env = { ...serviceTestEnv(schema, stream), NATS_URL: system.natsUrl, DATABASE_URL: databaseUrl.toString(), ...ACTIVITY_TEST_ENV };
  const launch = () => startApp('activity-service', env, (line) => line.includes('activity service ready'));
  let service: AppProcess = await launch();
  let wallet: AppProcess | undefined;
  if (options.withWallet) {
    schemas.push(await migratedSchema('wallet-service', system.runId));
    const walletEnv = { ...serviceTestEnv(schemas[1]!.schema, stream), NATS_URL: system.natsUrl, ...WALLET_TEST_ENV };
    wallet = await startApp('wallet-service', walletEnv, (line) => line.includes('wallet service ready'));
  }
  const nats: NatsConnection = await connect({ servers: system.natsUrl });
  const js = jetstream(nats);
  const jsm: JetStreamManager = await jetstreamManager(nats);
  const url = system.gateways[0]!.url;
  const tokens = new Map<string, string>();

  return {
    system,
    url,
    db,
    schema,
    async publish(orgId, type, payload, publishOptions = {}) {
      const event: DomainEvent = { id: publishOptions.id ?? randomUUID(), type, orgId, source: 'wallet', occurredAt: new Date().toISOString(), payload };
      await js.publish(eventSubject(stream.EVENTS_SUBJECT_PREFIX, 'wallet', type), JSON.stringify(event), {
        msgID: publishOptions.msgId ?? event.id,
      });
      return event;
    },
    async get(org, path) {
      let token = tokens.get(org);
      if (!token) {
        token = await system.auth.token({ org, role: 'member', sub: `user_${org}` });
        tokens.set(org, token);
      }
      const response = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });
      return { status: response.status, body: (await response.json()) as never };
    },
    async rebuild() {
      await service.stop();
      await jsm.consumers.delete(stream.EVENTS_STREAM, 'activity-projection');
      await db.query(`TRUNCATE "${schema}".activity_items, "${schema}".processed_events`);
      service = await launch();
    },
    async setSchemaAccess(allowed) {
      await db.query(allowed ? `GRANT USAGE ON SCHEMA "${schema}" TO "${role}"` : `REVOKE USAGE ON SCHEMA "${schema}" FROM "${role}"`);
    },
    async stop() {
      await Promise.all([service.stop(), wallet?.stop()]);
      await nats.close();
      await system.stop();
      await Promise.all(schemas.map((isolated) => isolated.drop()));
      await db.query(`DROP OWNED BY "${role}"`);
      await db.query(`DROP ROLE "${role}"`);
      await db.end();
    },
  };
}

/** Polls until `done` holds, or fails after `timeoutMs`. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not reached in ${timeoutMs} ms; last value: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

// ---------- crafted wallet events ----------

export interface DepositFields {
  id?: string;
  status?: string;
  amount?: string;
  createdAt?: string;
  completedAt?: string | null;
  observedAt?: string;
}

export function depositPayload(walletId: string, fields: DepositFields = {}) {
  const deposit = {
    id: fields.id ?? randomUUID(),
    amount: fields.amount ?? '10.000000',
    token: 'usdc',
    chain: 'ethereum_sepolia',
    fromAddress: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
    txHash: `0x${'ab'.repeat(32)}`,
    status: fields.status ?? 'processing',
    createdAt: fields.createdAt ?? new Date().toISOString(),
    completedAt: fields.completedAt ?? null,
  };
  return { event: 'portfolio_wallet.deposit.status_changed', observedAt: fields.observedAt ?? new Date().toISOString(), walletId, deposit };
}

export function withdrawalPayload(walletId: string, fields: { id?: string; status?: string; createdAt?: string; observedAt?: string } = {}) {
  const withdrawal = {
    id: fields.id ?? randomUUID(),
    amountRequestedUsd: '25.000000',
    amountPaidUsd: null,
    feeUsd: '0.000000',
    destinationChain: 'ethereum_sepolia',
    destinationAddress: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
    destinationToken: 'usdc',
    status: fields.status ?? 'processing',
    legsCompleted: 0,
    legsTotal: 1,
    payoutLegs: [],
    failureReason: null,
    createdAt: fields.createdAt ?? new Date().toISOString(),
    completedAt: null,
  };
  return { event: 'portfolio_wallet.withdrawal.status_changed', observedAt: fields.observedAt ?? new Date().toISOString(), walletId, withdrawal };
}

export function rebalancePayload(walletId: string, fields: { id?: string; status?: string; createdAt?: string; observedAt?: string } = {}) {
  const rebalance = {
    id: fields.id ?? randomUUID(),
    requestId: randomUUID(),
    status: fields.status ?? 'created',
    allocations: [
      { from: 'cash:ethereum_sepolia:usdc', to: 'service-jaaa-usdc-vault', amountUsd: '7.250000' },
      { from: 'service-jaaa-usdc-vault', to: 'cash:ethereum_sepolia:usdc', amountUsd: '0.750001' },
    ],
    createdAt: fields.createdAt ?? new Date().toISOString(),
    completedAt: null,
  };
  return { event: 'portfolio_wallet.rebalance.status_changed', observedAt: fields.observedAt ?? new Date().toISOString(), walletId, rebalance };
}
