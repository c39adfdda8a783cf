/**
 * What the outbox relay's batch statement (`NEXT_BATCH_SQL`) costs per call, three ways, on an
 * empty outbox of a freshly migrated wallet schema (the statement's fixed cost, which every batch
 * pays): through Prisma's `$queryRawUnsafe` (an unnamed statement, parsed and planned on every
 * call), through `PgPoolSql` with the text marked `ONE_OFF_STATEMENT` (unnamed, the same without
 * Prisma), and through `PgPoolSql` as it runs it (prepared once per connection; PostgreSQL keeps a
 * generic plan). CPU per call
 * of all `postgres` processes and of this process, in rounds that alternate the three ways.
 *
 * Run with `npx tsx tools/bench/src/relay-statement.ts` (PostgreSQL on TEST_DATABASE_URL; nothing
 * else may load the machine, since every postgres process counts).
 */
import { randomUUID } from 'node:crypto';
import { NEXT_BATCH_SQL } from '@service/events';
import { ONE_OFF_STATEMENT, PgPoolSql, type SqlExecutor } from '@service/sql';
import { prismaAdapter } from '@service/service-runtime';
import { migratedSchema, TEST_DATABASE_URL } from '@service/testing';
// The wallet service's own generated client, which no library exports: what its relay ran on.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { PrismaClient } from '../../../apps/wallet-service/src/generated/prisma/client.js';
import { cpuMsOfCommand, cpuMsOfSelf } from './load.js';

const CALLS = 2_000;
const ROUNDS = 3;

async function perCall(db: SqlExecutor, relayId: string): Promise<{ postgres: number; client: number }> {
  const postgres = cpuMsOfCommand('postgres');
  const client = cpuMsOfSelf();
  for (let call = 0; call < CALLS; call++) await db.$queryRawUnsafe(NEXT_BATCH_SQL, relayId, 5_000, null, null, 100);
  const micros = (ms: number) => Math.round((ms * 1000) / CALLS);
  return { postgres: micros(cpuMsOfCommand('postgres') - postgres), client: micros(cpuMsOfSelf() - client) };
}

const schema = await migratedSchema('wallet-service', `relay${randomUUID().slice(0, 8)}`);
const prisma = new PrismaClient({ adapter: prismaAdapter(TEST_DATABASE_URL, schema.schema) });
const unnamedPool = new PgPoolSql({ connectionString: TEST_DATABASE_URL, schema: schema.schema, max: 1 });
const unnamed: SqlExecutor = {
  $queryRawUnsafe: (query, ...values) => unnamedPool.$queryRawUnsafe(`${ONE_OFF_STATEMENT}${query}`, ...values),
  $executeRawUnsafe: (query, ...values) => unnamedPool.$executeRawUnsafe(`${ONE_OFF_STATEMENT}${query}`, ...values),
};
const prepared = new PgPoolSql({ connectionString: TEST_DATABASE_URL, schema: schema.schema, max: 1 });
try {
  const ways: [string, SqlExecutor][] = [
    ['Prisma $queryRawUnsafe', prisma],
    ['PgPoolSql, unnamed', unnamed],
    ['PgPoolSql, prepared', prepared],
  ];
  const relayId = randomUUID();
  for (const [, db] of ways) await perCall(db, relayId); // connect and warm up
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [label, db] of ways) {
      const { postgres, client } = await perCall(db, relayId);
      console.log(
        `round ${round}: ${label.padEnd(24)} postgres ${String(postgres).padStart(4)} µs, this process ${String(client).padStart(4)} µs CPU per call`,
      );
    }
  }
} finally {
  await prisma.$disconnect();
  await unnamedPool.end();
  await prepared.end();
  await schema.drop();
}
