import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { checkColumnLists } from '@service/testing';

/** Every hand-written column list of the service's SQL against prisma/schema.prisma (`checkColumnLists`, libs/testing). */
const report = checkColumnLists(fileURLToPath(new URL('../../..', import.meta.url)));

describe('column lists of the SQL of identity-service', () => {
  it("are found (the ended keys' claim)", () => {
    expect(report.lists.map((list) => `${list.file}: ${list.kind} ${list.table}`)).toContain(
      'app/repositories/api-keys.repository.ts: update api_keys',
    );
  });

  it('name only columns of the Prisma models, read under the models’ field names', () => {
    expect(report.unknown).toEqual([]);
  });
});
