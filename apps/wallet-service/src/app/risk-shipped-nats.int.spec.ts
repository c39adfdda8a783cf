import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstream } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { RequestContext } from '@service/contracts';
import { type RunningService, runService, type ServiceConfig } from '@service/service-runtime';
import {
  eventually,
  eventStreamOf,
  type IsolatedNats,
  type IsolatedSchema,
  type IsolatedStream,
  migratedSchema,
  newRunId,
  serviceTestEnv,
  startIsolatedNats,
} from '@service/testing';
import type { DynamicModule } from '@nestjs/common';
import type { Logger } from 'pino';
import { walletConfigSpec } from '../config.js';
import { AppModule } from './app.module.js';
import { DepositsService } from './deposits/deposits.service.js';
import { RebalancesService } from './rebalances/rebalances.service.js';
import { WalletsService } from './wallets/wallets.service.js';

/**
 * wallet-service on the shipped NATS configuration (k8s/base/nats/nats-server.conf), as the
 * `wallet` user: its `wallet-risk` durable may be created and read, and a risk event that the
 * `risk` user publishes blocks an allocation.
 */
let nats: IsolatedNats;
let schema: IsolatedSchema;
let stream: IsolatedStream;
let running: RunningService;
let risk: NatsConnection;

beforeAll(async () => {
  const runId = newRunId();
  nats = await startIsolatedNats({ auth: 'shipped' });
  schema = await migratedSchema('wallet-service', runId);
  stream = eventStreamOf(runId, nats);
  running = await runService({
    name: 'wallet',
    module: AppModule.forRoot as (config: ServiceConfig, logger: Logger) => DynamicModule,
    spec: walletConfigSpec,
    env: {
      ...serviceTestEnv(schema.schema, stream),
      ...nats.envOf('wallet'),
      LOG_LEVEL: 'warn',
      WALLET_DEPOSIT_SETTLEMENT_MS: '100',
      WALLET_REBALANCE_PROCESSING_MS: '100',
      WALLET_WORKER_POLL_MS: '25',
    },
  });
  risk = await nats.connect('risk');
});

afterAll(async () => {
  await risk?.close();
  await running?.close();
  await stream?.destroy();
  await schema?.drop();
  await nats?.stop();
});

describe('the wallet-risk durable on the shipped NATS configuration', () => {
  it("consumes risk-service's events as the wallet user", async () => {
    const org = `org_${randomUUID().slice(0, 8)}`;
    const ctx = (): RequestContext => ({ orgId: org, role: 'owner', principalId: 'user_1', requestId: randomUUID() });
    const wallets = running.app.get(WalletsService);
    const created = await wallets.create(ctx(), {
      requestId: randomUUID(),
      strategy: { allocations: { usdc: [{ yieldSourceId: 'service-jaaa-usdc-vault', pct: 100 }] } },
    });
    await eventually(
      () => wallets.get(ctx(), created.id),
      (wallet) => wallet.status === 'idle',
    );
    const deposits = running.app.get(DepositsService);
    const deposit = await deposits.simulate(ctx(), { walletId: created.id, amountUsd: '20' });
    await eventually(
      () => deposits.get(ctx(), { walletId: created.id, depositId: deposit.id }),
      (found) => found.status === 'completed',
    );

    const type = 'portfolio_wallet.risk.action.status_changed';
    const action = {
      id: randomUUID(),
      organizationId: org,
      portfolioWalletId: created.id,
      riskRuleId: randomUUID(),
      riskAlertId: randomUUID(),
      yieldSourceId: 'service-jaaa-usdc-vault',
      action: 'block_rebalance_buy',
      outcome: 'prevent_additional_allocation',
      status: 'executed',
    };
    const now = new Date().toISOString();
    const event = {
      id: randomUUID(),
      type,
      orgId: org,
      source: 'risk',
      occurredAt: now,
      payload: { event: type, observedAt: now, walletId: created.id, action },
    };
    await jetstream(risk).publish(`${stream.EVENTS_SUBJECT_PREFIX}.risk.${type}`, JSON.stringify(event), { msgID: event.id });

    const rebalances = running.app.get(RebalancesService);
    const allocations = [{ from: 'cash:ethereum_sepolia:usdc', to: 'service-jaaa-usdc-vault', amountUsd: '10' }];
    // The preview changes nothing: polled until the consumer has applied the event.
    await eventually(
      () =>
        rebalances.preview(ctx(), { walletId: created.id, allocations }).then(
          () => undefined,
          (error: unknown) => error as { code?: string },
        ),
      (error) => error?.code === 'yield_source_blocked',
      10_000,
    );
    const refused = await rebalances.allocate(ctx(), { walletId: created.id, requestId: randomUUID(), allocations }).then(
      () => undefined,
      (error: unknown) => error as { code?: string },
    );
    expect(refused?.code).toBe('yield_source_blocked');
  });
});
