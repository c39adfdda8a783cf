import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { NewestFirst } from '@service/pagination';
import { prismaQueriesFileDifferences, RecordingPrisma, type SqlFileEntry } from '@service/testing';
import { PrismaClient, type Vault } from '../generated/prisma/client.js';
import { OrganizationsRepository } from '../app/repositories/organizations.repository.js';
import { type NewTaskRow, TasksRepository } from '../app/repositories/tasks.repository.js';
import { VaultsRepository } from '../app/repositories/vaults.repository.js';

/**
 * The statements microvault-service runs through Prisma's model API, as text: each repository
 * method that uses it is called with representative inputs on the service's Prisma client over a
 * freshly migrated schema, what Prisma sent (its query events) is compared with
 * `src/queries/prisma/<module>.sql` (`UPDATE_SQL=1` writes the files), and the schema is dropped.
 * The signer lease's raw statements are `queries.spec.ts`'s, in `src/queries/<module>.sql`.
 */
let prisma: RecordingPrisma<PrismaClient>;
const ran = (call: string, work: () => Promise<unknown>) => prisma.entry(call, work);

beforeAll(async () => {
  prisma = await RecordingPrisma.start('microvault-service', (options) => new PrismaClient(options));
});

afterAll(async () => {
  await prisma?.stop();
});

const ORG = 'org_a';
const UNKNOWN = 'c0ffee00-0000-4000-8000-000000000001';
const AFTER = { createdAt: new Date('2026-11-20T10:00:00.000Z'), id: '3f6c1d2e-8a4b-4c5d-9e6f-7a8b9c0d1e2f' };
/** The vault the organizations' entries enable and create; the tasks' entries use it. */
let vault: Vault;

const files: Record<string, () => Promise<SqlFileEntry[]>> = {
  'organizations.repository': async () => {
    const repository = new OrganizationsRepository(prisma.client as never);
    return [
      await ran('OrganizationsRepository.isEnabled(orgId)', () => repository.isEnabled(ORG)),
      await ran('OrganizationsRepository.enable(orgId), not enabled yet', () => repository.enable(ORG)),
      await ran('OrganizationsRepository.enable(orgId), enabled already', () => repository.enable(ORG)),
    ];
  },
  'vaults.repository': async () => {
    const repository = new VaultsRepository(prisma.client as never);
    return [
      await ran('VaultsRepository.create(vault)', async () => {
        vault = await repository.create({
          orgId: ORG,
          chainId: 31337,
          address: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
          deployTxHash: `0x${'ab'.repeat(32)}`,
        });
      }),
      await ran('VaultsRepository.findInOrg(orgId, vaultId)', () => repository.findInOrg(ORG, vault.id)),
    ];
  },
  'tasks.repository': async () => {
    const repository = new TasksRepository(prisma.client as never);
    const task: NewTaskRow = {
      orgId: ORG,
      vaultId: vault.id,
      kind: 'set_pause',
      idempotencyKey: 'key-1',
      requestHash: 'f'.repeat(64),
      input: { paused: true },
    };
    let taskId = '';
    const first = new NewestFirst('microvault-tasks', {}, { limit: 2 });
    const next = new NewestFirst('microvault-tasks', {}, { cursor: first.cursorOf(AFTER), limit: 2 });
    return [
      await ran('TasksRepository.createOnce(task), a new key', async () => {
        taskId = (await repository.createOnce(task)).task.id;
      }),
      await ran(
        'TasksRepository.createOnce(task), a key stored already: the INSERT above, refused by the unique key (Prisma emits no query event for a statement that fails), then',
        () => repository.createOnce(task),
      ),
      await ran('TasksRepository.findByKey(key)', () => repository.findByKey(task)),
      await ran('TasksRepository.findInOrg(orgId, taskId)', () => repository.findInOrg(ORG, UNKNOWN)),
      await ran('TasksRepository.page(orgId, vaultId, the first page, limit 2)', () => repository.page(ORG, vault.id, first)),
      await ran('TasksRepository.page(orgId, vaultId, a page after a cursor, limit 2)', () => repository.page(ORG, vault.id, next)),
      await ran('TasksRepository.unsigned(limit), a task without a transaction', () => repository.unsigned(10)),
      await ran('TasksRepository.storeSigned(taskId, signed)', () =>
        repository.storeSigned(taskId, { signedTx: `0x${'cd'.repeat(40)}`, hash: `0x${'ef'.repeat(32)}`, nonce: 0 }),
      ),
      await ran('TasksRepository.withStoredTransaction(), a task with one', () => repository.withStoredTransaction()),
      await ran('TasksRepository.countUnsent()', () => repository.countUnsent()),
      await ran('TasksRepository.setStatus(taskId, status, error)', () => repository.setStatus(taskId, 'broadcast', null)),
    ];
  },
};

describe('the statements microvault-service runs through Prisma, as text in src/queries/prisma', () => {
  it("are those of the files, and every file is a module's (UPDATE_SQL=1 rewrites them)", async () => {
    const dir = fileURLToPath(new URL('./prisma/', import.meta.url));
    expect(await prismaQueriesFileDifferences(dir, 'src/queries/prisma.int.spec.ts', prisma, files)).toEqual([]);
  });
});
