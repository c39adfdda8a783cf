import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstream, type JetStreamClient } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { RequestContext, RiskActionObject, RiskAlertObject, WalletDto } from '@service/contracts';
import { type InProcessService, startServiceInProcess } from '@service/service-testing';
import { eventually } from '@service/testing';
import { walletConfigSpec } from '../config.js';
import { AppModule } from './app.module.js';
import { DepositsService } from './deposits/deposits.service.js';
import { RebalancesService } from './rebalances/rebalances.service.js';
import { WalletSql } from './repositories/wallet-sql.js';
import { WalletsService } from './wallets/wallets.service.js';
import { RISK_DURABLE, RiskConsumer } from './workflows/risk-consumer.js';

/**
 * wallet-service's side of the risk engine in process: risk events published onto the run's
 * stream as risk-service's relay publishes them (`<prefix>.risk.<type>`, the domain event as
 * JSON), consumed by the `wallet-risk` durable; then allocate, preview, strategy and deposit
 * rebalances, and exits, through the feature services.
 */
let service: InProcessService;
let wallets: WalletsService;
let deposits: DepositsService;
let rebalances: RebalancesService;
let sql: WalletSql;
let nats: NatsConnection;
let js: JetStreamClient;

beforeAll(async () => {
  service = await startServiceInProcess({
    name: 'wallet',
    module: AppModule.forRoot,
    spec: walletConfigSpec,
    env: {
      WALLET_DEPOSIT_SETTLEMENT_MS: '100',
      WALLET_REBALANCE_PROCESSING_MS: '100',
      WALLET_WORKER_POLL_MS: '25',
      // A consumer stopped with a pull outstanding: what the server hands to it comes again after this.
      WALLET_EVENT_ACK_WAIT_MS: '1000',
    },
  });
  wallets = service.running.app.get(WalletsService);
  deposits = service.running.app.get(DepositsService);
  rebalances = service.running.app.get(RebalancesService);
  sql = service.running.app.get(WalletSql);
  nats = await connect({ servers: service.env['NATS_URL'] });
  js = jetstream(nats);
});

afterAll(async () => {
  await nats?.close();
  await service?.stop();
});

let orgs = 0;
const freshOrg = () => `org_${randomUUID().slice(0, 8)}_${(orgs += 1)}`;
const ctxOf = (orgId: string): RequestContext => ({ orgId, role: 'owner', principalId: `user_${orgId}`, requestId: randomUUID() });
const CASH = 'cash:ethereum_sepolia:usdc';
const JAAA = 'service-jaaa-usdc-vault';
const USTB = 'service-ustb-vault';
const move = (from: string, to: string, amountUsd: string) => ({ from, to, amountUsd });
const errorOf = (code: string) => ({ name: 'ServiceError', code });
const micro = (usd: string) => BigInt(usd.replace('.', ''));

async function idleWallet(org: string, strategy: object, autoRebalance = false): Promise<WalletDto> {
  const created = await wallets.create(ctxOf(org), { requestId: randomUUID(), strategy, autoRebalance } as never);
  return eventually(
    () => wallets.get(ctxOf(org), created.id),
    (wallet) => wallet.status === 'idle',
  );
}

async function deposit(org: string, walletId: string, amountUsd: string): Promise<void> {
  const created = await deposits.simulate(ctxOf(org), { walletId, amountUsd });
  await eventually(
    () => deposits.get(ctxOf(org), { walletId, depositId: created.id }),
    (found) => found.status === 'completed',
  );
}

const settledWallet = (org: string, walletId: string) =>
  eventually(
    () => wallets.get(ctxOf(org), walletId),
    (wallet) => wallet.status === 'idle' && wallet.balance.reservedUsd === '0.000000',
  );

const valuesOf = (wallet: WalletDto) => Object.fromEntries(wallet.positions.map((position) => [position.id, position.valueUsd]));

/** Publishes a risk event as risk-service's relay does; `dedupe: false` publishes a copy the stream keeps (a redelivery). */
async function publishRisk(
  orgId: string,
  walletId: string,
  type: 'portfolio_wallet.risk.action.status_changed' | 'portfolio_wallet.risk.alert.resolved',
  resource: { action: RiskActionObject } | { alert: RiskAlertObject },
  options: { id?: string; dedupe?: boolean } = {},
): Promise<string> {
  const id = options.id ?? randomUUID();
  const occurredAt = new Date().toISOString();
  const event = { id, type, orgId, source: 'risk', occurredAt, payload: { event: type, observedAt: occurredAt, walletId, ...resource } };
  await js.publish(
    `${service.env['EVENTS_SUBJECT_PREFIX']}.risk.${type}`,
    JSON.stringify(event),
    options.dedupe === false ? {} : { msgID: id },
  );
  return id;
}

/** Waits until the consumer has applied (recorded) each event. */
async function applied(...eventIds: string[]): Promise<void> {
  await eventually(
    () =>
      sql.$queryRawUnsafe<{ n: number }[]>(
        'SELECT count(*)::int AS n FROM processed_events WHERE consumer = $1 AND event_id = ANY($2::uuid[])',
        RISK_DURABLE,
        eventIds,
      ),
    (rows) => rows[0]?.n === eventIds.length,
  );
}

function riskAction(orgId: string, walletId: string, fields: Partial<RiskActionObject>): RiskActionObject {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    organizationId: orgId,
    portfolioWalletId: walletId,
    riskRuleId: randomUUID(),
    riskAlertId: randomUUID(),
    yieldSourceId: JAAA,
    action: 'block_rebalance_buy',
    outcome: 'prevent_additional_allocation',
    status: 'executed',
    approvalRequired: false,
    rebalanceId: null,
    executionError: null,
    explanation: {},
    createdAt: now,
    updatedAt: now,
    resolvedAt: null,
    executedAt: now,
    ...fields,
  };
}

function resolvedAlert(orgId: string, walletId: string, alertId: string): RiskAlertObject {
  const now = new Date().toISOString();
  return {
    id: alertId,
    organizationId: orgId,
    portfolioWalletId: walletId,
    riskRuleId: randomUUID(),
    yieldSourceId: JAAA,
    metricsObservationId: randomUUID(),
    metric: 'tvl_usd',
    ruleKind: 'absolute',
    severity: 'critical',
    status: 'resolved',
    thresholdValue: 1,
    observedValue: 2,
    baselineValue: null,
    observedChangeBps: null,
    windowSeconds: null,
    explanation: {},
    triggeredAt: now,
    resolvedAt: now,
    resolutionSource: 'auto',
    resolutionNote: null,
  };
}

const usdc = (entries: object[]) => ({ allocations: { usdc: entries } });

describe('allocation blocks', () => {
  it('refuses allocate and its preview into a blocked source with 409 yield_source_blocked until the alert resolves', async () => {
    const org = freshOrg();
    const wallet = await idleWallet(org, usdc([{ yieldSourceId: JAAA, pct: 100 }]));
    await deposit(org, wallet.id, '100');
    const action = riskAction(org, wallet.id, {});
    await applied(await publishRisk(org, wallet.id, 'portfolio_wallet.risk.action.status_changed', { action }));

    const into = { walletId: wallet.id, requestId: randomUUID(), allocations: [move(CASH, JAAA, '10')] };
    await expect(rebalances.allocate(ctxOf(org), into)).rejects.toMatchObject({ ...errorOf('yield_source_blocked'), status: 409 });
    await expect(rebalances.preview(ctxOf(org), { walletId: wallet.id, allocations: into.allocations })).rejects.toMatchObject(
      errorOf('yield_source_blocked'),
    );
    // Another source is not blocked.
    await rebalances.allocate(ctxOf(org), { walletId: wallet.id, requestId: randomUUID(), allocations: [move(CASH, USTB, '10')] });
    await settledWallet(org, wallet.id);

    const resolved = await publishRisk(org, wallet.id, 'portfolio_wallet.risk.alert.resolved', {
      alert: resolvedAlert(org, wallet.id, action.riskAlertId),
    });
    await applied(resolved);
    await expect(rebalances.allocate(ctxOf(org), into)).resolves.toMatchObject({ status: 'created' });
    const done = await settledWallet(org, wallet.id);
    expect(valuesOf(done)).toMatchObject({ [CASH]: '80.000000' });

    // The same action announced `executed` again after the resolution blocks nothing.
    const again = await publishRisk(org, wallet.id, 'portfolio_wallet.risk.action.status_changed', { action }, { dedupe: false });
    await applied(again);
    await expect(
      rebalances.allocate(ctxOf(org), { walletId: wallet.id, requestId: randomUUID(), allocations: [move(CASH, JAAA, '1')] }),
    ).resolves.toMatchObject({ status: 'created' });
  });

  it('leaves no block when the alert resolved event comes before the action executed', async () => {
    const org = freshOrg();
    const wallet = await idleWallet(org, usdc([{ yieldSourceId: JAAA, pct: 100 }]));
    await deposit(org, wallet.id, '50');
    const action = riskAction(org, wallet.id, {});
    const resolved = await publishRisk(org, wallet.id, 'portfolio_wallet.risk.alert.resolved', {
      alert: resolvedAlert(org, wallet.id, action.riskAlertId),
    });
    await applied(resolved);
    await applied(await publishRisk(org, wallet.id, 'portfolio_wallet.risk.action.status_changed', { action }));
    await expect(
      rebalances.allocate(ctxOf(org), { walletId: wallet.id, requestId: randomUUID(), allocations: [move(CASH, JAAA, '10')] }),
    ).resolves.toMatchObject({ status: 'created' });
    const [block] = await sql.$queryRawUnsafe<{ lifted_by: string | null }[]>(
      'SELECT lifted_by FROM risk_allocation_blocks WHERE action_id = $1::uuid',
      action.id,
    );
    expect(block?.lifted_by).toBe('alert_resolved');
  });

  it('lifts the block when its action is rejected, in either order', async () => {
    const org = freshOrg();
    const wallet = await idleWallet(org, usdc([{ yieldSourceId: JAAA, pct: 100 }]));
    await deposit(org, wallet.id, '50');
    const action = riskAction(org, wallet.id, {});
    await applied(await publishRisk(org, wallet.id, 'portfolio_wallet.risk.action.status_changed', { action }));
    const into = () => ({ walletId: wallet.id, requestId: randomUUID(), allocations: [move(CASH, JAAA, '10')] });
    await expect(rebalances.allocate(ctxOf(org), into())).rejects.toMatchObject(errorOf('yield_source_blocked'));
    await applied(
      await publishRisk(org, wallet.id, 'portfolio_wallet.risk.action.status_changed', { action: { ...action, status: 'rejected' } }),
    );
    await expect(rebalances.allocate(ctxOf(org), into())).resolves.toMatchObject({ status: 'created' });
    await settledWallet(org, wallet.id);

    // Rejected first, executed after (an out-of-order delivery): no block.
    const other = riskAction(org, wallet.id, {});
    await applied(
      await publishRisk(org, wallet.id, 'portfolio_wallet.risk.action.status_changed', { action: { ...other, status: 'rejected' } }),
    );
    await applied(await publishRisk(org, wallet.id, 'portfolio_wallet.risk.action.status_changed', { action: other }));
    await expect(rebalances.allocate(ctxOf(org), into())).resolves.toMatchObject({ status: 'created' });
  });

  it("keeps a blocked source's share in cash in a deposit's allocation and a strategy rebalance, and keeps what it holds there", async () => {
    const org = freshOrg();
    const wallet = await idleWallet(
      org,
      usdc([
        { yieldSourceId: JAAA, pct: 60 },
        { yieldSourceId: USTB, pct: 40 },
      ]),
      true,
    );
    await deposit(org, wallet.id, '100');
    const before = await settledWallet(org, wallet.id);
    expect(micro(valuesOf(before)[CASH] ?? '0')).toBe(0n);
    const heldInJaaa = micro(valuesOf(before)[JAAA] ?? '0');
    expect(heldInJaaa).toBeGreaterThanOrEqual(60_000_000n);

    await applied(
      await publishRisk(org, wallet.id, 'portfolio_wallet.risk.action.status_changed', { action: riskAction(org, wallet.id, {}) }),
    );
    // A deposit: JAAA's 60% stays cash, USTB gets its 40%.
    await deposit(org, wallet.id, '100');
    const afterDeposit = await settledWallet(org, wallet.id);
    expect(valuesOf(afterDeposit)[CASH]).toBe('60.000000');
    expect(micro(valuesOf(afterDeposit)[USTB] ?? '0')).toBeGreaterThanOrEqual(80_000_000n);
    expect(micro(valuesOf(afterDeposit)[JAAA] ?? '0')).toBeGreaterThanOrEqual(heldInJaaa);

    // A new strategy (JAAA 80%): JAAA is not bought up to it; USTB is sold down to 20% and that stays cash too.
    await wallets.updateStrategy(ctxOf(org), {
      walletId: wallet.id,
      requestId: randomUUID(),
      allocations: {
        usdc: [
          { yieldSourceId: JAAA, pct: 80 },
          { yieldSourceId: USTB, pct: 20 },
        ],
      },
    });
    const afterStrategy = await settledWallet(org, wallet.id);
    const values = valuesOf(afterStrategy);
    expect(micro(values[JAAA] ?? '0')).toBeGreaterThanOrEqual(heldInJaaa);
    expect(micro(values[JAAA] ?? '0')).toBeLessThan(61_000_000n);
    expect(micro(values[USTB] ?? '0')).toBeGreaterThanOrEqual(40_000_000n);
    expect(micro(values[USTB] ?? '0')).toBeLessThan(41_000_000n);
    expect(micro(values[CASH] ?? '0')).toBeGreaterThanOrEqual(99_000_000n);
    expect(micro(afterStrategy.balance.totalUsd)).toBeGreaterThanOrEqual(200_000_000n);
  });
});

describe('exits', () => {
  async function exitRebalances(
    actionId: string,
  ): Promise<{ id: string; status: string; allocations: { from: string; to: string; amountUsd: string }[] }[]> {
    return sql.$queryRawUnsafe<{ id: string; status: string; allocations: { from: string; to: string; amountUsd: string }[] }[]>(
      'SELECT id::text AS id, status, allocations FROM rebalances WHERE request_id = $1::uuid',
      actionId,
    );
  }

  it('redeems the whole position into the other source, once however often the event comes, every dollar accounted for', async () => {
    const org = freshOrg();
    const wallet = await idleWallet(
      org,
      usdc([
        { yieldSourceId: JAAA, pct: 60 },
        { yieldSourceId: USTB, pct: 40 },
      ]),
    );
    // Amounts large enough that JAAA accrues micro-dollars between the exit's plan and its
    // completion: the completion sweeps them to cash, so nothing stays in the source.
    await deposit(org, wallet.id, '200000');
    await rebalances.allocate(ctxOf(org), {
      walletId: wallet.id,
      requestId: randomUUID(),
      allocations: [move(CASH, JAAA, '120000'), move(CASH, USTB, '60000')],
    });
    const before = await settledWallet(org, wallet.id);
    const totalBefore = micro(before.balance.totalUsd);

    const action = riskAction(org, wallet.id, {
      action: 'auto_rebalance_out',
      outcome: 'exit_position',
      status: 'executing',
      executedAt: null,
    });
    const event = await publishRisk(org, wallet.id, 'portfolio_wallet.risk.action.status_changed', { action });
    await applied(event);
    // The same event redelivered, and the same action announced again: still one rebalance.
    await publishRisk(org, wallet.id, 'portfolio_wallet.risk.action.status_changed', { action }, { id: event, dedupe: false });
    await applied(await publishRisk(org, wallet.id, 'portfolio_wallet.risk.action.status_changed', { action }));
    const done = await eventually(
      () => exitRebalances(action.id),
      (rows) => rows.length === 1 && rows[0]?.status === 'completed',
    );
    expect(done).toHaveLength(1);
    const after = await settledWallet(org, wallet.id);
    const values = valuesOf(after);
    expect(micro(values[JAAA] ?? '0')).toBe(0n);
    expect(micro(values[CASH] ?? '0')).toBeGreaterThan(20_000_000_000n);
    expect(micro(values[USTB] ?? '0')).toBeGreaterThanOrEqual(180_000_000_000n);
    const [sweep] = (done[0]?.allocations ?? []).filter((instruction) => instruction.from === JAAA && instruction.to === CASH);
    expect(micro(sweep?.amountUsd ?? '0')).toBeGreaterThan(0n);
    // Every dollar: what the wallet held before is all there (plus what accrued meanwhile).
    const totalAfter = micro(after.balance.totalUsd);
    expect(totalAfter).toBeGreaterThanOrEqual(totalBefore);
    expect(totalAfter - totalBefore).toBeLessThan(1_000_000n);
    expect(Object.values(values).reduce((sum, value) => sum + micro(value), 0n)).toBe(totalAfter);

    // The rebalance events carry the action id as requestId, for risk-service.
    const announced = await sql.$queryRawUnsafe<{ status: string }[]>(
      `SELECT payload->'rebalance'->>'status' AS status FROM outbox_events
        WHERE type = 'portfolio_wallet.rebalance.status_changed' AND payload->'rebalance'->>'requestId' = $1 ORDER BY occurred_at`,
      action.id,
    );
    expect(announced.map((row) => row.status)).toEqual(['created', 'processing', 'completed']);
  });

  it('keeps its blocks and exits once across a restart of the consumer', async () => {
    const org = freshOrg();
    const wallet = await idleWallet(
      org,
      usdc([
        { yieldSourceId: JAAA, pct: 50 },
        { yieldSourceId: USTB, pct: 50 },
      ]),
    );
    await deposit(org, wallet.id, '100');
    await rebalances.allocate(ctxOf(org), { walletId: wallet.id, requestId: randomUUID(), allocations: [move(CASH, JAAA, '40')] });
    await settledWallet(org, wallet.id);
    await applied(
      await publishRisk(org, wallet.id, 'portfolio_wallet.risk.action.status_changed', {
        action: riskAction(org, wallet.id, { yieldSourceId: USTB }),
      }),
    );

    const consumer = service.running.app.get(RiskConsumer);
    await consumer.beforeApplicationShutdown();
    const action = riskAction(org, wallet.id, { outcome: 'exit_position', action: 'auto_rebalance_out', status: 'executing' });
    const event = await publishRisk(org, wallet.id, 'portfolio_wallet.risk.action.status_changed', { action });
    await consumer.onApplicationBootstrap();
    await applied(event);
    await eventually(
      () => exitRebalances(action.id),
      (rows) => rows[0]?.status === 'completed',
    );
    // Restarted again, the event published again: nothing more.
    await consumer.beforeApplicationShutdown();
    await consumer.onApplicationBootstrap();
    await applied(await publishRisk(org, wallet.id, 'portfolio_wallet.risk.action.status_changed', { action }));
    expect(await exitRebalances(action.id)).toHaveLength(1);
    const after = await settledWallet(org, wallet.id);
    // USTB is blocked: the exit went to cash, and USTB is still refused.
    expect(micro(valuesOf(after)[JAAA] ?? '0')).toBe(0n);
    expect(valuesOf(after)[CASH]).toBe('100.000000');
    await expect(
      rebalances.allocate(ctxOf(org), { walletId: wallet.id, requestId: randomUUID(), allocations: [move(CASH, USTB, '10')] }),
    ).rejects.toMatchObject(errorOf('yield_source_blocked'));
  });

  it('exits into cash when no other source is eligible (the other one blocked), and completes an exit of nothing', async () => {
    const org = freshOrg();
    const wallet = await idleWallet(
      org,
      usdc([
        { yieldSourceId: JAAA, pct: 50 },
        { yieldSourceId: USTB, pct: 50 },
      ]),
    );
    await deposit(org, wallet.id, '200');
    await rebalances.allocate(ctxOf(org), { walletId: wallet.id, requestId: randomUUID(), allocations: [move(CASH, JAAA, '150')] });
    await settledWallet(org, wallet.id);
    await applied(
      await publishRisk(org, wallet.id, 'portfolio_wallet.risk.action.status_changed', {
        action: riskAction(org, wallet.id, { yieldSourceId: USTB }),
      }),
    );
    const action = riskAction(org, wallet.id, { action: 'request_rebalance_out', outcome: 'exit_position', status: 'executing' });
    await applied(await publishRisk(org, wallet.id, 'portfolio_wallet.risk.action.status_changed', { action }));
    await eventually(
      () => exitRebalances(action.id),
      (rows) => rows[0]?.status === 'completed',
    );
    const after = await settledWallet(org, wallet.id);
    const values = valuesOf(after);
    expect(micro(values[JAAA] ?? '0')).toBe(0n);
    expect(micro(values[USTB] ?? '0')).toBe(0n);
    expect(micro(values[CASH] ?? '0')).toBeGreaterThanOrEqual(200_000_000n);

    // Nothing left to exit: a rebalance with no allocations, completed, so the action learns its outcome.
    const empty = riskAction(org, wallet.id, { outcome: 'exit_position', action: 'auto_rebalance_out', status: 'executing' });
    await applied(await publishRisk(org, wallet.id, 'portfolio_wallet.risk.action.status_changed', { action: empty }));
    await eventually(
      () => exitRebalances(empty.id),
      (rows) => rows[0]?.status === 'completed',
    );
  });
});
