/* eslint-disable @typescript-eslint/no-explicit-any -- HTTP bodies are checked by the assertions, not by types */
// Issue 14, "Wallet API fidelity": what real integrators' clients depend on, through the gateway.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SUBJECTS } from '@service/contracts';
import { connectNats, NatsRequester, SubjectClient } from '@service/nats';
import { type ApproverKey, registerApprover, vote } from './approvals-support.js';
import { CASH, Client, EVM, JAAA, micros, startWalletSystem, type WalletSystem } from './wallet-system.js';

const suffix = randomUUID().slice(0, 8);
/** Its next payout fails retryably from boot (WALLET_SANDBOX_FAIL_NEXT_PAYOUT). */
const ARMED_ORG = `org_armed_${suffix}`;
/** Payout legs wait for approval here, so they can be cancelled before broadcast. */
const APPROVAL_ORG = `org_fidelity_approve_${suffix}`;
const FAILING = 'service-ustb-vault';

let system: WalletSystem;
let owner: Client;

beforeAll(async () => {
  system = await startWalletSystem({
    WALLET_SANDBOX_FAILING_SOURCES: FAILING,
    WALLET_SANDBOX_FAIL_NEXT_PAYOUT: ARMED_ORG,
    WALLET_PAYOUT_STEP_MS: '150',
    // Long enough to read a just-simulated deposit as processing (two reads at once, right after
    // it is made), short enough not to idle: every deposit of this file settles after it.
    WALLET_DEPOSIT_SETTLEMENT_MS: '500',
    WALLET_WITHDRAWAL_POLICIES: JSON.stringify({ [APPROVAL_ORG]: { requireApproval: true } }),
  });
  owner = await Client.of(system, `org_fidelity_${suffix}`);
}, 90_000);

afterAll(async () => {
  await system?.stop();
}, 60_000);

const errorOf = (status: number, code: string) => ({ status, body: { error: expect.any(String), code } });
const withdrawalPath = (walletId: string, id: string) => `/v2/wallets/${walletId}/withdrawals/${id}`;
const withdraw = (client: Client, walletId: string, body: object) =>
  client.post(`/v2/wallets/${walletId}/withdrawals`, {
    requestId: randomUUID(),
    destinationChain: 'ethereum_sepolia',
    destinationAddress: EVM,
    ...body,
  });
const settled = (client: Client, walletId: string, id: string) =>
  client.waitFor(withdrawalPath(walletId, id), (body) => body.status !== 'processing');
const legsIn = (client: Client, walletId: string, id: string, statuses: string[]) =>
  client.waitFor(withdrawalPath(walletId, id), (body) => body.payoutLegs.map((leg: any) => leg.status).join() === statuses.join());

const walletWith = (client: Client, cashUsd: string, invested: Record<string, string> = {}): Promise<any> =>
  client.fundedWallet(cashUsd, invested);

describe('deposits', () => {
  it('looks a deposit up by its transaction id, on its chain or any, and refuses malformed ids for the chain', async () => {
    const wallet = await owner.idleWallet();
    const deposit = await owner.deposit(wallet.id, '12.5');
    const base = `/v2/wallets/${wallet.id}/deposits/lookup`;
    expect(await owner.get(`${base}?txHash=${deposit.txHash}&chain=ethereum_sepolia`)).toEqual({ status: 200, body: deposit });
    expect((await owner.get(`${base}?txHash=${deposit.txHash.toUpperCase().replace('0X', '0x')}`)).body).toEqual(deposit);
    const other = `0x${'ab'.repeat(32)}`;
    expect(await owner.get(`${base}?txHash=${other}&chain=ethereum_sepolia`)).toEqual(errorOf(404, 'deposit_not_found'));
    expect(await owner.get(`${base}?txHash=${deposit.txHash}&chain=solana_devnet`)).toEqual(errorOf(400, 'validation_error'));
    expect(await owner.get(`${base}?txHash=0x1234&chain=ethereum_sepolia`)).toEqual(errorOf(400, 'validation_error'));
    expect(await owner.get(`${base}?chain=ethereum_sepolia`)).toEqual(errorOf(400, 'validation_error'));
    expect(await owner.get(`${base}?txHash=${deposit.txHash}&chain=bitcoin`)).toEqual(errorOf(400, 'validation_error'));
    expect(await owner.get(`${base}?txHash=${deposit.txHash}&chain=ethereum`)).toEqual(errorOf(400, 'unsupported_chain'));
    expect(await owner.get(`/v2/wallets/${randomUUID()}/deposits/lookup?txHash=${deposit.txHash}`)).toEqual(
      errorOf(404, 'wallet_not_found'),
    );
  });

  it('filters by repeatable status and createdAtGte, pages in either order, and refuses a cursor made under other filters', async () => {
    const wallet = await owner.idleWallet();
    const first = await owner.deposit(wallet.id, '1');
    const second = await owner.deposit(wallet.id, '2');
    const list = (query: string) => owner.get(`/v2/wallets/${wallet.id}/deposits?${query}`);
    const ids = (reply: any) => reply.body.data.map((deposit: any) => deposit.id);
    const pending = (await owner.post(`/v2/wallets/${wallet.id}/deposits/simulate`, { amountUsd: '3' })).body;
    // The two reads that need the third deposit still processing, at once, before it settles.
    const [processing, completedSinceSecond] = await Promise.all([
      list('status=processing'),
      list(`createdAtGte=${encodeURIComponent(second.createdAt)}&status=completed`),
    ]);
    expect(ids(processing)).toEqual([pending.id]);
    expect(ids(completedSinceSecond)).toEqual([second.id]);
    expect(ids(await list(''))).toEqual([pending.id, second.id, first.id]);
    expect(ids(await list('order=asc&sort=createdAt'))).toEqual([first.id, second.id, pending.id]);
    expect(ids(await list('status=completed&status=processing&order=asc'))).toEqual([first.id, second.id, pending.id]);
    const page = await list('order=asc&limit=1');
    expect(ids(page)).toEqual([first.id]);
    expect(ids(await list(`order=asc&limit=1&cursor=${page.body.nextCursor}`))).toEqual([second.id]);
    expect(await list(`order=desc&limit=1&cursor=${page.body.nextCursor}`)).toEqual(errorOf(400, 'invalid_cursor'));
    expect(await list(`order=asc&status=completed&limit=1&cursor=${page.body.nextCursor}`)).toEqual(errorOf(400, 'invalid_cursor'));
    for (const bad of ['order=up', 'sort=amount', 'status=created', 'createdAtGte=yesterday'])
      expect(await list(bad)).toEqual(errorOf(400, 'validation_error'));
  });
});

describe('wallets', () => {
  it('lists wallets by status and order, and binds cursors to the filters', async () => {
    const client = await Client.of(system, `org_list_${suffix}`);
    const a = await client.idleWallet();
    const b = await client.idleWallet();
    const page = await client.get('/v2/wallets?status=idle&order=asc&limit=1');
    expect(page.body.data.map((wallet: any) => wallet.id)).toEqual([a.id]);
    expect((await client.get(`/v2/wallets?status=idle&order=asc&limit=1&cursor=${page.body.nextCursor}`)).body.data[0].id).toBe(b.id);
    expect(await client.get(`/v2/wallets?order=asc&limit=1&cursor=${page.body.nextCursor}`)).toEqual(errorOf(400, 'invalid_cursor'));
    expect((await client.get('/v2/wallets?status=creating')).body.data).toEqual([]);
    expect(await client.get('/v2/wallets?status=sleeping')).toEqual(errorOf(400, 'validation_error'));
  });

  it('clears the label with null or an empty string', async () => {
    const wallet = await owner.idleWallet();
    expect((await owner.patch(`/v2/wallets/${wallet.id}`, { label: 'Ops' })).body.label).toBe('Ops');
    expect((await owner.patch(`/v2/wallets/${wallet.id}`, { label: null })).body.label).toBeNull();
    await owner.patch(`/v2/wallets/${wallet.id}`, { label: 'Ops' });
    expect((await owner.patch(`/v2/wallets/${wallet.id}`, { label: '' })).body.label).toBeNull();
    expect(await owner.patch(`/v2/wallets/${wallet.id}`, { label: 7 })).toEqual(errorOf(400, 'validation_error'));
  });

  it('takes pct in steps of 0.1 stored as basis points, and leaves a rebalance leg below 5 USD in cash', async () => {
    const strategy = {
      usdc: [
        { yieldSourceId: JAAA, pct: 96.7 },
        { yieldSourceId: 'service-ustb-vault', pct: 3.3 },
      ],
    };
    const wallet = await owner.idleWallet(strategy, true);
    expect(wallet.strategy.allocations.usdc).toEqual(strategy.usdc);
    expect(wallet.strategyAllocations.usdc).toEqual([
      { yieldSourceId: JAAA, targetWeightBps: 9670 },
      { yieldSourceId: 'service-ustb-vault', targetWeightBps: 330 },
      { yieldSourceId: 'cash', targetWeightBps: 0 },
    ]);
    const bad = await owner.post('/v2/wallets', {
      requestId: randomUUID(),
      strategy: {
        allocations: {
          usdc: [
            { yieldSourceId: JAAA, pct: 96.65 },
            { yieldSourceId: 'cash', pct: 3.35 },
          ],
        },
      },
    });
    expect(bad).toEqual(errorOf(400, 'invalid_position_weight'));
    expect(
      (
        await owner.patch(`/v2/wallets/${wallet.id}/strategy`, {
          requestId: randomUUID(),
          allocations: {
            usdc: [
              { yieldSourceId: JAAA, pct: 99.9 },
              { yieldSourceId: 'cash', pct: 0.2 },
            ],
          },
        })
      ).body.code,
    ).toBe('invalid_position_weight');
    // 100 USD: 96.70 to JAAA; the 3.30 USD leg to USTB is below 5 USD, so it stays cash and withdrawable.
    await owner.deposit(wallet.id, '100');
    const done = await owner.waitFor(
      `/v2/wallets/${wallet.id}`,
      (body) => body.positions.some((position: any) => position.id === JAAA) && body.balance.reservedUsd === '0.000000',
    );
    const values = Object.fromEntries(done.positions.map((position: any) => [position.id, position.valueUsd]));
    expect(values[CASH]).toBe('3.300000');
    expect(values['service-ustb-vault']).toBeUndefined();
    const preview = await owner.post(`/v2/wallets/${wallet.id}/withdrawal-preview`, { destinationChain: 'ethereum_sepolia' });
    expect(micros(preview.body.withdrawableUsd)).toBeGreaterThanOrEqual(100_000_000n);
  });

  it('answers the yield of a wallet with its id, current balance and integer APYs (0 without history)', async () => {
    const wallet = await owner.idleWallet({ 'usdt:tron': [{ yieldSourceId: 'service-justlend-usdt-tron-market', pct: 100 }] });
    await owner.deposit(wallet.id, '50', { chain: 'tron_nile', token: 'usdt' });
    await owner.allocateAndSettle(wallet.id, [{ from: 'cash:tron_nile:usdt', to: 'service-justlend-usdt-tron-market', amountUsd: '40' }]);
    const reply = await owner.get(`/v2/wallets/${wallet.id}/yield`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      walletId: wallet.id,
      currentBalanceUsd: expect.stringMatching(/^\d+\.\d{6}$/),
      earnedUsd: expect.any(String),
      annualizedUsd: expect.any(String),
      positions: [
        {
          yieldSourceId: 'service-justlend-usdt-tron-market',
          name: expect.any(String),
          apyBps: 0,
          pct: expect.any(Number),
          deployedValueUsd: expect.any(String),
        },
      ],
    });
    expect(micros(reply.body.currentBalanceUsd)).toBeGreaterThanOrEqual(50_000_000n);
  });
});

describe('payout legs: retry and cancel', () => {
  let armed: Client;
  let approver: Client;
  let approverKey: ApproverKey;
  let member: Client;

  beforeAll(async () => {
    armed = await Client.of(system, ARMED_ORG, 'admin');
    approver = await Client.of(system, APPROVAL_ORG, 'admin');
    member = await Client.of(system, ARMED_ORG, 'member');
    // The environment's policy for APPROVAL_ORG asks every leg for one approver's stamped vote.
    approverKey = await registerApprover(approver);
  });

  const retry = (client: Client, walletId: string, id: string, payoutId: string, body: object = {}) =>
    client.post(`${withdrawalPath(walletId, id)}/payouts/${payoutId}/retry`, body);
  const cancelLeg = (client: Client, walletId: string, id: string, payoutId: string, body: object = {}) =>
    client.post(`${withdrawalPath(walletId, id)}/payouts/${payoutId}/cancel`, body);

  it('fails the armed next payout retryably; a retry re-plans and runs the same leg, idempotent on requestId', async () => {
    const wallet = await walletWith(armed, '30');
    const created = await withdraw(armed, wallet.id, { amountUsd: '10' });
    expect(created.body.status).toBe('processing');
    const leg = created.body.payoutLegs[0];
    expect(leg.id).toMatch(/^[0-9a-f-]{36}$/);
    const failed = await settled(armed, wallet.id, created.body.id);
    expect(failed).toMatchObject({ status: 'failed', amountPaidUsd: null, payoutLegs: [{ id: leg.id, status: 'failed' }] });
    expect((await armed.get(`/v2/wallets/${wallet.id}`)).body.balance.reservedUsd).toBe('0.000000');
    expect(await retry(member, wallet.id, created.body.id, leg.id)).toEqual(errorOf(403, 'forbidden'));
    expect(await retry(armed, wallet.id, created.body.id, randomUUID())).toEqual(errorOf(404, 'payout_not_found'));
    expect(await retry(armed, wallet.id, created.body.id, 'leg-0')).toEqual(errorOf(400, 'validation_error'));
    const requestId = randomUUID();
    const retried = await retry(armed, wallet.id, created.body.id, leg.id, { requestId });
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ id: leg.id, status: 'planning', stepsCompleted: 0, completedAt: null });
    expect(await retry(armed, wallet.id, created.body.id, leg.id, { requestId })).toEqual(retried);
    const done = await settled(armed, wallet.id, created.body.id);
    expect(done).toMatchObject({
      status: 'completed',
      amountPaidUsd: '9.500000',
      failureReason: null,
      legsCompleted: 1,
      payoutLegs: [{ id: leg.id, status: 'completed' }],
    });
    expect(await retry(armed, wallet.id, created.body.id, leg.id)).toEqual(errorOf(409, 'payout_already_terminal'));
    expect(await cancelLeg(armed, wallet.id, created.body.id, leg.id)).toEqual(errorOf(409, 'payout_already_terminal'));
  });

  it('refuses to retry a leg that failed for good, and one still running', async () => {
    const wallet = await walletWith(owner, '0', { [FAILING]: '20' });
    const created = await withdraw(owner, wallet.id, { amountUsd: '10' });
    const leg = created.body.payoutLegs[0];
    expect(await retry(owner, wallet.id, created.body.id, leg.id)).toEqual(errorOf(409, 'payout_in_progress'));
    expect(await settled(owner, wallet.id, created.body.id)).toMatchObject({ status: 'failed' });
    expect(await retry(owner, wallet.id, created.body.id, leg.id)).toEqual(errorOf(409, 'payout_not_retryable'));
  });

  it('arms the next payout of an organization through the operator subject (what the admin CLI sends)', async () => {
    const org = `org_operator_${suffix}`;
    const client = await Client.of(system, org);
    const connection = await connectNats({
      url: system.system.natsUrl,
      name: 'fidelity-test-operator',
      auth: system.system.nats.authOf('admin'),
    });
    try {
      const operator = new SubjectClient(new NatsRequester(connection, 5_000));
      const reply = await operator.request(SUBJECTS.wallet.sandboxFailNextPayout, {
        ctx: { orgId: org, principalId: 'operator-cli', role: 'owner', requestId: randomUUID() },
      });
      expect(reply).toEqual({ orgId: org, armedAt: expect.any(String) });
    } finally {
      await connection.close();
    }
    const wallet = await walletWith(client, '20', { [JAAA]: '20' });
    const created = await withdraw(client, wallet.id, { amountUsd: '30' });
    const done = await settled(client, wallet.id, created.body.id);
    // One leg failed retryably, the other delivered.
    expect(done.status).toBe('partially_completed');
    const failedLeg = done.payoutLegs.find((leg: any) => leg.status === 'failed');
    expect((await retry(client, wallet.id, created.body.id, failedLeg.id)).body.status).toBe('planning');
    expect(await settled(client, wallet.id, created.body.id)).toMatchObject({
      status: 'completed',
      legsCompleted: 2,
      amountPaidUsd: '29.500000',
    });
  });

  it('cancels a leg before broadcast: the withdrawal ends partially_completed or cancelled', async () => {
    const wallet = await walletWith(approver, '60', { [JAAA]: '40' });
    const created = await withdraw(approver, wallet.id, { amountUsd: '70' });
    const [first, second] = created.body.payoutLegs;
    const parked = await legsIn(approver, wallet.id, created.body.id, ['pending_customer_approval', 'waiting_for_prior_approval']);
    const requestId = randomUUID();
    const cancelled = await cancelLeg(approver, wallet.id, created.body.id, second.id, { requestId });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id: second.id, status: 'cancelled', completedAt: expect.any(String) });
    expect(await cancelLeg(approver, wallet.id, created.body.id, second.id, { requestId })).toEqual(cancelled);
    expect(await cancelLeg(approver, wallet.id, created.body.id, second.id)).toEqual(errorOf(409, 'payout_already_terminal'));
    expect(await cancelLeg(await Client.of(system, APPROVAL_ORG, 'member'), wallet.id, created.body.id, first.id)).toEqual(
      errorOf(403, 'forbidden'),
    );
    expect((await vote(approver, parked.payoutLegs[0].turnkeyActivityId, approverKey)).body).toMatchObject({ approved: true });
    await approver.waitFor(withdrawalPath(wallet.id, created.body.id), (body) =>
      ['broadcasted', 'processing'].includes(body.payoutLegs[0].status),
    );
    expect(await cancelLeg(approver, wallet.id, created.body.id, first.id)).toEqual(errorOf(409, 'payout_in_progress'));
    const done = await settled(approver, wallet.id, created.body.id);
    expect(done).toMatchObject({
      status: 'partially_completed',
      legsCompleted: 1,
      legsTotal: 2,
      amountPaidUsd: '59.500000',
      failureReason: expect.stringContaining('cancelled'),
    });
    const wallet2 = (await approver.get(`/v2/wallets/${wallet.id}`)).body;
    expect(wallet2.balance.reservedUsd).toBe('0.000000');
    expect(micros(wallet2.balance.totalUsd)).toBeGreaterThanOrEqual(40_000_000n);

    const lone = await withdraw(approver, wallet.id, { amountUsd: '5' });
    await legsIn(approver, wallet.id, lone.body.id, ['pending_customer_approval']);
    await cancelLeg(approver, wallet.id, lone.body.id, lone.body.payoutLegs[0].id);
    expect(await settled(approver, wallet.id, lone.body.id)).toMatchObject({ status: 'cancelled', amountPaidUsd: null, legsCompleted: 0 });
  });

  it('cancels a withdrawal idempotently on requestId: a replay answers the same result', async () => {
    const wallet = await walletWith(approver, '20');
    const created = await withdraw(approver, wallet.id, { amountUsd: '5' });
    await legsIn(approver, wallet.id, created.body.id, ['pending_customer_approval']);
    const requestId = randomUUID();
    const cancel = (body: object) => approver.post(`${withdrawalPath(wallet.id, created.body.id)}/cancel`, body);
    const first = await cancel({ requestId });
    expect(first.body).toMatchObject({ status: 'cancelled', payoutLegs: [{ status: 'skipped' }] });
    expect(await cancel({ requestId })).toEqual(first);
    expect(await cancel({})).toEqual(errorOf(409, 'withdrawal_already_cancelled'));
    expect(await cancel({ requestId: 'nope' })).toEqual(errorOf(400, 'validation_error'));
    const other = await withdraw(approver, wallet.id, { amountUsd: '5' });
    expect(await approver.post(`${withdrawalPath(wallet.id, other.body.id)}/cancel`, { requestId })).toEqual(
      errorOf(409, 'request_id_conflict'),
    );
  });
});

describe('roles', () => {
  it('lets only owners and admins write the address book', async () => {
    const org = `org_roles_${suffix}`;
    const member = await Client.of(system, org, 'member');
    const admin = await Client.of(system, org, 'admin');
    const entry = { address: EVM, chain: 'ethereum_sepolia', label: 'Treasury' };
    expect(await member.post('/v2/address-book/entries', entry)).toEqual(errorOf(403, 'forbidden'));
    const created = await admin.post('/v2/address-book/entries', entry);
    expect(created.status).toBe(201);
    expect((await member.get('/v2/address-book/entries')).body.data).toHaveLength(1);
    expect(await member.delete(`/v2/address-book/entries/${created.body.entry}`)).toEqual(errorOf(403, 'forbidden'));
    expect(await admin.delete(`/v2/address-book/entries/${created.body.entry}`)).toEqual({
      status: 200,
      body: { id: created.body.entry, deleted: true },
    });
  });

  it('documents the role rule of every write route; a member may call each route open to every role and is refused the strategy and withdrawals', async () => {
    const document = (await (await fetch(`${system.url}/v2/openapi.json`)).json()) as { paths: Record<string, Record<string, any>> };
    const rules: Record<string, string[]> = {};
    for (const [path, operations] of Object.entries(document.paths)) {
      if (!path.startsWith('/v2/wallets') && !path.startsWith('/v2/address-book')) continue;
      for (const [method, operation] of Object.entries(operations)) {
        if (method === 'get') continue;
        rules[`${method.toUpperCase()} ${path}`] = operation['x-required-roles'];
      }
    }
    const ownersAndAdmins = ['owner', 'admin'];
    const everyRole = ['owner', 'admin', 'member'];
    expect(rules).toEqual({
      'POST /v2/wallets': everyRole,
      'PATCH /v2/wallets/{id}': everyRole,
      'PATCH /v2/wallets/{id}/strategy': ownersAndAdmins,
      'POST /v2/wallets/{id}/deposits/simulate': everyRole,
      'POST /v2/wallets/{id}/allocate': ownersAndAdmins,
      'POST /v2/wallets/{id}/allocate-preview': everyRole,
      'POST /v2/wallets/{id}/deposit-addresses/{chain}/enable': everyRole,
      'POST /v2/wallets/{id}/withdrawal-preview': everyRole,
      'POST /v2/wallets/{id}/withdrawals': ownersAndAdmins,
      'POST /v2/wallets/{id}/withdrawals/{withdrawalId}/cancel': ownersAndAdmins,
      // Gone (410 approval_flow_changed) for every role: stamped votes release legs now.
      'POST /v2/wallets/{id}/withdrawals/{withdrawalId}/payouts/{legIndex}/approve': everyRole,
      'POST /v2/wallets/{id}/withdrawals/{withdrawalId}/payouts/{payoutId}/retry': ownersAndAdmins,
      'POST /v2/wallets/{id}/withdrawals/{withdrawalId}/payouts/{payoutId}/cancel': ownersAndAdmins,
      'POST /v2/address-book/entries': ownersAndAdmins,
      'DELETE /v2/address-book/entries/{entryId}': ownersAndAdmins,
      // The risk engine's (risk-service; its e2e suite checks the refusals).
      'POST /v2/wallets/risk/rules': ownersAndAdmins,
      'PATCH /v2/wallets/risk/rules/{riskRuleId}': ownersAndAdmins,
      'DELETE /v2/wallets/risk/rules/{riskRuleId}': ownersAndAdmins,
      'PATCH /v2/wallets/risk/actions/{riskActionId}': ownersAndAdmins,
    });
    // The routes for every role, as a member; the strategy and withdrawal routes refuse the member and
    // serve an admin of its organization (allocate, payouts and the address book are tested above and in allocate).
    const member = await Client.of(system, `org_member_${suffix}`, 'member');
    const admin = await Client.of(system, `org_member_${suffix}`, 'admin');
    const wallet = await member.idleWallet();
    expect((await member.patch(`/v2/wallets/${wallet.id}`, { label: 'Member' })).status).toBe(200);
    const strategy = { requestId: randomUUID(), allocations: { usdc: [{ yieldSourceId: JAAA, pct: 100 }] } };
    expect(await member.patch(`/v2/wallets/${wallet.id}/strategy`, strategy)).toEqual(errorOf(403, 'forbidden'));
    expect((await admin.patch(`/v2/wallets/${wallet.id}/strategy`, strategy)).status).toBe(200);
    await member.deposit(wallet.id, '20');
    expect(
      (await member.post(`/v2/wallets/${wallet.id}/allocate-preview`, { allocations: [{ from: CASH, to: JAAA, amountUsd: '1' }] })).status,
    ).toBe(200);
    // Not 403: the organization has no approvers yet, which is what the answer says.
    expect((await member.post(`/v2/wallets/${wallet.id}/deposit-addresses/stellar_testnet/enable`, {})).body.code).toBe(
      'approvers_required',
    );
    expect((await member.post(`/v2/wallets/${wallet.id}/withdrawal-preview`, { destinationChain: 'ethereum_sepolia' })).status).toBe(200);
    expect(await withdraw(member, wallet.id, { amountUsd: '2' })).toEqual(errorOf(403, 'forbidden'));
    const created = await withdraw(admin, wallet.id, { amountUsd: '2' });
    expect(created.status).toBe(200);
    expect(await member.post(`${withdrawalPath(wallet.id, created.body.id)}/cancel`, {})).toEqual(errorOf(403, 'forbidden'));
    // 200, or 409 once a leg is broadcast: never 403.
    expect([200, 409]).toContain((await admin.post(`${withdrawalPath(wallet.id, created.body.id)}/cancel`, {})).status);
  });
});
