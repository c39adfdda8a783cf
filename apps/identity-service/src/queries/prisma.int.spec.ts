import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { NewestFirst } from '@service/pagination';
import { prismaQueriesFileDifferences, RecordingPrisma, type SqlFileEntry } from '@service/testing';
import { PrismaClient } from '../generated/prisma/client.js';
import { ApiKeysRepository, type NewApiKeyRow } from '../app/repositories/api-keys.repository.js';

/**
 * The statements identity-service runs through Prisma's model API, as text: each repository
 * function is called with representative inputs on the service's Prisma client over a freshly
 * migrated schema, what Prisma sent (its query events) is compared with
 * `src/queries/prisma/<module>.sql` (`UPDATE_SQL=1` writes the files), and the schema is dropped.
 * The raw statements (`claimEnded`) are `queries.spec.ts`'s, in `src/queries/<module>.sql`.
 */
let prisma: RecordingPrisma<PrismaClient>;
const ran = (call: string, work: () => Promise<unknown>) => prisma.entry(call, work);

beforeAll(async () => {
  prisma = await RecordingPrisma.start('identity-service', (options) => new PrismaClient(options));
});

afterAll(async () => {
  await prisma?.stop();
});

const NOW = new Date('2026-11-21T10:00:00.000Z');
const key = (id: string, hashByte: number): NewApiKeyRow => ({
  id,
  orgId: 'org_a',
  name: 'ci',
  role: 'member',
  keyHash: Buffer.alloc(32, hashByte),
  last4: 'abcd',
  createdBy: 'user_1',
  expiresAt: null,
});
const FIRST = key('3f6c1d2e-8a4b-4c5d-9e6f-7a8b9c0d1e2f', 1);
const SUCCESSOR = key('5b1d9c3e-0c6a-4f57-9d3b-2f0f1c7a8e11', 2);
const LOSER = key('9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', 3);

const files: Record<string, () => Promise<SqlFileEntry[]>> = {
  'api-keys.repository': async () => {
    const repository = new ApiKeysRepository(prisma.client as never);
    const firstPage = new NewestFirst('api-keys', {}, { limit: 2 });
    const created = await repository.create(FIRST);
    const nextPage = new NewestFirst('api-keys', {}, { cursor: firstPage.cursorOf(created), limit: 2 });
    return [
      await ran('ApiKeysRepository.create(row)', () =>
        repository.create({ ...FIRST, id: 'c0ffee00-0000-4000-8000-000000000001', keyHash: Buffer.alloc(32, 9) }),
      ),
      await ran('ApiKeysRepository.findActiveInOrg(orgId, id)', () => repository.findActiveInOrg('org_a', FIRST.id)),
      await ran('ApiKeysRepository.page(orgId, the first page, limit 2)', () => repository.page('org_a', firstPage)),
      await ran('ApiKeysRepository.page(orgId, a page after a cursor, limit 2)', () => repository.page('org_a', nextPage)),
      await ran('ApiKeysRepository.findByHash(keyHash)', () => repository.findByHash(FIRST.keyHash)),
      await ran('ApiKeysRepository.recordUse(id, at)', () => repository.recordUse(FIRST.id, NOW)),
      await ran('ApiKeysRepository.roll(oldId, end {expiresAt}, successor, now), the old key still working', () =>
        repository.roll(FIRST.id, { expiresAt: new Date(NOW.getTime() + 60_000) }, SUCCESSOR, NOW),
      ),
      await ran('ApiKeysRepository.roll(oldId, end {revokedAt}, successor, now), the old key rolled meanwhile', () =>
        repository.roll(FIRST.id, { revokedAt: NOW }, LOSER, NOW),
      ),
      await ran('ApiKeysRepository.revoke(id, at)', () => repository.revoke(SUCCESSOR.id, NOW)),
    ];
  },
};

describe('the statements identity-service runs through Prisma, as text in src/queries/prisma', () => {
  it("are those of the files, and every file is a module's (UPDATE_SQL=1 rewrites them)", async () => {
    const dir = fileURLToPath(new URL('./prisma/', import.meta.url));
    expect(await prismaQueriesFileDifferences(dir, 'src/queries/prisma.int.spec.ts', prisma, files)).toEqual([]);
  });
});
