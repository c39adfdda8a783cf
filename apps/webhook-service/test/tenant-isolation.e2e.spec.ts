import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { WebhookDeliveryEventDto } from '@service/contracts';
import { type ServiceSystem, SHARED_GATEWAY_ENV, startServiceSystem, TEST_DATABASE_URL } from '@service/testing';
import pg from 'pg';
import { familyOf, Receiver, sdkOf, WEBHOOK_TEST_ENV, waitFor, withdrawalPayload } from './support.js';

/**
 * One replica with few slots: 4 attempts at a time, 2 per receiver, 2 per organization. Organization
 * A's three receivers could take all 4 slots under the per-endpoint cap alone (2 each); the
 * per-organization cap keeps A to 2, so B's delivery gets one of the others.
 */
const CONCURRENCY = 4;
const PER_ENDPOINT = 2;
const PER_ORGANIZATION = 2;
const FULL_TIMEOUT_MS = 2_500;
const SLOW_TIMEOUT_MS = 300;
const WITHDRAWAL = 'portfolio_wallet.withdrawal.status_changed';

/** One request a {@link HangingReceiver} got: when it arrived and when its connection was closed. */
interface HeldRequest {
  readonly path: string;
  readonly at: number;
  closedAt: number | undefined;
}

/** Receivers that never answer: each request stays open until the sender cuts it (or the test ends). */
class HangingReceiver {
  readonly requests: HeldRequest[] = [];
  /** Most requests open at the same time, over every path. */
  mostOpen = 0;
  private open = 0;
  private server: Server | undefined;
  private base = '';

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      const held: HeldRequest = { path: request.url ?? '/', at: Date.now(), closedAt: undefined };
      this.requests.push(held);
      this.open += 1;
      this.mostOpen = Math.max(this.mostOpen, this.open);
      response.on('close', () => {
        held.closedAt = Date.now();
        this.open -= 1;
      });
      request.resume();
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  url(): string {
    return `${this.base}/hang/${randomUUID()}`;
  }

  /** Requests open at `time`. */
  openAt(time: number): number {
    return this.requests.filter((held) => held.at <= time && (held.closedAt === undefined || held.closedAt > time)).length;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

let base: ServiceSystem;
let hanging: HangingReceiver;
let receiver: Receiver;
let db: pg.Client;

beforeAll(async () => {
  hanging = await new HangingReceiver().start();
  receiver = await new Receiver().start();
  // Its own webhook-service with the small caps above, beside the worker's shared gateway and NATS.
  base = await startServiceSystem({
    service: 'webhook',
    env: {
      ...WEBHOOK_TEST_ENV,
      WEBHOOK_CONCURRENCY: String(CONCURRENCY),
      WEBHOOK_CONCURRENCY_PER_ENDPOINT: String(PER_ENDPOINT),
      WEBHOOK_CONCURRENCY_PER_ORGANIZATION: String(PER_ORGANIZATION),
      WEBHOOK_DELIVERY_TIMEOUT_MS: String(FULL_TIMEOUT_MS),
      WEBHOOK_SLOW_RECEIVER_TIMEOUT_MS: String(SLOW_TIMEOUT_MS),
    },
    gatewayEnv: { ...SHARED_GATEWAY_ENV },
  });
  db = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await db.connect();
}, 60_000);

afterAll(async () => {
  await db?.end();
  // Cut the hanging requests first, so the service's shutdown need not wait for their timeouts.
  await hanging?.stop();
  await base?.stop();
  await receiver?.stop();
}, 30_000);

async function register(org: string, url: string) {
  const family = familyOf(sdkOf(base.url, await base.token(org, 'admin')), '/v2/webhooks');
  const created = await family.create({ url, events: [WITHDRAWAL] });
  return { family, id: created.id, url };
}

interface AttemptRow {
  registration_id: string;
  attempt_number: number;
  requested_at: Date;
  completed_at: Date | null;
  error_message: string | null;
  response_ms: number | null;
}

/** Every attempt webhook-service recorded for these registrations, oldest first. */
async function attemptsOf(registrationIds: string[]): Promise<AttemptRow[]> {
  const { rows } = await db.query<AttemptRow>(
    `SELECT d.registration_id::text AS registration_id, e.attempt_number, e.requested_at, e.completed_at, e.error_message, e.response_ms
       FROM "${base.schema}".emissions e JOIN "${base.schema}".deliveries d ON d.id = e.delivery_id
      WHERE d.registration_id = ANY ($1::uuid[])
      ORDER BY e.requested_at, e.attempt_number`,
    [registrationIds],
  );
  return rows;
}

describe('tenant isolation on the delivery path', () => {
  it("delivers another organization's event while one organization's receivers hang, and cuts those receivers sooner once they time out", async () => {
    const orgA = `org_isolation_a_${randomUUID().slice(0, 8)}`;
    const orgB = `org_isolation_b_${randomUUID().slice(0, 8)}`;
    const a = [await register(orgA, hanging.url()), await register(orgA, hanging.url()), await register(orgA, hanging.url())];
    const b = await register(orgB, receiver.url([200]));

    // Two events: 6 deliveries to A's receivers, more than the replica's 4 slots.
    await base.publish(orgA, WITHDRAWAL, withdrawalPayload());
    await base.publish(orgA, WITHDRAWAL, withdrawalPayload());
    await waitFor(() => hanging.requests.length >= PER_ORGANIZATION);
    // Several poll intervals (50 ms) for any further claim of A's due deliveries to happen.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(hanging.requests).toHaveLength(PER_ORGANIZATION);
    expect(hanging.requests.every((held) => held.closedAt === undefined)).toBe(true);

    // (1) B's event is delivered while A's first attempts still hang, none of them cut yet.
    await base.publish(orgB, WITHDRAWAL, withdrawalPayload());
    const item = await waitFor(async () => {
      const [latest] = (await b.family.events(b.id).page()).data as WebhookDeliveryEventDto[];
      return latest?.status === 'completed' ? latest : undefined;
    });
    expect(item).toMatchObject({ status: 'completed', attemptCount: 1, lastError: null });
    const [arrived] = receiver.at(b.url);
    if (!arrived) throw new Error('B’s delivery did not reach its receiver');
    expect(hanging.openAt(arrived.at)).toBe(PER_ORGANIZATION);
    expect(hanging.requests.filter((held) => held.closedAt !== undefined && held.closedAt <= arrived.at)).toEqual([]);

    // (2) Once an attempt to a receiver is cut at the delivery timeout, the next ones to it get the
    // slow-receiver timeout. Wait for such an attempt to be recorded.
    const ids = a.map((reg) => reg.id);
    const cutAfterTimeout = (rows: AttemptRow[]) =>
      rows.filter(
        (row) =>
          row.completed_at !== null &&
          rows.some(
            (earlier) =>
              earlier.registration_id === row.registration_id &&
              earlier.completed_at !== null &&
              earlier.error_message?.startsWith('timed out') === true &&
              // Strictly before (both rounded to the millisecond): the claim began after the earlier
              // attempt was recorded, so after the service noted the timeout.
              earlier.completed_at.getTime() < row.requested_at.getTime(),
          ),
      );
    const rows = await waitFor(async () => {
      const found = await attemptsOf(ids);
      return cutAfterTimeout(found).length > 0 ? found : undefined;
    }, 15_000);

    // The first claim's attempts (hanging during (1)) ran with the full timeout.
    const first = rows.slice(0, PER_ORGANIZATION);
    for (const row of first) {
      expect(row).toMatchObject({ attempt_number: 1, error_message: `timed out after ${FULL_TIMEOUT_MS} ms` });
      expect(row.response_ms).toBeGreaterThanOrEqual(FULL_TIMEOUT_MS - 5);
    }
    // Every attempt claimed after an attempt to the same receiver was recorded as timed out ran
    // with the slow-receiver timeout: its connection was held a fraction of the full timeout.
    const later = cutAfterTimeout(rows);
    expect(later.length).toBeGreaterThan(0);
    for (const row of later) {
      expect(row.error_message).toBe(`timed out after ${SLOW_TIMEOUT_MS} ms`);
      expect(row.response_ms).toBeGreaterThanOrEqual(SLOW_TIMEOUT_MS - 5);
      expect(row.response_ms).toBeLessThan(FULL_TIMEOUT_MS);
    }

    // Throughout, A never had more than its cap open at its receivers, though 4 slots and 3
    // receivers at 2 each would have allowed 4.
    expect(hanging.mostOpen).toBe(PER_ORGANIZATION);
  }, 30_000);
});
