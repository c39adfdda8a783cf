import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { checkColumnLists } from '@service/testing';

/** Every hand-written column list of the service's SQL against prisma/schema.prisma (`checkColumnLists`, libs/testing). */
const report = checkColumnLists(fileURLToPath(new URL('../../..', import.meta.url)));

describe('column lists of the SQL of gvault-service', () => {
  // Every statement of gvault-service goes through Prisma's model API today; a raw one added later is checked here.

  it('name only columns of the Prisma models, read under the models’ field names', () => {
    expect(report.unknown).toEqual([]);
  });
});
