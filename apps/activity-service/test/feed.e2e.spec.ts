/* eslint-disable @typescript-eslint/no-explicit-any -- HTTP bodies are checked by the assertions, not by types */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type ActivitySystem, depositPayload, eventually, rebalancePayload, startActivitySystem, withdrawalPayload } from './support.js';

const DEPOSIT = 'portfolio_wallet.deposit.status_changed';
const WITHDRAWAL = 'portfolio_wallet.withdrawal.status_changed';
const REBALANCE = 'portfolio_wallet.rebalance.status_changed';
const at = (second: number) => new Date(Date.UTC(2026, 10, 21, 10, 0, second)).toISOString();

let sys: ActivitySystem;

beforeAll(async () => {
  sys = await startActivitySystem();
}, 60_000);

afterAll(async () => {
  await sys?.stop();
});

/** Waits until the organization's feed holds `count` items, and returns them. */
async function feedOf(org: string, count: number, query = ''): Promise<any[]> {
  const reply = await eventually(
    () => sys.get(org, `/v2/activity?limit=100${query}`),
    (result) => result.status === 200 && result.body.data.length === count,
  );
  return reply.body.data;
}

async function ids(org: string, query: string): Promise<string[]> {
  const reply = await sys.get(org, `/v2/activity?limit=100&${query}`);
  expect(reply.status).toBe(200);
  return reply.body.data.map((item: any) => item.id);
}

describe('GET /v2/activity items', () => {
  it('projects a deposit, a withdrawal and a rebalance with the nested object of the spec, newest first', async () => {
    const org = `org_${randomUUID()}`;
    const wallet = randomUUID();
    const deposit = depositPayload(wallet, { createdAt: at(1), amount: '12.345678' });
    const withdrawal = withdrawalPayload(wallet, { createdAt: at(2) });
    const rebalance = rebalancePayload(wallet, { createdAt: at(3) });
    await sys.publish(org, DEPOSIT, deposit);
    await sys.publish(org, WITHDRAWAL, withdrawal);
    await sys.publish(org, REBALANCE, rebalance);
    const items = await feedOf(org, 3);
    expect(items).toEqual([
      {
        id: rebalance.rebalance.id,
        type: 'rebalance',
        status: 'created',
        amountUsd: '8.000001',
        timestamp: at(3),
        walletId: wallet,
        rebalance: rebalance.rebalance,
      },
      {
        id: withdrawal.withdrawal.id,
        type: 'withdrawal',
        status: 'processing',
        amountUsd: '25.000000',
        timestamp: at(2),
        walletId: wallet,
        withdrawal: withdrawal.withdrawal,
      },
      {
        id: deposit.deposit.id,
        type: 'deposit',
        status: 'processing',
        amountUsd: '12.345678',
        timestamp: at(1),
        walletId: wallet,
        deposit: deposit.deposit,
      },
    ]);
    const page = await sys.get(org, '/v2/activity');
    expect(Object.keys(page.body).sort()).toEqual(['data', 'nextCursor']);
    expect(page.body.nextCursor).toBeNull();
  });
});

describe('filters', () => {
  const org = `org_${randomUUID()}`;
  const [w1, w2, w3] = [randomUUID(), randomUUID(), randomUUID()];
  const ref: Record<string, string> = {};

  beforeAll(async () => {
    const seed: [string, string, any][] = [
      ['d1', DEPOSIT, depositPayload(w1, { createdAt: at(1), status: 'completed' })],
      ['d2', DEPOSIT, depositPayload(w2, { createdAt: at(2), status: 'processing' })],
      ['x1', WITHDRAWAL, withdrawalPayload(w1, { createdAt: at(3), status: 'pending_customer_approval' })],
      ['x2', WITHDRAWAL, withdrawalPayload(w3, { createdAt: at(4), status: 'completed' })],
      ['r1', REBALANCE, rebalancePayload(w1, { createdAt: at(5), status: 'created' })],
      ['r2', REBALANCE, rebalancePayload(w2, { createdAt: at(6), status: 'failed' })],
      ['x3', WITHDRAWAL, withdrawalPayload(w3, { createdAt: at(7), status: 'partially_completed' })],
    ];
    for (const [name, type, payload] of seed) {
      ref[name] = (payload.deposit ?? payload.withdrawal ?? payload.rebalance).id;
      await sys.publish(org, type as never, payload);
    }
    await feedOf(org, seed.length);
  });

  const names = (...keys: string[]) => keys.map((key) => ref[key]);

  it('filters by type, by status list, by one wallet and by repeated wallets', async () => {
    expect(await ids(org, 'type=deposit')).toEqual(names('d2', 'd1'));
    expect(await ids(org, 'type=rebalance')).toEqual(names('r2', 'r1'));
    expect(await ids(org, 'status=completed')).toEqual(names('x2', 'd1'));
    expect(await ids(org, 'status=created,processing')).toEqual(names('r1', 'x1', 'd2'));
    // Every withdrawal status is a filter value (issue 14): partially_completed was a 400.
    expect(await ids(org, 'status=partially_completed')).toEqual(names('x3'));
    expect(await ids(org, 'status=partially_completed,completed&type=withdrawal')).toEqual(names('x3', 'x2'));
    expect(await ids(org, 'status=all')).toEqual(names('x3', 'r2', 'r1', 'x2', 'x1', 'd2', 'd1'));
    expect(await ids(org, `walletId=${w1}`)).toEqual(names('r1', 'x1', 'd1'));
    expect(await ids(org, `walletId=${w2}&walletId=${w3}`)).toEqual(names('x3', 'r2', 'x2', 'd2'));
  });

  it('combines filters', async () => {
    expect(await ids(org, `walletId=${w1}&type=withdrawal&status=processing`)).toEqual(names('x1'));
    expect(await ids(org, `walletId=${w1}&walletId=${w2}&status=processing,failed`)).toEqual(names('r2', 'x1', 'd2'));
    expect(await ids(org, `type=deposit&status=completed,failed`)).toEqual(names('d1'));
    expect(await ids(org, `walletId=${w3}&type=deposit`)).toEqual([]);
  });

  it('refuses bad values with validation_error and unknown parameters with unknown_parameters', async () => {
    for (const query of [
      'walletId=nope',
      `walletId=${w1}&walletId=x`,
      'type=transfer',
      'type=deposit&type=withdrawal',
      'status=done',
      'status=created,',
      'limit=0',
      'limit=101',
      'limit=abc',
    ]) {
      const reply = await sys.get(org, `/v2/activity?${query}`);
      expect({ query, status: reply.status, code: reply.body.code }).toEqual({ query, status: 400, code: 'validation_error' });
    }
    const unknown = await sys.get(org, '/v2/activity?wallet=1');
    expect(unknown).toEqual({ status: 400, body: { error: expect.any(String), code: 'unknown_parameters' } });
  });

  it('refuses a malformed cursor and a cursor used with other filters with invalid_cursor', async () => {
    const first = await sys.get(org, '/v2/activity?type=deposit&limit=1');
    expect(first.body.nextCursor).toEqual(expect.any(String));
    for (const query of ['cursor=garbage!', `cursor=${first.body.nextCursor}&type=withdrawal`, `cursor=${first.body.nextCursor}`]) {
      const reply = await sys.get(org, `/v2/activity?limit=1&${query}`);
      expect({ query, status: reply.status, body: reply.body }).toEqual({
        query,
        status: 400,
        body: { error: expect.any(String), code: 'invalid_cursor' },
      });
    }
    const next = await sys.get(org, `/v2/activity?type=deposit&limit=1&cursor=${first.body.nextCursor}`);
    expect(next.body.data.map((item: any) => item.id)).toEqual(names('d1'));
  });

  it('applies the default limit of 20', async () => {
    const other = `org_${randomUUID()}`;
    const wallet = randomUUID();
    await Promise.all(
      Array.from({ length: 21 }, (_, index) => sys.publish(other, DEPOSIT, depositPayload(wallet, { createdAt: at(index) }))),
    );
    await feedOf(other, 21);
    const reply = await sys.get(other, '/v2/activity');
    expect(reply.body.data).toHaveLength(20);
    expect(reply.body.nextCursor).toEqual(expect.any(String));
  });
});

describe('organizations', () => {
  it("shows only the caller's organization; another organization's walletId yields nothing", async () => {
    const [orgA, orgB] = [`org_${randomUUID()}`, `org_${randomUUID()}`];
    const [walletA, walletB] = [randomUUID(), randomUUID()];
    const a = depositPayload(walletA);
    const b = depositPayload(walletB);
    await sys.publish(orgA, DEPOSIT, a);
    await sys.publish(orgB, DEPOSIT, b);
    expect((await feedOf(orgA, 1)).map((item) => item.id)).toEqual([a.deposit.id]);
    expect((await feedOf(orgB, 1)).map((item) => item.id)).toEqual([b.deposit.id]);
    expect(await ids(orgA, `walletId=${walletB}`)).toEqual([]);
    expect(await ids(orgB, `walletId=${walletA}&walletId=${walletB}`)).toEqual([b.deposit.id]);
  });
});

describe('late, repeated and reordered events', () => {
  it('only moves an item forward and ignores duplicates, whatever the arrival order', async () => {
    const org = `org_${randomUUID()}`;
    const wallet = randomUUID();
    const id = randomUUID();
    const completed = depositPayload(wallet, { id, status: 'completed', completedAt: at(9), observedAt: at(9), createdAt: at(1) });
    const processing = depositPayload(wallet, { id, status: 'processing', observedAt: at(2), createdAt: at(1) });
    const first = await sys.publish(org, DEPOSIT, completed);
    await sys.publish(org, DEPOSIT, processing);
    // The same event again: once with its Nats-Msg-Id (the stream drops it) and once under another (the consumer does).
    await sys.publish(org, DEPOSIT, completed, { id: first.id });
    await sys.publish(org, DEPOSIT, completed, { id: first.id, msgId: randomUUID() });
    // A processing event observed after completion (a slow replica): a lower rank never wins.
    await sys.publish(org, DEPOSIT, depositPayload(wallet, { id, status: 'processing', observedAt: at(30), createdAt: at(1) }));
    const sentinel = depositPayload(wallet, { createdAt: at(0) });
    await sys.publish(org, DEPOSIT, sentinel);
    const items = await feedOf(org, 2);
    expect(items[0]).toEqual({
      id,
      type: 'deposit',
      status: 'completed',
      amountUsd: '10.000000',
      timestamp: at(1),
      walletId: wallet,
      deposit: completed.deposit,
    });
    // The upsert converges by itself: the copy under another Nats-Msg-Id was applied again and
    // changed nothing, and the projection keeps no record of processed events.
    const rows = await sys.db.query(`SELECT count(*)::int AS n FROM "${sys.schema}".processed_events`);
    expect(rows.rows[0].n).toBe(0);
  });

  it('takes a same-rank update observed later, such as a withdrawal leg finishing', async () => {
    const org = `org_${randomUUID()}`;
    const wallet = randomUUID();
    const id = randomUUID();
    const later = withdrawalPayload(wallet, { id, status: 'processing', observedAt: at(20), createdAt: at(1) });
    later.withdrawal.legsCompleted = 1;
    await sys.publish(org, WITHDRAWAL, later);
    await sys.publish(org, WITHDRAWAL, withdrawalPayload(wallet, { id, status: 'created', observedAt: at(5), createdAt: at(1) }));
    await sys.publish(org, WITHDRAWAL, withdrawalPayload(wallet, { id, status: 'processing', observedAt: at(10), createdAt: at(1) }));
    await sys.publish(org, DEPOSIT, depositPayload(wallet, { createdAt: at(0) }));
    const items = await feedOf(org, 2);
    expect(items[0]).toMatchObject({ id, status: 'processing', withdrawal: { legsCompleted: 1 } });
  });

  it('skips a malformed event without blocking the events after it', async () => {
    const org = `org_${randomUUID()}`;
    await sys.publish(org, DEPOSIT, { walletId: 'not-a-uuid', deposit: { id: 'x' } });
    const good = depositPayload(randomUUID());
    await sys.publish(org, DEPOSIT, good);
    expect((await feedOf(org, 1)).map((item) => item.id)).toEqual([good.deposit.id]);
  });
});

describe('pagination', () => {
  it('returns every item that existed at the first page exactly once while new activity arrives', async () => {
    const org = `org_${randomUUID()}`;
    const wallets = [randomUUID(), randomUUID()];
    const seeded: string[] = [];
    await Promise.all(
      Array.from({ length: 95 }, (_, index) => {
        // Groups of three share a timestamp, so ties are broken by id across page edges.
        const payload = depositPayload(wallets[index % 2]!, { createdAt: at(Math.floor(index / 3)) });
        seeded.push(payload.deposit.id);
        return sys.publish(org, DEPOSIT, payload);
      }),
    );
    await feedOf(org, 95);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `&cursor=${cursor}` : '';
      const page: any = await sys.get(org, `/v2/activity?limit=10${query}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((item: any) => item.id));
      cursor = page.body.nextCursor;
      pages += 1;
      // New activity lands between pages: newer items, and a late event about an existing one.
      await sys.publish(org, DEPOSIT, depositPayload(wallets[0]!));
      await sys.publish(
        org,
        DEPOSIT,
        depositPayload(wallets[1]!, { id: seeded[pages]!, status: 'completed', createdAt: at(Math.floor(pages / 3)) }),
      );
    } while (cursor);
    expect(pages).toBe(10);
    expect(seen).toHaveLength(95);
    expect(new Set(seen)).toEqual(new Set(seeded));
  });
});

describe('rebuild', () => {
  it('rebuilds the same feed after the durable is deleted and the projection emptied', async () => {
    const snapshot = `SELECT org_id, id, wallet_id, type, status, status_rank, amount_usd, "timestamp", resource, observed_at, event_id
                        FROM "${sys.schema}".activity_items ORDER BY org_id, id`;
    // Events of earlier tests may still be in flight: a last one, once visible, shows they were all applied.
    const org = `org_${randomUUID()}`;
    await sys.publish(org, DEPOSIT, depositPayload(randomUUID()));
    await feedOf(org, 1);
    const before = (await sys.db.query(snapshot)).rows;
    expect(before.length).toBeGreaterThan(100);
    await sys.rebuild();
    const after = await eventually(
      async () => (await sys.db.query(snapshot)).rows,
      (rows) => rows.length === before.length,
      15_000,
    );
    expect(after).toEqual(before);
  }, 30_000);
});

describe('projection database unavailable', () => {
  it('answers 503 wallet_projection_unavailable with retryable true, and recovers when access returns', async () => {
    const org = `org_${randomUUID()}`;
    await sys.setSchemaAccess(false);
    try {
      const reply = await sys.get(org, '/v2/activity');
      expect(reply).toEqual({ status: 503, body: { error: expect.any(String), code: 'wallet_projection_unavailable', retryable: true } });
    } finally {
      await sys.setSchemaAccess(true);
    }
    expect(await sys.get(org, '/v2/activity')).toEqual({ status: 200, body: { data: [], nextCursor: null } });
  });
});
