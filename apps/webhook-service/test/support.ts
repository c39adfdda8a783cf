import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DomainEvent, DomainEventType } from '@service/contracts';
import { type ServiceApiError, ServiceClient, type WebhookFamily } from '@service/sdk';
import {
  type AppProcess,
  type HttpReply,
  SHARED_GATEWAY_ENV,
  startServiceSystem,
  TEST_DATABASE_URL,
  type TestSystem,
} from '@service/testing';
import pg from 'pg';

/**
 * Delays scaled down so the whole retry path runs in about a second per step. The delivery
 * timeout leaves a receiver that answers at once room for a machine busy with another suite: a
 * cut attempt is retried, and the crash test counts attempts exactly.
 */
export const TEST_TIMEOUT_MS = 1_000;
export const WEBHOOK_TEST_ENV = {
  WEBHOOK_PRIVATE_HOST_ALLOWLIST: '127.0.0.1',
  WEBHOOK_DELIVERY_TIMEOUT_MS: String(TEST_TIMEOUT_MS),
  WEBHOOK_RETRY_SCHEDULE_SCALE: '0.001',
  WEBHOOK_POLL_INTERVAL_MS: '50',
  WEBHOOK_EVENT_ACK_WAIT_MS: '1500',
};

export interface WebhookTestSystem {
  readonly system: TestSystem;
  readonly gateway: string;
  readonly service: AppProcess;
  /** Starts webhook-service again on the same schema and stream (after a crash). */
  restart(): Promise<void>;
  publish(orgId: string, type: DomainEventType, payload: unknown, source?: string): Promise<DomainEvent>;
  token(org: string, role?: 'owner' | 'admin' | 'member'): Promise<string>;
  /** How many deliveries the service has recorded for these registrations. */
  deliveriesOf(registrationIds: string[]): Promise<number>;
  stop(): Promise<void>;
}

/**
 * The gateway, and webhook-service as its own built process with the test environment above, on
 * the run's schema and stream, so it can be killed and started again.
 */
export async function startWebhookSystem(): Promise<WebhookTestSystem> {
  const base = await startServiceSystem({
    service: 'webhook',
    env: WEBHOOK_TEST_ENV,
    gatewayEnv: { ...SHARED_GATEWAY_ENV },
  });
  return {
    system: base.system,
    gateway: base.url,
    get service() {
      return base.service;
    },
    async restart() {
      await base.restart();
    },
    publish: (orgId, type, payload, source = 'wallet') => base.publish(orgId, type, payload, { source }),
    token: (org, role = 'admin') => base.token(org, role),
    async deliveriesOf(registrationIds) {
      const db = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await db.connect();
      try {
        const { rows } = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM "${base.schema}".deliveries WHERE registration_id = ANY ($1::uuid[])`,
          [registrationIds],
        );
        return rows[0]?.n ?? 0;
      } finally {
        await db.end();
      }
    },
    stop: () => base.stop(),
  };
}

export type HttpResult<T = unknown> = HttpReply<T>;

/** The SDK as one caller of the gateway. */
export const sdkOf = (base: string, token: string) => new ServiceClient({ token, baseUrl: base });

/** One HTTP call to the gateway through the SDK, whatever its status; the body is parsed JSON. */
export async function api<T = Record<string, unknown>>(
  base: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<HttpResult<T>> {
  const reply = await sdkOf(base, token).core.send<T>(method, path, { body });
  return { status: reply.status, body: reply.body };
}

/** A registration family's resource group in the SDK, by its path. */
export type Family = WebhookFamily<{ url: string; events: string[]; description?: unknown }, object>;
export function familyOf(sdk: ServiceClient, path: string): Family {
  const families: Record<string, Family> = {
    '/v2/webhooks': sdk.webhooks,
    '/v2/webhook-endpoints': sdk.webhookEndpoints,
    '/v2/gvaults/webhooks': sdk.gvaults.webhooks,
  };
  const family = families[path];
  if (!family) throw new Error(`no SDK family for ${path}`);
  return family;
}

/** The status and body of the SDK error a call ends with, to assert them exactly. */
export const rejection = (call: Promise<unknown>): Promise<HttpResult> =>
  call.then(
    () => Promise.reject(new Error('the call succeeded')),
    (error: ServiceApiError) => ({ status: error.status, body: error.body }),
  );

export interface ReceivedRequest {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly at: number;
}

/**
 * What a receiver path answers, in order; the last entry repeats. `hang` never answers;
 * `{status, afterMs}` answers `status` after `afterMs` (a slow receiver).
 */
export type Answer = number | 'hang' | { status: number; afterMs: number };

/** A real HTTP receiver on loopback: records every request and answers as scripted per path. */
export class Receiver {
  readonly requests: ReceivedRequest[] = [];
  private readonly scripts = new Map<string, Answer[]>();
  private readonly hanging = new Set<ServerResponse>();
  private readonly open = new Map<string, number>();
  /** Most requests to one path that were open (received, not yet answered) at the same time. */
  readonly mostOpen = new Map<string, number>();
  private server: Server | undefined;
  private base = '';

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const path = request.url ?? '/';
        this.requests.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
        const script = this.scripts.get(path) ?? [200];
        const answer = (script.length > 1 ? script.shift() : script[0]) ?? 200;
        if (answer === 'hang') {
          this.hanging.add(response);
          return;
        }
        const open = (this.open.get(path) ?? 0) + 1;
        this.open.set(path, open);
        this.mostOpen.set(path, Math.max(open, this.mostOpen.get(path) ?? 0));
        const reply = () => {
          this.open.set(path, (this.open.get(path) ?? 1) - 1);
          response
            .writeHead(typeof answer === 'number' ? answer : answer.status, { 'content-type': 'application/json' })
            .end('{"ok":true}');
        };
        if (typeof answer === 'number') reply();
        else setTimeout(reply, answer.afterMs);
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** A fresh receiver URL answering `answers` in order. */
  url(answers: Answer[] = [200]): string {
    const path = `/hooks/${randomUUID()}`;
    this.scripts.set(path, [...answers]);
    return `${this.base}${path}`;
  }

  at(url: string): ReceivedRequest[] {
    const path = new URL(url).pathname;
    return this.requests.filter((request) => request.path === path);
  }

  async stop(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

export async function waitFor<T>(probe: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A portfolio wallet withdrawal event payload as the wallet service writes it. */
export function withdrawalPayload(status = 'completed') {
  const walletId = randomUUID();
  return {
    event: 'portfolio_wallet.withdrawal.status_changed',
    observedAt: new Date().toISOString(),
    walletId,
    withdrawal: { id: randomUUID(), status, amountRequestedUsd: '10.000000' },
  };
}
