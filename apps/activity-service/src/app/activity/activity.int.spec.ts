import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstream } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { type ActivityItemDto, type ActivityQueryDto, type DomainEventType, eventSubject, type RequestContext } from '@service/contracts';
import { type InProcessService, startServiceInProcess } from '@service/service-testing';
import { eventually } from '@service/testing';
import { activityConfigSpec } from '../../config.js';
import { AppModule } from '../app.module.js';
import { ActivityService } from './activity.service.js';

/**
 * The projection worker and ActivityService in process, on their own migrated schema, NATS server
 * and event stream: events published as wallet-service's relay does, the feed read from the
 * service class. The use cases of `feed.e2e.spec.ts` without a gateway, HTTP or a build.
 */
let service: InProcessService;
let activity: ActivityService;
let nats: NatsConnection;

beforeAll(async () => {
  service = await startServiceInProcess({
    name: 'activity',
    module: AppModule.forRoot,
    spec: activityConfigSpec,
    env: { ACTIVITY_EVENT_LINGER_MS: '0' },
  });
  activity = service.running.app.get(ActivityService);
  nats = await connect({ servers: service.env.NATS_URL });
});

afterAll(async () => {
  await nats?.close();
  await service?.stop();
});

const DEPOSIT = 'portfolio_wallet.deposit.status_changed';
const WITHDRAWAL = 'portfolio_wallet.withdrawal.status_changed';
const REBALANCE = 'portfolio_wallet.rebalance.status_changed';
const at = (second: number) => new Date(Date.UTC(2026, 10, 21, 10, 0, second)).toISOString();
const ctxOf = (orgId: string): RequestContext => ({ orgId, role: 'member', principalId: `user_${orgId}`, requestId: randomUUID() });
const INVALID_CURSOR = { name: 'ServiceError', code: 'invalid_cursor' };

/**
 * Event payloads as wallet-service writes them (the builders of `test/support.ts`, which belongs to
 * the e2e project and cannot be imported from here).
 */
interface Fields {
  id?: string;
  status?: string;
  amount?: string;
  createdAt?: string;
  completedAt?: string | null;
  observedAt?: string;
}
const envelope = <K extends string, R>(event: string, walletId: string, fields: Fields, key: K, resource: R) =>
  ({ event, observedAt: fields.observedAt ?? new Date().toISOString(), walletId, [key]: resource }) as {
    event: string;
    walletId: string;
  } & Record<K, R>;
const common = (fields: Fields, status: string) => ({
  id: fields.id ?? randomUUID(),
  status: fields.status ?? status,
  createdAt: fields.createdAt ?? new Date().toISOString(),
});
const ADDRESS = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
const depositPayload = (walletId: string, fields: Fields = {}) =>
  envelope(DEPOSIT, walletId, fields, 'deposit', {
    ...common(fields, 'processing'),
    amount: fields.amount ?? '10.000000',
    token: 'usdc',
    chain: 'ethereum_sepolia',
    fromAddress: ADDRESS,
    txHash: `0x${'ab'.repeat(32)}`,
    completedAt: fields.completedAt ?? null,
  });
const withdrawalPayload = (walletId: string, fields: Fields = {}) =>
  envelope(WITHDRAWAL, walletId, fields, 'withdrawal', {
    ...common(fields, 'processing'),
    amountRequestedUsd: '25.000000',
    amountPaidUsd: null,
    feeUsd: '0.000000',
    destinationChain: 'ethereum_sepolia',
    destinationAddress: ADDRESS,
    destinationToken: 'usdc',
    legsCompleted: 0,
    legsTotal: 1,
    payoutLegs: [],
    failureReason: null,
    completedAt: null,
  });
const rebalancePayload = (walletId: string, fields: Fields = {}) =>
  envelope(REBALANCE, walletId, fields, 'rebalance', {
    ...common(fields, 'created'),
    requestId: randomUUID(),
    allocations: [
      { from: 'cash:ethereum_sepolia:usdc', to: 'service-jaaa-usdc-vault', amountUsd: '7.250000' },
      { from: 'service-jaaa-usdc-vault', to: 'cash:ethereum_sepolia:usdc', amountUsd: '0.750001' },
    ],
    completedAt: null,
  });

async function publish(orgId: string, type: DomainEventType, payload: unknown): Promise<void> {
  const event = { id: randomUUID(), type, orgId, source: 'wallet', occurredAt: new Date().toISOString(), payload };
  await jetstream(nats).publish(eventSubject(service.env.EVENTS_SUBJECT_PREFIX!, 'wallet', type), JSON.stringify(event), {
    msgID: event.id,
  });
}

/** The organization's feed once it holds `count` items. */
async function feedOf(org: string, count: number, query: ActivityQueryDto = {}): Promise<ActivityItemDto[]> {
  const page = await eventually(
    () => activity.list(ctxOf(org), { limit: 100, ...query }),
    (result) => result.data.length === count,
  );
  return page.data;
}

const idsOf = async (org: string, query: ActivityQueryDto) =>
  (await activity.list(ctxOf(org), { limit: 100, ...query })).data.map((item) => item.id);

describe('projecting events and reading the feed', () => {
  it('projects a deposit, a withdrawal and a rebalance with the nested object of the spec, newest first', async () => {
    const org = `org_${randomUUID()}`;
    const wallet = randomUUID();
    const deposit = depositPayload(wallet, { createdAt: at(1), amount: '12.345678' });
    const withdrawal = withdrawalPayload(wallet, { createdAt: at(2) });
    const rebalance = rebalancePayload(wallet, { createdAt: at(3) });
    await publish(org, DEPOSIT, deposit);
    await publish(org, WITHDRAWAL, withdrawal);
    await publish(org, REBALANCE, rebalance);
    expect(await feedOf(org, 3)).toEqual([
      {
        id: rebalance.rebalance.id,
        type: 'rebalance',
        status: 'created',
        amountUsd: '8.000001',
        timestamp: at(3),
        walletId: wallet,
        rebalance: rebalance.rebalance,
      },
      {
        id: withdrawal.withdrawal.id,
        type: 'withdrawal',
        status: 'processing',
        amountUsd: '25.000000',
        timestamp: at(2),
        walletId: wallet,
        withdrawal: withdrawal.withdrawal,
      },
      {
        id: deposit.deposit.id,
        type: 'deposit',
        status: 'processing',
        amountUsd: '12.345678',
        timestamp: at(1),
        walletId: wallet,
        deposit: deposit.deposit,
      },
    ]);
    await expect(activity.list(ctxOf(org), {})).resolves.toEqual({ data: expect.any(Array), nextCursor: null });
  });

  it("filters by type, status and wallets, and shows only the caller's organization", async () => {
    const org = `org_${randomUUID()}`;
    const [w1, w2] = [randomUUID(), randomUUID()];
    const d1 = depositPayload(w1, { createdAt: at(1), status: 'completed' });
    const x1 = withdrawalPayload(w1, { createdAt: at(2), status: 'pending_customer_approval' });
    const r2 = rebalancePayload(w2, { createdAt: at(3), status: 'failed' });
    await publish(org, DEPOSIT, d1);
    await publish(org, WITHDRAWAL, x1);
    await publish(org, REBALANCE, r2);
    await feedOf(org, 3);
    expect(await idsOf(org, { type: 'deposit' })).toEqual([d1.deposit.id]);
    expect(await idsOf(org, { status: 'completed,failed' })).toEqual([r2.rebalance.id, d1.deposit.id]);
    expect(await idsOf(org, { status: 'all' })).toEqual([r2.rebalance.id, x1.withdrawal.id, d1.deposit.id]);
    expect(await idsOf(org, { walletId: w1 })).toEqual([x1.withdrawal.id, d1.deposit.id]);
    expect(await idsOf(org, { walletId: [w2, w1.toUpperCase()], type: 'rebalance' })).toEqual([r2.rebalance.id]);
    expect(await idsOf(`org_${randomUUID()}`, { walletId: w1 })).toEqual([]);
  });

  it('only moves an item forward and ignores a repeated event, whatever the arrival order', async () => {
    const org = `org_${randomUUID()}`;
    const wallet = randomUUID();
    const id = randomUUID();
    const completed = depositPayload(wallet, { id, status: 'completed', completedAt: at(9), observedAt: at(9), createdAt: at(1) });
    await publish(org, DEPOSIT, completed);
    await publish(org, DEPOSIT, depositPayload(wallet, { id, status: 'processing', observedAt: at(2), createdAt: at(1) }));
    await publish(org, DEPOSIT, completed);
    await publish(org, DEPOSIT, depositPayload(wallet, { id, status: 'processing', observedAt: at(30), createdAt: at(1) }));
    const sentinel = depositPayload(wallet, { createdAt: at(0) });
    await publish(org, DEPOSIT, sentinel);
    const items = await feedOf(org, 2);
    expect(items).toEqual([
      { id, type: 'deposit', status: 'completed', amountUsd: '10.000000', timestamp: at(1), walletId: wallet, deposit: completed.deposit },
      expect.objectContaining({ id: sentinel.deposit.id }),
    ]);
  });

  it('skips a malformed event without blocking the events after it', async () => {
    const org = `org_${randomUUID()}`;
    await publish(org, DEPOSIT, { walletId: 'not-a-uuid', deposit: { id: 'x' } });
    const good = depositPayload(randomUUID());
    await publish(org, DEPOSIT, good);
    expect((await feedOf(org, 1)).map((item) => item.id)).toEqual([good.deposit.id]);
  });
});

describe('paging', () => {
  it('pages newest first with a cursor bound to its filters, and refuses a malformed or rebound cursor', async () => {
    const org = `org_${randomUUID()}`;
    const wallet = randomUUID();
    const older = depositPayload(wallet, { createdAt: at(1) });
    const newer = depositPayload(wallet, { createdAt: at(2) });
    await publish(org, DEPOSIT, older);
    await publish(org, DEPOSIT, newer);
    await feedOf(org, 2);
    const first = await activity.list(ctxOf(org), { type: 'deposit', limit: 1 });
    expect(first).toEqual({ data: [expect.objectContaining({ id: newer.deposit.id })], nextCursor: expect.any(String) });
    await expect(activity.list(ctxOf(org), { type: 'deposit', limit: 1, cursor: first.nextCursor! })).resolves.toEqual({
      data: [expect.objectContaining({ id: older.deposit.id })],
      nextCursor: null,
    });
    await expect(activity.list(ctxOf(org), { limit: 1, cursor: 'garbage!' })).rejects.toMatchObject(INVALID_CURSOR);
    await expect(activity.list(ctxOf(org), { type: 'withdrawal', limit: 1, cursor: first.nextCursor! })).rejects.toMatchObject(
      INVALID_CURSOR,
    );
    await expect(activity.list(ctxOf(org), { limit: 1, cursor: first.nextCursor! })).rejects.toMatchObject(INVALID_CURSOR);
  });

  it('applies the default limit of 20', async () => {
    const org = `org_${randomUUID()}`;
    const wallet = randomUUID();
    for (let index = 0; index < 21; index += 1) await publish(org, DEPOSIT, depositPayload(wallet, { createdAt: at(index) }));
    await feedOf(org, 21);
    const page = await activity.list(ctxOf(org), {});
    expect(page.data).toHaveLength(20);
    expect(page.nextCursor).toEqual(expect.any(String));
  });
});
