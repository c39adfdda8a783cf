import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger, loadConfig, type OutboxRelayService, serviceConfigSpec } from '@service/service-runtime';
import { runQuery } from '@service/sql';
import {
  countRoundTrips,
  type IsolatedSchema,
  migratedSchema,
  newRunId,
  type RoundTrips,
  TEST_DATABASE_URL,
  updatesDuring,
} from '@service/testing';
import pg from 'pg';
import { type WalletConfig, withWalletDefaults } from '../../config.js';
import { WalletEnvironment } from '../environment/wallet-environment.js';
import { openLedger } from '../repositories/positions.repository.js';
import type { PrismaService } from '../repositories/prisma.service.js';
import { createRebalance } from '../rebalances/rebalance-changes.js';
import { payoutStepQuery } from '../repositories/withdrawals.repository.js';
import { RebalancesService } from '../rebalances/rebalances.service.js';
import { WalletSql } from '../repositories/wallet-sql.js';
import { addUnlistedProvisions } from '../repositories/due-work.repository.js';
import { lockWallet } from '../repositories/wallets.repository.js';
import { setWalletStatus } from '../wallets/wallet-status-changes.js';
import { type Due, WorkflowSteps } from './workflow-steps.js';

const ORG = 'org_steps';
const CASH = 'cash:ethereum_sepolia:usdc';
const JAAA = 'service-jaaa-usdc-vault';

let schema: IsolatedSchema;
let sql: WalletSql;
let steps: WorkflowSteps;
let env: WalletEnvironment;
/** Round trips to PostgreSQL (every `pg` query call, each of which waits for its answer). */
let trips: RoundTrips;

beforeAll(async () => {
  schema = await migratedSchema('wallet-service', newRunId());
  const service = loadConfig(serviceConfigSpec('wallet'), { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema.schema });
  // Processing takes no time here, so a rebalance's second step is due right after its first.
  const config: WalletConfig = { ...withWalletDefaults(service), WALLET_REBALANCE_PROCESSING_MS: 0 };
  sql = new WalletSql(config, createLogger('wallet', 'silent'));
  env = new WalletEnvironment(config);
  trips = countRoundTrips();
  // The rebalance steps run on PgPoolSql only.
  steps = new WorkflowSteps(env, sql);
});

afterAll(async () => {
  trips?.restore();
  await sql?.end();
  await schema?.drop();
});

/** A wallet row in `status` (as a release before `wallet_provisions` wrote a creating one); its id. */
async function walletRow(orgId: string, status: string): Promise<string> {
  const walletId = randomUUID();
  await sql.$executeRawUnsafe(
    `INSERT INTO wallets (id, org_id, label, status, auto_rebalance, strategy, deposit_addresses, created_at, updated_at)
     VALUES ($1::uuid, $2, null, $3, false, '[]'::jsonb, '{}'::jsonb, now(), now())`,
    walletId,
    orgId,
    status,
  );
  return walletId;
}

/** An idle wallet holding 100 USD of cash; its id. */
async function fundedWallet(orgId = ORG): Promise<string> {
  const walletId = await walletRow(orgId, 'idle');
  await sql.$executeRawUnsafe(
    `INSERT INTO positions (wallet_id, position_id, kind, amount, reserved, earned, accrued_at) VALUES ($1::uuid, $2, 'cash', 100000000, 0, 0, now())`,
    walletId,
    CASH,
  );
  return walletId;
}

/** A {@link fundedWallet} with a created rebalance moving 10 of its cash to JAAA; its due step. */
async function walletWithRebalance(orgId = ORG): Promise<Due> {
  return rebalanceOf(orgId, await fundedWallet(orgId), 10_000_000n);
}

/** A created rebalance moving `amount` of the wallet's cash to JAAA; its due step. */
async function rebalanceOf(orgId: string, walletId: string, amount: bigint): Promise<Due> {
  const row = await sql.$transaction(async (tx) => {
    const wallet = await lockWallet(tx, orgId, walletId);
    const now = new Date();
    const ledger = await openLedger(tx, wallet.id, env, now);
    return createRebalance(tx, { wallet, ledger, moves: [{ from: CASH, to: JAAA, amount }], now });
  });
  return { id: row.id, orgId, walletId };
}

/** `count` withdrawal rows of the wallet in `status` (rows only: no worker runs here), each with `legs`. */
async function addWithdrawals(orgId: string, walletId: string, input: { status: string; count?: number; legs?: unknown[] }): Promise<void> {
  await sql.$executeRawUnsafe(
    `INSERT INTO withdrawals (id, wallet_id, org_id, request_id, status, amount_requested, fee, destination_chain, destination_address, destination_token, payout_legs, next_run_at)
     SELECT gen_random_uuid(), $1::uuid, $2, gen_random_uuid(), $3, 1000000, 0, 'ethereum_sepolia',
            '0x000000000000000000000000000000000000dEaD', 'usdc', $4::jsonb, now() + interval '1 hour'
       FROM generate_series(1, $5::int)`,
    walletId,
    orgId,
    input.status,
    JSON.stringify(input.legs ?? []),
    input.count ?? 1,
  );
}

/**
 * What a wallet's rows and events say, without ids and times: comparable across wallets. Events
 * sorted, not in their order: those of one statement may share a clock tick.
 */
async function stateOf(due: Due): Promise<unknown> {
  const [rebalance] = await sql.$queryRawUnsafe<{ status: string; completed: boolean }[]>(
    `SELECT status, completed_at IS NOT NULL AS completed FROM rebalances WHERE id = $1::uuid`,
    due.id,
  );
  const [wallet] = await sql.$queryRawUnsafe<{ status: string }[]>(`SELECT status FROM wallets WHERE id = $1::uuid`, due.walletId);
  const positions = await sql.$queryRawUnsafe<{ positionId: string; amount: string; reserved: string }[]>(
    `SELECT position_id AS "positionId", amount::text AS amount, reserved::text AS reserved FROM positions WHERE wallet_id = $1::uuid ORDER BY position_id`,
    due.walletId,
  );
  const events = await sql.$queryRawUnsafe<{ type: string; status: string | null }[]>(
    `SELECT type, coalesce(payload #>> '{rebalance,status}', payload #>> '{wallet,status}', payload #>> '{position,amountUsd}', payload #>> '{balance,totalUsd}') AS status
       FROM outbox_events WHERE payload ->> 'walletId' = $1 ORDER BY type, status`,
    due.walletId,
  );
  return { rebalance, wallet, positions, events };
}

describe('WorkflowSteps.advanceRebalances', () => {
  it('takes one step of each wallet in one transaction, as the single steps would, passing over a wallet another transaction holds', async () => {
    const [first, second, held, alone] = [
      await walletWithRebalance(),
      await walletWithRebalance(),
      await walletWithRebalance(),
      await walletWithRebalance(),
    ];
    const holder = new pg.Client({ connectionString: TEST_DATABASE_URL, options: `-c search_path="${schema.schema}"` });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM wallets WHERE id = $1::uuid FOR UPDATE', [held.walletId]);

      trips.reset();
      expect(await steps.advanceRebalances([first, second, held], { skipLocked: true })).toEqual([held]);
      // BEGIN with the locks and the reads, then the writes with COMMIT: two round trips for both wallets.
      expect(trips.count).toBe(2);
      await steps.advanceRebalance(alone);
      expect(await stateOf(first)).toMatchObject({ rebalance: { status: 'processing' }, wallet: { status: 'rebalance_active' } });
      expect(await stateOf(held)).toMatchObject({ rebalance: { status: 'created' }, wallet: { status: 'idle' } });
      await holder.query('COMMIT');

      expect(await steps.advanceRebalances([first, second, held], { skipLocked: true })).toEqual([]);
      await steps.advanceRebalance(alone);
      expect(await steps.advanceRebalances([held], { skipLocked: true })).toEqual([]);
    } finally {
      await holder.end();
    }

    const expected = await stateOf(alone);
    expect(expected).toEqual({
      rebalance: { status: 'completed', completed: true },
      wallet: { status: 'idle' },
      positions: [
        { positionId: CASH, amount: '90000000', reserved: '0' },
        { positionId: JAAA, amount: '10000000', reserved: '0' },
      ],
      events: [
        { type: 'portfolio_wallet.balance.updated', status: '100.000000' },
        { type: 'portfolio_wallet.position.updated', status: '10.000000' },
        { type: 'portfolio_wallet.position.updated', status: '90.000000' },
        { type: 'portfolio_wallet.rebalance.status_changed', status: 'completed' },
        { type: 'portfolio_wallet.rebalance.status_changed', status: 'created' },
        { type: 'portfolio_wallet.rebalance.status_changed', status: 'processing' },
        { type: 'portfolio_wallet.status_changed', status: 'idle' },
        { type: 'portfolio_wallet.status_changed', status: 'rebalance_active' },
      ],
    });
    for (const due of [first, second, held]) expect(await stateOf(due)).toEqual(expected);
  });

  it('changes nothing for a step no longer due, and waits for nothing when every wallet is held', async () => {
    const done = await walletWithRebalance();
    await steps.advanceRebalance(done);
    await steps.advanceRebalance(done);
    const before = await stateOf(done);
    expect(await steps.advanceRebalances([done], { skipLocked: true })).toEqual([]);
    expect(await stateOf(done)).toEqual(before);

    const busy = await walletWithRebalance();
    await sql.$transaction(async (tx) => {
      await lockWallet(tx, ORG, busy.walletId);
      expect(await steps.advanceRebalances([busy], { skipLocked: true })).toEqual([busy]);
    });
    expect(await stateOf(busy)).toMatchObject({ rebalance: { status: 'created' } });
  });

  it('answers wallet_not_found for a wallet of another organization, and refuses two steps of one wallet', async () => {
    const theirs = await walletWithRebalance('org_steps_other');
    await expect(steps.advanceRebalance({ ...theirs, orgId: ORG })).rejects.toMatchObject({ code: 'wallet_not_found' });
    expect(await steps.advanceRebalances([{ ...theirs, orgId: ORG }], { skipLocked: true })).toEqual([{ ...theirs, orgId: ORG }]);
    await expect(steps.advanceRebalances([theirs, theirs], { skipLocked: true })).rejects.toThrow('one step per wallet');
    expect(await stateOf(theirs)).toMatchObject({ rebalance: { status: 'created' } });
  });

  it("sets the wallet's status from whether other work runs on it: the step's own rebalance left out, a running withdrawal counted", async () => {
    const first = await walletWithRebalance();
    const second = await rebalanceOf(ORG, first.walletId, 5_000_000n);
    const walletStatus = async () => ((await stateOf(first)) as { wallet: { status: string } }).wallet.status;
    await steps.advanceRebalance(first);
    await steps.advanceRebalance(second);
    expect(await walletStatus()).toBe('rebalance_active');

    // A withdrawal running on the wallet and one that ended.
    await addWithdrawals(ORG, first.walletId, { status: 'processing' });
    await addWithdrawals(ORG, first.walletId, { status: 'completed' });
    // The first rebalance completes: the second and the withdrawal still run.
    await steps.advanceRebalance(first);
    expect(await walletStatus()).toBe('withdrawal_and_rebalance_active');

    await sql.$executeRawUnsafe(`UPDATE withdrawals SET status = 'completed' WHERE wallet_id = $1::uuid`, first.walletId);
    // The second completes: nothing else runs (its own row, still processing as it is read, does not count).
    await steps.advanceRebalance(second);
    expect(await walletStatus()).toBe('idle');
  });
});

describe("a wallet's status", () => {
  it('changes in HOT updates: nothing indexes it, so a change writes no index entry', async () => {
    const walletId = await fundedWallet();
    const updates = await sql.$transaction(async (tx) => {
      const wallet = await lockWallet(tx, ORG, walletId);
      return updatesDuring(tx, 'wallets', async () => {
        await setWalletStatus(tx, wallet, 'rebalance_active', new Date());
        await setWalletStatus(tx, wallet, 'idle', new Date());
      });
    });
    expect(updates).toEqual({ updated: 2, hot: 2 });
  });

  it('leaves wallet_provisions when the wallet is provisioned; a row left for a wallet no longer creating goes at the next look', async () => {
    const walletId = await walletRow(ORG, 'creating');
    await addUnlistedProvisions(sql);
    const listed = () => sql.$queryRawUnsafe(`SELECT count(*)::int AS n FROM wallet_provisions WHERE wallet_id = $1::uuid`, walletId);
    expect(await listed()).toEqual([{ n: 1 }]);

    await steps.provisionWallet(ORG, walletId);
    const [wallet] = await sql.$queryRawUnsafe<{ status: string; addresses: number }[]>(
      `SELECT status, (SELECT count(*) FROM jsonb_object_keys(deposit_addresses))::int AS addresses FROM wallets WHERE id = $1::uuid`,
      walletId,
    );
    expect(wallet).toEqual({ status: 'idle', addresses: env.chains.length });
    expect(await listed()).toEqual([{ n: 0 }]);

    // As the start-up look could leave it, racing the provisioning: the step only forgets it.
    await sql.$executeRawUnsafe(`INSERT INTO wallet_provisions (wallet_id, org_id) VALUES ($1::uuid, $2)`, walletId, ORG);
    const events = () => sql.$queryRawUnsafe(`SELECT count(*)::int AS n FROM outbox_events WHERE payload ->> 'walletId' = $1`, walletId);
    const before = await events();
    await steps.provisionWallet(ORG, walletId);
    expect(await listed()).toEqual([{ n: 0 }]);
    expect(await events()).toEqual(before);
  });
});

describe('RebalancesService.allocate on PgPoolSql', () => {
  it('claims the request id, locks the wallet and reads its positions in one round trip, and writes with COMMIT in the second', async () => {
    const walletId = await fundedWallet();
    const owner = { orgId: ORG, principalId: 'user_steps', role: 'owner' as const, requestId: 'req_steps' };
    const service = new RebalancesService(
      null as unknown as PrismaService,
      env,
      { wake: () => undefined } as unknown as OutboxRelayService,
      { kick: () => undefined },
      sql,
    );
    const input = { walletId, requestId: randomUUID(), allocations: [{ from: CASH, to: JAAA, amountUsd: '25' }] };

    trips.reset();
    const created = await service.allocate(owner, input);
    expect(trips.count).toBe(2);
    expect(created).toMatchObject({
      requestId: input.requestId,
      status: 'created',
      allocations: [{ from: CASH, to: JAAA, amountUsd: '25.000000' }],
    });
    expect(
      await sql.$queryRawUnsafe(
        `SELECT position_id AS "positionId", amount::text, reserved::text FROM positions WHERE wallet_id = $1::uuid`,
        walletId,
      ),
    ).toEqual([{ positionId: CASH, amount: '100000000', reserved: '25000000' }]);
    expect(await sql.$queryRawUnsafe(`SELECT id::text, status FROM rebalances WHERE wallet_id = $1::uuid`, walletId)).toEqual([
      { id: created.rebalanceId, status: 'created' },
    ]);

    // A replay reads the stored answer too: one round trip more, nothing written.
    trips.reset();
    expect(await service.allocate(owner, input)).toEqual(created);
    expect(trips.count).toBe(3);
    expect(await sql.$queryRawUnsafe(`SELECT count(*)::int AS n FROM rebalances WHERE wallet_id = $1::uuid`, walletId)).toEqual([{ n: 1 }]);
  });
});

describe("a payout step's read", () => {
  it('finds what else runs on the wallet without reading every running withdrawal of it', async () => {
    const walletId = await fundedWallet('org_steps_plan');
    // 400 running withdrawals on one chain, none waiting for an approval: what a write load leaves.
    await addWithdrawals('org_steps_plan', walletId, {
      status: 'processing',
      count: 400,
      legs: [{ status: 'broadcast' }, { status: 'planning' }],
    });
    await sql.$executeRawUnsafe('ANALYZE withdrawals');
    const [{ id }] = await sql.$queryRawUnsafe<{ id: string }[]>(
      'SELECT id::text AS id FROM withdrawals WHERE wallet_id = $1::uuid LIMIT 1',
      walletId,
    );
    const query = payoutStepQuery(id);
    const [row] = await sql.$queryRawUnsafe<{ 'QUERY PLAN': unknown }[]>(`EXPLAIN (FORMAT JSON) ${query.text}`, ...query.values);
    const plan = JSON.stringify(row?.['QUERY PLAN']);
    // The look for another withdrawal waiting for an approval reads the index of the waiting ones only.
    expect(plan).toContain('"Index Name":"withdrawals_awaiting_approval_idx"');
    // Whether others run is an EXISTS, which stops at the first one; the one aggregate is the positions' JSON.
    expect(plan.match(/"Node Type":"Aggregate"/g)).toHaveLength(1);

    const state = await runQuery(sql, query);
    expect(state.others).toEqual({ withdrawals: true, rebalances: false });
    expect(state.approvalElsewhere).toBe(false);
  });
});
