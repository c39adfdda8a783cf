import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PgPoolSql, type PgSqlExecutor } from '@service/sql';
import { type IsolatedSchema, migratedSchema, newRunId, TEST_DATABASE_URL } from '@service/testing';
import { WalletReads } from './wallet-reads.js';

let schema: IsolatedSchema;
let db: PgPoolSql;
const statements: string[] = [];
/** The real pool, counting the statements the reader sends (standing in for a `PgPoolSql`: each call runs on `db`). */
const counted = {
  $queryRawUnsafe: <T>(query: string, ...values: unknown[]) => {
    statements.push(query);
    return db.$queryRawUnsafe<T>(query, ...values);
  },
  $executeRawUnsafe: (query: string, ...values: unknown[]) => db.$executeRawUnsafe(query, ...values),
} as PgSqlExecutor;

const ORG = 'org_reads';
const OTHER_ORG = 'org_reads_other';
const first = randomUUID();
const second = randomUUID();
const otherOrgs = randomUUID();

async function insertWallet(id: string, orgId: string, label: string, positions: [string, bigint][]): Promise<void> {
  await db.$executeRawUnsafe(
    `INSERT INTO wallets (id, org_id, label, status, auto_rebalance, strategy, deposit_addresses, created_at, updated_at)
     VALUES ($1::uuid, $2, $3, 'idle', false, '[]'::jsonb, '{}'::jsonb, '2026-11-24T10:00:00.000Z', '2026-11-24T10:00:01.000Z')`,
    id,
    orgId,
    label,
  );
  for (const [positionId, amount] of positions) {
    await db.$executeRawUnsafe(
      `INSERT INTO positions (wallet_id, position_id, kind, amount, reserved, earned, accrued_at)
       VALUES ($1::uuid, $2, 'cash', $3::bigint, 0, 0, '2026-11-24T10:00:02.000Z')`,
      id,
      positionId,
      amount.toString(),
    );
  }
}

beforeAll(async () => {
  schema = await migratedSchema('wallet-service', newRunId());
  db = new PgPoolSql({ connectionString: TEST_DATABASE_URL, schema: schema.schema });
  await insertWallet(first, ORG, 'first', [
    ['cash:ethereum_sepolia:usdc', 5_000_000n],
    ['cash:solana:usdc', 7_000_000n],
  ]);
  await insertWallet(second, ORG, 'second', []);
  await insertWallet(otherOrgs, OTHER_ORG, 'theirs', [['cash:ethereum_sepolia:usdc', 1n]]);
});

afterAll(async () => {
  await db?.end();
  await schema?.drop();
});

const codeOf = (settled: PromiseSettledResult<unknown>) =>
  settled.status === 'rejected' ? (settled.reason as { code?: string }).code : 'found';

describe('WalletReads', () => {
  it('reads the wallets of one turn in one statement, each for its own organization only', async () => {
    statements.length = 0;
    const reads = new WalletReads(counted);
    const settled = await Promise.allSettled([
      reads.find(ORG, first),
      reads.find(ORG, second.toUpperCase()),
      reads.find(ORG, otherOrgs),
      reads.find(OTHER_ORG, otherOrgs),
      reads.find(ORG, randomUUID()),
      reads.find(ORG, 'not-a-uuid'),
    ]);

    expect(statements).toHaveLength(1);
    expect(settled.map(codeOf)).toEqual(['found', 'found', 'wallet_not_found', 'found', 'wallet_not_found', 'wallet_not_found']);
    const [found, upper, , theirs] = settled.map((each) => (each.status === 'fulfilled' ? each.value : undefined));
    expect(found).toEqual({
      id: first,
      orgId: ORG,
      label: 'first',
      status: 'idle',
      failureReason: null,
      autoRebalance: false,
      strategy: [],
      depositAddresses: {},
      createdAt: new Date('2026-11-24T10:00:00.000Z'),
      updatedAt: new Date('2026-11-24T10:00:01.000Z'),
      positions: [
        {
          walletId: first,
          positionId: 'cash:ethereum_sepolia:usdc',
          kind: 'cash',
          amount: 5_000_000n,
          reserved: 0n,
          earned: 0n,
          accruedAt: new Date('2026-11-24T10:00:02.000Z'),
          viewOnly: true,
        },
        {
          walletId: first,
          positionId: 'cash:solana:usdc',
          kind: 'cash',
          amount: 7_000_000n,
          reserved: 0n,
          earned: 0n,
          accruedAt: new Date('2026-11-24T10:00:02.000Z'),
          viewOnly: true,
        },
      ],
    });
    expect(upper?.id).toBe(second);
    expect(upper?.positions).toEqual([]);
    expect(theirs?.orgId).toBe(OTHER_ORG);
    const rejected = settled[2];
    expect(rejected?.status === 'rejected' && (rejected.reason as Error).message).toBe(`Wallet ${otherOrgs} was not found.`);
  });

  it('gives each read of one wallet a record of its own', async () => {
    const reads = new WalletReads(counted);
    const [one, two] = await Promise.all([reads.find(ORG, first), reads.find(ORG, first)]);
    expect(two).toEqual(one);
    expect(two).not.toBe(one);
    expect(two?.positions[0]).not.toBe(one?.positions[0]);
  });

  it('reads again in a later turn and sees what was committed in between', async () => {
    statements.length = 0;
    const reads = new WalletReads(counted);
    expect((await reads.find(ORG, second)).label).toBe('second');
    await db.$executeRawUnsafe(`UPDATE wallets SET label = 'renamed' WHERE id = $1::uuid`, second);
    expect((await reads.find(ORG, second)).label).toBe('renamed');
    expect(statements).toHaveLength(2);
  });

  it('fails every read of a statement that fails, and reads on afterwards', async () => {
    const broken = new PgPoolSql({ connectionString: TEST_DATABASE_URL, schema: `${schema.schema}_missing` });
    try {
      const reads = new WalletReads(broken);
      const settled = await Promise.allSettled([reads.find(ORG, first), reads.find(ORG, second)]);
      expect(settled.map((each) => each.status)).toEqual(['rejected', 'rejected']);
      expect(settled.map((each) => each.status === 'rejected' && (each.reason as { code?: string }).code)).toEqual(['42P01', '42P01']);
    } finally {
      await broken.end();
    }
    const reads = new WalletReads(counted);
    expect((await reads.find(ORG, first)).label).toBe('first');
  });
});
