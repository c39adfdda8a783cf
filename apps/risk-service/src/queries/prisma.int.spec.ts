import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { KeysetPage } from '@service/pagination';
import { prismaQueriesFileDifferences, RecordingPrisma, type SqlFileEntry } from '@service/testing';
import { PrismaClient } from '../generated/prisma/client.js';
import { observedEventOf } from '../app/domain/views.js';
import { type NewObservation, RiskRepository } from '../app/repositories/risk.repository.js';

/**
 * The statements risk-service runs through Prisma's model API, as text: each `RiskRepository`
 * method that uses it is called with representative inputs on the service's Prisma client over a
 * freshly migrated schema, what Prisma sent (its query events, the raw statements a method runs
 * beside them included) is compared with `src/queries/prisma/<module>.sql` (`UPDATE_SQL=1` writes
 * the files), and the schema is dropped. The raw statements alone are `queries.spec.ts`'s, in
 * `src/queries/<module>.sql`.
 */
let prisma: RecordingPrisma<PrismaClient>;
const ran = (call: string, work: () => Promise<unknown>) => prisma.entry(call, work);

beforeAll(async () => {
  prisma = await RecordingPrisma.start('risk-service', (options) => new PrismaClient(options));
});

afterAll(async () => {
  await prisma?.stop();
});

const ORG = 'org_a';
const SOURCE = 'service-ustb-vault';
const WALLET = '5b1d9c3e-0c6a-4f57-9d3b-2f0f1c7a8e11';
const RULE = '7c2e0d4f-1d7b-4a68-8e4c-3a1a2d8b9f22';
const ALERT = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const ACTION = '3f6c1d2e-8a4b-4c5d-9e6f-7a8b9c0d1e2f';
const UNKNOWN = 'c0ffee00-0000-4000-8000-000000000001';
const AT = new Date('2026-11-28T12:00:00.000Z');
const EARLIER = new Date('2026-11-28T11:00:00.000Z');
const AFTER = { createdAt: new Date('2026-11-29T10:00:00.000Z'), id: '00000000-0000-4000-8000-0000000000ff' };

const READING: NewObservation = {
  id: '00000000-0000-4000-8000-000000000001',
  yieldSourceId: SOURCE,
  orgId: null,
  apyBps: 410,
  tvlUsd: 1_000_000,
  availableWithdrawalLiquidityUsd: 100_000,
  protocol: 'superstate',
  source: 'simulated',
  recordedAt: EARLIER,
  expiresAt: null,
};
const INJECTION: NewObservation = {
  ...READING,
  id: '00000000-0000-4000-8000-000000000002',
  orgId: ORG,
  source: 'injected',
  recordedAt: EARLIER,
  expiresAt: new Date('2026-11-28T13:00:00.000Z'),
};

/**
 * A list's two shapes: no filters, the first page newest first; and every filter, a page after a
 * cursor, oldest first.
 */
function pages<F extends object>(list: string, filters: F): { plain: KeysetPage; filtered: KeysetPage } {
  const cursor = new KeysetPage(list, filters as never, {}, { order: 'asc' }).cursorOf(AFTER);
  return {
    plain: new KeysetPage(list, {}, { limit: 2 }),
    filtered: new KeysetPage(list, filters as never, { cursor, limit: 2 }, { order: 'asc' }),
  };
}

const files: Record<string, () => Promise<SqlFileEntry[]>> = {
  'risk.repository': async () => {
    const repository = new RiskRepository(prisma.client as never);
    const db = prisma.client as never;
    const ruleFilters = { walletIds: [WALLET], status: 'active' };
    const rules = pages('risk-rules', ruleFilters);
    const alerts = pages('risk-alerts', ruleFilters);
    const actionFilters = { ...ruleFilters, actions: ['exit_position', 'exit_position:approval_required'] };
    const actions = pages('risk-actions', actionFilters);
    return [
      // --- observations
      await ran('RiskRepository.insertObservation(db, reading, observedEventOf(reading))', () =>
        repository.insertObservation(db, READING, observedEventOf(READING)),
      ),
      await ran("RiskRepository.insertObservation(db, an organization's injection, its event)", () =>
        repository.insertObservation(db, INJECTION, observedEventOf(INJECTION)),
      ),
      await ran('RiskRepository.latestReading(db, yieldSourceId, at)', () => repository.latestReading(db, SOURCE, AT)),
      await ran('RiskRepository.heldInjection(db, orgId, yieldSourceId, at)', () => repository.heldInjection(db, ORG, SOURCE, AT)),
      await ran("RiskRepository.visible(db, orgId, yieldSourceId, at), the organization's injection holding", () =>
        repository.visible(db, ORG, SOURCE, AT),
      ),
      await ran('RiskRepository.visible(db, orgId, yieldSourceId, at), no injection: the latest reading', () =>
        repository.visible(db, 'org_b', SOURCE, AT),
      ),
      await ran('RiskRepository.baseline(db, null, yieldSourceId, before)', () => repository.baseline(db, null, SOURCE, AT)),
      await ran('RiskRepository.baseline(db, orgId, yieldSourceId, before)', () => repository.baseline(db, ORG, SOURCE, AT)),
      await ran('RiskRepository.series(db, orgId, yieldSourceId, {}, limit)', () => repository.series(db, ORG, SOURCE, {}, 50)),
      await ran('RiskRepository.series(db, orgId, yieldSourceId, {startAt, endAt}, limit)', () =>
        repository.series(db, ORG, SOURCE, { startAt: EARLIER, endAt: AT }, 50),
      ),
      await ran('RiskRepository.lastReadingAt(yieldSourceId)', () => repository.lastReadingAt(SOURCE)),
      // --- rules
      await ran('RiskRepository.insertRule(db, row)', () =>
        repository.insertRule(db, {
          id: RULE,
          orgId: ORG,
          walletId: WALLET,
          yieldSourceId: SOURCE,
          name: 'apy floor',
          metric: 'apy_bps',
          ruleKind: 'threshold',
          comparator: 'lt',
          thresholdValue: 300,
          severity: 'high',
          action: 'exit_position',
          status: 'active',
          createdAt: AT,
          updatedAt: AT,
        }),
      ),
      await ran('RiskRepository.lockRule(db, orgId, id), found', () => repository.lockRule(db, ORG, RULE)),
      await ran('RiskRepository.lockRule(db, orgId, id), not found', () => repository.lockRule(db, ORG, UNKNOWN)),
      await ran('RiskRepository.findRule(db, orgId, id)', () => repository.findRule(db, ORG, RULE)),
      await ran('RiskRepository.updateRule(db, id, {status, updatedAt})', () =>
        repository.updateRule(db, RULE, { status: 'active', updatedAt: AT }),
      ),
      await ran('RiskRepository.activeRulesOfSource(db, yieldSourceId)', () => repository.activeRulesOfSource(db, SOURCE)),
      await ran('RiskRepository.activeRulesOfSource(db, yieldSourceId, orgId)', () => repository.activeRulesOfSource(db, SOURCE, ORG)),
      await ran('RiskRepository.rulesPage(orgId, no filters, the first page newest first, limit 2)', () =>
        repository.rulesPage(ORG, {}, rules.plain),
      ),
      await ran('RiskRepository.rulesPage(orgId, {walletIds, status}, a page after a cursor oldest first, limit 2)', () =>
        repository.rulesPage(ORG, ruleFilters, rules.filtered),
      ),
      // --- alerts
      await ran('RiskRepository.insertAlert(db, row)', () =>
        repository.insertAlert(db, {
          id: ALERT,
          orgId: ORG,
          walletId: WALLET,
          ruleId: RULE,
          yieldSourceId: SOURCE,
          observationId: READING.id,
          metric: 'apy_bps',
          ruleKind: 'threshold',
          severity: 'high',
          status: 'ongoing',
          thresholdValue: 300,
          observedValue: 250,
          explanation: { summary: 'apy below its floor' },
          triggeredAt: AT,
        }),
      ),
      await ran('RiskRepository.ongoingAlertsOfSource(db, yieldSourceId)', () => repository.ongoingAlertsOfSource(db, SOURCE)),
      await ran('RiskRepository.ongoingAlertOfRule(db, ruleId)', () => repository.ongoingAlertOfRule(db, RULE)),
      await ran('RiskRepository.alertsPage(orgId, no filters, the first page newest first, limit 2)', () =>
        repository.alertsPage(ORG, {}, alerts.plain),
      ),
      await ran('RiskRepository.alertsPage(orgId, {walletIds, status}, a page after a cursor oldest first, limit 2)', () =>
        repository.alertsPage(ORG, ruleFilters, alerts.filtered),
      ),
      // --- actions
      await ran('RiskRepository.insertAction(db, row)', () =>
        repository.insertAction(db, {
          id: ACTION,
          orgId: ORG,
          walletId: WALLET,
          ruleId: RULE,
          alertId: ALERT,
          yieldSourceId: SOURCE,
          action: 'block_rebalance_buy',
          status: 'executed',
          approvalRequired: false,
          explanation: { summary: 'block buys of the source' },
          createdAt: AT,
          updatedAt: AT,
        }),
      ),
      await ran('RiskRepository.lockAction(db, orgId, id), found', () => repository.lockAction(db, ORG, ACTION)),
      await ran('RiskRepository.lockAction(db, orgId, id), not found', () => repository.lockAction(db, ORG, UNKNOWN)),
      await ran('RiskRepository.lockAction(db, orgId, id), not a UUID (no statement)', () => repository.lockAction(db, ORG, 'nope')),
      await ran('RiskRepository.actionsIn(db, {alertId}, statuses)', () =>
        repository.actionsIn(db, { alertId: ALERT }, ['pending_approval', 'executed']),
      ),
      await ran('RiskRepository.actionsIn(db, {ruleId}, statuses)', () => repository.actionsIn(db, { ruleId: RULE }, ['pending_approval'])),
      await ran('RiskRepository.executedBlocksOf(db, alertId)', () => repository.executedBlocksOf(db, ALERT)),
      await ran('RiskRepository.actionsPage(orgId, no filters, the first page newest first, limit 2)', () =>
        repository.actionsPage(ORG, {}, actions.plain),
      ),
      await ran('RiskRepository.actionsPage(orgId, {walletIds, status, actions}, a page after a cursor oldest first, limit 2)', () =>
        repository.actionsPage(ORG, actionFilters, actions.filtered),
      ),
      await ran('RiskRepository.updateAction(db, id, {status, updatedAt, resolvedAt})', () =>
        repository.updateAction(db, ACTION, { status: 'rejected', updatedAt: AT, resolvedAt: AT }),
      ),
      await ran('RiskRepository.resolveAlert(db, id, at, source, note)', () => repository.resolveAlert(db, ALERT, AT, 'automatic', null)),
    ];
  },
};

describe('the statements risk-service runs through Prisma, as text in src/queries/prisma', () => {
  it("are those of the files, and every file is a module's (UPDATE_SQL=1 rewrites them)", async () => {
    const dir = fileURLToPath(new URL('./prisma/', import.meta.url));
    expect(await prismaQueriesFileDifferences(dir, 'src/queries/prisma.int.spec.ts', prisma, files)).toEqual([]);
  });
});
