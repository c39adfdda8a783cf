import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { queriesFileDifferences, RecordingSql, type SqlFileEntry, unrecordedRawSqlFunctions } from '@service/testing';
import { SignerLeaseRepository } from '../app/repositories/signer-lease.repository.js';

/**
 * Every statement microvault-service runs raw, as text: each function is called on a
 * `RecordingSql`, and what it ran is compared with `src/queries/<module>.sql` (`UPDATE_SQL=1`
 * writes the files). Prisma's model API (tasks, nonces, the indexer's cursor) is not here.
 */
const sql = new RecordingSql();
const ran = (call: string, work: () => Promise<unknown>) => sql.entry(call, work);

const files: Record<string, () => Promise<SqlFileEntry[]>> = {
  'signer-lease.repository': async () => {
    const lease = new SignerLeaseRepository(sql as never, { MICROVAULT_SIGNER_LEASE_MS: 15_000 } as never);
    return [
      await ran('SignerLeaseRepository.acquire() (lease ms 15000)', () => lease.acquire()),
      await ran('SignerLeaseRepository.release()', () => lease.release()),
    ];
  },
};

describe('the statements of microvault-service, as text in src/queries', () => {
  it("are those of the files, and every file is a module's (UPDATE_SQL=1 rewrites them)", async () => {
    expect(await queriesFileDifferences(fileURLToPath(new URL('.', import.meta.url)), 'src/queries/queries.spec.ts', files)).toEqual([]);
  });

  it('name every exported function of src/app that runs raw SQL', () => {
    expect(unrecordedRawSqlFunctions(fileURLToPath(new URL('../..', import.meta.url)))).toEqual([]);
  });
});
