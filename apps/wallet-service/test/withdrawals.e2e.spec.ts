/* eslint-disable @typescript-eslint/no-explicit-any -- HTTP bodies are checked by the assertions, not by types */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type ApproverKey, newKey, postApprover, registerApprover, vote } from './approvals-support.js';
import { CASH, Client, EVM, JAAA, micros, SOLANA, startWalletSystem, STELLAR, TRON, eventsOf, type WalletSystem } from './wallet-system.js';

const suffix = randomUUID().slice(0, 8);
const APPROVAL_ORG = `org_approve_${suffix}`;
const WHITELIST_ORG = `org_whitelist_${suffix}`;
/** Payout legs drawn on this source fail, so partial payouts can be seen. */
const FAILING = 'service-ustb-vault';

let system: WalletSystem;
let owner: Client;

beforeAll(async () => {
  system = await startWalletSystem({
    WALLET_SANDBOX_FAILING_SOURCES: FAILING,
    WALLET_WITHDRAWAL_FEE_USD: '0.500000',
    WALLET_WITHDRAWAL_POLICIES: JSON.stringify({ [APPROVAL_ORG]: { requireApproval: true }, [WHITELIST_ORG]: { requireWhitelist: true } }),
  });
  owner = await Client.of(system, `org_${suffix}`);
}, 90_000);

afterAll(async () => {
  await system?.stop();
}, 60_000);

const WITHDRAWAL_FIELDS = [
  'amountPaidUsd',
  'amountRequestedUsd',
  'completedAt',
  'createdAt',
  'destinationAddress',
  'destinationChain',
  'destinationToken',
  'failureReason',
  'feeUsd',
  'id',
  'legsCompleted',
  'legsTotal',
  'payoutLegs',
  'status',
];
const LEG_FIELDS = [
  'amountUsd',
  'approvalRequestedAt',
  'approvalValidBefore',
  'completedAt',
  'from',
  'id',
  'startedAt',
  'status',
  'steps',
  'stepsCompleted',
  'stepsTotal',
  'to',
  'turnkeyActivityId',
];

const withdraw = (client: Client, walletId: string, body: object) =>
  client.post(`/v2/wallets/${walletId}/withdrawals`, {
    requestId: randomUUID(),
    destinationChain: 'ethereum_sepolia',
    token: 'usdc',
    destinationAddress: EVM,
    ...body,
  });
const withdrawalPath = (walletId: string, id: string) => `/v2/wallets/${walletId}/withdrawals/${id}`;
const settled = (client: Client, walletId: string, id: string) =>
  client.waitFor(withdrawalPath(walletId, id), (body) => body.status !== 'processing');
const legsIn = (client: Client, walletId: string, id: string, statuses: string[]) =>
  client.waitFor(withdrawalPath(walletId, id), (body) => body.payoutLegs.map((leg: any) => leg.status).join() === statuses.join());
const errorOf = (status: number, code: string) => ({ status, body: { error: expect.any(String), code } });
/** Every insufficient_funds carries the wallet's balance. */
const insufficient = {
  status: 409,
  body: {
    error: expect.any(String),
    code: 'insufficient_funds',
    balance: { totalUsd: expect.any(String), withdrawableUsd: expect.any(String), reservedUsd: expect.any(String) },
  },
};

const walletWith = (client: Client, cashUsd: string, invested: Record<string, string> = {}): Promise<any> =>
  client.fundedWallet(cashUsd, invested);

describe('POST /v2/wallets/{id}/withdrawal-preview', () => {
  // Without amountUsd the preview now answers the liquidity question (amountRequestedUsd null, today's
  // total) and processingEstimate is {basis, typicalMinDuration, typicalMaxDuration} (issue 14).
  it('answers the liquidity question without an amount and previews a given amount (string or JSON number), changing nothing', async () => {
    const wallet = await walletWith(owner, '60', { [JAAA]: '40' });
    const max = await owner.post(`/v2/wallets/${wallet.id}/withdrawal-preview`, { destinationChain: 'solana_devnet', token: 'usdc' });
    expect(max.status).toBe(200);
    expect(Object.keys(max.body).sort()).toEqual([
      'amountRequestedUsd',
      'feeUsd',
      'processingEstimate',
      'totalUsdAfterWithdrawal',
      'withdrawableUsd',
    ]);
    expect(max.body.amountRequestedUsd).toBeNull();
    expect(micros(max.body.withdrawableUsd)).toBeGreaterThanOrEqual(100_000_000n);
    expect(max.body.feeUsd).toBe('0.500000');
    expect(micros(max.body.totalUsdAfterWithdrawal)).toBeGreaterThanOrEqual(100_000_000n);
    expect(max.body.processingEstimate).toEqual({ basis: 'banking_days', typicalMinDuration: 'P1D', typicalMaxDuration: 'P3D' });
    // token defaults to usdc
    const some = await owner.post(`/v2/wallets/${wallet.id}/withdrawal-preview`, { destinationChain: 'ethereum_sepolia', amountUsd: 25.5 });
    expect(some.body).toMatchObject({
      amountRequestedUsd: '25.500000',
      feeUsd: '0.500000',
      processingEstimate: { basis: 'elapsed_seconds', typicalMinDuration: 'PT1M', typicalMaxDuration: 'PT10M' },
    });
    // The total grows with yield between the two calls: a few cents at most.
    const drift = micros(some.body.totalUsdAfterWithdrawal) - (micros(max.body.totalUsdAfterWithdrawal) - 25_500_000n);
    expect(drift >= 0n && drift < 50_000n).toBe(true);
    const after = (await owner.get(`/v2/wallets/${wallet.id}`)).body;
    expect(after.balance.reservedUsd).toBe('0.000000');
  });

  it("answers insufficient_funds with the wallet's balance, on preview and create", async () => {
    const wallet = await walletWith(owner, '10', { [JAAA]: '5' });
    const expected = { status: 409, body: { ...insufficient.body, balance: { ...insufficient.body.balance, reservedUsd: '0.000000' } } };
    const preview = await owner.post(`/v2/wallets/${wallet.id}/withdrawal-preview`, {
      destinationChain: 'ethereum_sepolia',
      amountUsd: '16',
    });
    expect(preview).toEqual(expected);
    expect(micros(preview.body.balance.totalUsd)).toBeGreaterThanOrEqual(15_000_000n);
    expect(preview.body.balance.withdrawableUsd).toBe(preview.body.balance.totalUsd);
    expect(await withdraw(owner, wallet.id, { amountUsd: '16', token: undefined })).toEqual(expected);
    const created = await withdraw(owner, wallet.id, { amountUsd: '12', token: undefined });
    expect(created.body).toMatchObject({ status: 'processing', destinationToken: 'usdc' });
    const more = await withdraw(owner, wallet.id, { amountUsd: '5' });
    expect(more).toEqual(insufficient);
    expect(micros(more.body.balance.reservedUsd) + micros(more.body.balance.withdrawableUsd)).toBe(micros(more.body.balance.totalUsd));
  });

  it('refuses unknown chains and tokens, over-precise amounts and more than is withdrawable', async () => {
    const wallet = await walletWith(owner, '10');
    const preview = (body: object) => owner.post(`/v2/wallets/${wallet.id}/withdrawal-preview`, body);
    expect(await preview({ destinationChain: 'bitcoin', token: 'usdc' })).toEqual(errorOf(400, 'unsupported_chain'));
    expect(await preview({ destinationChain: 'ethereum', token: 'usdc' })).toEqual(errorOf(400, 'unsupported_chain'));
    expect(await preview({ destinationChain: 'tron_nile', token: 'usdc' })).toEqual(errorOf(400, 'unsupported_token'));
    expect(await preview({ destinationChain: 'ethereum_sepolia', token: 'dai' })).toEqual(errorOf(400, 'unsupported_token'));
    expect(await preview({ destinationChain: 'ethereum_sepolia', token: 'usdc', amountUsd: '1.0000001' })).toEqual(
      errorOf(400, 'precision_overflow'),
    );
    expect(await preview({ destinationChain: 'ethereum_sepolia', token: 'usdc', amountUsd: 1.1234567 })).toEqual(
      errorOf(400, 'precision_overflow'),
    );
    expect(await preview({ destinationChain: 'ethereum_sepolia', token: 'usdc', amountUsd: '10.000001' })).toEqual(insufficient);
    // TRON pays USDT only, from its own group: USDC cash on Sepolia cannot reach it.
    expect(await preview({ destinationChain: 'tron_nile', token: 'usdt', amountUsd: '1' })).toEqual(insufficient);
    expect(await preview({ destinationChain: 'ethereum_sepolia', token: 'usdc', amountUsd: '1' }).then((r) => r.status)).toBe(200);
    expect(
      await owner.post(`/v2/wallets/${randomUUID()}/withdrawal-preview`, { destinationChain: 'ethereum_sepolia', token: 'usdc' }),
    ).toEqual(errorOf(404, 'wallet_not_found'));
  });
});

describe('POST /v2/wallets/{id}/withdrawals', () => {
  it('draws on several positions, one leg each, and completes paying the amount minus the fee', async () => {
    const wallet = await walletWith(owner, '60', { [JAAA]: '40' });
    const created = await withdraw(owner, wallet.id, { destinationChain: 'solana_devnet', destinationAddress: SOLANA, amountUsd: '70' });
    expect(created.status).toBe(200);
    expect(Object.keys(created.body).sort()).toEqual(WITHDRAWAL_FIELDS);
    expect(created.body).toMatchObject({
      amountRequestedUsd: '70.000000',
      amountPaidUsd: null,
      feeUsd: '0.500000',
      destinationChain: 'solana_devnet',
      destinationAddress: SOLANA,
      destinationToken: 'usdc',
      status: 'processing',
      legsCompleted: 0,
      legsTotal: 2,
      failureReason: null,
      completedAt: null,
    });
    expect(created.body.payoutLegs.map((leg: any) => [leg.status, leg.amountUsd, leg.from.id])).toEqual([
      ['planning', '60.000000', CASH],
      ['planning', '10.000000', JAAA],
    ]);
    const during = (await owner.get(`/v2/wallets/${wallet.id}`)).body;
    expect(during.status).toBe('withdrawal_active');
    expect(during.balance.reservedUsd).toBe('70.000000');
    const done = await settled(owner, wallet.id, created.body.id);
    expect(done).toMatchObject({ status: 'completed', amountPaidUsd: '69.500000', legsCompleted: 2, legsTotal: 2, failureReason: null });
    expect(done.completedAt).toEqual(expect.any(String));
    for (const leg of done.payoutLegs) {
      expect(Object.keys(leg).sort()).toEqual(LEG_FIELDS);
      expect(leg).toMatchObject({ status: 'completed', to: { kind: 'external_payout', id: SOLANA }, completedAt: expect.any(String) });
      expect(leg.stepsCompleted).toBe(leg.stepsTotal);
      for (const step of leg.steps)
        expect(step).toEqual({ label: expect.any(String), status: 'completed', txHash: expect.any(String), txStatus: 'confirmed' });
    }
    expect(done.payoutLegs[1]).toMatchObject({
      from: { kind: 'yield_source', id: JAAA, label: 'Anemoy AAA CLO Fund (JAAA), USDC' },
      stepsTotal: 2,
    });
    const after = await owner.waitFor(`/v2/wallets/${wallet.id}`, (body) => body.status === 'idle');
    expect(after.balance.reservedUsd).toBe('0.000000');
    expect(after.positions.find((position: any) => position.id === CASH)).toBeUndefined();
    expect(micros(after.balance.totalUsd) - micros(after.balance.earnedUsd)).toBe(30_000_000n);
  });

  it('announces every withdrawal and leg change through the outbox in the spec payload shape', async () => {
    const wallet = await walletWith(owner, '20');
    const created = await withdraw(owner, wallet.id, { amountUsd: '5' });
    await settled(owner, wallet.id, created.body.id);
    const events = await eventsOf(system, wallet.id);
    const statusEvents = events.filter((event) => event.type === 'portfolio_wallet.withdrawal.status_changed');
    expect(statusEvents.map((event) => event.payload.withdrawal.status)).toEqual(['processing', 'completed']);
    for (const { payload } of statusEvents) {
      expect(Object.keys(payload).sort()).toEqual(['event', 'observedAt', 'walletId', 'withdrawal']);
      expect(payload).toMatchObject({
        event: 'portfolio_wallet.withdrawal.status_changed',
        walletId: wallet.id,
        withdrawal: { id: created.body.id },
      });
      expect(payload.observedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(Object.keys(payload.withdrawal).sort()).toEqual(WITHDRAWAL_FIELDS);
    }
    expect(statusEvents[1]?.payload.withdrawal).toMatchObject({ amountPaidUsd: '4.500000', legsCompleted: 1 });
    const legEvents = events.filter((event) => event.type === 'portfolio_wallet.withdrawal.payout.status_changed');
    expect(legEvents.map((event) => event.payload.payoutLeg.status)).toEqual(['planning', 'pending_broadcast', 'broadcasted', 'completed']);
    expect(legEvents[0]?.payload).toMatchObject({
      event: 'portfolio_wallet.withdrawal.payout.status_changed',
      walletId: wallet.id,
      withdrawalId: created.body.id,
    });
    const types = events.map((event) => event.type);
    expect(types).toEqual(expect.arrayContaining(['portfolio_wallet.balance.updated', 'portfolio_wallet.position.updated']));
    const walletStatuses = events
      .filter((event) => event.type === 'portfolio_wallet.status_changed')
      .map((event) => event.payload.wallet.status);
    expect(walletStatuses).toEqual(['idle', 'withdrawal_active', 'idle']);
  });

  it('ends partially_completed when one leg delivers and another fails, keeping the failed amount', async () => {
    const wallet = await walletWith(owner, '50', { [FAILING]: '50' });
    const created = await withdraw(owner, wallet.id, { amountUsd: '80' });
    const done = await settled(owner, wallet.id, created.body.id);
    expect(done).toMatchObject({ status: 'partially_completed', amountPaidUsd: '49.500000', legsCompleted: 1, legsTotal: 2 });
    expect(done.failureReason).toEqual(expect.stringContaining('30.000000'));
    expect(done.payoutLegs.map((leg: any) => leg.status)).toEqual(['completed', 'failed']);
    const after = await owner.waitFor(`/v2/wallets/${wallet.id}`, (body) => body.status === 'idle');
    expect(after.balance.reservedUsd).toBe('0.000000');
    expect(micros(after.positions.find((position: any) => position.id === FAILING).valueUsd)).toBeGreaterThanOrEqual(50_000_000n);
  });

  it("leaves the stage times of the wallet's other running withdrawals alone when one settles", async () => {
    const wallet = await walletWith(owner, '40');
    const first = await withdraw(owner, wallet.id, { amountUsd: '5' });
    const second = await withdraw(owner, wallet.id, { amountUsd: '5' });
    // Park the second one's next stage an hour out, under the wallet's lock so no worker step is
    // between its read and its write of the row.
    const parkedUntil = new Date(Date.now() + 3_600_000);
    await system.db.query('BEGIN');
    await system.db.query(`SELECT 1 FROM "${system.schema}".wallets WHERE id = $1 FOR UPDATE`, [wallet.id]);
    await system.db.query(`UPDATE "${system.schema}".withdrawals SET next_run_at = $2 WHERE id = $1`, [second.body.id, parkedUntil]);
    await system.db.query('COMMIT');
    expect((await settled(owner, wallet.id, first.body.id)).status).toBe('completed');
    // A settle used to set every other running withdrawal of the wallet due at once.
    const { rows } = await system.db.query(`SELECT next_run_at, status FROM "${system.schema}".withdrawals WHERE id = $1`, [
      second.body.id,
    ]);
    expect(rows[0]).toEqual({ next_run_at: parkedUntil, status: 'processing' });
    await system.db.query(`UPDATE "${system.schema}".withdrawals SET next_run_at = now() WHERE id = $1`, [second.body.id]);
    expect((await settled(owner, wallet.id, second.body.id)).status).toBe('completed');
  });

  it('is idempotent on requestId, accepts JSON numbers and refuses a reused requestId with another body', async () => {
    const wallet = await walletWith(owner, '30');
    const body = { requestId: randomUUID(), amountUsd: 12.25 };
    const [first, second] = await Promise.all([withdraw(owner, wallet.id, body), withdraw(owner, wallet.id, body)]);
    expect(first.status).toBe(200);
    expect(second.body.id).toBe(first.body.id);
    expect(first.body.amountRequestedUsd).toBe('12.250000');
    await settled(owner, wallet.id, first.body.id);
    const replay = await withdraw(owner, wallet.id, { ...body, amountUsd: '12.250000' });
    expect(replay.body).toMatchObject({ id: first.body.id, status: 'completed' });
    expect(await withdraw(owner, wallet.id, { ...body, amountUsd: '13' })).toEqual(errorOf(409, 'request_id_conflict'));
    const list = await owner.get(`/v2/wallets/${wallet.id}/withdrawals`);
    expect(list.body.data.map((item: any) => item.id)).toEqual([first.body.id]);
  });

  it('checks the address for the chain, the chain, the token, the precision and the funds', async () => {
    const wallet = await walletWith(owner, '10');
    expect(await withdraw(owner, wallet.id, { destinationChain: 'solana_devnet', destinationAddress: EVM, amountUsd: '1' })).toEqual(
      errorOf(400, 'invalid_destination_address'),
    );
    expect(await withdraw(owner, wallet.id, { destinationAddress: '0x0000000000000000000000000000000000000000', amountUsd: '1' })).toEqual(
      errorOf(400, 'invalid_destination_address'),
    );
    expect(await withdraw(owner, wallet.id, { destinationAddress: '0x52908400098527886E0F7030069857D2E4169Ee7', amountUsd: '1' })).toEqual(
      errorOf(400, 'invalid_destination_address'),
    );
    expect(
      await withdraw(owner, wallet.id, { destinationChain: 'tron_nile', token: 'usdt', destinationAddress: SOLANA, amountUsd: '1' }),
    ).toEqual(errorOf(400, 'invalid_destination_address'));
    expect(
      await withdraw(owner, wallet.id, {
        destinationChain: 'stellar_testnet',
        destinationAddress: `${STELLAR.slice(0, -1)}A`,
        amountUsd: '1',
      }),
    ).toEqual(errorOf(400, 'invalid_destination_address'));
    expect(await withdraw(owner, wallet.id, { destinationChain: 'dogecoin', amountUsd: '1' })).toEqual(errorOf(400, 'unsupported_chain'));
    expect(
      await withdraw(owner, wallet.id, { destinationChain: 'solana_devnet', token: 'usdt', destinationAddress: SOLANA, amountUsd: '1' }),
    ).toEqual(errorOf(400, 'unsupported_token'));
    expect(await withdraw(owner, wallet.id, { amountUsd: 1.0000001 })).toEqual(errorOf(400, 'precision_overflow'));
    expect(await withdraw(owner, wallet.id, { amountUsd: '10.000001' })).toEqual(insufficient);
    expect(
      await withdraw(owner, wallet.id, { destinationChain: 'tron_nile', token: 'usdt', destinationAddress: TRON, amountUsd: '1' }),
    ).toEqual(insufficient);
    expect(await withdraw(owner, wallet.id, { amountUsd: 'ten' })).toEqual(errorOf(400, 'validation_error'));
    expect(await withdraw(owner, wallet.id, { requestId: 'nope', amountUsd: '1' })).toEqual(errorOf(400, 'validation_error'));
    const ok = await withdraw(owner, wallet.id, { destinationChain: 'stellar_testnet', destinationAddress: STELLAR, amountUsd: '2' });
    expect(ok.body).toMatchObject({ status: 'processing', destinationChain: 'stellar_testnet', destinationToken: 'usdc' });
    expect(await owner.get(withdrawalPath(wallet.id, randomUUID()))).toEqual(errorOf(404, 'withdrawal_not_found'));
    const stranger = await Client.of(system, `org_other_${suffix}`);
    expect(await stranger.get(withdrawalPath(wallet.id, ok.body.id))).toEqual(errorOf(404, 'wallet_not_found'));
    await settled(owner, wallet.id, ok.body.id);
  });

  it('lists withdrawals newest first, page by page', async () => {
    const wallet = await walletWith(owner, '30');
    const ids: string[] = [];
    for (let index = 0; index < 3; index += 1) ids.push((await withdraw(owner, wallet.id, { amountUsd: '2' })).body.id);
    const first = await owner.get(`/v2/wallets/${wallet.id}/withdrawals?limit=2`);
    expect(first.body.data.map((item: any) => item.id)).toEqual([ids[2], ids[1]]);
    const second = await owner.get(`/v2/wallets/${wallet.id}/withdrawals?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body).toEqual({ data: [expect.objectContaining({ id: ids[0] })], nextCursor: null });
    expect(await owner.get(`/v2/wallets/${wallet.id}/withdrawals?cursor=garbage`)).toEqual(errorOf(400, 'invalid_cursor'));
  });
});

describe('customer approval and cancel', () => {
  let approver: Client;
  let member: Client;
  let key: ApproverKey;

  beforeAll(async () => {
    approver = await Client.of(system, APPROVAL_ORG, 'admin');
    member = await Client.of(system, APPROVAL_ORG, 'member');
    // The environment's policy for APPROVAL_ORG asks every leg for one approver's stamped vote.
    key = await registerApprover(approver);
  });

  const approveLeg = async (withdrawal: any, index: number) => {
    const reply = await vote(approver, withdrawal.payoutLegs[index].turnkeyActivityId, key);
    expect(reply.body).toMatchObject({ approved: true, status: 'ACTIVITY_STATUS_COMPLETED', resultStatus: 'pending_broadcast' });
  };

  it('holds legs for approval one per wallet and chain, and pays once an approver approves each by a stamped vote', async () => {
    const wallet = await walletWith(approver, '60', { [JAAA]: '40' });
    const created = await withdraw(approver, wallet.id, { amountUsd: '70' });
    const parked = await legsIn(approver, wallet.id, created.body.id, ['pending_customer_approval', 'waiting_for_prior_approval']);
    expect(parked.payoutLegs[1]).toMatchObject({ turnkeyActivityId: null, approvalRequestedAt: null, approvalValidBefore: null });
    const other = await withdraw(approver, wallet.id, { amountUsd: '5' });
    await legsIn(approver, wallet.id, other.body.id, ['waiting_for_prior_approval']);
    expect(await approver.post(`${withdrawalPath(wallet.id, created.body.id)}/payouts/0/approve`, {})).toEqual(
      errorOf(410, 'approval_flow_changed'),
    );
    expect(await postApprover(member, newKey(), 'mine')).toEqual(errorOf(403, 'forbidden'));
    await approveLeg(parked, 0);
    const second = await legsIn(approver, wallet.id, created.body.id, ['completed', 'pending_customer_approval']);
    expect((await approver.get(withdrawalPath(wallet.id, other.body.id))).body.payoutLegs[0].status).toBe('waiting_for_prior_approval');
    await approveLeg(second, 1);
    const done = await settled(approver, wallet.id, created.body.id);
    expect(done).toMatchObject({ status: 'completed', amountPaidUsd: '69.500000' });
    await approveLeg(await legsIn(approver, wallet.id, other.body.id, ['pending_customer_approval']), 0);
    expect(await settled(approver, wallet.id, other.body.id)).toMatchObject({ status: 'completed' });
  });

  it('cancels before any leg is broadcast and refuses afterwards with the stage-specific code', async () => {
    const wallet = await walletWith(approver, '60', { [JAAA]: '40' });
    const cancel = (id: string) => approver.post(`${withdrawalPath(wallet.id, id)}/cancel`, {});
    const waiting = await withdraw(approver, wallet.id, { amountUsd: '70' });
    const parked = await legsIn(approver, wallet.id, waiting.body.id, ['pending_customer_approval', 'waiting_for_prior_approval']);
    const cancelled = await cancel(waiting.body.id);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', amountPaidUsd: null, legsCompleted: 0, completedAt: expect.any(String) });
    expect(cancelled.body.payoutLegs.map((leg: any) => leg.status)).toEqual(['skipped', 'skipped']);
    expect(await cancel(waiting.body.id)).toEqual(errorOf(409, 'withdrawal_already_cancelled'));
    // The cancelled leg's activity is no longer pending: a vote on it counts for nothing.
    expect(await vote(approver, parked.payoutLegs[0].turnkeyActivityId, key)).toEqual(errorOf(409, 'approval_expired'));
    const idle = await approver.waitFor(`/v2/wallets/${wallet.id}`, (body) => body.status === 'idle');
    expect(idle.balance.reservedUsd).toBe('0.000000');

    const running = await withdraw(approver, wallet.id, { amountUsd: '70' });
    await approveLeg(await legsIn(approver, wallet.id, running.body.id, ['pending_customer_approval', 'waiting_for_prior_approval']), 0);
    const second = await legsIn(approver, wallet.id, running.body.id, ['completed', 'pending_customer_approval']);
    expect(await cancel(running.body.id)).toEqual(errorOf(409, 'withdrawal_payout_in_progress'));
    await approveLeg(second, 1);
    await settled(approver, wallet.id, running.body.id);
    expect(await cancel(running.body.id)).toEqual(errorOf(409, 'withdrawal_not_cancellable'));
    expect(await approver.post(`${withdrawalPath(wallet.id, randomUUID())}/cancel`, {})).toEqual(errorOf(404, 'withdrawal_not_found'));
  });
});

describe('address book', () => {
  it('adds, lists and deletes entries per organization', async () => {
    const client = await Client.of(system, `org_book_${suffix}`);
    const created = await client.post('/v2/address-book/entries', { address: EVM, chain: 'ethereum_sepolia', label: 'Treasury' });
    expect(created).toEqual({ status: 201, body: { entry: expect.any(String) } });
    await client.post('/v2/address-book/entries', { address: STELLAR, chain: 'stellar_testnet', label: 'Anchor' });
    const list = await client.get('/v2/address-book/entries?limit=1');
    expect(list.body.data).toEqual([
      { id: expect.any(String), address: STELLAR, chain: 'stellar_testnet', label: 'Anchor', createdAt: expect.any(String) },
    ]);
    const next = await client.get(`/v2/address-book/entries?limit=1&cursor=${list.body.nextCursor}`);
    expect(next.body).toEqual({
      data: [{ id: created.body.entry, address: EVM, chain: 'ethereum_sepolia', label: 'Treasury', createdAt: expect.any(String) }],
      nextCursor: null,
    });
    const duplicate = { address: EVM.toLowerCase(), chain: 'ethereum_sepolia', label: 'Again' };
    expect(await client.post('/v2/address-book/entries', duplicate)).toEqual(errorOf(409, 'address_book_duplicate_entry'));
    expect(await client.post('/v2/address-book/entries', { address: SOLANA, chain: 'ethereum_sepolia', label: 'x' })).toEqual(
      errorOf(400, 'invalid_destination_address'),
    );
    expect(await client.post('/v2/address-book/entries', { address: EVM, chain: 'ethereum', label: 'x' })).toEqual(
      errorOf(400, 'unsupported_chain'),
    );
    expect(await client.post('/v2/address-book/entries', { address: EVM, chain: 'ethereum_sepolia' })).toEqual(
      errorOf(400, 'validation_error'),
    );
    const stranger = await Client.of(system, `org_stranger_${suffix}`);
    expect(await stranger.delete(`/v2/address-book/entries/${created.body.entry}`)).toEqual(errorOf(404, 'address_book_entry_not_found'));
    expect(await client.delete(`/v2/address-book/entries/${created.body.entry}`)).toEqual({
      status: 200,
      body: { id: created.body.entry, deleted: true },
    });
    expect(await client.delete(`/v2/address-book/entries/${created.body.entry}`)).toEqual(errorOf(404, 'address_book_entry_not_found'));
  });

  it('lets an organization that requires whitelisting withdraw only to addresses in its book', async () => {
    const client = await Client.of(system, WHITELIST_ORG);
    const wallet = await walletWith(client, '20');
    expect(await withdraw(client, wallet.id, { amountUsd: '5' })).toEqual(errorOf(403, 'address_book_whitelist_violation'));
    await client.post('/v2/address-book/entries', { address: EVM.toLowerCase(), chain: 'ethereum_sepolia', label: 'Treasury' });
    const ok = await withdraw(client, wallet.id, { amountUsd: '5' });
    expect(ok.status).toBe(200);
    expect(await settled(client, wallet.id, ok.body.id)).toMatchObject({ status: 'completed' });
  });
});

describe('deposit addresses', () => {
  it('gives every wallet a TRON USDT address whose deposits land in the usdt:tron group', async () => {
    const wallet = await owner.idleWallet({ 'usdt:tron': [{ yieldSourceId: 'service-justlend-usdt-tron-market', pct: 100 }] });
    expect(wallet.depositAddresses.tron_nile).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    await owner.deposit(wallet.id, '15', { chain: 'tron_nile', token: 'usdt' });
    const after = (await owner.get(`/v2/wallets/${wallet.id}`)).body;
    expect(after.positions).toEqual([expect.objectContaining({ id: 'cash:tron_nile:usdt', valueUsd: '15.000000', token: 'usdt' })]);
    const out = await withdraw(owner, wallet.id, {
      destinationChain: 'tron_nile',
      token: 'usdt',
      destinationAddress: TRON,
      amountUsd: '15',
    });
    expect(await settled(owner, wallet.id, out.body.id)).toMatchObject({ status: 'completed', amountPaidUsd: '14.500000' });
  });

  it('enables a Stellar address through an approval, after which Stellar deposits settle', async () => {
    const wallet = await owner.idleWallet();
    const enable = (chain: string) => owner.post(`/v2/wallets/${wallet.id}/deposit-addresses/${chain}/enable`, {});
    expect(await enable('tron_nile')).toEqual(errorOf(400, 'unsupported_chain'));
    expect(await enable('stellar')).toEqual(errorOf(400, 'unsupported_chain'));
    expect(await enable('bitcoin')).toEqual(errorOf(400, 'unsupported_chain'));
    expect(await owner.post(`/v2/wallets/${wallet.id}/deposits/simulate`, { amountUsd: '1', chain: 'stellar_testnet' })).toEqual(
      errorOf(400, 'unsupported_chain'),
    );
    expect(await enable('stellar_testnet')).toEqual(errorOf(409, 'approvers_required'));
    const key = await registerApprover(owner);
    const started = await enable('stellar_testnet');
    expect(started.body).toEqual({
      chain: 'stellar_testnet',
      address: null,
      approval: {
        id: expect.any(String),
        kind: 'deposit_address',
        chain: 'stellar_testnet',
        status: 'pending',
        turnkeyActivityId: expect.any(String),
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    });
    const activityId = started.body.approval.turnkeyActivityId;
    expect((await vote(owner, activityId, key)).body).toMatchObject({
      approved: true,
      status: 'ACTIVITY_STATUS_COMPLETED',
      resultStatus: 'approved',
    });
    const enabled = (await owner.get(`/v2/wallets/${wallet.id}`)).body;
    expect(enabled.depositAddresses.stellar_testnet).toMatch(/^G[A-Z2-7]{55}$/);
    const again = await enable('stellar_testnet');
    expect(again.body).toMatchObject({
      address: enabled.depositAddresses.stellar_testnet,
      approval: { id: started.body.approval.id, status: 'approved', turnkeyActivityId: activityId },
    });
    const approvals = (await eventsOf(system, wallet.id)).filter((event) => event.type === 'portfolio_wallet.approval.status_changed');
    expect(approvals.map((event) => [event.payload.approval.status, event.payload.approval.turnkeyActivityId])).toEqual([
      ['pending', activityId],
      ['approved', activityId],
    ]);
    const deposit = await owner.deposit(wallet.id, '3', { chain: 'stellar_testnet' });
    expect(deposit).toMatchObject({ chain: 'stellar_testnet', token: 'usdc', status: 'completed' });
    expect(deposit.txHash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('money conservation', () => {
  it('keeps deposits minus what was paid out plus yield equal to the total across random deposits, allocations and withdrawals', async () => {
    const wallet = await owner.idleWallet();
    let deposited = 0n;
    let seed = 7;
    const random = (max: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return 1 + (seed % max);
    };
    const withdrawals: string[] = [];
    for (let round = 0; round < 12; round += 1) {
      const kind = round < 2 ? 0 : random(3) - 1;
      const state = (await owner.get(`/v2/wallets/${wallet.id}`)).body;
      const cash = micros(state.positions.find((position: any) => position.id === CASH)?.valueUsd ?? '0');
      if (kind === 0) {
        const amount = `${random(50)}.${String(random(999_999)).padStart(6, '0')}`;
        await owner.deposit(wallet.id, amount);
        deposited += micros(amount);
      } else if (kind === 1 && cash > 2_000_000n) {
        await owner.allocateAndSettle(wallet.id, [{ from: CASH, to: JAAA, amountUsd: (Number(cash / 2n) / 1e6).toFixed(6) }]);
      } else if (micros(state.balance.withdrawableUsd) > 2_000_000n) {
        const amount = (Number(micros(state.balance.withdrawableUsd) / 3n) / 1e6).toFixed(6);
        const reply = await withdraw(owner, wallet.id, { amountUsd: amount });
        expect(reply.status).toBe(200);
        withdrawals.push(reply.body.id);
        await settled(owner, wallet.id, reply.body.id);
      }
    }
    expect(withdrawals.length).toBeGreaterThan(1);
    const final = await owner.waitFor(`/v2/wallets/${wallet.id}`, (body) => body.status === 'idle');
    let paidOut = 0n;
    for (const id of withdrawals) {
      const item = (await owner.get(withdrawalPath(wallet.id, id))).body;
      expect(item.status).toBe('completed');
      paidOut += micros(item.amountRequestedUsd);
      expect(micros(item.amountPaidUsd)).toBe(micros(item.amountRequestedUsd) - 500_000n);
    }
    const positionsSum = final.positions.reduce((sum: bigint, position: any) => sum + micros(position.valueUsd), 0n);
    expect(positionsSum).toBe(micros(final.balance.totalUsd));
    expect(micros(final.balance.totalUsd) - micros(final.balance.earnedUsd)).toBe(deposited - paidOut);
  }, 30_000);
});
