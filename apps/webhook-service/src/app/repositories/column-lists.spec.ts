import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { checkColumnLists } from '@service/testing';

/** Every hand-written column list of the service's SQL against prisma/schema.prisma (`checkColumnLists`, libs/testing). */
const report = checkColumnLists(fileURLToPath(new URL('../../..', import.meta.url)));

describe('column lists of the SQL of webhook-service', () => {
  it('are found (fan-out, claim, record, 410, requeue, test delivery)', () => {
    const found = new Set(report.lists.map((list) => `${list.file}: ${list.kind} ${list.table}`));
    for (const list of [
      'app/repositories/fan-out.ts: insert deliveries',
      'app/repositories/fan-out.ts: insert processed_events',
      'app/repositories/delivery-store.ts: insert emissions',
      'app/repositories/delivery-store.ts: update deliveries',
      'app/repositories/delivery-store.ts: update emissions',
      'app/repositories/delivery-store.ts: update registrations',
      'app/repositories/deliveries.repository.ts: insert deliveries',
      'app/repositories/deliveries.repository.ts: update deliveries',
    ])
      expect(found).toContain(list);
  });

  it('name only columns of the Prisma models, read under the models’ field names', () => {
    expect(report.unknown).toEqual([]);
  });
});
