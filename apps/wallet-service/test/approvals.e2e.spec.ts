/* eslint-disable @typescript-eslint/no-explicit-any -- HTTP bodies are checked by the assertions, not by types */
// Issue 15, "Customer approvals": approvers, policy, pending activities and stamped votes, through
// the gateway with real services; stamps made by the real @turnkey/api-key-stamper.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  approvalRequest,
  newKey,
  postApprover,
  registerApprover,
  registerApprovers,
  sendVote,
  startSystemWithWebhooks,
  vote,
  voteAnswer,
  type ApproverKey,
} from './approvals-support.js';
import { Client, EVM, eventsOf } from './wallet-system.js';

/** How long an activity waits for quorum here: long enough to vote, short enough to see it lapse. */
const TTL_MS = 5_000;
const suffix = randomUUID().slice(0, 8);
/** An organization whose withdrawals may go only to its address book (WALLET_WITHDRAWAL_POLICIES). */
const WHITELIST_ORG = `org_whitelist_${suffix}`;

let system: Awaited<ReturnType<typeof startSystemWithWebhooks>>;

/** The deadline case, staged up to its one vote short of quorum (see `stageDeadline`). */
let deadline: ReturnType<typeof stageDeadline>;

beforeAll(async () => {
  system = await startSystemWithWebhooks({
    WALLET_APPROVAL_TTL_MS: String(TTL_MS),
    WALLET_PAYOUT_STEP_MS: '40',
    WALLET_WITHDRAWAL_POLICIES: JSON.stringify({ [WHITELIST_ORG]: { requireWhitelist: true } }),
  });
  // Its activity lapses while the other cases run instead of being waited out at the end; its
  // case awaits this (a failure here fails that case).
  deadline = stageDeadline();
  deadline.catch(() => undefined);
}, 120_000);

afterAll(async () => {
  await system?.stop();
}, 60_000);

const errorOf = (status: number, code: string) => ({ status, body: expect.objectContaining({ error: expect.any(String), code }) });
const withdrawalPath = (walletId: string, id: string) => `/v2/wallets/${walletId}/withdrawals/${id}`;
const withdraw = (client: Client, walletId: string, amountUsd: string) =>
  client.post(`/v2/wallets/${walletId}/withdrawals`, {
    requestId: randomUUID(),
    destinationChain: 'ethereum_sepolia',
    token: 'usdc',
    destinationAddress: EVM,
    amountUsd,
  });
const settled = (client: Client, walletId: string, id: string) =>
  client.waitFor(withdrawalPath(walletId, id), (body) => body.status !== 'processing', 15_000);
/** The withdrawal once its legs are in these statuses. */
const legsIn = (client: Client, walletId: string, id: string, statuses: string[]) =>
  client.waitFor(withdrawalPath(walletId, id), (body) => body.payoutLegs.map((leg: any) => leg.status).join() === statuses.join());
const balanceOf = async (client: Client, walletId: string) => (await client.get(`/v2/wallets/${walletId}`)).body.balance;

/** An organization with `approvers` registered keys and a policy asking every withdrawal for `quorum` of them. */
async function organization(name: string, approvers: number, quorum: number): Promise<{ client: Client; keys: ApproverKey[] }> {
  const client = await Client.of(system, `org_${name}_${suffix}`);
  const keys = await registerApprovers(client, approvers);
  expect((await client.call('PUT', '/v2/approvals/policy', { withdrawals: 'all', quorum })).status).toBe(200);
  return { client, keys };
}

/** The `approval.status_changed` events of an organization's changes to approvers, policy and address book (no wallet), oldest first. */
async function changeEventsOf(orgId: string): Promise<any[]> {
  const result = await system.db.query<{ payload: any }>(
    `SELECT payload FROM "${system.schema}".outbox_events WHERE org_id = $1 AND type = 'portfolio_wallet.approval.status_changed' AND payload->>'walletId' IS NULL ORDER BY occurred_at, id`,
    [orgId],
  );
  return result.rows.map((row) => row.payload);
}

/** A pending change as a governed route answers it (202). */
const pendingChange = (kind: string, change: object, principalId: string) => ({
  status: 202,
  body: {
    id: expect.any(String),
    kind,
    status: 'pending',
    turnkeyActivityId: expect.any(String),
    change: expect.objectContaining(change),
    before: kind === 'policy.updated' ? expect.any(Object) : null,
    principalId,
    createdAt: expect.any(String),
    updatedAt: expect.any(String),
  },
});

/** A cash wallet of `usd` with one withdrawal of `amountUsd` parked for approval: the withdrawal and its leg's activity id. */
async function parked(client: Client, usd: string, amountUsd: string): Promise<{ wallet: any; withdrawal: any; activityId: string }> {
  const wallet = await client.fundedWallet(usd);
  const created = await withdraw(client, wallet.id, amountUsd);
  expect(created.status).toBe(200);
  const withdrawal = await legsIn(client, wallet.id, created.body.id, ['pending_customer_approval']);
  return { wallet, withdrawal, activityId: withdrawal.payoutLegs[0].turnkeyActivityId };
}

/**
 * The deadline case up to its wait: a withdrawal and a Stellar setup parked for a quorum of two,
 * one vote cast, the stamped request of the second vote kept for after the deadline.
 */
async function stageDeadline() {
  const { client, keys } = await organization('deadline', 2, 2);
  const { wallet, withdrawal, activityId } = await parked(client, '30', '10');
  const enable = () => client.post(`/v2/wallets/${wallet.id}/deposit-addresses/stellar_testnet/enable`, {});
  const setup = (await enable()).body.approval;
  const weaker = await client.call('PUT', '/v2/approvals/policy', { withdrawals: 'none', quorum: 1 });
  expect(weaker.status).toBe(202);
  expect(await vote(client, activityId, keys[0] as ApproverKey)).toEqual(
    voteAnswer('approve', {}, 'ACTIVITY_STATUS_CONSENSUS_NEEDED', 'pending_customer_approval'),
  );
  expect(await vote(client, weaker.body.turnkeyActivityId, keys[0] as ApproverKey)).toEqual(
    voteAnswer('approve', {}, 'ACTIVITY_STATUS_CONSENSUS_NEEDED', 'pending'),
  );
  const request = await approvalRequest(client, activityId);
  const changeRequest = await approvalRequest(client, weaker.body.turnkeyActivityId);
  return { client, keys, wallet, withdrawal, activityId, enable, setup, request, change: weaker.body, changeRequest };
}

describe('approvers, policy and audit', () => {
  it('registers keys, refuses bad and duplicate ones, sets the policy against the approver count, and audits every change', async () => {
    const owner = await Client.of(system, `org_admin_${suffix}`);
    const member = await Client.of(system, `org_admin_${suffix}`, 'member');
    const key = newKey();
    const timestampMs = String(Date.now());
    expect(await member.post('/v2/approvals/approvers', { label: 'x', publicKey: key.publicKey, timestampMs })).toEqual(
      errorOf(403, 'forbidden'),
    );
    expect(await member.get('/v2/approvals/policy')).toEqual(errorOf(403, 'forbidden'));
    expect(await owner.post('/v2/approvals/approvers', { label: 'x', publicKey: key.publicKey.slice(2), timestampMs })).toEqual(
      errorOf(400, 'validation_error'),
    );
    expect(await owner.post('/v2/approvals/approvers', { label: 'x', publicKey: `04${key.publicKey.slice(2)}`, timestampMs })).toEqual(
      errorOf(400, 'validation_error'),
    );
    expect(await owner.post('/v2/approvals/approvers', { label: 'x', publicKey: `02${'0'.repeat(63)}7`, timestampMs })).toEqual(
      errorOf(400, 'validation_error'),
    );
    const created = await postApprover(owner, { ...key, publicKey: key.publicKey.toUpperCase() }, 'Treasury key', { stampWith: key });
    expect(created).toEqual({
      status: 201,
      body: { id: expect.any(String), label: 'Treasury key', publicKey: key.publicKey, createdAt: expect.any(String) },
    });
    expect(await postApprover(owner, key, 'again')).toEqual(errorOf(409, 'approver_duplicate_key'));
    expect(await owner.get('/v2/approvals/approvers')).toEqual({ status: 200, body: { data: [created.body], nextCursor: null } });

    expect(await owner.get('/v2/approvals/policy')).toEqual({
      status: 200,
      body: { withdrawals: 'none', thresholdUsd: null, quorum: 1, updatedAt: null },
    });
    expect(await owner.call('PUT', '/v2/approvals/policy', { withdrawals: 'all', quorum: 2 })).toEqual(
      errorOf(400, 'approval_quorum_unreachable'),
    );
    expect(await owner.call('PUT', '/v2/approvals/policy', { withdrawals: 'above_threshold', quorum: 1 })).toEqual(
      errorOf(400, 'validation_error'),
    );
    expect(await owner.call('PUT', '/v2/approvals/policy', { withdrawals: 'all', quorum: 11 })).toEqual(errorOf(400, 'validation_error'));
    expect(
      await owner.call('PUT', '/v2/approvals/policy', { withdrawals: 'above_threshold', thresholdUsd: '10.1234567', quorum: 1 }),
    ).toEqual(errorOf(400, 'precision_overflow'));
    expect(await owner.call('PUT', '/v2/approvals/policy', { withdrawals: 'above_threshold', thresholdUsd: 'ten', quorum: 1 })).toEqual(
      errorOf(400, 'validation_error'),
    );
    const policy = await owner.call('PUT', '/v2/approvals/policy', { withdrawals: 'above_threshold', thresholdUsd: '100', quorum: 1 });
    expect(policy).toEqual({
      status: 200,
      body: { withdrawals: 'above_threshold', thresholdUsd: '100.000000', quorum: 1, updatedAt: expect.any(String) },
    });
    expect((await owner.get('/v2/approvals/policy')).body).toEqual(policy.body);

    const stranger = await Client.of(system, `org_stranger_${suffix}`);
    const principalId = `user_org_admin_${suffix}_owner`;
    expect(await stranger.delete(`/v2/approvals/approvers/${created.body.id}`)).toEqual(errorOf(404, 'approver_not_found'));
    // The organization has an approver: removing one waits for the approvers' quorum.
    const removal = await owner.delete(`/v2/approvals/approvers/${created.body.id}`);
    expect(removal).toEqual(pendingChange('approver.deleted', created.body, principalId));
    expect((await owner.get('/v2/approvals/approvers')).body.data).toEqual([created.body]);
    expect(await vote(owner, removal.body.turnkeyActivityId, key)).toEqual(
      voteAnswer('approve', { approved: true }, 'ACTIVITY_STATUS_COMPLETED', 'approved'),
    );
    expect(await owner.delete(`/v2/approvals/approvers/${created.body.id}`)).toEqual(errorOf(404, 'approver_not_found'));

    const audit = await owner.get('/v2/approvals/audit?limit=2');
    expect(audit.body.data).toEqual([
      {
        id: expect.any(String),
        action: 'approver.deleted',
        principalId,
        before: created.body,
        after: null,
        turnkeyActivityId: removal.body.turnkeyActivityId,
        approvedBy: [key.publicKey],
        createdAt: expect.any(String),
      },
      {
        id: expect.any(String),
        action: 'policy.updated',
        principalId,
        before: { withdrawals: 'none', thresholdUsd: null, quorum: 1, updatedAt: null },
        after: policy.body,
        turnkeyActivityId: null,
        approvedBy: null,
        createdAt: expect.any(String),
      },
    ]);
    const rest = await owner.get(`/v2/approvals/audit?cursor=${audit.body.nextCursor}`);
    expect(rest.body).toEqual({
      data: [expect.objectContaining({ action: 'approver.created', before: null, after: created.body, turnkeyActivityId: null })],
      nextCursor: null,
    });
  });

  it('parks only withdrawals the policy names: none never, above_threshold above its threshold', async () => {
    const client = await Client.of(system, `org_threshold_${suffix}`);
    const key = await registerApprover(client);
    await client.call('PUT', '/v2/approvals/policy', { withdrawals: 'above_threshold', thresholdUsd: '20.000000', quorum: 1 });
    const wallet = await client.fundedWallet('60');
    const small = await withdraw(client, wallet.id, '20');
    expect(await settled(client, wallet.id, small.body.id)).toMatchObject({ status: 'completed' });
    const large = await withdraw(client, wallet.id, '25');
    await legsIn(client, wallet.id, large.body.id, ['pending_customer_approval']);
    await client.post(`${withdrawalPath(wallet.id, large.body.id)}/cancel`, {});
    // `none` is weaker: it applies once the approver approves it.
    const weaker = await client.call('PUT', '/v2/approvals/policy', { withdrawals: 'none', quorum: 1 });
    expect(weaker.status).toBe(202);
    expect(await vote(client, weaker.body.turnkeyActivityId, key)).toEqual(
      voteAnswer('approve', { approved: true }, 'ACTIVITY_STATUS_COMPLETED', 'approved'),
    );
    const free = await withdraw(client, wallet.id, '25');
    const done = await settled(client, wallet.id, free.body.id);
    expect(done).toMatchObject({ status: 'completed' });
    expect(done.payoutLegs[0]).toMatchObject({ turnkeyActivityId: null, approvalRequestedAt: null, approvalValidBefore: null });
    expect((await client.get('/v2/turnkey/activities/pending')).body).toEqual({ activities: [] });
  });
});

describe('pending activities and votes', () => {
  it('releases a leg on one approval (quorum 1), lists it for its organization only, and announces its activity id', async () => {
    const { client, keys } = await organization('quorum1', 1, 1);
    const events = ['portfolio_wallet.withdrawal.payout.status_changed'];
    expect((await client.post('/v2/webhook-endpoints', { url: system.receiver.url, events })).status).toBe(200);
    const { wallet, withdrawal, activityId } = await parked(client, '30', '10');
    const leg = withdrawal.payoutLegs[0];
    expect(leg).toMatchObject({
      turnkeyActivityId: expect.any(String),
      approvalRequestedAt: expect.any(String),
      approvalValidBefore: expect.any(String),
    });
    expect(leg.steps.map((step: any) => step.status)).toEqual(['pending_customer_approval']);
    expect(Date.parse(leg.approvalValidBefore) - Date.parse(leg.approvalRequestedAt)).toBe(TTL_MS);
    const pending = await client.get('/v2/turnkey/activities/pending');
    expect(pending).toEqual({
      status: 200,
      body: {
        activities: [
          {
            turnkeyActivityId: activityId,
            status: 'ACTIVITY_STATUS_CONSENSUS_NEEDED',
            activityType: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2',
            activityKind: 'withdrawal_payout',
            fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
            firstSeenAt: leg.approvalRequestedAt,
            withdrawalId: withdrawal.id,
            withdrawalLegId: leg.id,
            portfolioWalletId: wallet.id,
            destinationChain: 'ethereum_sepolia',
            destinationToken: 'usdc',
            destinationAddress: EVM,
            plannedSourceNativeUnits: '10000000',
            displayAmountNativeUnits: '10000000',
            txChain: 'ethereum_sepolia',
            change: null,
          },
        ],
      },
    });
    const { fingerprint } = pending.body.activities[0];

    const stranger = await Client.of(system, `org_other_${suffix}`);
    const strangerKey = await registerApprover(stranger);
    expect((await stranger.get('/v2/turnkey/activities/pending')).body).toEqual({ activities: [] });
    expect(await stranger.post('/v2/turnkey/activity-approval-request', { activityId, action: 'approve' })).toEqual(
      errorOf(404, 'activity_not_found'),
    );
    const request = await approvalRequest(client, activityId);
    expect(await sendVote(stranger, activityId, { key: strangerKey, request })).toEqual(errorOf(404, 'activity_not_found'));
    expect(await client.post('/v2/turnkey/activity-approval-request', { activityId: randomUUID(), action: 'approve' })).toEqual(
      errorOf(404, 'activity_not_found'),
    );

    expect(request).toEqual({
      activityId,
      action: 'approve',
      turnkeyRequest: {
        type: 'ACTIVITY_TYPE_APPROVE_ACTIVITY',
        timestampMs: expect.stringMatching(/^\d{13}$/),
        organizationId: `org_quorum1_${suffix}`,
        parameters: { fingerprint },
      },
      stampPayload: JSON.stringify(request.turnkeyRequest),
    });
    const member = await Client.of(system, `org_quorum1_${suffix}`, 'member');
    expect(await sendVote(member, activityId, { key: keys[0] as ApproverKey, request, stampAs: 'string' })).toEqual(
      voteAnswer('approve', { approved: true }, 'ACTIVITY_STATUS_COMPLETED', 'pending_broadcast'),
    );
    expect(await sendVote(client, activityId, { key: keys[0] as ApproverKey, request })).toEqual(
      voteAnswer(
        'approve',
        { approved: true, alreadyCompleted: true, alreadyTerminal: true },
        'ACTIVITY_STATUS_COMPLETED',
        expect.any(String),
      ),
    );
    const done = await settled(client, wallet.id, withdrawal.id);
    expect(done).toMatchObject({ status: 'completed', amountPaidUsd: '9.500000' });
    expect(done.payoutLegs[0]).toMatchObject({
      status: 'completed',
      turnkeyActivityId: null,
      approvalRequestedAt: null,
      approvalValidBefore: null,
    });
    expect((await client.get('/v2/turnkey/activities/pending')).body).toEqual({ activities: [] });
    expect(await balanceOf(client, wallet.id)).toMatchObject({ totalUsd: '20.000000', reservedUsd: '0.000000' });

    const legEvents = (await eventsOf(system, wallet.id)).filter(
      (event) => event.type === 'portfolio_wallet.withdrawal.payout.status_changed',
    );
    const parkedEvent = legEvents.find((event) => event.payload.payoutLeg.status === 'pending_customer_approval');
    expect(parkedEvent?.payload).toMatchObject({
      turnkeyActivityId: activityId,
      payoutLeg: { turnkeyActivityId: activityId, approvalValidBefore: leg.approvalValidBefore },
    });
    expect(legEvents.at(-1)?.payload).toMatchObject({
      turnkeyActivityId: activityId,
      payoutLeg: { status: 'completed', turnkeyActivityId: null },
    });
    // Delivered to the receiver as written: the parked leg's webhook names the activity to vote on.
    const delivered = async (status: string) => {
      for (let tries = 0; tries < 200; tries += 1) {
        const body = system.receiver.bodies.find((candidate) => candidate.walletId === wallet.id && candidate.payoutLeg?.status === status);
        if (body) return body;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error(`no ${status} payout webhook delivered`);
    };
    expect(await delivered('pending_customer_approval')).toEqual({
      event: 'portfolio_wallet.withdrawal.payout.status_changed',
      observedAt: expect.any(String),
      walletId: wallet.id,
      withdrawalId: withdrawal.id,
      turnkeyActivityId: activityId,
      payoutLeg: expect.objectContaining({
        id: leg.id,
        turnkeyActivityId: activityId,
        approvalRequestedAt: leg.approvalRequestedAt,
        approvalValidBefore: leg.approvalValidBefore,
      }),
    });
    expect(await delivered('completed')).toMatchObject({ turnkeyActivityId: activityId, payoutLeg: { turnkeyActivityId: null } });
  });

  it('needs two distinct approvers of three and counts only valid, fresh, matching stamps of current approvers', async () => {
    const { client, keys } = await organization('quorum2', 3, 2);
    const [first, second, third] = keys as [ApproverKey, ApproverKey, ApproverKey];
    const { wallet, withdrawal, activityId } = await parked(client, '30', '10');
    const other = await parked(client, '30', '5');
    const request = await approvalRequest(client, activityId);

    expect(await sendVote(client, activityId, { key: newKey(), request })).toEqual(errorOf(403, 'approver_not_authorized'));
    const changed = {
      ...request,
      turnkeyRequest: { ...request.turnkeyRequest, timestampMs: String(Number(request.turnkeyRequest.timestampMs) + 1) },
    };
    expect(await sendVote(client, activityId, { key: first, request: changed, payload: request.stampPayload })).toEqual(
      errorOf(401, 'invalid_stamp'),
    );
    const stale = { ...request, turnkeyRequest: { ...request.turnkeyRequest, timestampMs: String(Date.now() - 6 * 60_000) } };
    expect(await sendVote(client, activityId, { key: first, request: stale })).toEqual(errorOf(401, 'stale_stamp'));
    expect(await sendVote(client, other.activityId, { key: first, request })).toEqual(errorOf(403, 'approval_request_mismatch'));
    expect(await sendVote(client, activityId, { key: first, request, action: 'reject' })).toEqual(
      errorOf(403, 'approval_request_mismatch'),
    );
    expect(
      await client.post(`/v2/turnkey/activities/${activityId}/vote`, {
        action: 'approve',
        customerApprovalStamp: 'bm90IGEgc3RhbXA',
        turnkeyRequest: request.turnkeyRequest,
      }),
    ).toEqual(errorOf(401, 'invalid_stamp'));
    expect(
      await client.post(`/v2/turnkey/activities/${activityId}/vote`, { action: 'approve', turnkeyRequest: request.turnkeyRequest }),
    ).toEqual(errorOf(400, 'validation_error'));

    expect(await vote(client, activityId, first)).toEqual(
      voteAnswer('approve', {}, 'ACTIVITY_STATUS_CONSENSUS_NEEDED', 'pending_customer_approval'),
    );
    expect(await vote(client, activityId, first)).toEqual(errorOf(409, 'approval_already_voted'));
    // Deleted (once the quorum approves): its later stamps do not count, its vote already cast does.
    const removal = await client.delete(`/v2/approvals/approvers/${first.id}`);
    expect(removal.status).toBe(202);
    await vote(client, removal.body.turnkeyActivityId, second);
    expect(await vote(client, removal.body.turnkeyActivityId, third)).toEqual(
      voteAnswer('approve', { approved: true }, 'ACTIVITY_STATUS_COMPLETED', 'approved'),
    );
    expect(await vote(client, other.activityId, first)).toEqual(errorOf(403, 'approver_not_authorized'));
    expect((await client.get(withdrawalPath(wallet.id, withdrawal.id))).body.payoutLegs[0].status).toBe('pending_customer_approval');
    expect(await vote(client, activityId, second)).toEqual(
      voteAnswer('approve', { approved: true }, 'ACTIVITY_STATUS_COMPLETED', 'pending_broadcast'),
    );
    expect(await settled(client, wallet.id, withdrawal.id)).toMatchObject({ status: 'completed', amountPaidUsd: '9.500000' });

    expect(await vote(client, other.activityId, second)).toEqual(
      voteAnswer('approve', {}, 'ACTIVITY_STATUS_CONSENSUS_NEEDED', 'pending_customer_approval'),
    );
    expect(await vote(client, other.activityId, third)).toEqual(
      voteAnswer('approve', { approved: true }, 'ACTIVITY_STATUS_COMPLETED', 'pending_broadcast'),
    );
    expect(await settled(client, other.wallet.id, other.withdrawal.id)).toMatchObject({ status: 'completed', amountPaidUsd: '4.500000' });
  });

  it('cancels the leg on one valid reject and keeps every dollar in the wallet', async () => {
    const { client, keys } = await organization('reject', 2, 2);
    const { wallet, withdrawal, activityId } = await parked(client, '30', '10');
    expect(await vote(client, activityId, keys[0] as ApproverKey, 'reject')).toEqual(
      voteAnswer('reject', { rejected: true }, 'ACTIVITY_STATUS_REJECTED', 'cancelled'),
    );
    expect(await vote(client, activityId, keys[1] as ApproverKey)).toEqual(
      voteAnswer('approve', { rejected: true, alreadyTerminal: true }, 'ACTIVITY_STATUS_REJECTED', 'cancelled'),
    );
    const done = await settled(client, wallet.id, withdrawal.id);
    expect(done).toMatchObject({ status: 'cancelled', amountPaidUsd: null, legsCompleted: 0 });
    expect(done.payoutLegs[0].status).toBe('cancelled');
    expect(await balanceOf(client, wallet.id)).toMatchObject({
      totalUsd: '30.000000',
      withdrawableUsd: '30.000000',
      reservedUsd: '0.000000',
    });
  });

  it('queues a second withdrawal on the same wallet and chain behind the outstanding approval', async () => {
    const { client, keys } = await organization('queue', 1, 1);
    const { wallet, withdrawal, activityId } = await parked(client, '40', '10');
    const second = await withdraw(client, wallet.id, '5');
    const waiting = await legsIn(client, wallet.id, second.body.id, ['waiting_for_prior_approval']);
    expect(waiting.payoutLegs[0]).toMatchObject({ turnkeyActivityId: null, approvalValidBefore: null });
    expect((await client.get('/v2/turnkey/activities/pending')).body.activities.map((activity: any) => activity.turnkeyActivityId)).toEqual(
      [activityId],
    );
    await vote(client, activityId, keys[0] as ApproverKey);
    await settled(client, wallet.id, withdrawal.id);
    const next = await legsIn(client, wallet.id, second.body.id, ['pending_customer_approval']);
    const nextActivity = next.payoutLegs[0].turnkeyActivityId;
    expect(nextActivity).not.toBe(activityId);
    expect(await vote(client, nextActivity, keys[0] as ApproverKey)).toEqual(
      voteAnswer('approve', { approved: true }, 'ACTIVITY_STATUS_COMPLETED', 'pending_broadcast'),
    );
    expect(await settled(client, wallet.id, second.body.id)).toMatchObject({ status: 'completed' });
    expect(await balanceOf(client, wallet.id)).toMatchObject({ totalUsd: '25.000000', reservedUsd: '0.000000' });
  });

  it('fails a leg (and a Stellar setup) whose deadline passes without quorum and gives its money back', async () => {
    const { client, keys, wallet, withdrawal, activityId, enable, setup, request, change, changeRequest } = await deadline;
    const done = await settled(client, wallet.id, withdrawal.id);
    expect(done).toMatchObject({
      status: 'failed',
      amountPaidUsd: null,
      failureReason: expect.stringContaining('Customer approval expired without quorum'),
    });
    expect(done.payoutLegs[0]).toMatchObject({ status: 'failed', turnkeyActivityId: null });
    expect(await sendVote(client, activityId, { key: keys[1] as ApproverKey, request })).toEqual(errorOf(409, 'approval_expired'));
    expect(await balanceOf(client, wallet.id)).toMatchObject({
      totalUsd: '30.000000',
      withdrawableUsd: '30.000000',
      reservedUsd: '0.000000',
    });
    const setupEvents = async () =>
      (await eventsOf(system, wallet.id))
        .filter((event) => event.type === 'portfolio_wallet.approval.status_changed')
        .map((event) => event.payload.approval.status);
    for (let tries = 0; tries < 100 && (await setupEvents()).length < 2; tries += 1)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await setupEvents()).toEqual(['pending', 'failed']);
    // The weaker policy lapsed too: it failed, the policy in force stayed. The worker fails it in a
    // step of its own, so the pending list is read only once its events are out.
    const changeEvents = async () => (await changeEventsOf(`org_deadline_${suffix}`)).filter((event) => event.approval.id === change.id);
    for (let tries = 0; tries < 100 && (await changeEvents()).length < 2; tries += 1)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await changeEvents()).map((event) => [event.approval.id, event.approval.status])).toEqual([
      [change.id, 'pending'],
      [change.id, 'failed'],
    ]);
    expect((await client.get('/v2/turnkey/activities/pending')).body).toEqual({ activities: [] });
    expect(await sendVote(client, change.turnkeyActivityId, { key: keys[1] as ApproverKey, request: changeRequest })).toEqual(
      errorOf(409, 'approval_expired'),
    );
    expect((await client.get('/v2/approvals/policy')).body).toMatchObject({ withdrawals: 'all', quorum: 2 });
    const again = (await enable()).body.approval;
    expect(again).toMatchObject({ id: setup.id, status: 'pending' });
    expect(again.turnkeyActivityId).not.toBe(setup.turnkeyActivityId);
  }, 30_000);

  it('answers the old role-based approve route with 410 naming the new flow', async () => {
    const owner = await Client.of(system, `org_gone_${suffix}`);
    const reply = await owner.post(`/v2/wallets/${randomUUID()}/withdrawals/${randomUUID()}/payouts/0/approve`, {});
    expect(reply).toEqual(errorOf(410, 'approval_flow_changed'));
    expect(reply.body.error).toContain('/v2/turnkey/activities/{activityId}/vote');
  });
});

describe('Stellar deposit-address setup', () => {
  it('is a pending activity of the same approvers: a reject refuses it, enabling again asks again, quorum approves it', async () => {
    const { client, keys } = await organization('stellar', 2, 2);
    const [first, second] = keys as [ApproverKey, ApproverKey];
    const wallet = await client.idleWallet();
    const enable = () => client.post(`/v2/wallets/${wallet.id}/deposit-addresses/stellar_testnet/enable`, {});
    const started = await enable();
    expect(started.body).toMatchObject({
      chain: 'stellar_testnet',
      address: null,
      approval: { status: 'pending', turnkeyActivityId: expect.any(String) },
    });
    const firstActivity = started.body.approval.turnkeyActivityId;
    expect((await enable()).body).toEqual(started.body);
    const pending = (await client.get('/v2/turnkey/activities/pending')).body.activities;
    expect(pending).toEqual([
      expect.objectContaining({
        turnkeyActivityId: firstActivity,
        activityKind: 'deposit_address_setup',
        withdrawalId: null,
        withdrawalLegId: null,
        portfolioWalletId: wallet.id,
        destinationChain: 'stellar_testnet',
        destinationAddress: expect.stringMatching(/^G[A-Z2-7]{55}$/),
        plannedSourceNativeUnits: null,
        txChain: 'stellar_testnet',
      }),
    ]);
    expect(await vote(client, firstActivity, first, 'reject')).toEqual(
      voteAnswer('reject', { rejected: true }, 'ACTIVITY_STATUS_REJECTED', 'rejected'),
    );
    expect((await client.get(`/v2/wallets/${wallet.id}`)).body.depositAddresses.stellar_testnet).toBeUndefined();

    const retried = await enable();
    expect(retried.body.approval).toMatchObject({ id: started.body.approval.id, status: 'pending' });
    const secondActivity = retried.body.approval.turnkeyActivityId;
    expect(secondActivity).not.toBe(firstActivity);
    expect(await vote(client, secondActivity, first)).toEqual(voteAnswer('approve', {}, 'ACTIVITY_STATUS_CONSENSUS_NEEDED', 'pending'));
    expect(await vote(client, secondActivity, second)).toEqual(
      voteAnswer('approve', { approved: true }, 'ACTIVITY_STATUS_COMPLETED', 'approved'),
    );
    const enabled = (await client.get(`/v2/wallets/${wallet.id}`)).body;
    expect(enabled.depositAddresses.stellar_testnet).toBe(pending[0].destinationAddress);
    expect((await enable()).body).toMatchObject({
      address: pending[0].destinationAddress,
      approval: { status: 'approved', turnkeyActivityId: secondActivity },
    });
    const events = (await eventsOf(system, wallet.id)).filter((event) => event.type === 'portfolio_wallet.approval.status_changed');
    expect(events.map((event) => [event.payload.approval.status, event.payload.approval.turnkeyActivityId])).toEqual([
      ['pending', firstActivity],
      ['rejected', firstActivity],
      ['pending', secondActivity],
      ['approved', secondActivity],
    ]);
  });

  it('answers 409 naming what to configure when the organization has no approvers', async () => {
    const client = await Client.of(system, `org_no_approvers_${suffix}`);
    const wallet = await client.idleWallet();
    const reply = await client.post(`/v2/wallets/${wallet.id}/deposit-addresses/stellar_testnet/enable`, {});
    expect(reply).toEqual(errorOf(409, 'approvers_required'));
    expect(reply.body.error).toContain('POST /v2/approvals/approvers');
  });
});

describe('OpenAPI', () => {
  it('describes every approval route with its body, answer, error statuses and roles', async () => {
    const document = (await (await fetch(`${system.url}/v2/openapi.json`)).json()) as any;
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    const ownersAndAdmins = ['owner', 'admin'];
    const everyRole = ['owner', 'admin', 'member'];
    const routes: [string, string, string | null, string, string, string[], string[]][] = [
      ['post', '/v2/approvals/approvers', 'CreateApproverDto', '201', 'ApproverDto', ownersAndAdmins, ['400', '403', '409']],
      ['get', '/v2/approvals/approvers', null, '200', 'ApproverListDto', ownersAndAdmins, ['400', '403']],
      ['delete', '/v2/approvals/approvers/{approverId}', null, '200', 'ApproverDeletedDto', ownersAndAdmins, ['403', '404']],
      ['get', '/v2/approvals/policy', null, '200', 'ApprovalPolicyDto', ownersAndAdmins, ['403']],
      ['put', '/v2/approvals/policy', 'PutApprovalPolicyDto', '200', 'ApprovalPolicyDto', ownersAndAdmins, ['400', '403']],
      ['get', '/v2/approvals/audit', null, '200', 'ApprovalAuditListDto', ownersAndAdmins, ['400', '403']],
      ['get', '/v2/turnkey/activities/pending', null, '200', 'PendingActivitiesDto', everyRole, []],
      [
        'post',
        '/v2/turnkey/activity-approval-request',
        'ApprovalRequestDto',
        '200',
        'ApprovalRequestResponseDto',
        everyRole,
        ['400', '404'],
      ],
      ['post', '/v2/turnkey/activities/{activityId}/vote', 'VoteDto', '200', 'VoteResponseDto', everyRole, ['400', '403', '404', '409']],
    ];
    for (const [method, path, body, status, answer, roles, errors] of routes) {
      const operation = document.paths[path]?.[method];
      expect(operation).toBeDefined();
      if (body) expect(operation.requestBody.content['application/json'].schema).toEqual(ref(body));
      expect(operation.responses[status].content['application/json'].schema).toEqual(ref(answer));
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining([...errors, '401', '429', '503']));
      expect(operation['x-required-roles']).toEqual(roles);
    }
    const schemas = document.components.schemas;
    expect(Object.keys(schemas.PendingActivityDto.properties).sort()).toEqual(
      [
        'turnkeyActivityId',
        'status',
        'activityType',
        'activityKind',
        'fingerprint',
        'firstSeenAt',
        'withdrawalId',
        'withdrawalLegId',
        'portfolioWalletId',
        'destinationChain',
        'destinationToken',
        'destinationAddress',
        'plannedSourceNativeUnits',
        'displayAmountNativeUnits',
        'txChain',
        'change',
      ].sort(),
    );
    const governed: [string, string][] = [
      ['post', '/v2/approvals/approvers'],
      ['delete', '/v2/approvals/approvers/{approverId}'],
      ['put', '/v2/approvals/policy'],
      ['post', '/v2/address-book/entries'],
      ['delete', '/v2/address-book/entries/{entryId}'],
    ];
    for (const [method, path] of governed)
      expect(document.paths[path][method].responses['202'].content['application/json'].schema).toEqual(ref('ApprovalChangeDto'));
    expect(document.paths['/v2/approvals/approvers'].post.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'X-Stamp', in: 'header', required: true })]),
    );
    expect(schemas.CreateApproverDto.required).toEqual(expect.arrayContaining(['label', 'publicKey', 'timestampMs']));
    expect(Object.keys(schemas.VoteResponseDto.properties).sort()).toEqual([
      'action',
      'alreadyCompleted',
      'alreadyTerminal',
      'approved',
      'rejected',
      'resultStatus',
      'status',
    ]);
    expect(schemas.VoteDto.properties.customerApprovalStamp.oneOf).toEqual([
      expect.objectContaining({ type: 'string' }),
      ref('StampHeaderDto'),
    ]);
    expect(schemas.PayoutLegDto.properties).toMatchObject({
      turnkeyActivityId: { nullable: true },
      approvalRequestedAt: { nullable: true },
      approvalValidBefore: { nullable: true },
    });
    const gone = document.paths['/v2/wallets/{id}/withdrawals/{withdrawalId}/payouts/{legIndex}/approve'].post;
    expect(gone).toMatchObject({ deprecated: true, responses: { '410': expect.anything() } });
  });
});

/**
 * What one owner or admin credential could do alone before approvals guarded themselves: each
 * attack released money or lowered the protection at once; now each waits for the current
 * approvers' stamped quorum, listed and announced.
 */
describe('a stolen owner or admin credential', () => {
  const adminOf = (org: string) => Client.of(system, org, 'admin');

  it('cannot register a key it holds and vote with it: the key waits for the quorum, and counts only once approved', async () => {
    const { client, keys } = await organization('attack_key', 1, 1);
    const org = `org_attack_key_${suffix}`;
    const admin = await adminOf(org);
    expect(
      (await client.post('/v2/webhooks', { url: system.receiver.url, events: ['portfolio_wallet.approval.status_changed'] })).status,
    ).toBe(200);
    const { wallet, withdrawal, activityId } = await parked(client, '30', '10');
    const stolen = newKey();
    const registered = await postApprover(admin, stolen, 'attacker');
    expect(registered).toEqual(pendingChange('approver.created', { label: 'attacker', publicKey: stolen.publicKey }, `user_${org}_admin`));
    const changeActivity = registered.body.turnkeyActivityId;
    // Not an approver yet: its vote on the parked withdrawal does not count.
    expect(await vote(admin, activityId, stolen)).toEqual(errorOf(403, 'approver_not_authorized'));
    expect(await vote(admin, changeActivity, stolen)).toEqual(errorOf(403, 'approver_not_authorized'));
    expect((await client.get('/v2/approvals/approvers')).body.data.map((approver: any) => approver.publicKey)).toEqual([
      keys[0]?.publicKey,
    ]);
    expect((await client.get(withdrawalPath(wallet.id, withdrawal.id))).body.payoutLegs[0].status).toBe('pending_customer_approval');
    // Listed for the approvers with what they approve, without a wallet.
    const pending = (await client.get('/v2/turnkey/activities/pending')).body.activities;
    expect(pending.find((activity: any) => activity.turnkeyActivityId === changeActivity)).toEqual(
      expect.objectContaining({
        activityKind: 'approver_change',
        portfolioWalletId: null,
        withdrawalId: null,
        txChain: null,
        change: expect.objectContaining({
          id: registered.body.id,
          kind: 'approver.created',
          change: expect.objectContaining({ publicKey: stolen.publicKey }),
        }),
      }),
    );
    // The approver's quorum approves it: now it counts.
    expect(await vote(client, changeActivity, keys[0] as ApproverKey)).toEqual(
      voteAnswer('approve', { approved: true }, 'ACTIVITY_STATUS_COMPLETED', 'approved'),
    );
    expect(await vote(admin, activityId, stolen)).toEqual(
      voteAnswer('approve', { approved: true }, 'ACTIVITY_STATUS_COMPLETED', 'pending_broadcast'),
    );
    const ours = (await changeEventsOf(org)).filter((event) => event.approval.id === registered.body.id);
    expect(ours.map((event) => [event.walletId, event.approval.kind, event.approval.chain, event.approval.status])).toEqual([
      [null, 'approver.created', null, 'pending'],
      [null, 'approver.created', null, 'approved'],
    ]);
    const delivered = async () => {
      for (let tries = 0; tries < 200; tries += 1) {
        const bodies = system.receiver.bodies.filter((body) => body.approval?.id === registered.body.id);
        if (bodies.length >= 2) return bodies;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error('no approval.status_changed webhooks delivered for the change');
    };
    expect((await delivered()).map((body) => [body.event, body.walletId, body.approval.status])).toEqual([
      ['portfolio_wallet.approval.status_changed', null, 'pending'],
      ['portfolio_wallet.approval.status_changed', null, 'approved'],
    ]);
    const audit = (await client.get('/v2/approvals/audit?limit=1')).body.data[0];
    expect(audit).toMatchObject({
      action: 'approver.created',
      principalId: `user_${org}_admin`,
      turnkeyActivityId: changeActivity,
      approvedBy: [keys[0]?.publicKey],
    });
  });

  it('cannot set the policy to none or lower the quorum: the change waits and withdrawals still wait for approval', async () => {
    const { client, keys } = await organization('attack_policy', 2, 2);
    const admin = await adminOf(`org_attack_policy_${suffix}`);
    const none = await admin.call('PUT', '/v2/approvals/policy', { withdrawals: 'none', quorum: 2 });
    expect(none).toEqual(pendingChange('policy.updated', { withdrawals: 'none', quorum: 2 }, `user_org_attack_policy_${suffix}_admin`));
    expect(none.body.before).toEqual({ withdrawals: 'all', thresholdUsd: null, quorum: 2, updatedAt: expect.any(String) });
    const lower = await admin.call('PUT', '/v2/approvals/policy', { withdrawals: 'all', quorum: 1 });
    expect(lower.status).toBe(202);
    expect((await client.get('/v2/approvals/policy')).body).toMatchObject({ withdrawals: 'all', quorum: 2 });
    // Still parked, and one vote does not release it.
    const { activityId } = await parked(client, '30', '10');
    expect(await vote(client, activityId, keys[0] as ApproverKey)).toEqual(
      voteAnswer('approve', {}, 'ACTIVITY_STATUS_CONSENSUS_NEEDED', 'pending_customer_approval'),
    );
    // The current quorum (two) decides the lower quorum too.
    expect(await vote(client, lower.body.turnkeyActivityId, keys[0] as ApproverKey)).toEqual(
      voteAnswer('approve', {}, 'ACTIVITY_STATUS_CONSENSUS_NEEDED', 'pending'),
    );
    // A stricter policy applies at once.
    expect((await admin.call('PUT', '/v2/approvals/policy', { withdrawals: 'all', quorum: 2 })).status).toBe(200);
  });

  it('cannot whitelist an address and withdraw to it: the entry waits, and the withdrawal is refused until it is approved', async () => {
    const client = await Client.of(system, WHITELIST_ORG);
    const [key] = (await registerApprovers(client, 1)) as [ApproverKey];
    const admin = await adminOf(WHITELIST_ORG);
    const wallet = await client.fundedWallet('30');
    const send = () => withdraw(admin, wallet.id, '10');
    const added = await admin.post('/v2/address-book/entries', { address: EVM, chain: 'ethereum_sepolia', label: 'attacker' });
    expect(added).toEqual(
      pendingChange('address_book.created', { chain: 'ethereum_sepolia', address: EVM, label: 'attacker' }, `user_${WHITELIST_ORG}_admin`),
    );
    expect((await client.get('/v2/address-book/entries')).body.data).toEqual([]);
    expect(await send()).toEqual(errorOf(403, 'address_book_whitelist_violation'));
    const pending = (await client.get('/v2/turnkey/activities/pending')).body.activities;
    expect(pending).toEqual([
      expect.objectContaining({ activityKind: 'address_book_change', destinationChain: 'ethereum_sepolia', destinationAddress: EVM }),
    ]);
    expect(await vote(client, added.body.turnkeyActivityId, key)).toEqual(
      voteAnswer('approve', { approved: true }, 'ACTIVITY_STATUS_COMPLETED', 'approved'),
    );
    expect((await client.get('/v2/address-book/entries')).body.data).toEqual([
      expect.objectContaining({ id: added.body.change.id, address: EVM }),
    ]);
    expect((await send()).status).toBe(200);
    // Removing it waits as well.
    const removed = await admin.delete(`/v2/address-book/entries/${added.body.change.id}`);
    expect(removed).toEqual(pendingChange('address_book.deleted', { id: added.body.change.id }, `user_${WHITELIST_ORG}_admin`));
  });

  it('cannot remove an approver: the removal waits, and one approver’s reject refuses it', async () => {
    const { client, keys } = await organization('attack_remove', 2, 2);
    const [first, second] = keys as [ApproverKey, ApproverKey];
    const admin = await adminOf(`org_attack_remove_${suffix}`);
    const removal = await admin.delete(`/v2/approvals/approvers/${second.id}`);
    expect(removal).toEqual(
      pendingChange('approver.deleted', { id: second.id, publicKey: second.publicKey }, `user_org_attack_remove_${suffix}_admin`),
    );
    expect((await client.get('/v2/approvals/approvers')).body.data).toHaveLength(2);
    expect(await vote(client, removal.body.turnkeyActivityId, first)).toEqual(
      voteAnswer('approve', {}, 'ACTIVITY_STATUS_CONSENSUS_NEEDED', 'pending'),
    );
    expect(await vote(client, removal.body.turnkeyActivityId, second, 'reject')).toEqual(
      voteAnswer('reject', { rejected: true }, 'ACTIVITY_STATUS_REJECTED', 'rejected'),
    );
    expect((await client.get('/v2/approvals/approvers')).body.data).toHaveLength(2);
    expect((await client.get('/v2/turnkey/activities/pending')).body).toEqual({ activities: [] });
    const ours = (await changeEventsOf(`org_attack_remove_${suffix}`)).filter((event) => event.approval.id === removal.body.id);
    expect(ours.map((event) => event.approval.status)).toEqual(['pending', 'rejected']);
  });

  it('cannot register a key without proving possession of it', async () => {
    const owner = await Client.of(system, `org_possession_${suffix}`);
    const key = newKey();
    expect(await postApprover(owner, key, 'k', { stampWith: null })).toEqual(errorOf(400, 'approver_stamp_required'));
    expect(await postApprover(owner, key, 'k', { stampWith: newKey() })).toEqual(errorOf(400, 'invalid_approver_stamp'));
    expect(await postApprover(owner, key, 'k', { timestampMs: String(Date.now() - 6 * 60_000) })).toEqual(
      errorOf(400, 'invalid_approver_stamp'),
    );
    // A stamp over another body (the same fields, another label) does not verify over this one.
    const body = JSON.stringify({ label: 'k', publicKey: key.publicKey, timestampMs: String(Date.now()) });
    const stamp = (await key.stamper.stamp(body.replace('"k"', '"other"'))).stampHeaderValue;
    const replayed = await owner.sdk.core.send('POST', '/v2/approvals/approvers', { rawBody: body, headers: { 'X-Stamp': stamp } });
    expect({ status: replayed.status, body: replayed.body }).toEqual(errorOf(400, 'invalid_approver_stamp'));
    expect((await owner.get('/v2/approvals/approvers')).body.data).toEqual([]);
    expect(await postApprover(owner, key, 'k')).toEqual({
      status: 201,
      body: { id: expect.any(String), label: 'k', publicKey: key.publicKey, createdAt: expect.any(String) },
    });
  });
});
