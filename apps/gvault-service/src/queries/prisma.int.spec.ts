import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ALL_ORGANIZATIONS } from '@service/contracts';
import { prismaQueriesFileDifferences, RecordingPrisma, type SqlFileEntry } from '@service/testing';
import { PrismaClient } from '../generated/prisma/client.js';
import {
  type AllowlistChangeRow,
  AllowlistChangesRepository,
  type AllowlistUpdatedEvent,
} from '../app/repositories/allowlist-changes.repository.js';

/**
 * Every statement gvault-service runs, as text: its data path is Prisma's model API, so each
 * repository function is called with representative inputs on the service's Prisma client over a
 * freshly migrated schema, what Prisma sent (its query events) is compared with
 * `src/queries/prisma/<module>.sql` (`UPDATE_SQL=1` writes the files), and the schema is dropped.
 */
let prisma: RecordingPrisma<PrismaClient>;
const ran = (call: string, work: () => Promise<unknown>) => prisma.entry(call, work);

beforeAll(async () => {
  prisma = await RecordingPrisma.start('gvault-service', (options) => new PrismaClient(options));
});

afterAll(async () => {
  await prisma?.stop();
});

const CURSOR = 'ethereum-sepolia:0x43415eb6ff9db7e26a15b704e7a3edce97d31c4e';
const change: AllowlistChangeRow = {
  txHash: `0x${'ab'.repeat(32)}`,
  logIndex: 3,
  chain: 'ethereum-sepolia',
  contractAddress: '0x43415eB6ff9DB7E26A15b704e7A3eDCe97d31C4e',
  address: '0x00000000000000000000000000000000a11ce001',
  allowed: true,
  blockNumber: 101n,
};
const event: AllowlistUpdatedEvent = {
  type: 'gvault.allowlist.updated',
  orgId: ALL_ORGANIZATIONS,
  payload: {
    gVaultId: 'ustb',
    chain: change.chain,
    address: change.address,
    allowed: change.allowed,
    blockNumber: String(change.blockNumber),
    txHash: change.txHash,
  },
};

const files: Record<string, () => Promise<SqlFileEntry[]>> = {
  'allowlist-changes.repository': async () => {
    const repository = new AllowlistChangesRepository(prisma.client as never);
    return [
      await ran('AllowlistChangesRepository.lastBlock(cursorId), before the first start', () => repository.lastBlock(CURSOR)),
      await ran('AllowlistChangesRepository.startAt(cursorId, lastBlock)', () => repository.startAt(CURSOR, 100n)),
      await ran('AllowlistChangesRepository.lastBlock(cursorId), once started', () => repository.lastBlock(CURSOR)),
      await ran('AllowlistChangesRepository.applyRange(cursorId, [a change not stored yet, with its event], lastBlock)', () =>
        repository.applyRange(CURSOR, [{ row: change, event }], 101n),
      ),
      await ran('AllowlistChangesRepository.applyRange(cursorId, [a change stored already], lastBlock)', () =>
        repository.applyRange(CURSOR, [{ row: change, event }], 102n),
      ),
      await ran('AllowlistChangesRepository.applyRange(cursorId, [] (a range without changes), lastBlock)', () =>
        repository.applyRange(CURSOR, [], 103n),
      ),
    ];
  },
};

describe('the statements gvault-service runs through Prisma, as text in src/queries/prisma', () => {
  it("are those of the files, and every file is a module's (UPDATE_SQL=1 rewrites them)", async () => {
    const dir = fileURLToPath(new URL('./prisma/', import.meta.url));
    expect(await prismaQueriesFileDifferences(dir, 'src/queries/prisma.int.spec.ts', prisma, files)).toEqual([]);
  });
});
