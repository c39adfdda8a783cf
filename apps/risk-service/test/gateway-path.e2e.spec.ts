/* eslint-disable @typescript-eslint/no-explicit-any -- HTTP bodies are checked by the assertions, not by types */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { callGateway, eventually, type HttpReply, startTestSystem, TEST_DATABASE_URL, type TestSystem } from '@service/testing';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';

/**
 * The risk engine as integrators use it: through the gateway, on the built gateway, risk-service,
 * wallet-service and webhook-service, with sandbox injections as the market. Alerts, actions, the
 * blocks and exits wallet-service applies, and the signed webhooks of the four risk events.
 */
const USDC_VAULT = 'service-jaaa-usdc-vault';
const USTB = 'service-ustb-vault';
const RISK_EVENTS = [
  'portfolio_wallet.risk.alert.triggered',
  'portfolio_wallet.risk.alert.resolved',
  'portfolio_wallet.risk.action.status_changed',
  'portfolio_wallet.risk.unwind.completed',
];

interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
}
const received: Delivery[] = [];
let receiver: Server;
let receiverUrl: string;
let system: TestSystem;
let db: pg.Client;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  system = await startTestSystem({
    services: ['risk', 'wallet', 'webhook'],
    gatewayEnv: { RATE_LIMIT_READ_PER_MINUTE: '100000', RATE_LIMIT_WRITE_PER_MINUTE: '100000' },
    serviceEnv: {
      risk: { RISK_OBSERVATION_INTERVAL_MS: '0' },
      wallet: { WALLET_DEPOSIT_SETTLEMENT_MS: '100', WALLET_REBALANCE_PROCESSING_MS: '100', WALLET_WORKER_POLL_MS: '25' },
      webhook: { WEBHOOK_PRIVATE_HOST_ALLOWLIST: '127.0.0.1', WEBHOOK_POLL_INTERVAL_MS: '50' },
    },
  });
  db = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await db.connect();
}, 120_000);

afterAll(async () => {
  await db?.end();
  await system?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
}, 60_000);

/** One organization and role calling the gateway. */
class Caller {
  private constructor(
    readonly org: string,
    private readonly token: string,
  ) {}

  static async of(org: string, role = 'owner'): Promise<Caller> {
    return new Caller(org, await system.auth.token({ org, role, sub: `user_${org}_${role}` }));
  }

  as(role: string): Promise<Caller> {
    return Caller.of(this.org, role);
  }

  call(method: string, path: string, body?: unknown): Promise<HttpReply<any>> {
    return callGateway(system.gatewayUrl, this.token, method, path, body);
  }

  async ok(method: string, path: string, body?: unknown): Promise<any> {
    const reply = await this.call(method, path, body);
    if (reply.status !== 200) throw new Error(`${method} ${path} answered ${reply.status}: ${JSON.stringify(reply.body)}`);
    return reply.body;
  }

  inject(yieldSourceId: string, metrics: Record<string, number>): Promise<any> {
    return this.ok('POST', '/v2/sandbox/risk/metrics', { yieldSourceId, metrics });
  }

  rule(body: Record<string, unknown>): Promise<HttpReply<any>> {
    return this.call('POST', '/v2/wallets/risk/rules', body);
  }

  async alertsOf(ruleId: string): Promise<any[]> {
    return (await this.ok('GET', '/v2/wallets/risk/alerts?limit=500')).data.filter((alert: any) => alert.riskRuleId === ruleId);
  }

  async actionsOf(ruleId: string): Promise<any[]> {
    return (await this.ok('GET', '/v2/wallets/risk/actions?limit=500')).data.filter((action: any) => action.riskRuleId === ruleId);
  }

  /** A provisioned wallet holding `cashUsd` in cash. */
  async wallet(strategy: Record<string, unknown>, autoRebalance = false, cashUsd = '100.000000'): Promise<any> {
    const created = await this.ok('POST', '/v2/wallets', { requestId: randomUUID(), autoRebalance, strategy: { allocations: strategy } });
    await eventually(
      async () => (await this.call('GET', `/v2/wallets/${created.id}`)).body,
      (wallet) => wallet.status === 'idle',
    );
    const deposit = await this.ok('POST', `/v2/wallets/${created.id}/deposits/simulate`, { amountUsd: cashUsd });
    await eventually(
      async () => (await this.call('GET', `/v2/wallets/${created.id}/deposits/${deposit.id}`)).body,
      (body) => body.status === 'completed',
    );
    return this.ok('GET', `/v2/wallets/${created.id}`);
  }

  async allocate(walletId: string, to: string, amountUsd: string): Promise<HttpReply<any>> {
    return this.call('POST', `/v2/wallets/${walletId}/allocate`, {
      requestId: randomUUID(),
      allocations: [{ from: 'cash:ethereum_sepolia:usdc', to, amountUsd }],
    });
  }

  async settled(walletId: string): Promise<any> {
    return eventually(
      () => this.ok('GET', `/v2/wallets/${walletId}`),
      (wallet) => wallet.status === 'idle' && wallet.balance.reservedUsd === '0.000000',
      10_000,
    );
  }

  /** A registration for the four risk events; its secret. */
  async subscribe(): Promise<string> {
    return (await this.ok('POST', '/v2/webhooks', { url: receiverUrl, events: RISK_EVENTS })).secret;
  }
}

const orgName = (name: string) => `org_risk_${name}_${randomUUID().slice(0, 8)}`;
const positionOf = (wallet: any, id: string): string =>
  wallet.positions.find((position: any) => position.id === id)?.valueUsd ?? '0.000000';
const USDC_100 = { usdc: [{ yieldSourceId: USDC_VAULT, pct: 100 }] };
const errorOf = (status: number, code: string) => ({ status, body: { error: expect.any(String), code } });

/** The deliveries of `type` about `walletId` (parsed), verified against the registration's secret. */
function deliveriesOf(secret: string, type: string, walletId: string): any[] {
  const verifier = new Webhook(`whsec_${Buffer.from(secret).toString('base64')}`);
  return received
    .filter((delivery) => delivery.headers['service-event-type'] === type)
    .map((delivery) => ({ delivery, body: JSON.parse(delivery.body) }))
    .filter(({ body }) => body.walletId === walletId)
    .map(({ delivery, body }) => {
      verifier.verify(delivery.body, delivery.headers as Record<string, string>);
      return body;
    });
}

const delivered = (secret: string, type: string, walletId: string, count = 1) =>
  eventually(
    () => deliveriesOf(secret, type, walletId),
    (found) => found.length >= count,
    10_000,
  );

describe('rules: validation and roles', () => {
  let owner: Caller;
  let walletId: string;
  const base = () => ({
    portfolioWalletId: walletId,
    yieldSourceId: USDC_VAULT,
    metric: 'apy_bps',
    ruleKind: 'absolute',
    comparator: 'lt',
  });

  beforeAll(async () => {
    owner = await Caller.of(orgName('validation'));
    walletId = (
      await owner.ok('POST', '/v2/wallets', { requestId: randomUUID(), autoRebalance: false, strategy: { allocations: USDC_100 } })
    ).id;
  });

  it('refuses a negative absolute threshold, a velocity rule without window, approvalMode on an alert and spellings that disagree', async () => {
    expect(await owner.rule({ ...base(), thresholdValue: -1 })).toEqual(errorOf(400, 'validation_error'));
    expect(await owner.rule({ ...base(), ruleKind: 'relative_change_bps', thresholdValue: -500 })).toEqual(
      errorOf(400, 'validation_error'),
    );
    expect(await owner.rule({ ...base(), thresholdValue: 400, windowSeconds: 60 })).toEqual(errorOf(400, 'validation_error'));
    expect(await owner.rule({ ...base(), thresholdValue: 400, outcome: 'alert', approvalMode: 'automatic' })).toEqual(
      errorOf(400, 'validation_error'),
    );
    expect(await owner.rule({ ...base(), thresholdValue: 400, outcome: 'exit_position' })).toEqual(errorOf(400, 'validation_error'));
    expect(
      await owner.rule({
        ...base(),
        thresholdValue: 400,
        action: 'auto_rebalance_out',
        outcome: 'exit_position',
        approvalMode: 'approval_required',
      }),
    ).toEqual(errorOf(400, 'validation_error'));
    expect(await owner.rule({ ...base(), thresholdValue: 400, metric: 'price' })).toEqual(errorOf(400, 'validation_error'));
  });

  it('answers both spellings of what happens on breach', async () => {
    const byAction = await owner.rule({ ...base(), thresholdValue: 400, action: 'request_rebalance_out' });
    expect(byAction).toMatchObject({
      status: 200,
      body: { action: 'request_rebalance_out', outcome: 'exit_position', approvalMode: 'approval_required', status: 'active' },
    });
    const byOutcome = await owner.rule({
      ...base(),
      thresholdValue: 400,
      outcome: 'prevent_additional_allocation',
      approvalMode: 'automatic',
    });
    expect(byOutcome.body).toMatchObject({
      action: 'block_rebalance_buy',
      outcome: 'prevent_additional_allocation',
      approvalMode: 'automatic',
    });
    const plain = await owner.rule({ ...base(), thresholdValue: 400 });
    expect(plain.body).toMatchObject({ action: 'alert_only', outcome: 'alert', approvalMode: null, severity: 'warning' });
  });

  it("refuses another organization's wallet (404) and an unknown source", async () => {
    const other = await Caller.of(orgName('other'));
    expect(await other.rule({ ...base(), thresholdValue: 400 })).toEqual(errorOf(404, 'wallet_not_found'));
    expect(await owner.rule({ ...base(), thresholdValue: 400, yieldSourceId: 'service-nothing-vault' })).toEqual(
      errorOf(404, 'yield_source_not_found'),
    );
  });

  it('lets members read rules, alerts, actions and metrics, and only owners and admins write', async () => {
    const member = await owner.as('member');
    const admin = await owner.as('admin');
    expect(await member.rule({ ...base(), thresholdValue: 400 })).toEqual(errorOf(403, 'forbidden'));
    expect(await member.call('POST', '/v2/sandbox/risk/metrics', { yieldSourceId: USDC_VAULT, metrics: { apy_bps: 1 } })).toEqual(
      errorOf(403, 'forbidden'),
    );
    const rule = (await admin.rule({ ...base(), thresholdValue: 400 })).body;
    expect((await member.call('PATCH', `/v2/wallets/risk/rules/${rule.id}`, { status: 'paused' })).status).toBe(403);
    expect((await member.call('DELETE', `/v2/wallets/risk/rules/${rule.id}`)).status).toBe(403);
    for (const path of ['rules', 'alerts', 'actions', 'metrics'])
      expect((await member.call('GET', `/v2/wallets/risk/${path}`)).status).toBe(200);
  });
});

describe('alerts through the gateway', () => {
  it('opens and resolves each comparator at, just above and just below its threshold', async () => {
    const owner = await Caller.of(orgName('comparators'));
    const wallet = (
      await owner.ok('POST', '/v2/wallets', { requestId: randomUUID(), autoRebalance: false, strategy: { allocations: USDC_100 } })
    ).id;
    const rules: Record<string, any> = {};
    for (const comparator of ['lt', 'lte', 'gt', 'gte'])
      rules[comparator] = await owner.ok('POST', '/v2/wallets/risk/rules', {
        portfolioWalletId: wallet,
        yieldSourceId: USDC_VAULT,
        metric: 'apy_bps',
        ruleKind: 'absolute',
        comparator,
        thresholdValue: 500,
        name: `apy ${comparator} 500`,
      });
    const statuses = async () => {
      const out: Record<string, string[]> = {};
      for (const [comparator, rule] of Object.entries(rules))
        out[comparator] = (await owner.alertsOf(rule.id)).map((alert) => alert.status);
      return out;
    };
    await owner.inject(USDC_VAULT, { apy_bps: 499 });
    expect(await statuses()).toEqual({ lt: ['ongoing'], lte: ['ongoing'], gt: [], gte: [] });
    await owner.inject(USDC_VAULT, { apy_bps: 500 });
    expect(await statuses()).toEqual({ lt: ['resolved'], lte: ['ongoing'], gt: [], gte: ['ongoing'] });
    await owner.inject(USDC_VAULT, { apy_bps: 501 });
    expect(await statuses()).toEqual({ lt: ['resolved'], lte: ['resolved'], gt: ['ongoing'], gte: ['ongoing'] });
    // Repeated breaches keep the one open alert.
    await owner.inject(USDC_VAULT, { apy_bps: 900 });
    expect(await statuses()).toEqual({ lt: ['resolved'], lte: ['resolved'], gt: ['ongoing'], gte: ['ongoing'] });

    const [lt] = await owner.alertsOf(rules['lt'].id);
    expect(lt).toMatchObject({
      portfolioWalletId: wallet,
      yieldSourceId: USDC_VAULT,
      metric: 'apy_bps',
      ruleKind: 'absolute',
      thresholdValue: 500,
      observedValue: 499,
      baselineValue: null,
      observedChangeBps: null,
      resolutionSource: 'auto',
      resolvedAt: expect.any(String),
    });
    const ongoing = (await owner.ok('GET', `/v2/wallets/risk/alerts?status=ongoing&portfolioWalletIds=${wallet}`)).data;
    expect(ongoing.map((alert: any) => alert.riskRuleId).sort()).toEqual([rules['gt'].id, rules['gte'].id].sort());
  });

  it('evaluates a velocity rule on its window, at creation, with its baseline and change', async () => {
    const owner = await Caller.of(orgName('velocity'));
    const wallet = (
      await owner.ok('POST', '/v2/wallets', { requestId: randomUUID(), autoRebalance: false, strategy: { allocations: USDC_100 } })
    ).id;
    await owner.inject(USDC_VAULT, { tvl_usd: 1_000_000 });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await owner.inject(USDC_VAULT, { tvl_usd: 900_000 });
    const velocity = (comparator: string) => ({
      portfolioWalletId: wallet,
      yieldSourceId: USDC_VAULT,
      metric: 'tvl_usd',
      ruleKind: 'relative_change_bps',
      comparator,
      thresholdValue: -1000,
      windowSeconds: 1,
    });
    const lte = await owner.ok('POST', '/v2/wallets/risk/rules', velocity('lte'));
    const lt = await owner.ok('POST', '/v2/wallets/risk/rules', velocity('lt'));
    expect(await owner.alertsOf(lt.id)).toEqual([]);
    expect(await owner.alertsOf(lte.id)).toEqual([
      expect.objectContaining({
        status: 'ongoing',
        ruleKind: 'relative_change_bps',
        observedValue: 900_000,
        baselineValue: 1_000_000,
        observedChangeBps: -1000,
        windowSeconds: 1,
      }),
    ]);
  });

  it('keeps a paused rule inert, evaluates it again on re-enable, and resolves its alert when deleted', async () => {
    const owner = await Caller.of(orgName('pause'));
    const secret = await owner.subscribe();
    const wallet = (
      await owner.ok('POST', '/v2/wallets', { requestId: randomUUID(), autoRebalance: false, strategy: { allocations: USDC_100 } })
    ).id;
    await owner.inject(USDC_VAULT, { available_withdrawal_liquidity_usd: 10 });
    const rule = await owner.ok('POST', '/v2/wallets/risk/rules', {
      portfolioWalletId: wallet,
      yieldSourceId: USDC_VAULT,
      metric: 'available_withdrawal_liquidity_usd',
      ruleKind: 'absolute',
      comparator: 'lt',
      thresholdValue: 1000,
      severity: 'critical',
    });
    // Created on a source already in breach: its alert opens at once.
    const [opened] = await owner.alertsOf(rule.id);
    expect(opened).toMatchObject({ status: 'ongoing', severity: 'critical', observedValue: 10 });
    const [triggered] = await delivered(secret, 'portfolio_wallet.risk.alert.triggered', wallet);
    expect(triggered).toEqual({
      event: 'portfolio_wallet.risk.alert.triggered',
      observedAt: expect.stringMatching(/Z$/),
      walletId: wallet,
      alert: { ...opened },
    });

    expect((await owner.ok('PATCH', `/v2/wallets/risk/rules/${rule.id}`, { status: 'paused' })).status).toBe('paused');
    await owner.inject(USDC_VAULT, { available_withdrawal_liquidity_usd: 5000 });
    expect((await owner.alertsOf(rule.id)).map((alert) => alert.status)).toEqual(['ongoing']);
    expect((await owner.ok('PATCH', `/v2/wallets/risk/rules/${rule.id}`, { status: 'active' })).status).toBe('active');
    expect((await owner.alertsOf(rule.id)).map((alert) => alert.status)).toEqual(['resolved']);
    const [resolved] = await delivered(secret, 'portfolio_wallet.risk.alert.resolved', wallet);
    expect(resolved.alert).toMatchObject({ id: opened.id, status: 'resolved', resolutionSource: 'auto' });

    await owner.inject(USDC_VAULT, { available_withdrawal_liquidity_usd: 1 });
    expect((await owner.alertsOf(rule.id)).map((alert) => alert.status)).toEqual(['ongoing', 'resolved']);
    expect(await owner.ok('DELETE', `/v2/wallets/risk/rules/${rule.id}`)).toEqual({ id: rule.id, deleted: true });
    expect((await owner.alertsOf(rule.id)).map((alert) => [alert.status, alert.resolutionSource])).toEqual([
      ['resolved', 'rule_deleted'],
      ['resolved', 'auto'],
    ]);
    expect(await owner.call('PATCH', `/v2/wallets/risk/rules/${rule.id}`, { status: 'active' })).toEqual(
      errorOf(404, 'risk_rule_not_found'),
    );
  }, 30_000);
});

describe('actions wallet-service applies', () => {
  it('blocks buying into the source while the alert is open, keeps a strategy rebalance in cash, and lifts on resolve', async () => {
    const owner = await Caller.of(orgName('block'));
    const secret = await owner.subscribe();
    const manual = await owner.wallet(USDC_100);
    const auto = await owner.wallet(
      {
        usdc: [
          { yieldSourceId: USDC_VAULT, pct: 50 },
          { yieldSourceId: 'cash', pct: 50 },
        ],
      },
      true,
    );
    await owner.settled(auto.id);
    for (const wallet of [manual, auto])
      await owner.ok('POST', '/v2/wallets/risk/rules', {
        portfolioWalletId: wallet.id,
        yieldSourceId: USDC_VAULT,
        metric: 'apy_bps',
        ruleKind: 'absolute',
        comparator: 'lt',
        thresholdValue: 100,
        outcome: 'prevent_additional_allocation',
        approvalMode: 'automatic',
      });
    await owner.inject(USDC_VAULT, { apy_bps: 50 });
    const [action] = await delivered(secret, 'portfolio_wallet.risk.action.status_changed', manual.id);
    expect(action.action).toMatchObject({ outcome: 'prevent_additional_allocation', action: 'block_rebalance_buy', status: 'executed' });

    const refused = await eventually(
      () => owner.allocate(manual.id, USDC_VAULT, '10.000000'),
      (reply) => reply.status === 409,
    );
    expect(refused).toEqual(errorOf(409, 'yield_source_blocked'));
    // Another source of the group is still bought.
    expect((await owner.allocate(manual.id, USTB, '10.000000')).status).toBe(200);

    // A strategy asking 100 % of the blocked source leaves the rest of the wallet's money in cash.
    const before = positionOf(await owner.settled(auto.id), USDC_VAULT);
    await owner.ok('PATCH', `/v2/wallets/${auto.id}/strategy`, { requestId: randomUUID(), allocations: USDC_100 });
    const after = await owner.settled(auto.id);
    expect(Number(positionOf(after, USDC_VAULT))).toBeGreaterThanOrEqual(Number(before));
    expect(Number(positionOf(after, USDC_VAULT))).toBeLessThan(Number(before) + 0.01);
    expect(Number(positionOf(after, 'cash:ethereum_sepolia:usdc'))).toBeGreaterThan(49);

    await owner.inject(USDC_VAULT, { apy_bps: 500 });
    await eventually(
      () => owner.allocate(manual.id, USDC_VAULT, '10.000000'),
      (reply) => reply.status === 200,
    );
  }, 60_000);

  it('exits a position automatically into the wallet’s other source, every dollar accounted for', async () => {
    const owner = await Caller.of(orgName('exit'));
    const secret = await owner.subscribe();
    const wallet = await owner.wallet({
      usdc: [
        { yieldSourceId: USDC_VAULT, pct: 50 },
        { yieldSourceId: USTB, pct: 50 },
      ],
    });
    expect((await owner.allocate(wallet.id, USDC_VAULT, '60.000000')).status).toBe(200);
    const funded = await owner.settled(wallet.id);
    const rule = await owner.ok('POST', '/v2/wallets/risk/rules', {
      portfolioWalletId: wallet.id,
      yieldSourceId: USDC_VAULT,
      metric: 'tvl_usd',
      ruleKind: 'absolute',
      comparator: 'lt',
      thresholdValue: 1_000_000,
      action: 'auto_rebalance_out',
    });
    await owner.inject(USDC_VAULT, { tvl_usd: 10 });
    const [unwind] = await delivered(secret, 'portfolio_wallet.risk.unwind.completed', wallet.id);
    const [action] = await owner.actionsOf(rule.id);
    expect(action).toMatchObject({
      status: 'executed',
      outcome: 'exit_position',
      approvalRequired: false,
      rebalanceId: expect.any(String),
    });
    expect(unwind).toEqual({
      event: 'portfolio_wallet.risk.unwind.completed',
      observedAt: expect.any(String),
      walletId: wallet.id,
      unwind: {
        actionId: action.id,
        rebalanceId: action.rebalanceId,
        yieldSourceId: USDC_VAULT,
        amountUsd: expect.stringMatching(/^60\.\d{6}$/),
        completedAt: expect.any(String),
      },
    });
    const statuses = deliveriesOf(secret, 'portfolio_wallet.risk.action.status_changed', wallet.id).map((body) => body.action.status);
    expect(statuses).toEqual(expect.arrayContaining(['pending_auto_execution', 'executing', 'executed']));
    const exited = await owner.settled(wallet.id);
    expect(positionOf(exited, USDC_VAULT)).toBe('0.000000');
    expect(Number(positionOf(exited, USTB))).toBeGreaterThanOrEqual(60);
    expect(Number(exited.balance.totalUsd)).toBeGreaterThanOrEqual(Number(funded.balance.totalUsd));
    expect(Number(exited.balance.totalUsd) - Number(funded.balance.totalUsd)).toBeLessThan(0.01);
  }, 60_000);

  it('runs an approval-required exit once approved, and none when rejected', async () => {
    const owner = await Caller.of(orgName('approval'));
    const member = await owner.as('member');
    const approved = await owner.wallet(USDC_100);
    const rejected = await owner.wallet(USDC_100);
    const rules: any[] = [];
    for (const wallet of [approved, rejected]) {
      expect((await owner.allocate(wallet.id, USDC_VAULT, '40.000000')).status).toBe(200);
      await owner.settled(wallet.id);
      rules.push(
        await owner.ok('POST', '/v2/wallets/risk/rules', {
          portfolioWalletId: wallet.id,
          yieldSourceId: USDC_VAULT,
          metric: 'apy_bps',
          ruleKind: 'absolute',
          comparator: 'lt',
          thresholdValue: 10,
          outcome: 'exit_position',
          approvalMode: 'approval_required',
        }),
      );
    }
    await owner.inject(USDC_VAULT, { apy_bps: 1 });
    const [toApprove] = await owner.actionsOf(rules[0].id);
    const [toReject] = await owner.actionsOf(rules[1].id);
    expect([toApprove.status, toReject.status]).toEqual(['pending_approval', 'pending_approval']);
    expect(await member.call('PATCH', `/v2/wallets/risk/actions/${toApprove.id}`, { status: 'approved' })).toEqual(
      errorOf(403, 'forbidden'),
    );
    expect((await owner.ok('PATCH', `/v2/wallets/risk/actions/${toReject.id}`, { status: 'rejected' })).status).toBe('rejected');
    expect((await owner.ok('PATCH', `/v2/wallets/risk/actions/${toApprove.id}`, { status: 'approved' })).status).toBe('executing');
    expect(await owner.call('PATCH', `/v2/wallets/risk/actions/${toReject.id}`, { status: 'approved' })).toEqual(
      errorOf(409, 'risk_action_not_pending'),
    );
    await eventually(
      async () => (await owner.actionsOf(rules[0].id))[0].status,
      (status) => status === 'executed',
      10_000,
    );
    expect(positionOf(await owner.settled(approved.id), USDC_VAULT)).toBe('0.000000');
    expect(Number(positionOf(await owner.settled(rejected.id), USDC_VAULT))).toBeGreaterThanOrEqual(40);
  }, 60_000);
});

describe('a crash between the alert and its event', () => {
  it('publishes the alert opened before risk-service was killed once, after it restarts', async () => {
    const owner = await Caller.of(orgName('crash'));
    const secret = await owner.subscribe();
    const wallet = (
      await owner.ok('POST', '/v2/wallets', { requestId: randomUUID(), autoRebalance: false, strategy: { allocations: USDC_100 } })
    ).id;
    const rule = await owner.ok('POST', '/v2/wallets/risk/rules', {
      portfolioWalletId: wallet,
      yieldSourceId: USTB,
      metric: 'apy_bps',
      ruleKind: 'absolute',
      comparator: 'gt',
      thresholdValue: 10_000,
    });
    // The relay's statement updates the outbox's lease row: a table lock that refuses updates (and
    // takes no transaction id, so no other outbox on the server waits for it) keeps the committed
    // alert's event unpublished while risk-service dies.
    const schema = system.serviceEnv('risk')['DATABASE_SCHEMA'];
    const holder = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(`LOCK TABLE "${schema}".outbox_relay IN EXCLUSIVE MODE`);
      await owner.inject(USTB, { apy_bps: 20_000 });
      expect(await owner.alertsOf(rule.id)).toHaveLength(1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(deliveriesOf(secret, 'portfolio_wallet.risk.alert.triggered', wallet)).toEqual([]);
      const risk = system.services.get('risk');
      risk?.child.kill('SIGKILL');
      await risk?.stop();
      await holder.query('ROLLBACK');
    } finally {
      await holder.end();
    }
    await system.startService('risk');
    // The killed process's relay may have taken the lease as the lock went: it lapses (5 s).
    const [event] = await eventually(
      () => deliveriesOf(secret, 'portfolio_wallet.risk.alert.triggered', wallet),
      (found) => found.length >= 1,
      20_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const alerts = await owner.alertsOf(rule.id);
    expect(alerts).toHaveLength(1);
    expect(deliveriesOf(secret, 'portfolio_wallet.risk.alert.triggered', wallet)).toHaveLength(1);
    expect(event.alert.id).toBe(alerts[0].id);
    const published = await db.query(
      `SELECT count(*)::int AS n FROM "${schema}".outbox_events WHERE type = $1 AND payload->>'walletId' = $2`,
      ['portfolio_wallet.risk.alert.triggered', wallet],
    );
    expect(published.rows[0].n).toBe(1);
  }, 60_000);
});
