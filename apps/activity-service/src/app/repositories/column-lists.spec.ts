import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { checkColumnLists } from '@service/testing';

/** Every hand-written column list of the service's SQL against prisma/schema.prisma (`checkColumnLists`, libs/testing). */
const report = checkColumnLists(fileURLToPath(new URL('../../..', import.meta.url)), {
  // The projection writes every column of an item.
  complete: [{ file: 'app/repositories/activity-items.repository.ts', kind: 'insert', table: 'activity_items' }],
});

describe('column lists of the SQL of activity-service', () => {
  it("are found (the projection's upserts, the feed's page)", () => {
    const found = new Set(report.lists.map((list) => `${list.file}: ${list.kind} ${list.table}`));
    for (const list of [
      'app/repositories/activity-items.repository.ts: insert activity_items',
      'app/repositories/activity-items.repository.ts: update activity_items',
      'app/repositories/feed.repository.ts: select activity_items',
    ])
      expect(found).toContain(list);
  });

  it('name only columns of the Prisma models, read under the models’ field names', () => {
    expect(report.unknown).toEqual([]);
  });

  it('that stand for a whole row name every column of its model', () => {
    expect(report.missing).toEqual([]);
  });
});
