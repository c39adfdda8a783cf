import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { checkColumnLists } from '@service/testing';

/** Every hand-written column list of the service's SQL against prisma/schema.prisma (`checkColumnLists`, libs/testing). */
const report = checkColumnLists(fileURLToPath(new URL('../../..', import.meta.url)));

describe('column lists of the SQL of risk-service', () => {
  // The rest of its statements go through Prisma's model API; a raw one added later is checked here.
  it('are found (the held injections, the rule and action locks)', () => {
    const found = new Set(report.lists.map((list) => `${list.file}: ${list.kind} ${list.table}`));
    for (const list of [
      'app/repositories/risk.repository.ts: select metric_observations',
      'app/repositories/risk.repository.ts: select risk_rules',
      'app/repositories/risk.repository.ts: select risk_actions',
    ])
      expect(found).toContain(list);
  });

  it('name only columns of the Prisma models, read under the models’ field names', () => {
    expect(report.unknown).toEqual([]);
  });
});
