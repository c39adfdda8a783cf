/* eslint-disable @typescript-eslint/no-explicit-any -- HTTP bodies are checked by the assertions, not by types */
import { randomUUID } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import type { DomainEvent, DomainEventType } from '@service/contracts';
import { type ServiceSystem, SHARED_GATEWAY_ENV, startServiceSystem, TEST_DATABASE_URL, type TestSystem } from '@service/testing';
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
  const db = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await db.connect();
  let role = '';
  let base: ServiceSystem;
  try {
    base = await startServiceSystem({
      service: 'activity',
      env: ACTIVITY_TEST_ENV,
      gatewayEnv: { ...SHARED_GATEWAY_ENV },
      async prepare(schema, system) {
        role = `activity_${system.runId}`;
        await db.query(`CREATE ROLE "${role}" LOGIN`);
        await db.query(`GRANT USAGE ON SCHEMA "${schema}" TO "${role}"`);
        await db.query(`GRANT ALL ON ALL TABLES IN SCHEMA "${schema}" TO "${role}"`);
        const databaseUrl = new URL(TEST_DATABASE_URL);
        databaseUrl.username = role;
        return { DATABASE_URL: databaseUrl.toString() };
      },
    });
  } catch (error) {
    await db.end();
    throw error;
  }
  const { schema, stream } = base;
  if (options.withWallet) await base.startAlongside('wallet', WALLET_TEST_ENV);
  const jsm = await jetstreamManager(base.nats);
  const tokens = new Map<string, string>();

  return {
    system: base.system,
    url: base.url,
    db,
    schema,
    publish: (orgId, type, payload, publishOptions = {}) => base.publish(orgId, type, payload, publishOptions),
    async get(org, path) {
      let token = tokens.get(org);
      if (!token) {
        token = await base.token(org, 'member');
        tokens.set(org, token);
      }
      return base.call(token, 'GET', path) as Promise<Reply>;
    },
    async rebuild() {
      await base.service.stop();
      await jsm.consumers.delete(stream.EVENTS_STREAM, 'activity-projection');
      await db.query(`TRUNCATE "${schema}".activity_items`);
      await base.restart();
    },
    async setSchemaAccess(allowed) {
      await db.query(allowed ? `GRANT USAGE ON SCHEMA "${schema}" TO "${role}"` : `REVOKE USAGE ON SCHEMA "${schema}" FROM "${role}"`);
    },
    async stop() {
      await base.stop();
      await db.query(`DROP OWNED BY "${role}"`);
      await db.query(`DROP ROLE "${role}"`);
      await db.end();
    },
  };
}

export { eventually } from '@service/testing';

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

export function withdrawalPayload(
  walletId: string,
  fields: { id?: string; status?: string; createdAt?: string; observedAt?: string } = {},
) {
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
  return {
    event: 'portfolio_wallet.withdrawal.status_changed',
    observedAt: fields.observedAt ?? new Date().toISOString(),
    walletId,
    withdrawal,
  };
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
  return {
    event: 'portfolio_wallet.rebalance.status_changed',
    observedAt: fields.observedAt ?? new Date().toISOString(),
    walletId,
    rebalance,
  };
}
