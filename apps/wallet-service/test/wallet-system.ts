/* eslint-disable @typescript-eslint/no-explicit-any -- HTTP bodies are checked by the assertions, not by types */
import { ServiceApiError, ServiceClient } from '@service/sdk';
import {
  type AppProcess,
  type ServiceSystem,
  SHARED_GATEWAY_ENV,
  startServiceSystem,
  TEST_DATABASE_URL,
  type TestSystem,
} from '@service/testing';
import pg from 'pg';

/** Delays scaled down so a workflow runs in a fraction of a second, and sandbox yield runs fast. */
export const WALLET_TEST_ENV = {
  WALLET_DEPOSIT_SETTLEMENT_MS: '100',
  WALLET_REBALANCE_PROCESSING_MS: '100',
  WALLET_WORKER_POLL_MS: '25',
  WALLET_YIELD_TIME_SCALE: '100000',
  WALLET_MAX_PER_ORG: '40',
  WALLET_PAYOUT_STEP_MS: '40',
};

export interface WalletSystem {
  readonly system: TestSystem;
  readonly url: string;
  readonly schema: string;
  readonly db: pg.Client;
  /** The wallet service's process (its log lines, whether it still runs). */
  readonly service: AppProcess;
  /** Publishes an event on the run's stream as `source` would (e.g. risk-service's `risk.metrics.observed`). */
  readonly publish: ServiceSystem['publish'];
  stop(): Promise<void>;
}

/**
 * The built gateway and wallet service (with the test delays) as processes on the real PostgreSQL,
 * NATS and Redis; with `webhookEnv`, webhook-service runs beside them with that configuration;
 * with `databaseUrl`, the wallet service and `db` use that PostgreSQL (a cluster of the test's own).
 */
export async function startWalletSystem(
  extraEnv: Record<string, string> = {},
  webhookEnv?: Record<string, string>,
  databaseUrl = TEST_DATABASE_URL,
): Promise<WalletSystem> {
  const base = await startServiceSystem({
    service: 'wallet',
    env: { ...WALLET_TEST_ENV, ...extraEnv },
    gatewayEnv: { ...SHARED_GATEWAY_ENV },
    databaseUrl,
  });
  if (webhookEnv) await base.startAlongside('webhook', webhookEnv);
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  return {
    system: base.system,
    url: base.url,
    schema: base.schema,
    db,
    get service() {
      return base.service;
    },
    publish: (orgId, type, payload, options) => base.publish(orgId, type, payload, options),
    async stop() {
      await db.end();
      await base.stop();
    },
  };
}

export interface Reply<T = any> {
  status: number;
  body: T;
}

/**
 * HTTP through the gateway as one organization and role, by the SDK: `sdk` for typed calls,
 * `call` and its shorthands for any route by path with the answer as it came (status and body).
 */
export class Client {
  readonly sdk: ServiceClient;

  constructor(url: string, token: string) {
    this.sdk = new ServiceClient({ token, baseUrl: url });
  }

  static async of(system: WalletSystem, org: string, role = 'owner'): Promise<Client> {
    return new Client(system.url, await system.system.auth.token({ org, role, sub: `user_${org}_${role}` }));
  }

  async call<T = any>(method: string, path: string, body?: unknown): Promise<Reply<T>> {
    const reply = await this.sdk.core.send<T>(method, path, typeof body === 'string' ? { rawBody: body } : { body });
    return { status: reply.status, body: reply.body };
  }

  get<T = any>(path: string) {
    return this.call<T>('GET', path);
  }
  post<T = any>(path: string, body: unknown) {
    return this.call<T>('POST', path, body);
  }
  patch<T = any>(path: string, body: unknown) {
    return this.call<T>('PATCH', path, body);
  }
  delete<T = any>(path: string) {
    return this.call<T>('DELETE', path);
  }

  /** Creates a wallet (the SDK adds its requestId) and waits until it is provisioned. */
  async idleWallet(
    strategy: Record<string, unknown> = { usdc: [{ yieldSourceId: 'service-jaaa-usdc-vault', pct: 100 }] },
    autoRebalance = false,
  ): Promise<any> {
    const created = await this.sdk.wallets.create({ autoRebalance, strategy: { allocations: strategy } });
    return this.waitFor(`/v2/wallets/${created.id}`, (wallet) => wallet.status === 'idle');
  }

  /** Polls a resource until `done` holds (or fails after `timeoutMs`). */
  async waitFor(path: string, done: (body: any) => boolean, timeoutMs = 5_000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const reply = await this.get(path);
      if (reply.status === 200 && done(reply.body)) return reply.body;
      if (Date.now() > deadline) throw new Error(`${path} did not reach the expected state: ${JSON.stringify(reply.body)}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /** A completed deposit of `amountUsd`. */
  async deposit(walletId: string, amountUsd: string, extra: object = {}): Promise<any> {
    const created = await this.sdk.deposits.simulate(walletId, { amountUsd, ...extra });
    return this.waitFor(`/v2/wallets/${walletId}/deposits/${created.id}`, (deposit) => deposit.status === 'completed');
  }

  /** An idle wallet holding `cashUsd` in Sepolia USDC cash and the given amounts in yield sources. */
  async fundedWallet(cashUsd: string, invested: Record<string, string> = {}): Promise<any> {
    const wallet = await this.idleWallet();
    const total = Object.values(invested).reduce((sum, usd) => sum + micros(usd), micros(cashUsd));
    await this.deposit(wallet.id, (Number(total) / 1e6).toFixed(6));
    const moves = Object.entries(invested).map(([to, amountUsd]) => ({ from: 'cash:ethereum_sepolia:usdc', to, amountUsd }));
    if (moves.length > 0) await this.allocateAndSettle(wallet.id, moves);
    return wallet;
  }

  /** Allocates and waits for the workflow to finish moving the amounts. */
  async allocateAndSettle(walletId: string, allocations: { from: string; to: string; amountUsd: string }[]): Promise<any> {
    await this.sdk.wallets.allocate(walletId, { allocations });
    return this.waitFor(`/v2/wallets/${walletId}`, (wallet) => wallet.status === 'idle' && wallet.balance.reservedUsd === '0.000000');
  }
}

/** The status and body of the SDK error a call is expected to end with, to assert them exactly. */
export async function failure(call: Promise<unknown>): Promise<Reply> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ServiceApiError) return { status: error.status, body: error.body };
    throw error;
  }
  throw new Error('the call succeeded');
}

export interface OutboxRow {
  type: string;
  payload: Record<string, any>;
}

/** The events the wallet service wrote for one wallet, oldest first. */
export async function eventsOf(system: WalletSystem, walletId: string): Promise<OutboxRow[]> {
  const result = await system.db.query<OutboxRow>(
    `SELECT type, payload FROM "${system.schema}".outbox_events WHERE payload->>'walletId' = $1 ORDER BY occurred_at, id`,
    [walletId],
  );
  return result.rows;
}

export const micros = (usd: string): bigint => {
  const [whole = '0', fraction = ''] = usd.split('.');
  return BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, '0'));
};

/** Positions and payout addresses the wallet specs use. */
export const CASH = 'cash:ethereum_sepolia:usdc';
export const JAAA = 'service-jaaa-usdc-vault';
export const USTB = 'service-ustb-vault';
export const EVM = '0x52908400098527886E0F7030069857D2E4169EE7';
export const SOLANA = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
export const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
export const STELLAR = 'GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ';
