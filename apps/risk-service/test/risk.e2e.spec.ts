import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { RequestContext, Role } from '@service/contracts';
import { NatsRequester, SubjectClient } from '@service/nats';
import { eventually, startTestSystem, type TestSystem } from '@service/testing';

/**
 * risk-service as a built process on the shipped NATS configuration (its own user `risk`), asked
 * the way the gateway asks (as the `gateway` user): its worker's simulated readings open an alert,
 * and its relay publishes the event to the stream under `events.risk.`.
 */
let system: TestSystem;
let gateway: NatsConnection;
let client: SubjectClient;

beforeAll(async () => {
  system = await startTestSystem({ services: ['risk'], gateways: 0, serviceEnv: { risk: { RISK_OBSERVATION_INTERVAL_MS: '200' } } });
  gateway = await system.nats.connect('gateway');
  client = new SubjectClient(new NatsRequester(gateway, 5_000));
}, 90_000);

afterAll(async () => {
  await gateway?.close();
  await system?.stop();
}, 60_000);

const ctxOf = (orgId: string, role: Role = 'owner'): RequestContext => ({
  orgId,
  role,
  principalId: `user_${orgId}`,
  requestId: randomUUID(),
});

describe('risk-service on the shipped NATS configuration', () => {
  it('opens an alert on its own readings and publishes the event through its outbox', async () => {
    const org = `org_${randomUUID().slice(0, 8)}`;
    const rule = await client.request('risk.rules.create', {
      ctx: ctxOf(org),
      portfolioWalletId: randomUUID(),
      yieldSourceId: 'service-ustb-vault',
      metric: 'tvl_usd',
      ruleKind: 'absolute',
      comparator: 'gt',
      thresholdValue: 0,
      outcome: 'exit_position',
      approvalMode: 'approval_required',
    });
    expect(rule).toMatchObject({ action: 'request_rebalance_out', status: 'active' });
    const alerts = await eventually(
      async () => (await client.request('risk.alerts.list', { ctx: ctxOf(org, 'member'), status: 'ongoing' })).data,
      (data) => data.length === 1,
    );
    expect(alerts[0]).toMatchObject({ riskRuleId: rule.id, status: 'ongoing' });

    const ops = await system.nats.connect('ops');
    try {
      const jsm = await jetstreamManager(ops);
      const subject = `${system.stream.EVENTS_SUBJECT_PREFIX}.risk.portfolio_wallet.risk.alert.triggered`;
      const message = await eventually(
        () => jsm.streams.getMessage(system.stream.EVENTS_STREAM, { last_by_subj: subject }).catch(() => null),
        (found) => found !== null,
      );
      expect(message?.json<{ payload: { walletId: string; alert: { id: string } } }>().payload).toMatchObject({
        walletId: rule.portfolioWalletId,
        alert: { id: alerts[0]!.id },
      });
    } finally {
      await ops.close();
    }
  });

  it('takes a sandbox injection for the caller only', async () => {
    const org = `org_${randomUUID().slice(0, 8)}`;
    const injected = await client.request('risk.sandbox-metrics.inject', {
      ctx: ctxOf(org, 'admin'),
      yieldSourceId: 'service-jaaa-usdc-vault',
      metrics: { apy_bps: 12 },
    });
    expect(injected).toMatchObject({ source: 'sandbox_injection', metrics: { apy_bps: 12 } });
    const seen = async (orgId: string) =>
      (await client.request('risk.metrics.list', { ctx: ctxOf(orgId, 'member'), yieldSourceIds: ['service-jaaa-usdc-vault'] })).data[0]
        ?.observations[0];
    expect(await seen(org)).toMatchObject({ id: injected.id });
    expect((await seen(`org_${randomUUID().slice(0, 8)}`))?.source).toBe('simulated');
  });
});
