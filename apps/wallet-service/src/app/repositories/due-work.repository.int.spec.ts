import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ONE_OFF_STATEMENT, type Statement } from '@service/sql';
import { createLogger, loadConfig, serviceConfigSpec } from '@service/service-runtime';
import { type IsolatedSchema, migratedSchema, newRunId, TEST_DATABASE_URL } from '@service/testing';
import { withWalletDefaults } from '../../config.js';
import { addUnlistedProvisions, DUE_WORK_PLANNING, dueWorkStatement, findDueWork } from './due-work.repository.js';
import { WalletSql } from './wallet-sql.js';

const ORG = 'org_due';
let schema: IsolatedSchema;
let sql: WalletSql;

beforeAll(async () => {
  schema = await migratedSchema('wallet-service', newRunId());
  const config = withWalletDefaults(
    loadConfig(serviceConfigSpec('wallet'), { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema.schema }),
  );
  sql = new WalletSql(config, createLogger('wallet', 'silent'));
});

afterAll(async () => {
  await sql?.end();
  await schema?.drop();
});

/** Inserts a row whose id is `$1`; its id. */
async function insert(statement: string, ...values: unknown[]): Promise<string> {
  const id = randomUUID();
  await sql.$executeRawUnsafe(statement, id, ...values);
  return id;
}

const wallet = (status: string) =>
  insert(
    `INSERT INTO wallets (id, org_id, label, status, auto_rebalance, strategy, deposit_addresses, created_at, updated_at)
     VALUES ($1::uuid, $2, null, $3, false, '[]'::jsonb, '{}'::jsonb, now(), now())`,
    ORG,
    status,
  );

const deposit = (walletId: string, status: string, settleAt: string) =>
  insert(
    `INSERT INTO deposits (id, wallet_id, org_id, amount, token, chain, status, settle_at) VALUES ($1::uuid, $2::uuid, $3, 1, 'usdc', 'ethereum_sepolia', $4, $5::timestamptz)`,
    walletId,
    ORG,
    status,
    settleAt,
  );

const rebalance = (walletId: string, status: string, nextRunAt: string, createdAt: string) =>
  insert(
    `INSERT INTO rebalances (id, wallet_id, org_id, request_id, status, allocations, reservations, next_run_at, created_at)
     VALUES ($1::uuid, $2::uuid, $3, gen_random_uuid(), $4, '[]'::jsonb, '{}'::jsonb, $5::timestamptz, $6::timestamptz)`,
    walletId,
    ORG,
    status,
    nextRunAt,
    createdAt,
  );

const withdrawal = (walletId: string, status: string, nextRunAt: string, createdAt: string) =>
  insert(
    `INSERT INTO withdrawals (id, wallet_id, org_id, request_id, status, amount_requested, fee, destination_chain, destination_address, destination_token, payout_legs, next_run_at, created_at)
     VALUES ($1::uuid, $2::uuid, $3, gen_random_uuid(), $4, 10, 1, 'ethereum_sepolia', '0x0', 'usdc', '[]'::jsonb, $5::timestamptz, $6::timestamptz)`,
    walletId,
    ORG,
    status,
    nextRunAt,
    createdAt,
  );

const approval = (walletId: string, status: string, dueAt: string) =>
  insert(
    `INSERT INTO deposit_address_approvals (id, wallet_id, org_id, chain, status, due_at) VALUES ($1::uuid, $2::uuid, $3, 'stellar_testnet', $4, $5::timestamptz)`,
    walletId,
    ORG,
    status,
    dueAt,
  );

describe('findDueWork', () => {
  it('finds what is due of every kind in one statement, rebalances and withdrawals oldest first, at most `take` of each, wallets to provision from wallet_provisions', async () => {
    const now = new Date('2026-11-24T12:00:00.000Z');
    const [past, later] = ['2026-11-24T11:00:00.000Z', '2026-11-24T13:00:00.000Z'];
    const creating = await wallet('creating');
    const idle = await wallet('idle');
    await wallet('idle');
    const settling = await deposit(idle, 'processing', past);
    await deposit(idle, 'processing', later);
    await deposit(idle, 'completed', past);
    const newer = await rebalance(idle, 'processing', past, '2026-11-24T10:30:00.000Z');
    const older = await rebalance(idle, 'created', past, '2026-11-24T10:00:00.000Z');
    await rebalance(idle, 'created', later, '2026-11-24T09:00:00.000Z');
    await rebalance(idle, 'completed', past, '2026-11-24T09:00:00.000Z');
    const paying = await withdrawal(idle, 'processing', past, '2026-11-24T10:00:00.000Z');
    await withdrawal(idle, 'processing', later, '2026-11-24T09:00:00.000Z');
    await withdrawal(idle, 'completed', past, '2026-11-24T09:00:00.000Z');
    const expiring = await approval(idle, 'pending', past);
    await approval(creating, 'approved', past);

    const item = (id: string) => ({ id, orgId: ORG, walletId: idle });
    // Inserted as a release before wallet_provisions did: found once the start-up look queued it.
    expect((await findDueWork(sql, now, 10)).wallets).toEqual([]);
    expect(await addUnlistedProvisions(sql)).toBe(1);
    expect(await addUnlistedProvisions(sql)).toBe(0);
    expect(await findDueWork(sql, now, 10)).toEqual({
      wallets: [{ id: creating, orgId: ORG, walletId: creating }],
      deposits: [item(settling)],
      rebalances: [item(older), item(newer)],
      withdrawals: [item(paying)],
      approvals: [item(expiring)],
      changes: [],
    });
    expect((await findDueWork(sql, now, 1)).rebalances).toEqual([item(older)]);
  });

  it('looks without bitmap scans, which would visit every dead entry of the worker indexes on every look', async () => {
    // Running rows that moved on leave dead entries behind, and the statistics know nothing yet:
    // the planner then expects fewer running rows than the look takes.
    const walletId = await wallet('idle');
    await sql.$executeRawUnsafe(
      `INSERT INTO rebalances (id, wallet_id, org_id, request_id, status, allocations, reservations, next_run_at, created_at)
       SELECT gen_random_uuid(), $1::uuid, $2, gen_random_uuid(), 'created', '[]'::jsonb, '{}'::jsonb, now(), now() FROM generate_series(1, 2000)`,
      walletId,
      ORG,
    );
    await sql.$executeRawUnsafe(`UPDATE rebalances SET status = 'processing' WHERE wallet_id = $1::uuid`, walletId);
    await sql.$executeRawUnsafe(`UPDATE rebalances SET status = 'completed' WHERE wallet_id = $1::uuid`, walletId);
    const look = dueWorkStatement(new Date(), 50);
    // EXPLAIN is not prepared, so it goes with its values as literals, in a transaction of its own.
    const plan = (statements: Statement[]) =>
      sql.$transaction(async (tx) =>
        JSON.stringify(
          (await tx.$queryBatch([...statements, { ...look, text: `${ONE_OFF_STATEMENT}EXPLAIN (FORMAT JSON) ${look.text}` }])).at(-1),
        ),
      );

    expect(await plan([])).toContain('Bitmap Index Scan');
    const planned = await plan([DUE_WORK_PLANNING]);
    expect(planned).not.toContain('Bitmap');
    expect(planned).toContain('"Index Name":"rebalances_due_idx"');
    expect(planned).toContain('"Index Name":"withdrawals_due_idx"');
    // The look's own round trip (a prepared statement with values after the setting) keeps it.
    const [, [setting]] = await sql.$queryBatch([
      DUE_WORK_PLANNING,
      { text: `SELECT current_setting('enable_bitmapscan') AS value, $1::int AS take`, values: [50] },
    ]);
    expect(setting).toEqual({ value: 'off', take: 50 });
    expect((await sql.$queryBatch([{ text: `SELECT current_setting('enable_bitmapscan') AS value`, values: [] }]))[0]).toEqual([
      { value: 'on' },
    ]);
  });
});
