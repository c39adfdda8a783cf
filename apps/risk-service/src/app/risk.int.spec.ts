import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import {
  ALL_ORGANIZATIONS,
  type CreateRiskRuleDto,
  eventSubject,
  type RebalanceObject,
  type RequestContext,
  type Role,
  type RiskAlertDto,
  type RiskRuleDto,
} from '@service/contracts';
import { SubjectClient } from '@service/nats';
import { type InProcessService, startServiceInProcess } from '@service/service-testing';
import { eventually } from '@service/testing';
import { riskConfigSpec } from '../config.js';
import { AppModule } from './app.module.js';
import { sourceOf } from './domain/catalogue.js';
import type { MetricFigures } from './domain/rules.js';
import { observedEventOf } from './domain/views.js';
import { MarketDataService } from './market-data/market-data.service.js';
import { EngineService } from './risk/engine.service.js';
import { type NewObservation, RiskRepository } from './repositories/risk.repository.js';
import { PrismaService } from './prisma.service.js';

/**
 * risk-service in process, on its own schema, NATS server and event stream, with the provider
 * worker off: the test records the providers' readings itself (MarketDataService.record) and
 * talks to the subjects the way the gateway does.
 */
let service: InProcessService;
let client: SubjectClient;
let marketData: MarketDataService;
let prisma: PrismaService;

beforeAll(async () => {
  service = await startServiceInProcess({
    name: 'risk',
    module: AppModule.forRoot,
    spec: riskConfigSpec,
    env: { RISK_OBSERVATION_INTERVAL_MS: '0' },
  });
  client = new SubjectClient(service.requester);
  marketData = service.running.app.get(MarketDataService);
  prisma = service.running.app.get(PrismaService);
});

afterAll(async () => {
  await service?.stop();
});

let orgs = 0;
const freshOrg = () => `org_${randomUUID().slice(0, 8)}_${(orgs += 1)}`;
const ctxOf = (orgId: string, role: Role = 'owner'): RequestContext => ({
  orgId,
  role,
  principalId: `user_${orgId}`,
  requestId: randomUUID(),
});
const errorOf = (code: string) => expect.objectContaining({ code }) as unknown as Error;

const JAAA_USDC = 'service-jaaa-usdc-vault';
const JAAA_USDT = 'service-jaaa-usdt-vault';
const USTB = 'service-ustb-vault';
const JUSTLEND = 'service-justlend-usdt-tron-market';

/** A provider reading of a source at `at` (now unless given). */
async function reading(yieldSourceId: string, figures: Partial<MetricFigures>, at = new Date()) {
  const source = sourceOf('sandbox', yieldSourceId)!;
  return marketData.record(
    source,
    'simulated',
    { apy_bps: 500, tvl_usd: 1_000_000, available_withdrawal_liquidity_usd: 100_000, ...figures },
    at,
  );
}

function createRule(orgId: string, rule: Partial<CreateRiskRuleDto> & Pick<CreateRiskRuleDto, 'yieldSourceId'>): Promise<RiskRuleDto> {
  return client.request('risk.rules.create', {
    ctx: ctxOf(orgId),
    portfolioWalletId: randomUUID(),
    metric: 'tvl_usd',
    ruleKind: 'absolute',
    comparator: 'lt',
    thresholdValue: 500_000,
    ...rule,
  });
}

const alertsOf = async (orgId: string, status?: 'ongoing' | 'resolved'): Promise<RiskAlertDto[]> =>
  (await client.request('risk.alerts.list', { ctx: ctxOf(orgId), ...(status ? { status } : {}) })).data;

const actionsOf = async (orgId: string) => (await client.request('risk.actions.list', { ctx: ctxOf(orgId) })).data;

/** The outbox rows of a wallet, oldest first: `type` and the status of its alert or action. */
async function eventsOf(walletId: string): Promise<string[]> {
  const rows = await prisma.$queryRawUnsafe<{ type: string; status: string | null }[]>(
    `SELECT type, coalesce(payload -> 'alert' ->> 'status', payload -> 'action' ->> 'status') AS status
       FROM outbox_events WHERE payload ->> 'walletId' = $1 ORDER BY seq`,
    walletId,
  );
  return rows.map((row) => `${row.type.replace('portfolio_wallet.risk.', '')}:${row.status}`);
}

describe('risk rules', () => {
  it('are created, listed, updated and deleted, with both spellings returned', async () => {
    const org = freshOrg();
    const walletId = randomUUID();
    const created = await createRule(org, {
      yieldSourceId: USTB,
      portfolioWalletId: walletId,
      name: 'TVL drawdown',
      ruleKind: 'relative_change_bps',
      comparator: 'lte',
      thresholdValue: -1500,
      windowSeconds: 86_400,
      severity: 'critical',
      outcome: 'exit_position',
      approvalMode: 'approval_required',
    });
    expect(created).toMatchObject({
      organizationId: org,
      portfolioWalletId: walletId,
      yieldSourceId: USTB,
      name: 'TVL drawdown',
      metric: 'tvl_usd',
      ruleKind: 'relative_change_bps',
      comparator: 'lte',
      thresholdValue: -1500,
      windowSeconds: 86_400,
      severity: 'critical',
      action: 'request_rebalance_out',
      outcome: 'exit_position',
      approvalMode: 'approval_required',
      status: 'active',
    });
    const second = await createRule(org, { yieldSourceId: USTB, action: 'block_rebalance_buy' });
    expect(second).toMatchObject({
      action: 'block_rebalance_buy',
      outcome: 'prevent_additional_allocation',
      approvalMode: 'automatic',
      severity: 'warning',
      name: null,
    });

    const all = await client.request('risk.rules.list', { ctx: ctxOf(org, 'member') });
    expect(all.data.map((rule) => rule.id)).toEqual([second.id, created.id]);
    const page = await client.request('risk.rules.list', { ctx: ctxOf(org), limit: 1, portfolioWalletIds: [walletId] });
    expect(page).toEqual({ data: [created], nextCursor: null });
    const first = await client.request('risk.rules.list', { ctx: ctxOf(org), limit: 1 });
    const next = await client.request('risk.rules.list', { ctx: ctxOf(org), limit: 1, cursor: first.nextCursor! });
    expect(next.data.map((rule) => rule.id)).toEqual([created.id]);
    expect((await client.request('risk.rules.list', { ctx: ctxOf(freshOrg()) })).data).toEqual([]);

    const updated = await client.request('risk.rules.update', {
      ctx: ctxOf(org),
      riskRuleId: second.id,
      thresholdValue: 10,
      status: 'paused',
    });
    expect(updated).toMatchObject({ thresholdValue: 10, status: 'paused', action: 'block_rebalance_buy' });
    expect((await client.request('risk.rules.list', { ctx: ctxOf(org), status: 'paused' })).data.map((rule) => rule.id)).toEqual([
      second.id,
    ]);

    await expect(client.request('risk.rules.delete', { ctx: ctxOf(org), riskRuleId: second.id })).resolves.toEqual({
      id: second.id,
      deleted: true,
    });
    await expect(client.request('risk.rules.delete', { ctx: ctxOf(org), riskRuleId: second.id })).rejects.toThrow(
      errorOf('risk_rule_not_found'),
    );
    await expect(client.request('risk.rules.update', { ctx: ctxOf(freshOrg()), riskRuleId: created.id, name: 'x' })).rejects.toThrow(
      errorOf('risk_rule_not_found'),
    );
  });

  it('refuse what the real API refuses', async () => {
    const org = freshOrg();
    const refusals: Partial<CreateRiskRuleDto>[] = [
      { thresholdValue: -1 },
      { windowSeconds: 60 },
      { ruleKind: 'relative_change_bps', thresholdValue: -100 },
      { outcome: 'alert', approvalMode: 'automatic' },
      { outcome: 'exit_position' },
      { action: 'alert_only', outcome: 'exit_position', approvalMode: 'automatic' },
      { action: 'request_rebalance_out', approvalMode: 'automatic' },
    ];
    for (const refusal of refusals) {
      await expect(createRule(org, { yieldSourceId: USTB, ...refusal })).rejects.toThrow(errorOf('validation_error'));
    }
    await expect(createRule(org, { yieldSourceId: 'no-such-source' })).rejects.toThrow(errorOf('yield_source_not_found'));
    await expect(
      client.request('risk.rules.create', {
        ctx: ctxOf(org, 'member'),
        portfolioWalletId: randomUUID(),
        yieldSourceId: USTB,
        metric: 'tvl_usd',
        ruleKind: 'absolute',
        comparator: 'lt',
        thresholdValue: 1,
      }),
    ).rejects.toThrow(errorOf('forbidden'));
    expect((await client.request('risk.rules.list', { ctx: ctxOf(org) })).data).toEqual([]);
  });
});

describe('alerts over observations', () => {
  it('open once across repeated breaches, resolve on the first safe reading, and go out through the outbox', async () => {
    const org = freshOrg();
    const rule = await createRule(org, { yieldSourceId: JAAA_USDT, thresholdValue: 500_000 });
    await reading(JAAA_USDT, { tvl_usd: 600_000 });
    expect(await alertsOf(org)).toEqual([]);

    await reading(JAAA_USDT, { tvl_usd: 499_999.99 });
    await reading(JAAA_USDT, { tvl_usd: 400_000 });
    const [alert] = await alertsOf(org);
    expect(await alertsOf(org)).toHaveLength(1);
    expect(alert).toMatchObject({
      riskRuleId: rule.id,
      portfolioWalletId: rule.portfolioWalletId,
      status: 'ongoing',
      observedValue: 499_999.99,
      thresholdValue: 500_000,
      baselineValue: null,
      observedChangeBps: null,
      resolvedAt: null,
      explanation: { summary: expect.stringContaining('below the threshold 500000') as unknown },
    });

    await reading(JAAA_USDT, { tvl_usd: 500_000 });
    const [resolved] = await alertsOf(org, 'resolved');
    expect(resolved).toMatchObject({ id: alert!.id, status: 'resolved', resolutionSource: 'auto' });
    expect(await alertsOf(org, 'ongoing')).toEqual([]);
    expect(await eventsOf(rule.portfolioWalletId)).toEqual(['alert.triggered:ongoing', 'alert.resolved:resolved']);
  });

  it('open at once for a rule created or re-enabled while its source breaches; a paused rule is inert', async () => {
    const org = freshOrg();
    await reading(JAAA_USDC, { apy_bps: 300 });
    const rule = await createRule(org, { yieldSourceId: JAAA_USDC, metric: 'apy_bps', comparator: 'lte', thresholdValue: 300 });
    expect((await alertsOf(org, 'ongoing')).map((alert) => alert.riskRuleId)).toEqual([rule.id]);

    const paused = await createRule(org, {
      yieldSourceId: JAAA_USDC,
      metric: 'apy_bps',
      comparator: 'lt',
      thresholdValue: 250,
      status: 'paused',
    });
    await reading(JAAA_USDC, { apy_bps: 200 });
    expect((await alertsOf(org, 'ongoing')).map((alert) => alert.riskRuleId)).toEqual([rule.id]);

    // Paused with its alert open: the alert stays, whatever the readings.
    await client.request('risk.rules.update', { ctx: ctxOf(org), riskRuleId: rule.id, status: 'paused' });
    await reading(JAAA_USDC, { apy_bps: 600 });
    await reading(JAAA_USDC, { apy_bps: 200 });
    expect((await alertsOf(org, 'ongoing')).map((alert) => alert.riskRuleId)).toEqual([rule.id]);

    await client.request('risk.rules.update', { ctx: ctxOf(org), riskRuleId: paused.id, status: 'active' });
    expect((await alertsOf(org, 'ongoing')).map((alert) => alert.riskRuleId).sort()).toEqual([rule.id, paused.id].sort());
  });

  it('evaluate velocity rules on the change over their window', async () => {
    const org = freshOrg();
    const hourAgo = new Date(Date.now() - 3_600_000);
    await reading(JUSTLEND, { available_withdrawal_liquidity_usd: 1_000_000 }, new Date(hourAgo.getTime() - 1000));
    const rule = await createRule(org, {
      yieldSourceId: JUSTLEND,
      metric: 'available_withdrawal_liquidity_usd',
      ruleKind: 'relative_change_bps',
      comparator: 'lte',
      thresholdValue: -1500,
      windowSeconds: 3600,
    });
    await reading(JUSTLEND, { available_withdrawal_liquidity_usd: 850_100 });
    expect(await alertsOf(org)).toEqual([]);
    await reading(JUSTLEND, { available_withdrawal_liquidity_usd: 850_000 });
    expect(await alertsOf(org, 'ongoing')).toEqual([
      expect.objectContaining({
        riskRuleId: rule.id,
        baselineValue: 1_000_000,
        observedValue: 850_000,
        observedChangeBps: -1500,
        windowSeconds: 3600,
      }),
    ]);
  });
});

describe('sandbox injections', () => {
  it('hold for the injecting organization only, until they expire', async () => {
    const [a, b] = [freshOrg(), freshOrg()];
    await reading(USTB, { tvl_usd: 900_000 });
    const ruleA = await createRule(a, { yieldSourceId: USTB, thresholdValue: 800_000 });
    const ruleB = await createRule(b, { yieldSourceId: USTB, thresholdValue: 800_000 });

    const injected = await client.request('risk.sandbox-metrics.inject', {
      ctx: ctxOf(a),
      yieldSourceId: USTB,
      metrics: { tvl_usd: 100 },
      expiresInSeconds: 2,
    });
    expect(injected).toMatchObject({ yieldSourceId: USTB, source: 'sandbox_injection', metrics: { tvl_usd: 100, apy_bps: 500 } });
    expect(Date.parse(injected.expiresAt!) - Date.parse(injected.recordedAt)).toBe(2000);
    expect((await alertsOf(a, 'ongoing')).map((alert) => alert.riskRuleId)).toEqual([ruleA.id]);
    expect(await alertsOf(b)).toEqual([]);

    const latestOf = async (orgId: string) =>
      (await client.request('risk.metrics.list', { ctx: ctxOf(orgId), yieldSourceIds: [USTB] })).data[0]?.observations[0];
    expect(await latestOf(a)).toMatchObject({ id: injected.id, metrics: { tvl_usd: 100 } });
    expect(await latestOf(b)).toMatchObject({ source: 'simulated', metrics: { tvl_usd: 900_000 } });

    // The provider's safe reading does not undo the rehearsal while it holds.
    await reading(USTB, { tvl_usd: 950_000 });
    expect((await alertsOf(a, 'ongoing')).map((alert) => alert.riskRuleId)).toEqual([ruleA.id]);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    await reading(USTB, { tvl_usd: 960_000 });
    expect(await alertsOf(a, 'ongoing')).toEqual([]);
    expect(await latestOf(a)).toMatchObject({ source: 'simulated', metrics: { tvl_usd: 960_000 } });
    expect(ruleB.status).toBe('active');
  });

  it('refuse members, unknown sources and empty metrics', async () => {
    const org = freshOrg();
    await expect(
      client.request('risk.sandbox-metrics.inject', { ctx: ctxOf(org, 'member'), yieldSourceId: USTB, metrics: { tvl_usd: 1 } }),
    ).rejects.toThrow(errorOf('forbidden'));
    await expect(
      client.request('risk.sandbox-metrics.inject', { ctx: ctxOf(org), yieldSourceId: 'nope', metrics: { tvl_usd: 1 } }),
    ).rejects.toThrow(errorOf('yield_source_not_found'));
    await expect(client.request('risk.sandbox-metrics.inject', { ctx: ctxOf(org), yieldSourceId: USTB, metrics: {} })).rejects.toThrow(
      errorOf('validation_error'),
    );
  });
});

describe('the metrics list', () => {
  it('answers the latest observation per source, or a series, for each wallet asked', async () => {
    const org = freshOrg();
    const walletId = randomUUID();
    const base = Date.now() - 10_000;
    for (let index = 0; index < 3; index += 1) await reading(JAAA_USDT, { tvl_usd: 700_000 + index }, new Date(base + index * 1000));
    const latest = await client.request('risk.metrics.list', {
      ctx: ctxOf(org),
      yieldSourceIds: [JAAA_USDT],
      portfolioWalletIds: [walletId],
      metrics: ['tvl_usd'],
    });
    expect(latest.data).toHaveLength(1);
    expect(latest.data[0]).toMatchObject({ portfolioWalletId: walletId, yieldSourceId: JAAA_USDT });
    expect(latest.data[0]!.observations).toHaveLength(1);
    expect(Object.keys(latest.data[0]!.observations[0]!.metrics)).toEqual(['tvl_usd']);

    const series = await client.request('risk.metrics.list', {
      ctx: ctxOf(org),
      yieldSourceIds: [JAAA_USDT],
      latestOnly: false,
      limitPerYieldSource: 2,
      startAt: new Date(base).toISOString(),
      endAt: new Date(base + 2000).toISOString(),
    });
    expect(series.data[0]!.observations.map((observation) => observation.metrics.tvl_usd)).toEqual([700_002, 700_001]);
    const everySource = await client.request('risk.metrics.list', { ctx: ctxOf(org) });
    expect(everySource.data.map((entry) => entry.yieldSourceId).sort()).toEqual([JAAA_USDC, JAAA_USDT, USTB, JUSTLEND].sort());
  });
});

describe('risk actions', () => {
  it('wait for approval, are approved or rejected once, and a resolved alert or a deleted rule rejects what still waits', async () => {
    const org = freshOrg();
    await reading(JUSTLEND, { tvl_usd: 2_000_000 });
    const exit = await createRule(org, { yieldSourceId: JUSTLEND, thresholdValue: 1_000_000, action: 'request_rebalance_out' });
    const auto = await createRule(org, {
      yieldSourceId: JUSTLEND,
      thresholdValue: 1_000_000,
      outcome: 'exit_position',
      approvalMode: 'automatic',
    });
    const block = await createRule(org, { yieldSourceId: JUSTLEND, thresholdValue: 1_000_000, action: 'block_rebalance_buy' });
    await createRule(org, { yieldSourceId: JUSTLEND, thresholdValue: 1_000_000 });
    await reading(JUSTLEND, { tvl_usd: 900_000 });

    const actions = await actionsOf(org);
    expect(actions).toHaveLength(3);
    const byRule = new Map(actions.map((action) => [action.riskRuleId, action]));
    expect(byRule.get(exit.id)).toMatchObject({
      action: 'request_rebalance_out',
      outcome: 'exit_position',
      status: 'pending_approval',
      approvalRequired: true,
    });
    expect(byRule.get(auto.id)).toMatchObject({ action: 'auto_rebalance_out', status: 'executing', approvalRequired: false });
    expect(byRule.get(block.id)).toMatchObject({ action: 'block_rebalance_buy', status: 'executed', approvalRequired: false });
    const filtered = await client.request('risk.actions.list', { ctx: ctxOf(org), outcome: 'exit_position', status: 'pending_approval' });
    expect(filtered.data.map((action) => action.riskRuleId)).toEqual([exit.id]);

    const exitAction = byRule.get(exit.id)!;
    await expect(
      client.request('risk.actions.update', { ctx: ctxOf(org, 'member'), riskActionId: exitAction.id, status: 'approved' }),
    ).rejects.toThrow(errorOf('forbidden'));
    const approved = await client.request('risk.actions.update', { ctx: ctxOf(org), riskActionId: exitAction.id, status: 'approved' });
    expect(approved).toMatchObject({ id: exitAction.id, status: 'executing' });
    await expect(
      client.request('risk.actions.update', { ctx: ctxOf(org), riskActionId: exitAction.id, status: 'rejected' }),
    ).rejects.toThrow(errorOf('risk_action_not_pending'));
    await expect(
      client.request('risk.actions.update', { ctx: ctxOf(freshOrg()), riskActionId: exitAction.id, status: 'rejected' }),
    ).rejects.toThrow(errorOf('risk_action_not_found'));

    // The metric recovers: the block lifts; exits already running go on.
    await reading(JUSTLEND, { tvl_usd: 1_500_000 });
    const after = new Map((await actionsOf(org)).map((action) => [action.riskRuleId, action]));
    expect(after.get(auto.id)).toMatchObject({ status: 'executing', resolvedAt: null });
    expect(after.get(block.id)).toMatchObject({ status: 'executed' });
    expect(after.get(block.id)!.resolvedAt).not.toBeNull();
    expect(after.get(exit.id)).toMatchObject({ status: 'executing' });
    expect(await eventsOf(auto.portfolioWalletId)).toEqual([
      'alert.triggered:ongoing',
      'action.status_changed:pending_auto_execution',
      'action.status_changed:executing',
      'alert.resolved:resolved',
    ]);

    // A new breach: a rejection; a resolved alert and a deleted rule reject what still waits.
    await reading(JUSTLEND, { tvl_usd: 800_000 });
    const pending = (await client.request('risk.actions.list', { ctx: ctxOf(org), status: 'pending_approval' })).data;
    expect(pending.map((action) => action.riskRuleId)).toEqual([exit.id]);
    const rejected = await client.request('risk.actions.update', { ctx: ctxOf(org), riskActionId: pending[0]!.id, status: 'rejected' });
    expect(rejected.status).toBe('rejected');

    const approvalBlock = await createRule(org, {
      yieldSourceId: JUSTLEND,
      thresholdValue: 1_000_000,
      outcome: 'prevent_additional_allocation',
      approvalMode: 'approval_required',
    });
    const waiting = () => client.request('risk.actions.list', { ctx: ctxOf(org), status: 'pending_approval' }).then((page) => page.data);
    expect((await waiting()).map((action) => action.riskRuleId)).toEqual([approvalBlock.id]);
    await reading(JUSTLEND, { tvl_usd: 1_200_000 });
    expect(await waiting()).toEqual([]);
    expect((await actionsOf(org)).find((action) => action.riskRuleId === approvalBlock.id)).toMatchObject({ status: 'rejected' });

    await reading(JUSTLEND, { tvl_usd: 700_000 });
    const [second] = (await waiting()).filter((action) => action.riskRuleId === approvalBlock.id);
    await client.request('risk.rules.delete', { ctx: ctxOf(org), riskRuleId: approvalBlock.id });
    const deletedAlerts = (await alertsOf(org, 'resolved')).filter(
      (alert) => alert.riskRuleId === approvalBlock.id && alert.resolutionSource === 'rule_deleted',
    );
    expect(deletedAlerts).toHaveLength(1);
    expect((await actionsOf(org)).find((action) => action.id === second!.id)).toMatchObject({ status: 'rejected' });
  });
});

describe('evaluation', () => {
  it('reads only the rules on the observed source', async () => {
    const org = freshOrg();
    for (const yieldSourceId of [JAAA_USDC, JAAA_USDC, USTB, JUSTLEND, JAAA_USDT]) {
      await createRule(org, { yieldSourceId, metric: 'apy_bps', comparator: 'lt', thresholdValue: 1 });
    }
    const active = await prisma.riskRule.groupBy({ by: ['yieldSourceId'], where: { status: 'active', deletedAt: null }, _count: true });
    const onUstb = active.find((group) => group.yieldSourceId === USTB)!._count;
    const repository = service.running.app.get(RiskRepository);
    const engine = service.running.app.get(EngineService);
    const evaluated = await repository.inSourceTransaction([USTB], async (tx) => {
      const reading: NewObservation = {
        id: randomUUID(),
        yieldSourceId: USTB,
        orgId: null,
        apyBps: 400,
        tvlUsd: 1_000_000,
        availableWithdrawalLiquidityUsd: 100_000,
        protocol: 'superstate',
        source: 'simulated',
        recordedAt: new Date(),
        expiresAt: null,
      };
      const observation = await repository.insertObservation(tx, reading, observedEventOf(reading));
      return engine.onObservation(tx, observation);
    });
    expect(onUstb).toBeLessThan(active.reduce((sum, group) => sum + group._count, 0));
    expect(evaluated).toBe(onUstb);
  });
});

describe('the outbox', () => {
  it('holds a risk.metrics.observed event for each observation, in its transaction', async () => {
    const org = freshOrg();
    const observedOf = (observationId: string) =>
      prisma.$queryRawUnsafe<{ type: string; org_id: string; payload: unknown }[]>(
        `SELECT type, org_id, payload FROM outbox_events WHERE type = 'risk.metrics.observed' AND payload ->> 'observationId' = $1`,
        observationId,
      );
    const provider = (await reading(USTB, { apy_bps: 412, tvl_usd: 2_000_000 }))!;
    expect(await observedOf(provider.id)).toEqual([
      {
        type: 'risk.metrics.observed',
        org_id: ALL_ORGANIZATIONS,
        payload: {
          observationId: provider.id,
          yieldSourceId: USTB,
          orgId: null,
          metrics: { apy_bps: 412, tvl_usd: 2_000_000, available_withdrawal_liquidity_usd: 100_000 },
          recordedAt: provider.recordedAt,
          expiresAt: null,
        },
      },
    ]);
    const injected = await client.request('risk.sandbox-metrics.inject', {
      ctx: ctxOf(org, 'admin'),
      yieldSourceId: USTB,
      metrics: { apy_bps: 7 },
      expiresInSeconds: 60,
    });
    expect(await observedOf(injected.id)).toEqual([
      {
        type: 'risk.metrics.observed',
        org_id: org,
        payload: {
          observationId: injected.id,
          yieldSourceId: USTB,
          orgId: org,
          metrics: { apy_bps: 7, tvl_usd: 2_000_000, available_withdrawal_liquidity_usd: 100_000 },
          recordedAt: injected.recordedAt,
          expiresAt: injected.expiresAt,
        },
      },
    ]);
    // One event per observation, none without one.
    const [counts] = await prisma.$queryRawUnsafe<{ observations: bigint; events: bigint }[]>(
      `SELECT (SELECT count(*) FROM metric_observations) AS observations,
              (SELECT count(*) FROM outbox_events WHERE type = 'risk.metrics.observed') AS events`,
    );
    expect(counts!.events).toBe(counts!.observations);
  });

  it('publishes every event written to the stream, under events.risk.<type>', async () => {
    const written = await prisma.outboxEvent.count();
    expect(written).toBeGreaterThan(0);
    const connection = await connect({ servers: service.env['NATS_URL'] });
    try {
      const jsm = await jetstreamManager(connection);
      const stream = service.env['EVENTS_STREAM']!;
      await eventually(
        async () => (await jsm.streams.info(stream)).state.messages,
        (messages) => messages === written,
      );
      const prefix = service.env['EVENTS_SUBJECT_PREFIX']!;
      const alert = await jsm.streams.getMessage(stream, { last_by_subj: `${prefix}.risk.portfolio_wallet.risk.alert.triggered` });
      expect(alert?.json<{ type: string }>().type).toBe('portfolio_wallet.risk.alert.triggered');
      const observed = await jsm.streams.getMessage(stream, { last_by_subj: eventSubject(prefix, 'risk', 'risk.metrics.observed') });
      expect(observed?.json<{ type: string; payload: { yieldSourceId: string } }>()).toMatchObject({
        type: 'risk.metrics.observed',
        payload: { yieldSourceId: expect.any(String) },
      });
    } finally {
      await connection.close();
    }
  });
});

describe('exits run by wallet-service', () => {
  /** A wallet rebalance event, as wallet-service's relay publishes it. */
  async function rebalanceEvent(orgId: string, walletId: string, rebalance: RebalanceObject): Promise<void> {
    const connection = await connect({ servers: service.env['NATS_URL'] });
    try {
      const type = 'portfolio_wallet.rebalance.status_changed';
      const payload = { event: type, observedAt: new Date().toISOString(), walletId, rebalance };
      const event = { id: randomUUID(), type, orgId, source: 'wallet', occurredAt: new Date().toISOString(), payload };
      await jetstream(connection).publish(eventSubject(service.env['EVENTS_SUBJECT_PREFIX']!, 'wallet', type), JSON.stringify(event), {
        msgID: event.id,
      });
    } finally {
      await connection.close();
    }
  }

  const REBALANCE_ID = '00000000-0000-4000-8000-00000000e817';
  const rebalanceOf = (requestId: string, status: RebalanceObject['status']): RebalanceObject => ({
    id: REBALANCE_ID,
    requestId,
    status,
    allocations: [
      { from: JAAA_USDT, to: 'cash:ethereum_sepolia:usdt', amountUsd: '250.500000' },
      { from: JAAA_USDT, to: JUSTLEND, amountUsd: '749.500001' },
    ],
    createdAt: new Date().toISOString(),
    completedAt: status === 'completed' ? '2026-11-28T12:00:00.000Z' : null,
  });
  const actionOf = async (orgId: string, id: string) => (await actionsOf(orgId)).find((action) => action.id === id)!;

  it('carry the rebalance, end executed with the unwind completed, or failed; other rebalances change nothing', async () => {
    const org = freshOrg();
    await reading(JAAA_USDT, { apy_bps: 500 });
    const exitRule = { yieldSourceId: JAAA_USDT, metric: 'apy_bps', comparator: 'gt', thresholdValue: 100 } as const;
    const automatic = await createRule(org, { ...exitRule, action: 'auto_rebalance_out' });
    const approval = await createRule(org, { ...exitRule, action: 'request_rebalance_out' });
    const actions = new Map((await actionsOf(org)).map((action) => [action.riskRuleId, action]));
    const auto = actions.get(automatic.id)!;
    expect(auto.status).toBe('executing');

    await rebalanceEvent(org, automatic.portfolioWalletId, rebalanceOf(auto.id, 'processing'));
    await rebalanceEvent(freshOrg(), automatic.portfolioWalletId, rebalanceOf(auto.id, 'completed'));
    await rebalanceEvent(org, automatic.portfolioWalletId, rebalanceOf(randomUUID(), 'completed'));
    await rebalanceEvent(org, automatic.portfolioWalletId, rebalanceOf('not-an-action', 'completed'));
    const carrying = await eventually(
      () => actionOf(org, auto.id),
      (action) => action.rebalanceId !== null,
    );
    expect(carrying).toMatchObject({ status: 'executing', rebalanceId: REBALANCE_ID });

    await rebalanceEvent(org, automatic.portfolioWalletId, rebalanceOf(auto.id, 'completed'));
    await rebalanceEvent(org, automatic.portfolioWalletId, rebalanceOf(auto.id, 'completed'));
    const executed = await eventually(
      () => actionOf(org, auto.id),
      (action) => action.status === 'executed',
    );
    expect(executed.executedAt).toBe('2026-11-28T12:00:00.000Z');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const unwinds = await prisma.$queryRawUnsafe<{ payload: { unwind: unknown } }[]>(
      `SELECT payload FROM outbox_events WHERE type = 'portfolio_wallet.risk.unwind.completed' AND payload ->> 'walletId' = $1`,
      automatic.portfolioWalletId,
    );
    expect(unwinds.map((row) => row.payload.unwind)).toEqual([
      {
        actionId: auto.id,
        rebalanceId: REBALANCE_ID,
        yieldSourceId: JAAA_USDT,
        amountUsd: '1000.000001',
        completedAt: '2026-11-28T12:00:00.000Z',
      },
    ]);

    const waiting = actions.get(approval.id)!;
    await client.request('risk.actions.update', { ctx: ctxOf(org), riskActionId: waiting.id, status: 'approved' });
    await rebalanceEvent(org, approval.portfolioWalletId, rebalanceOf(waiting.id, 'failed'));
    const failed = await eventually(
      () => actionOf(org, waiting.id),
      (action) => action.status === 'failed',
    );
    expect(failed.executionError).toMatchObject({ code: 'rebalance_failed' });
    expect(await eventsOf(approval.portfolioWalletId)).toEqual([
      'alert.triggered:ongoing',
      'action.status_changed:pending_approval',
      'action.status_changed:executing',
      'action.status_changed:failed',
    ]);
  });
});
