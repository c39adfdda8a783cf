/* eslint-disable @typescript-eslint/no-explicit-any -- HTTP bodies are checked against the shapes below, not by types */
// A client written against the real API's published shapes (issue 14) runs its whole wallet flow,
// catalogue to address book, and every response must satisfy those shapes: exact types, numbers as
// JSON numbers where the real API sends numbers, and only the status values real clients accept.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { newKey, postApprover } from './approvals-support.js';
import { Client, startWalletSystem, type WalletSystem } from './wallet-system.js';

/** A field's published type: a primitive, a nullable one, an enum, an object shape or a list of one. */
type Shape =
  | 'string'
  | 'string?'
  | 'number'
  | 'number?'
  | 'integer'
  | 'integer?'
  | 'boolean'
  | 'uuid'
  | 'uuid?'
  | 'usd'
  | 'usd?'
  | 'time'
  | 'time?'
  | readonly string[]
  | { [field: string]: Shape }
  | [Shape];

const USD = /^-?\d+\.\d{6}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const DURATION = /^P(\d+D|T(\d+H)?(\d+M)?(\d+S)?)$/;

/** Every way `value` breaks `shape` at `path` (empty when it conforms). */
function violations(value: unknown, shape: Shape, path = '$'): string[] {
  if (Array.isArray(shape) && shape.length === 1 && typeof shape[0] !== 'string') {
    if (!Array.isArray(value)) return [`${path}: not an array`];
    return value.flatMap((item, index) => violations(item, shape[0] as Shape, `${path}[${index}]`));
  }
  if (Array.isArray(shape))
    return (shape as readonly string[]).includes(value as string)
      ? []
      : [`${path}: ${JSON.stringify(value)} is not one of ${shape.join(', ')}`];
  if (typeof shape === 'object') {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${path}: not an object`];
    return Object.entries(shape).flatMap(([field, inner]) =>
      field in value ? violations((value as Record<string, unknown>)[field], inner, `${path}.${field}`) : [`${path}.${field}: missing`],
    );
  }
  const nullable = shape.endsWith('?');
  if (nullable && value === null) return [];
  const base = shape.replace('?', '');
  const ok =
    (base === 'string' && typeof value === 'string') ||
    (base === 'number' && typeof value === 'number' && Number.isFinite(value)) ||
    (base === 'integer' && Number.isInteger(value)) ||
    (base === 'boolean' && typeof value === 'boolean') ||
    (base === 'uuid' && typeof value === 'string' && UUID.test(value)) ||
    (base === 'usd' && typeof value === 'string' && USD.test(value)) ||
    (base === 'time' && typeof value === 'string' && TIME.test(value));
  return ok ? [] : [`${path}: ${JSON.stringify(value)} is not ${shape}`];
}

const page = (item: Shape): Shape => ({ data: [item], nextCursor: 'string?' });
const policy: Shape = { processingTimeBasis: ['elapsed_seconds', 'banking_days'], typicalMinUnits: 'number', typicalMaxUnits: 'number' };
const YIELD_SOURCE: Shape = {
  id: 'string',
  name: 'string',
  mode: ['active', 'buy_only', 'sell_only', 'emergency_freeze'],
  chain: 'string',
  depositToken: ['usdc', 'usdt'],
  allocationGroup: ['usdc', 'usdt', 'usdt:tron'],
  protocol: 'string',
  apyBps: 'integer?',
  processingPolicies: { deposit: policy, redeem: policy },
  tvlUsd: 'number?',
  utilizationPct: 'number?',
  description: 'string',
  allocations: [{ label: 'string', type: 'string', valueUsd: 'number', pct: 'number' }],
};
const POSITION: Shape = {
  id: 'string',
  kind: ['cash', 'yield_source'],
  label: 'string',
  valueUsd: 'usd',
  pct: 'integer',
  yieldSourceId: 'string?',
  token: ['usdc', 'usdt'],
};
const WALLET: Shape = {
  id: 'uuid',
  label: 'string?',
  status: ['creating', 'idle', 'withdrawal_active', 'rebalance_active', 'withdrawal_and_rebalance_active', 'failed'],
  failureReason: 'string?',
  autoRebalance: 'boolean',
  strategy: { allocations: { usdc: [{ yieldSourceId: 'string', pct: 'number' }] } },
  balance: { totalUsd: 'usd', withdrawableUsd: 'usd', reservedUsd: 'usd', earnedUsd: 'usd' },
  positions: [POSITION],
  createdAt: 'time',
  updatedAt: 'time',
};
const DEPOSIT: Shape = {
  id: 'uuid',
  amount: 'usd',
  token: ['usdc', 'usdt'],
  chain: 'string',
  fromAddress: 'string?',
  txHash: 'string?',
  status: ['processing', 'completed', 'failed'],
  createdAt: 'time',
  completedAt: 'time?',
};
const STEP: Shape = { label: 'string', status: 'string', txHash: 'string?', txStatus: 'string?' };
const REF: Shape = { kind: ['cash', 'yield_source', 'external_payout'], id: 'string', label: 'string' };
const LEG: Shape = {
  id: 'uuid',
  status: 'string',
  amountUsd: 'usd',
  from: REF,
  to: REF,
  startedAt: 'time',
  completedAt: 'time?',
  stepsCompleted: 'integer',
  stepsTotal: 'integer',
  steps: [STEP],
  // The customer-approval activity and its deadline while `pending_customer_approval`, else null (issue 15).
  turnkeyActivityId: 'uuid?',
  approvalRequestedAt: 'time?',
  approvalValidBefore: 'time?',
};
const WITHDRAWAL: Shape = {
  id: 'uuid',
  amountRequestedUsd: 'usd',
  amountPaidUsd: 'usd?',
  feeUsd: 'usd',
  destinationChain: 'string',
  destinationAddress: 'string',
  destinationToken: ['usdc', 'usdt'],
  // Real clients reject `created`.
  status: ['processing', 'completed', 'partially_completed', 'failed', 'cancelled'],
  legsCompleted: 'integer',
  legsTotal: 'integer',
  payoutLegs: [LEG],
  failureReason: 'string?',
  createdAt: 'time',
  completedAt: 'time?',
};
const PREVIEW: Shape = {
  amountRequestedUsd: 'usd?',
  feeUsd: 'usd',
  withdrawableUsd: 'usd',
  totalUsdAfterWithdrawal: 'usd',
  processingEstimate: { basis: ['elapsed_seconds', 'banking_days'], typicalMinDuration: 'string', typicalMaxDuration: 'string' },
};
const YIELD: Shape = {
  walletId: 'uuid',
  currentBalanceUsd: 'usd',
  earnedUsd: 'usd',
  annualizedUsd: 'usd',
  positions: [{ yieldSourceId: 'string', name: 'string', apyBps: 'integer', pct: 'integer', deployedValueUsd: 'usd' }],
};
const ALLOCATION: Shape = {
  rebalanceId: 'uuid',
  requestId: 'uuid',
  status: ['created', 'processing', 'completed', 'failed', 'cancelled'],
  createdAt: 'time',
  allocations: [{ from: 'string', to: 'string', amountUsd: 'usd' }],
};
const ENTRY: Shape = { id: 'uuid', address: 'string', chain: 'string', label: 'string', createdAt: 'time' };
const INSUFFICIENT: Shape = {
  error: 'string',
  code: ['insufficient_funds'],
  balance: { totalUsd: 'usd', withdrawableUsd: 'usd', reservedUsd: 'usd' },
};

let system: WalletSystem;
let client: Client;

beforeAll(async () => {
  system = await startWalletSystem();
  client = await Client.of(system, `org_client_${randomUUID().slice(0, 8)}`);
}, 90_000);

afterAll(async () => {
  await system?.stop();
}, 60_000);

/** A call as the client makes it: the expected status, and the body must satisfy the published shape. */
/** A change to approvers, policy or address book waiting for the approvers (a governed route's 202). */
const CHANGE: Shape = {
  id: 'uuid',
  kind: ['approver.created', 'approver.deleted', 'policy.updated', 'address_book.created', 'address_book.deleted'],
  status: ['pending', 'approved', 'rejected', 'failed'],
  turnkeyActivityId: 'uuid',
  change: {},
  principalId: 'string',
  createdAt: 'time',
  updatedAt: 'time',
};

async function call(method: string, path: string, status: number, shape: Shape, body?: unknown): Promise<any> {
  const reply = await client.call(method, path, body);
  expect({ path, status: reply.status }).toEqual({ path, status });
  expect({ path, violations: violations(reply.body, shape) }).toEqual({ path, violations: [] });
  return reply.body;
}

describe('a client written against the published shapes', () => {
  it('runs the whole wallet flow, catalogue to address book, without a contract violation', async () => {
    const catalogue = await call('GET', '/v2/wallets/yield-sources', 200, page(YIELD_SOURCE));
    expect(catalogue.data.length).toBeGreaterThan(0);

    const created = await call('POST', '/v2/wallets', 200, WALLET, {
      requestId: randomUUID(),
      label: 'Client',
      strategy: {
        allocations: {
          usdc: [
            { yieldSourceId: 'service-jaaa-usdc-vault', pct: 70.5 },
            { yieldSourceId: 'cash', pct: 29.5 },
          ],
        },
      },
    });
    const walletId = created.id;
    await client.waitFor(`/v2/wallets/${walletId}`, (wallet) => wallet.status === 'idle');
    await call('GET', `/v2/wallets/${walletId}`, 200, WALLET);
    await call('GET', '/v2/wallets?order=asc&status=idle', 200, page(WALLET));
    await call('PATCH', `/v2/wallets/${walletId}`, 200, WALLET, { label: null });
    await call('PATCH', `/v2/wallets/${walletId}/strategy`, 200, WALLET, {
      requestId: randomUUID(),
      allocations: {
        usdc: [
          { yieldSourceId: 'service-jaaa-usdc-vault', pct: 60 },
          { yieldSourceId: 'cash', pct: 40 },
        ],
      },
    });

    const deposit = await call('POST', `/v2/wallets/${walletId}/deposits/simulate`, 200, DEPOSIT, { amountUsd: '100' });
    await client.waitFor(`/v2/wallets/${walletId}/deposits/${deposit.id}`, (body) => body.status === 'completed');
    await call('GET', `/v2/wallets/${walletId}/deposits?status=completed`, 200, page(DEPOSIT));
    await call('GET', `/v2/wallets/${walletId}/deposits/${deposit.id}`, 200, DEPOSIT);
    await call('GET', `/v2/wallets/${walletId}/deposits/lookup?txHash=${deposit.txHash}&chain=${deposit.chain}`, 200, DEPOSIT);

    const move = [{ from: 'cash:ethereum_sepolia:usdc', to: 'service-jaaa-usdc-vault', amountUsd: 40 }];
    await call(
      'POST',
      `/v2/wallets/${walletId}/allocate-preview`,
      200,
      { allocations: [{ from: 'string', to: 'string', amountUsd: 'usd' }], before: [POSITION], after: [POSITION] },
      { allocations: move },
    );
    await call('POST', `/v2/wallets/${walletId}/allocate`, 200, ALLOCATION, { requestId: randomUUID(), allocations: move });
    await client.waitFor(`/v2/wallets/${walletId}`, (wallet) => wallet.status === 'idle' && wallet.balance.reservedUsd === '0.000000');
    await call('GET', `/v2/wallets/${walletId}/yield`, 200, YIELD);

    const liquidity = await call('POST', `/v2/wallets/${walletId}/withdrawal-preview`, 200, PREVIEW, {
      destinationChain: 'ethereum_sepolia',
    });
    expect(liquidity.amountRequestedUsd).toBeNull();
    const preview = await call('POST', `/v2/wallets/${walletId}/withdrawal-preview`, 200, PREVIEW, {
      destinationChain: 'ethereum_sepolia',
      amountUsd: 70,
    });
    expect(preview.processingEstimate.typicalMaxDuration).toMatch(DURATION);
    await call('POST', `/v2/wallets/${walletId}/withdrawal-preview`, 409, INSUFFICIENT, {
      destinationChain: 'ethereum_sepolia',
      amountUsd: 1_000,
    });
    await call('POST', `/v2/wallets/${walletId}/withdrawals`, 409, INSUFFICIENT, {
      requestId: randomUUID(),
      destinationChain: 'ethereum_sepolia',
      destinationAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
      amountUsd: 1_000,
    });
    const withdrawal = await call('POST', `/v2/wallets/${walletId}/withdrawals`, 200, WITHDRAWAL, {
      requestId: randomUUID(),
      destinationChain: 'ethereum_sepolia',
      destinationAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
      amountUsd: '70',
    });
    expect(withdrawal.status).toBe('processing');
    await client.waitFor(`/v2/wallets/${walletId}/withdrawals/${withdrawal.id}`, (body) => body.status !== 'processing');
    await call('GET', `/v2/wallets/${walletId}/withdrawals/${withdrawal.id}`, 200, WITHDRAWAL);
    await call('GET', `/v2/wallets/${walletId}/withdrawals?status=completed&order=desc&sort=createdAt`, 200, page(WITHDRAWAL));

    // The address book before the first approver: afterwards its changes wait for the approvers (202).
    const entry = await call(
      'POST',
      '/v2/address-book/entries',
      201,
      { entry: 'uuid' },
      { address: '0x52908400098527886E0F7030069857D2E4169EE7', chain: 'ethereum_sepolia', label: 'Treasury' },
    );
    await call('GET', '/v2/address-book/entries', 200, page(ENTRY));
    const deleted = await call('DELETE', `/v2/address-book/entries/${entry.entry}`, 200, { id: 'uuid', deleted: 'boolean' });
    expect(deleted.deleted).toBe(true);

    const registered = await postApprover(client, newKey(), 'Treasury');
    expect(registered.status).toBe(201);
    expect(violations(registered.body, { id: 'uuid', label: 'string', publicKey: 'string', createdAt: 'time' })).toEqual([]);
    await call('POST', `/v2/wallets/${walletId}/deposit-addresses/stellar_testnet/enable`, 200, {
      chain: 'string',
      address: 'string?',
      approval: {
        id: 'uuid',
        kind: 'string',
        chain: 'string',
        status: ['pending', 'approved', 'rejected', 'failed'],
        turnkeyActivityId: 'uuid?',
        createdAt: 'time',
        updatedAt: 'time',
      },
    });
    const pendingEntry = await call('POST', '/v2/address-book/entries', 202, CHANGE, {
      address: '0x52908400098527886E0F7030069857D2E4169EE7',
      chain: 'ethereum_sepolia',
      label: 'Treasury',
    });
    expect(pendingEntry).toMatchObject({ kind: 'address_book.created', status: 'pending' });
  });
});
