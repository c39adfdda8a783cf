/* eslint-disable @typescript-eslint/no-explicit-any -- HTTP bodies are checked by the assertions, not by types */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { callGateway, eventually, type HttpReply, type PrivatePostgres, startPrivatePostgres } from '@service/testing';
import pg from 'pg';
import { CASH, Client, EVM, JAAA, startWalletSystem, type WalletSystem } from './wallet-system.js';

/**
 * PostgreSQL's postmaster killed with SIGKILL under a deposit, allocate and withdraw load, and
 * started again 4 s later, on a cluster of this test's own: every write answers 200 or a
 * retryable 503 (never a 500), each 503 sent again after the return succeeds, the service
 * resumes within seconds, and every accepted write is there afterwards with the money conserved.
 */
const CLIENTS = 4;
const WALLETS = 4;
const FUNDING_USD = '1000.000000';
const LOAD_BEFORE_KILL_MS = 1_500;
const OUTAGE_MS = 4_000;
const LOAD_AFTER_RETURN_MS = 3_000;
/** Requests of the whole load at most, whatever the timings (a shared two-core machine). */
const MOST_REQUESTS = 1_500;
/** How soon after the database accepts connections again every write must succeed. */
const RESUMED_WITHIN_MS = 2_000;

type Operation = 'deposit' | 'allocate' | 'withdraw';

interface Sent {
  readonly operation: Operation;
  readonly path: string;
  readonly body: Record<string, unknown>;
  readonly sentAt: number;
  readonly reply: HttpReply<any>;
}

let cluster: PrivatePostgres | undefined;
let system: WalletSystem | undefined;
let token: string;
const wallets: string[] = [];

beforeAll(async () => {
  cluster = await startPrivatePostgres();
  // Real-time yield: positions earn next to nothing, and what they earn is kept apart (`earned`).
  system = await startWalletSystem({ WALLET_YIELD_TIME_SCALE: '1' }, undefined, cluster.url);
  // The test's own connection dies with the postmaster; the checks open a new one.
  system.db.on('error', () => undefined);
  const org = `org_outage_${randomUUID().slice(0, 8)}`;
  const owner = await Client.of(system, org);
  token = await system.system.auth.token({ org, role: 'owner', sub: `user_${org}_owner` });
  for (let index = 0; index < WALLETS; index += 1) {
    const wallet = await owner.idleWallet();
    await owner.deposit(wallet.id, FUNDING_USD);
    wallets.push(wallet.id);
  }
}, 90_000);

afterAll(async () => {
  try {
    await system?.stop();
  } finally {
    await cluster?.stop();
  }
}, 60_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const usd = (min: number, max: number) => (min + Math.random() * (max - min)).toFixed(6);
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

/** A write of the load: a sandbox deposit, or an allocation or withdrawal under a fresh requestId. */
function nextWrite(walletId: string): Omit<Sent, 'sentAt' | 'reply'> {
  const operation = pick<Operation>(['deposit', 'allocate', 'withdraw']);
  const base = `/v2/wallets/${walletId}`;
  if (operation === 'deposit') return { operation, path: `${base}/deposits/simulate`, body: { amountUsd: usd(1, 5) } };
  if (operation === 'allocate') {
    return {
      operation,
      path: `${base}/allocate`,
      body: { requestId: randomUUID(), allocations: [{ from: CASH, to: JAAA, amountUsd: usd(1, 3) }] },
    };
  }
  return {
    operation,
    path: `${base}/withdrawals`,
    body: { requestId: randomUUID(), destinationChain: 'ethereum_sepolia', destinationAddress: EVM, amountUsd: usd(2, 4) },
  };
}

async function send(write: Omit<Sent, 'sentAt' | 'reply'>): Promise<Sent> {
  const sentAt = Date.now();
  const reply = await callGateway<any>(system?.url ?? '', token, 'POST', write.path, write.body);
  return { ...write, sentAt, reply };
}

/** Clients writing until `until` (or the request budget is spent), each after a short pause. */
async function load(until: () => boolean, sent: Sent[]): Promise<void> {
  const client = async () => {
    while (!until() && sent.length < MOST_REQUESTS) {
      sent.push(await send(nextWrite(pick(wallets))));
      await sleep(20 + Math.random() * 40);
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
}

/** Answers other than 200 and the exact retryable 503, whose body names no host. */
function unexpected(sent: readonly Sent[]): string[] {
  return sent
    .filter(({ reply }) => reply.status !== 200 && !(reply.status === 503 && isUnavailable(reply.body)))
    .map(({ operation, reply }) => `${operation}: ${reply.status} ${JSON.stringify(reply.body)}`);
}

function isUnavailable(body: Record<string, unknown>): boolean {
  return (
    Object.keys(body).sort().join() === 'code,error,retryable' &&
    body['code'] === 'service_temporarily_unavailable' &&
    body['retryable'] === true &&
    typeof body['error'] === 'string' &&
    !/127\.0\.0\.1|postgres/i.test(body['error'])
  );
}

/** The load, with the postmaster killed after a while and started again `OUTAGE_MS` later. */
async function loadThroughOutage(live: PrivatePostgres): Promise<{ sent: Sent[]; returnedAt: number }> {
  const sent: Sent[] = [];
  let loadEnds = Infinity;
  let returnedAt = Infinity;
  const outage = async () => {
    await sleep(LOAD_BEFORE_KILL_MS);
    live.kill();
    await sleep(OUTAGE_MS);
    await live.start();
    returnedAt = Date.now();
    loadEnds = returnedAt + LOAD_AFTER_RETURN_MS;
  };
  await Promise.all([outage(), load(() => Date.now() >= loadEnds, sent)]);
  return { sent, returnedAt };
}

describe('a database outage under write load', () => {
  it('answers 503 retryable (never 500) while PostgreSQL is down, resumes on its return, and loses nothing accepted', async () => {
    const began = Date.now();
    const { sent, returnedAt } = await loadThroughOutage(cluster as PrivatePostgres);
    expect(unexpected(sent)).toEqual([]);
    const refused = sent.filter(({ reply }) => reply.status === 503);
    expect(refused.length).toBeGreaterThan(0);

    // Resumed: a write sent after the return succeeded within the bound, and none sent later failed.
    const afterReturn = sent.filter(({ sentAt }) => sentAt >= returnedAt);
    const firstOk = afterReturn.find(({ reply }) => reply.status === 200);
    expect(firstOk && firstOk.sentAt - returnedAt).toBeLessThan(RESUMED_WITHIN_MS);
    expect(afterReturn.filter(({ sentAt, reply }) => sentAt >= returnedAt + RESUMED_WITHIN_MS && reply.status !== 200)).toEqual([]);

    // Each refused write, sent again as it was (an allocation or withdrawal with its requestId), succeeds.
    const retried: Sent[] = [];
    for (const each of refused) retried.push(await send(each));
    expect(retried.filter(({ reply }) => reply.status !== 200).map(({ reply }) => reply)).toEqual([]);

    await checkNothingLost([...sent, ...retried]);
    const logs = system?.service.lines ?? [];
    expect(system?.service.child.exitCode).toBeNull();
    expect(logs.filter((line) => line.includes('unhandled error in message handler'))).toEqual([]);
    expect(logs.some((line) => line.includes('a dependency is unavailable'))).toBe(true);
    process.stdout.write(
      `database outage: ${sent.length} writes, ${refused.length} answered 503 and retried; ` +
        `first success ${firstOk ? firstOk.sentAt - returnedAt : '-'} ms after the return; ${Date.now() - began} ms in all\n`,
    );
  }, 60_000);
});

interface Amount {
  readonly id: string;
  readonly wallet_id: string;
  readonly amount: string;
  readonly status: string;
}

/** What the wallets hold once every deposit, rebalance and withdrawal of theirs is done. */
async function settledState(db: pg.Client, schema: string) {
  const rows = async <T>(sql: string): Promise<T[]> => (await db.query(sql, [wallets])).rows as T[];
  const mine = 'wallet_id = ANY($1::uuid[])';
  await eventually(
    () =>
      rows<{ n: string }>(
        `SELECT (SELECT count(*) FROM "${schema}".deposits WHERE ${mine} AND status <> 'completed')
              + (SELECT count(*) FROM "${schema}".rebalances WHERE ${mine} AND status NOT IN ('completed', 'failed'))
              + (SELECT count(*) FROM "${schema}".withdrawals WHERE ${mine} AND status NOT IN ('completed', 'partially_completed', 'failed', 'cancelled')) AS n`,
      ),
    ([row]) => row?.n === '0',
    20_000,
  );
  return {
    deposits: await rows<Amount>(`SELECT id::text, wallet_id::text, amount::text, status FROM "${schema}".deposits WHERE ${mine}`),
    rebalances: await rows<{ id: string; status: string }>(`SELECT id::text, status FROM "${schema}".rebalances WHERE ${mine}`),
    // A withdrawal takes the amount requested from the wallet, its fee included.
    withdrawals: await rows<Amount>(
      `SELECT id::text, wallet_id::text, amount_requested::text AS amount, status FROM "${schema}".withdrawals WHERE ${mine}`,
    ),
    events: await rows<{ id: string; status: string }>(
      `SELECT coalesce(payload->'deposit'->>'id', payload->'rebalance'->>'id') AS id, coalesce(payload->'deposit'->>'status', payload->'rebalance'->>'status') AS status
         FROM "${schema}".outbox_events WHERE payload->>'walletId' = ANY($1::text[])
          AND type IN ('portfolio_wallet.deposit.status_changed', 'portfolio_wallet.rebalance.status_changed')`,
    ),
    positions: await rows<{ wallet_id: string; held: string; reserved: string }>(
      `SELECT wallet_id::text, sum(amount - earned)::text AS held, sum(reserved)::text AS reserved FROM "${schema}".positions WHERE ${mine} GROUP BY wallet_id`,
    ),
  };
}

const total = (rows: readonly Amount[], walletId: string) =>
  rows.filter((row) => row.wallet_id === walletId && row.status === 'completed').reduce((sum, row) => sum + BigInt(row.amount), 0n);

/**
 * Every accepted deposit, allocation and withdrawal is there and done, announced once, and each
 * wallet holds, besides its yield, its completed deposits minus what its withdrawals took (the
 * ledger of the wallet-service README), nothing left reserved.
 */
async function checkNothingLost(sent: readonly Sent[]): Promise<void> {
  const db = new pg.Client({ connectionString: cluster?.url });
  await db.connect();
  try {
    const state = await settledState(db, system?.schema ?? '');
    const accepted = (operation: Operation, idOf: (body: any) => string) =>
      sent.filter((each) => each.operation === operation && each.reply.status === 200).map((each) => idOf(each.reply.body));
    const notDone = (ids: string[], rows: readonly { id: string; status: string }[]) =>
      ids.filter((id) => rows.find((row) => row.id === id)?.status !== 'completed');
    const [deposits, allocations, withdrawals] = [
      accepted('deposit', (body) => body.id),
      accepted('allocate', (body) => body.rebalanceId),
      accepted('withdraw', (body) => body.id),
    ];
    expect(notDone(deposits, state.deposits)).toEqual([]);
    expect(notDone(allocations, state.rebalances)).toEqual([]);
    expect(notDone(withdrawals, state.withdrawals)).toEqual([]);
    // Every refused allocation and withdrawal was sent again with its requestId: each one the
    // database holds is one a client got, none twice.
    expect(new Set(state.rebalances.map(({ id }) => id))).toEqual(new Set(allocations));
    expect(new Set(state.withdrawals.map(({ id }) => id))).toEqual(new Set(withdrawals));

    const announced = (id: string, status: string) => state.events.filter((event) => event.id === id && event.status === status).length;
    expect(state.deposits.filter(({ id }) => announced(id, 'completed') !== 1)).toEqual([]);
    expect(state.rebalances.filter(({ id }) => announced(id, 'created') !== 1)).toEqual([]);

    const held = wallets.map((walletId) => {
      const row = state.positions.find((position) => position.wallet_id === walletId);
      return { walletId, held: BigInt(row?.held ?? '0'), reserved: BigInt(row?.reserved ?? '0') };
    });
    const owed = wallets.map((walletId) => ({
      walletId,
      held: total(state.deposits, walletId) - total(state.withdrawals, walletId),
      reserved: 0n,
    }));
    expect(held).toEqual(owed);
  } finally {
    await db.end();
  }
}
