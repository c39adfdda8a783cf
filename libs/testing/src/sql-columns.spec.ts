import { describe, expect, it } from '@jest/globals';
import { columnListProblems, columnListsIn, type PrismaTable } from './sql-columns.js';

const tables = new Map<string, PrismaTable>([
  [
    'metric_observations',
    {
      model: 'MetricObservation',
      table: 'metric_observations',
      columns: new Map([
        ['id', 'id'],
        ['org_id', 'orgId'],
        ['yield_source_id', 'yieldSourceId'],
        ['recorded_at', 'recordedAt'],
        ['expires_at', 'expiresAt'],
      ]),
    },
  ],
]);
const problems = (sql: string) => columnListsIn(sql, tables).flatMap((list) => columnListProblems(list, tables));

describe('columnListsIn', () => {
  it('reads the list of a SELECT DISTINCT ON (...) and the columns it is distinct on', () => {
    const [list, ...rest] = columnListsIn(
      'SELECT DISTINCT ON (org_id) org_id, expires_at FROM metric_observations WHERE yield_source_id = $1 ORDER BY org_id',
      tables,
    );
    expect(rest).toEqual([]);
    expect(list?.kind).toBe('select');
    expect(list?.table).toBe('metric_observations');
    expect(list?.columns.map(({ column }) => column)).toEqual(['org_id', 'org_id', 'expires_at']);
    expect(list?.text).toBe('DISTINCT ON (org_id) org_id, expires_at');
  });

  it('catches a misspelt column behind DISTINCT ON, in its list or in what it is distinct on', () => {
    expect(problems('SELECT DISTINCT ON (org_id) org_id, expire_at FROM metric_observations')).toEqual([
      'metric_observations.expire_at: no such column in model MetricObservation',
    ]);
    expect(problems('SELECT DISTINCT ON (o.orgid) o.org_id FROM metric_observations o')).toEqual([
      'metric_observations.orgid: no such column in model MetricObservation',
    ]);
  });

  it('still reads a plain DISTINCT list and a plain list', () => {
    expect(problems('SELECT DISTINCT org_id, expiresat FROM metric_observations')).toEqual([
      'metric_observations.expiresat: no such column in model MetricObservation',
    ]);
    expect(problems('SELECT id, org_id AS "orgId" FROM metric_observations')).toEqual([]);
  });
});
