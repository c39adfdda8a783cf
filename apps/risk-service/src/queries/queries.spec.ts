import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { queriesFileDifferences, RecordingSql, type SqlFileEntry, unrecordedRawSqlFunctions } from '@service/testing';
import { observedEventOf } from '../app/domain/views.js';
import { type NewObservation, RiskRepository } from '../app/repositories/risk.repository.js';

/**
 * Every statement risk-service runs raw, as text: each function is called on a `RecordingSql`,
 * and what it ran is compared with `src/queries/<module>.sql` (`UPDATE_SQL=1` writes the files).
 * Prisma's model API (rules, alerts, actions, observations) is not here.
 */
const sql = new RecordingSql();
const ran = (call: string, work: () => Promise<unknown>) => sql.entry(call, work);
const AT = new Date('2026-11-28T12:00:00.000Z');
const ID = '00000000-0000-4000-8000-000000000001';
const READING: NewObservation = {
  id: ID,
  yieldSourceId: 'service-ustb-vault',
  orgId: null,
  apyBps: 410,
  tvlUsd: 1_000_000,
  availableWithdrawalLiquidityUsd: 100_000,
  protocol: 'superstate',
  source: 'simulated',
  recordedAt: AT,
  expiresAt: null,
};

/** `sql` with the one model call `insertObservation` makes answered, not recorded (Prisma's model API is not here). */
const modelsOn = (recording: RecordingSql) => ({
  $executeRawUnsafe: (text: string, ...values: unknown[]) => recording.$executeRawUnsafe(text, ...values),
  metricObservation: { create: ({ data }: { data: NewObservation }) => Promise.resolve(data) },
});

const files: Record<string, () => Promise<SqlFileEntry[]>> = {
  'risk.repository': async () => {
    const repository = new RiskRepository(sql as never);
    const db = sql as never;
    return [
      await ran("RiskRepository.inSourceTransaction(['b', 'a', 'b'])", () =>
        repository.inSourceTransaction(['b', 'a', 'b'], () => Promise.resolve()),
      ),
      await ran("RiskRepository.heldOrganizations('service-ustb-vault')", () => repository.heldOrganizations(db, 'service-ustb-vault', AT)),
      await ran("RiskRepository.lockRule('org', id)", () => repository.lockRule(db, 'org', ID)),
      await ran("RiskRepository.lockAction('org', id)", () => repository.lockAction(db, 'org', ID)),
      await ran('RiskRepository.enqueue(tx, event): the outbox insert', () => repository.enqueue(db, observedEventOf(READING))),
      await ran(
        'RiskRepository.insertObservation(tx, reading, observedEventOf(reading)): the row through Prisma (its model API, not here), then its event',
        () => repository.insertObservation(modelsOn(sql) as never, READING, observedEventOf(READING)),
      ),
    ];
  },
};

describe('the statements of risk-service, as text in src/queries', () => {
  it("are those of the files, and every file is a module's (UPDATE_SQL=1 rewrites them)", async () => {
    expect(await queriesFileDifferences(fileURLToPath(new URL('.', import.meta.url)), 'src/queries/queries.spec.ts', files)).toEqual([]);
  });

  it('name every exported function of src/app that runs raw SQL', () => {
    expect(unrecordedRawSqlFunctions(fileURLToPath(new URL('../..', import.meta.url)))).toEqual([]);
  });
});
