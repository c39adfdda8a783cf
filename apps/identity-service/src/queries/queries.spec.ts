import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { queriesFileDifferences, RecordingSql, type SqlFileEntry, unrecordedRawSqlFunctions } from '@service/testing';
import { ApiKeysRepository } from '../app/repositories/api-keys.repository.js';

/**
 * Every statement identity-service runs raw, as text: each function is called on a
 * `RecordingSql`, and what it ran is compared with `src/queries/<module>.sql` (`UPDATE_SQL=1`
 * writes the files). Prisma's model API (creating, finding, revoking, rolling keys) is not here.
 */
const sql = new RecordingSql();
const ran = (call: string, work: () => Promise<unknown>) => sql.entry(call, work);

const files: Record<string, () => Promise<SqlFileEntry[]>> = {
  'api-keys.repository': async () => {
    const repository = new ApiKeysRepository(sql as never);
    return [await ran('ApiKeysRepository.claimEnded()', () => repository.claimEnded())];
  },
};

describe('the statements of identity-service, as text in src/queries', () => {
  it("are those of the files, and every file is a module's (UPDATE_SQL=1 rewrites them)", async () => {
    expect(await queriesFileDifferences(fileURLToPath(new URL('.', import.meta.url)), 'src/queries/queries.spec.ts', files)).toEqual([]);
  });

  it('name every exported function of src/app that runs raw SQL', () => {
    expect(unrecordedRawSqlFunctions(fileURLToPath(new URL('../..', import.meta.url)))).toEqual([]);
  });
});
