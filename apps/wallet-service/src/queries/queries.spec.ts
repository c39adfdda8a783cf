import { generateKeyPairSync, sign } from 'node:crypto';
import { pino } from 'pino';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { loadConfig, serviceConfigSpec } from '@service/service-runtime';
import { ALL_ORGANIZATIONS } from '@service/contracts';
import { KeysetPage } from '@service/pagination';
import { runQueries, runQuery } from '@service/sql';
import {
  queriesFileDifferences,
  RecordingPipelinedSql,
  type RecordedStatement,
  type SqlFileEntry,
  unrecordedRawSqlFunctions,
} from '@service/testing';
import { withWalletDefaults } from '../config.js';
import type {
  ApprovalActivity,
  Approver,
  ApprovalVote,
  Deposit,
  DepositAddressApproval,
  Rebalance,
  Wallet,
  Withdrawal,
} from '../generated/prisma/client.js';
import { AddressBookService } from '../app/address-book/address-book.service.js';
import { ApprovalsService } from '../app/approvals/approvals.service.js';
import { TurnkeyService } from '../app/approvals/turnkey.service.js';
import { DepositAddressesService } from '../app/deposit-addresses/deposit-addresses.service.js';
import { DepositsService } from '../app/deposits/deposits.service.js';
import { STAMP_SCHEME } from '../app/domain/customer-approvals/stamp.js';
import { canonicalPayload, turnkeyRequestOf } from '../app/domain/customer-approvals/turnkey-request.js';
import { listFiltersOf } from '../app/domain/list-filters.js';
import { Ledger, type PositionRow } from '../app/domain/ledger.js';
import { WalletEnvironment } from '../app/environment/wallet-environment.js';
import { RebalancesService } from '../app/rebalances/rebalances.service.js';
import { hasEntry } from '../app/repositories/address-book.repository.js';
import * as changes from '../app/repositories/approval-changes.repository.js';
import * as accountingEvents from '../app/repositories/accounting.repository.js';
import * as approvals from '../app/repositories/approvals.repository.js';
import * as setups from '../app/repositories/deposit-address-approvals.repository.js';
import * as deposits from '../app/repositories/deposits.repository.js';
import * as dueWork from '../app/repositories/due-work.repository.js';
import * as keys from '../app/repositories/idempotency-keys.repository.js';
import * as positions from '../app/repositories/positions.repository.js';
import * as rebalances from '../app/repositories/rebalances.repository.js';
import * as risk from '../app/repositories/risk-blocks.repository.js';
import * as marketFigures from '../app/repositories/market-figures.repository.js';
import { takePayoutFailure } from '../app/repositories/sandbox-payout-failures.repository.js';
import { WalletReads } from '../app/repositories/wallet-reads.js';
import * as wallets from '../app/repositories/wallets.repository.js';
import * as withdrawals from '../app/repositories/withdrawals.repository.js';
import { Writes } from '../app/repositories/writes.js';
import { WalletsService } from '../app/wallets/wallets.service.js';
import { WithdrawalsService } from '../app/withdrawals/withdrawals.service.js';
import { createWithdrawal } from '../app/withdrawals/withdrawal-changes.js';
import { WorkflowSteps } from '../app/workflows/workflow-steps.js';
import { applyRiskEvent } from '../app/risk/risk-projection.js';

/**
 * Every statement wallet-service runs raw, as text, compared with `src/queries/<module>.sql`
 * (`UPDATE_SQL=1` writes the files). Two kinds of file:
 *
 * - one per repository module: each of its functions called with representative inputs on a
 *   `RecordingPipelinedSql` (outside a transaction), a part of a statement's `Writes` (`add...`)
 *   in a statement of its own;
 * - one per module that runs the money path's transactions (`workflow-steps` and the feature
 *   services): each use case with representative rows answered, each materially different path
 *   its own entry, recorded as PostgreSQL receives it (BEGIN, each round trip's statements with
 *   the writes deferred to it first, COMMIT), the parts of `Writes` joined as they run.
 *
 * Prisma's model API (lists, address book and approver changes, labels) is not here.
 */

const ORG = 'org_a';
const WALLET = '5b1d9c3e-0c6a-4f57-9d3b-2f0f1c7a8e11';
const OTHER_WALLET = '7c2e0d4f-1d7b-4a68-8e4c-3a1a2d8b9f22';
const WITHDRAWAL = '3f6c1d2e-8a4b-4c5d-9e6f-7a8b9c0d1e2f';
const DEPOSIT = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const REBALANCE = '0e0c6a3b-7d1f-4a58-9b6e-3c2d1e0f9a88';
const SETUP = '1d2c3b4a-5f6e-4d7c-8b9a-0f1e2d3c4b5a';
const ACTIVITY = '2e3d4c5b-6a7f-4e8d-9cab-1f2e3d4c5b6a';
const APPROVER = '4a5b6c7d-8e9f-4a0b-9c1d-2e3f4a5b6c7d';
const REQUEST = '6b7c8d9e-0f1a-4b2c-8d3e-4f5a6b7c8d9e';
/** The payout leg the fixtures' withdrawals change. */
const LEG = 'b7c8d9e0-1f2a-4b3c-8d4e-5f6a7b8c9d0e';
const CHANGE = '8d9e0f1a-2b3c-4d4e-9f5a-6b7c8d9e0f1a';
const ENTRY = '9e0f1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b';
/** The key of an approver a change adds (a point of P-256 is not checked here). */
const NEW_APPROVER_KEY = `03${'22'.repeat(32)}`;
const CASH = 'cash:ethereum_sepolia:usdc';
const JAAA = 'service-jaaa-usdc-vault';
const PAYOUT_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
/** Times in the past: what they date is due. */
const T0 = new Date('2026-11-01T10:00:00.000Z');
const LATER = new Date('2099-01-01T00:00:00.000Z');
const USD = 1_000_000n;

const env = new WalletEnvironment(
  withWalletDefaults(
    loadConfig(serviceConfigSpec('wallet'), {
      DATABASE_URL: 'postgresql://localhost:5432/wallet',
      DATABASE_SCHEMA: 'wallet',
      SERVICE_ENV: 'sandbox',
    }),
  ),
);

// ---------- the rows the recorder answers ----------

const walletRow = (overrides: Partial<Wallet> = {}): Wallet => ({
  id: WALLET,
  orgId: ORG,
  label: null,
  status: 'idle',
  failureReason: null,
  autoRebalance: false,
  strategy: { usdc: [{ yieldSourceId: JAAA, bps: 10_000 }] },
  depositAddresses: { ethereum_sepolia: PAYOUT_ADDRESS },
  createdAt: T0,
  updatedAt: T0,
  ...overrides,
});

const positionRows = (): PositionRow[] => [
  { positionId: CASH, kind: 'cash', amount: 100n * USD, reserved: 0n, earned: 0n, accruedAt: T0 },
  { positionId: JAAA, kind: 'yield_source', amount: 50n * USD, reserved: 0n, earned: 0n, accruedAt: T0 },
];
const storedPositions = () =>
  positionRows().map((row) => [
    row.positionId,
    row.kind,
    row.amount.toString(),
    row.reserved.toString(),
    row.earned.toString(),
    row.accruedAt.getTime(),
    // The lots and running totals of the money path's reads (the wallet views leave them out).
    [],
    {},
  ]);

const depositRow = (overrides: Partial<Deposit> = {}): Deposit => ({
  id: DEPOSIT,
  walletId: WALLET,
  orgId: ORG,
  amount: 25n * USD,
  token: 'usdc',
  chain: 'ethereum_sepolia',
  fromAddress: PAYOUT_ADDRESS,
  txHash: `0x${'ab'.repeat(32)}`,
  status: 'processing',
  settleAt: T0,
  createdAt: T0,
  completedAt: null,
  ...overrides,
});

const setupRow = (overrides: Partial<DepositAddressApproval> = {}): DepositAddressApproval => ({
  id: SETUP,
  walletId: WALLET,
  orgId: ORG,
  chain: env.stellarChain,
  status: 'pending',
  activityId: ACTIVITY,
  dueAt: T0,
  createdAt: T0,
  updatedAt: T0,
  ...overrides,
});

const rebalanceRow = (status: string, exitSource: string | null = null): Rebalance => ({
  id: REBALANCE,
  walletId: WALLET,
  orgId: ORG,
  requestId: REQUEST,
  status,
  allocations: [{ from: CASH, to: JAAA, amountUsd: '10.000000' }],
  reservations: status === 'processing' ? { [CASH]: '10000000' } : {},
  nextRunAt: T0,
  createdAt: T0,
  completedAt: null,
  exitSource,
});

/** A withdrawal of 30 USD from the wallet's cash as `createWithdrawal` writes it, its legs then changed by `legs`. */
async function withdrawalRow(
  legs: (leg: Record<string, unknown> & { steps: Record<string, unknown>[] }) => void = () => undefined,
): Promise<Withdrawal> {
  const scratch = new RecordingPipelinedSql();
  const row = await scratch.$transaction((tx) =>
    createWithdrawal(
      tx as never,
      { wallet: walletRow(), ledger: Ledger.settled(WALLET, positionRows(), env, T0), env, now: T0 },
      {
        id: WITHDRAWAL,
        destination: { chain: 'ethereum_sepolia', token: 'usdc', address: PAYOUT_ADDRESS },
        amount: 30n * USD,
        fee: USD / 2n,
        requestId: REQUEST,
        running: { withdrawals: false, rebalances: false },
      },
    ),
  );
  const changed = structuredClone(row.payoutLegs) as (Record<string, unknown> & { steps: Record<string, unknown>[] })[];
  for (const leg of changed) legs(leg);
  return { ...row, payoutLegs: changed as never };
}
const broadcast = (leg: Record<string, unknown> & { steps: Record<string, unknown>[] }) => {
  Object.assign(leg, { id: LEG, status: 'broadcasted' });
  Object.assign(leg.steps[0] ?? {}, { status: 'processing', txHash: `0x${'cd'.repeat(32)}`, txStatus: 'submitted' });
};
const awaitingApproval = (validBefore: Date) => (leg: Record<string, unknown> & { steps: Record<string, unknown>[] }) => {
  Object.assign(leg, {
    id: LEG,
    status: 'pending_customer_approval',
    turnkeyActivityId: ACTIVITY,
    approvalRequestedAt: T0.toISOString(),
    approvalValidBefore: validBefore.toISOString(),
  });
  const step = leg.steps[leg.steps.length - 1];
  if (step) step['status'] = 'pending_customer_approval';
};
const failedRetryably = (leg: Record<string, unknown> & { steps: Record<string, unknown>[] }) => {
  Object.assign(leg, { id: LEG, status: 'failed', retryable: true, completedAt: T0.toISOString() });
  for (const step of leg.steps) Object.assign(step, { status: 'failed', txStatus: 'failed' });
};
const asText = (row: Withdrawal) => ({
  ...row,
  amountRequested: row.amountRequested.toString(),
  fee: row.fee.toString(),
  amountPaid: row.amountPaid?.toString() ?? null,
});

const activityRow = (overrides: Partial<ApprovalActivity> = {}): ApprovalActivity =>
  ({
    id: ACTIVITY,
    orgId: ORG,
    walletId: WALLET,
    kind: 'withdrawal_payout',
    withdrawalId: WITHDRAWAL,
    legId: LEG,
    setupId: null,
    changeId: null,
    status: 'ACTIVITY_STATUS_CONSENSUS_NEEDED',
    fingerprint: 'f'.repeat(64),
    quorum: 1,
    subject: {},
    validBefore: LATER,
    createdAt: T0,
    completedAt: null,
    ...overrides,
  }) as ApprovalActivity;

/** A P-256 key: its compressed public key (what the approvers table holds) and its stamp (`X-Stamp`) of a text. */
function p256Key() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const jwk = publicKey.export({ format: 'jwk' });
  const y = Buffer.from(jwk.y ?? '', 'base64url');
  const compressed = `${(y[y.length - 1] ?? 0) % 2 === 0 ? '02' : '03'}${Buffer.from(jwk.x ?? '', 'base64url').toString('hex')}`;
  const stamp = (text: string) => {
    const signature = sign('sha256', Buffer.from(text, 'utf8'), privateKey).toString('hex');
    return Buffer.from(JSON.stringify({ publicKey: compressed, scheme: STAMP_SCHEME, signature })).toString('base64url');
  };
  return { publicKey: compressed, stamp };
}
/** The key of the organization's approver, who votes. */
const approver = p256Key();
const approverRow: Approver = { id: APPROVER, orgId: ORG, label: 'treasurer', publicKey: approver.publicKey, createdAt: T0 };

/** A vote on the activity as an approver's client sends it: its request, stamped with the approver's key. */
function stampedVote(action: 'approve' | 'reject') {
  const turnkeyRequest = turnkeyRequestOf({ action, organizationId: ORG, fingerprint: activityRow().fingerprint, now: new Date() });
  return { activityId: ACTIVITY, action, turnkeyRequest, customerApprovalStamp: approver.stamp(canonicalPayload(turnkeyRequest)) } as never;
}

/** A registration of a new approver key, stamped by that key over its body (proof of possession). */
function newApprover() {
  const key = p256Key();
  const timestampMs = String(Date.now());
  const signedBody = JSON.stringify({ label: 'auditor', publicKey: key.publicKey, timestampMs });
  return { label: 'auditor', publicKey: key.publicKey, timestampMs, signedBody, stamp: key.stamp(signedBody) } as never;
}

const changeRow = (overrides: Record<string, unknown> = {}) => ({
  id: CHANGE,
  orgId: ORG,
  kind: 'approver.created',
  change: { id: APPROVER, label: 'auditor', publicKey: NEW_APPROVER_KEY },
  before: null,
  status: 'pending',
  activityId: ACTIVITY,
  principalId: 'user_1',
  dueAt: T0,
  createdAt: T0,
  updatedAt: T0,
  ...overrides,
});
const entryRow = {
  id: ENTRY,
  orgId: ORG,
  chain: 'ethereum_sepolia',
  address: PAYOUT_ADDRESS,
  addressKey: PAYOUT_ADDRESS.toLowerCase(),
  label: 'payroll',
  createdAt: T0,
};

/** What the statements of an entry read: the rows a database holding them would answer. */
interface World {
  wallet: Wallet;
  /** Whether the request id is claimed by this request (false: a replay). */
  fresh: boolean;
  running: { withdrawals: boolean; rebalances: boolean };
  withdrawal: Withdrawal | null;
  policy: { withdrawals: string; threshold: bigint | null; quorum: number } | null;
  deposit: Deposit;
  setup: DepositAddressApproval | null;
  activity: ApprovalActivity | null;
  votes: ApprovalVote[];
  approvers: number;
  rebalance: Rebalance | null;
  /** Sandbox: whether the organization's next payout leg is armed to fail. */
  armed: boolean;
  whitelisted: boolean;
  /** Whether a key other than the voter's is an approver already (the key of a change adding one). */
  approverKnown: boolean;
  /** A pending change to the organization's approvers, policy or address book. */
  change: ReturnType<typeof changeRow> | null;
}

const world = (overrides: Partial<World> = {}): World => ({
  wallet: walletRow(),
  fresh: true,
  running: { withdrawals: false, rebalances: false },
  withdrawal: null,
  policy: null,
  deposit: depositRow(),
  setup: null,
  activity: null,
  votes: [],
  approvers: 1,
  rebalance: null,
  armed: false,
  whitelisted: true,
  approverKnown: true,
  change: null,
  ...overrides,
});

let now: World = world();
/** The fingerprint the last claim of an idempotency key wrote: the row a replay reads holds it. */
let claimedFingerprint = '';

/** Rows of their own, as each read from a database is: a caller that changes them changes nothing else. */
const rowsOf = (statement: RecordedStatement): unknown[] => structuredClone(answer(statement));

function answer({ text, values }: RecordedStatement): unknown[] {
  const w = now;
  if (text.includes('INSERT INTO idempotency_keys')) claimedFingerprint = String(values[3]);
  if (text.includes('EXISTS (SELECT 1 FROM claim) AS fresh')) return [{ ...w.wallet, fresh: w.fresh }];
  if (text.includes('FROM idempotency_keys WHERE'))
    return [{ fingerprint: claimedFingerprint, resourceId: w.withdrawal?.id ?? WALLET, response: { id: WALLET } }];
  if (/FROM wallets w WHERE w\.id = \$1::uuid AND w\.org_id = \$2 FOR UPDATE/.test(text)) return [w.wallet];
  if (text.includes('FROM wallets w JOIN unnest')) return [w.wallet];
  if (text.includes('AS "createdAtMs"')) {
    const { createdAt, updatedAt, ...rest } = w.wallet;
    return [{ ...rest, createdAtMs: createdAt.getTime(), updatedAtMs: updatedAt.getTime(), positions: storedPositions() }];
  }
  if (text.includes('INSERT INTO wallets')) return [walletRow({ status: 'creating', depositAddresses: {} })];
  if (text.includes('SELECT count(*)::int AS count FROM wallets')) return [{ count: 1 }];
  if (text.includes('FROM unnest($1::uuid[], $2::uuid[]) AS q(wallet_id, rebalance_id)')) {
    const row = w.rebalance;
    const json = row && {
      ...row,
      nextRunAtMs: row.nextRunAt.getTime(),
      createdAtMs: row.createdAt.getTime(),
      completedAtMs: row.completedAt?.getTime() ?? null,
    };
    return [{ walletId: WALLET, rebalanceId: REBALANCE, ...w.running, row: json, positions: storedPositions() }];
  }
  if (text.includes('LEFT JOIN approval_policies p ON p.org_id = w.org_id') && w.withdrawal) {
    const { policy } = w;
    return [
      {
        ...asText(w.withdrawal),
        policyWithdrawals: policy?.withdrawals ?? null,
        policyThreshold: policy?.threshold?.toString() ?? null,
        policyQuorum: policy?.quorum ?? null,
        policyUpdatedAt: policy ? T0 : null,
        approvalElsewhere: false,
        ...w.running,
        positions: storedPositions(),
      },
    ];
  }
  if (text.includes('FROM withdrawals w WHERE w.id = $1::uuid') && w.withdrawal) return [asText(w.withdrawal)];
  if (text.includes('FROM positions WHERE wallet_id'))
    return positionRows().map((row) => ({ ...row, amount: `${row.amount}`, reserved: `${row.reserved}`, earned: `${row.earned}` }));
  if (text.startsWith('SELECT EXISTS'))
    return [{ ...w.running, ...(text.includes('AS positions') ? { positions: storedPositions() } : {}) }];
  if (text.includes('FROM deposits WHERE id')) return [{ ...w.deposit, amount: w.deposit.amount.toString() }];
  if (text.includes('FROM deposit_address_approvals WHERE')) return w.setup ? [w.setup] : [];
  if (text.includes('FROM approval_activities WHERE')) return w.activity ? [w.activity] : [];
  if (text.includes('FROM approvers WHERE org_id = $1 AND public_key'))
    return values[1] === approver.publicKey || w.approverKnown ? [{ ...approverRow, publicKey: values[1] }] : [];
  if (text.includes('FROM approvers WHERE org_id = $1 AND id')) return [approverRow];
  if (text.includes('FROM approval_changes WHERE id')) return w.change ? [w.change] : [];
  if (text.includes('FROM address_book_entries WHERE org_id = $1 AND id')) return [entryRow];
  if (text.includes('FROM approval_votes')) return w.votes;
  if (text.includes('(SELECT count(*)::int FROM approvers')) {
    const { policy } = w;
    return [
      {
        approvers: w.approvers,
        withdrawals: policy?.withdrawals ?? null,
        threshold: policy?.threshold?.toString() ?? null,
        quorum: policy?.quorum ?? null,
        updatedAt: policy ? T0 : null,
      },
    ];
  }
  if (text.includes('FROM address_book_entries')) return w.whitelisted ? [{ '?column?': 1 }] : [];
  if (text.includes('FROM wallet_provisions ORDER BY created_at'))
    return [
      { kind: 0, id: WALLET, orgId: ORG, walletId: WALLET },
      { kind: 3, id: WITHDRAWAL, orgId: ORG, walletId: WALLET },
    ];
  return [];
}

function changedBy({ text, values }: RecordedStatement): number {
  if (text.includes('DELETE FROM sandbox_payout_failures')) return now.armed ? 1 : 0;
  if (text.includes('INSERT INTO idempotency_keys')) {
    claimedFingerprint = String(values[3]);
    return now.fresh ? 1 : 0;
  }
  if (text.includes('INSERT INTO wallet_provisions')) return 0;
  return 1;
}

const sql = new RecordingPipelinedSql(rowsOf, changedBy);
const db = sql as never;

/** What `work` ran with the database holding `state`: the entry `call` of a queries file. */
async function ran(call: string, work: () => Promise<unknown>, state: Partial<World> = {}): Promise<SqlFileEntry> {
  now = world(state);
  try {
    return await sql.entry(call, work);
  } finally {
    now = world();
  }
}

/** What `work` ran and that it threw (a path that ends in a rollback). */
const failing = (call: string, work: () => Promise<unknown>, state: Partial<World> = {}) =>
  ran(
    call,
    () =>
      work().then(
        () => Promise.reject(new Error(`${call} did not throw`)),
        () => undefined,
      ),
    state,
  );

/** A statement of its own holding the parts `add` adds to its `Writes`. */
const alone = (add: (writes: Writes) => void) => {
  const writes = new Writes();
  add(writes);
  return writes.run(db);
};

// ---------- the feature services, wired to the recorder ----------

const relay = { wake: () => undefined };
const worker = { kick: () => undefined };
/** Prisma, for the model calls beside the raw statements: the organization holds the wallet. */
const prisma = { wallet: { count: async () => 1 } };
const feature = <T>(Feature: new (...args: never[]) => T): T =>
  new (Feature as unknown as new (...args: unknown[]) => T)(prisma, env, relay, worker, sql);
const ctx = { orgId: ORG, principalId: 'user_1', role: 'owner' } as never;
const steps = new WorkflowSteps(env, db);

// ---------- the files ----------

const files: Record<string, () => Promise<SqlFileEntry[]>> = {
  'accounting.repository': async () => [
    await ran('addAccountingEvents(writes, {a deposit, then 1 USD from cash into JAAA: three events}), alone', () =>
      alone((writes) => {
        const ledger = Ledger.fromRows(WALLET, positionRows());
        ledger.receiveDeposit(CASH, USD, { type: 'deposit', id: DEPOSIT, chain: 'ethereum_sepolia', token: 'usdc', txHash: null });
        ledger.transfer(CASH, JAAA, USD, { type: 'rebalance', id: REBALANCE });
        accountingEvents.addAccountingEvents(writes, { orgId: ORG, walletId: WALLET, entries: ledger.takeAccounting() });
      }),
    ),
    await ran("readPeriod(sql, {orgId, walletId, start, end}): one wallet's boundaries, flows and positions in one statement", () =>
      accountingEvents.readPeriod(db, { orgId: ORG, walletId: WALLET, start: T0, end: LATER }),
    ),
    await ran('listAccountingEvents(sql, {organization, a period, deposits, after a cursor, limit 20})', () =>
      accountingEvents.listAccountingEvents(db, {
        orgId: ORG,
        walletId: null,
        startAt: T0,
        endAt: LATER,
        types: ['deposit'],
        beforeSeq: 42n,
        limit: 20,
      }),
    ),
  ],
  'address-book.repository': async () => [
    await ran("hasEntry(tx, orgId, 'ethereum_sepolia', addressKey)", () =>
      hasEntry(db, ORG, 'ethereum_sepolia', PAYOUT_ADDRESS.toLowerCase()),
    ),
  ],
  'approval-changes.repository': async () => {
    const change = {
      id: CHANGE,
      orgId: ORG,
      kind: 'approver.create',
      change: { label: 'treasurer' },
      before: null,
      status: 'pending',
      activityId: ACTIVITY,
      principalId: 'user_1',
      dueAt: LATER,
      createdAt: T0,
      updatedAt: T0,
    } as never;
    const entry = {
      id: ENTRY,
      orgId: ORG,
      chain: 'ethereum_sepolia',
      address: PAYOUT_ADDRESS,
      addressKey: PAYOUT_ADDRESS.toLowerCase(),
      label: 'payroll',
      createdAt: T0,
    };
    return [
      await ran('addStartChange(writes, a pending change), alone', () => alone((writes) => changes.addStartChange(writes, change))),
      await ran("addChangeStatus(writes, change, 'approved', now), alone", () =>
        alone((writes) => changes.addChangeStatus(writes, change, 'approved', T0)),
      ),
      await ran('getChange(tx, changeId)', () => changes.getChange(db, CHANGE).catch(() => undefined)),
      await ran('findApproverById(tx, orgId, approverId)', () => changes.findApproverById(db, ORG, APPROVER)),
      await ran('findEntryById(tx, orgId, entryId)', () => changes.findEntryById(db, ORG, ENTRY)),
      await ran('addInsertApprover(writes, approver), alone', () => alone((writes) => changes.addInsertApprover(writes, approverRow))),
      await ran('addDeleteApprover(writes, orgId, approverId), alone', () =>
        alone((writes) => changes.addDeleteApprover(writes, ORG, APPROVER)),
      ),
      await ran("addSavePolicy(writes, {withdrawals 'above_threshold', threshold, quorum 2}), alone", () =>
        alone((writes) =>
          changes.addSavePolicy(writes, { orgId: ORG, withdrawals: 'above_threshold', threshold: 100n * USD, quorum: 2, updatedAt: T0 }),
        ),
      ),
      await ran('addInsertEntry(writes, entry), alone', () => alone((writes) => changes.addInsertEntry(writes, entry))),
      await ran('addDeleteEntry(writes, orgId, entryId), alone', () => alone((writes) => changes.addDeleteEntry(writes, ORG, ENTRY))),
      await ran("addAudit(writes, {action 'approver.created', after, activityId, approvedBy}), alone", () =>
        alone((writes) =>
          changes.addAudit(writes, {
            orgId: ORG,
            principalId: 'user_1',
            action: 'approver.created',
            before: null,
            after: { id: APPROVER },
            activityId: ACTIVITY,
            approvedBy: [approverRow.publicKey],
            now: T0,
          }),
        ),
      ),
    ];
  },
  'approvals.repository': async () => [
    await ran('findApproverByKey(tx, orgId, publicKey)', () => approvals.findApproverByKey(db, ORG, approverRow.publicKey)),
    await ran('readApprovalRules(tx, orgId)', () => approvals.readApprovalRules(db, ORG)),
    await ran("lockApprovals(tx, orgId): Prisma's tagged template", () => approvals.lockApprovals(db, ORG)),
    await ran('lockApprovalsSql(tx, orgId)', () => approvals.lockApprovalsSql(db, ORG)),
    await ran("addActivity(writes, {kind 'withdrawal_payout', quorum 1, subject, validBefore, now}), alone", () =>
      alone((writes) =>
        approvals.addActivity(writes, {
          orgId: ORG,
          walletId: WALLET,
          kind: 'withdrawal_payout',
          quorum: 1,
          subject: {
            withdrawalId: WITHDRAWAL,
            withdrawalLegId: LEG,
            destinationChain: 'ethereum_sepolia',
            destinationToken: 'usdc',
            destinationAddress: PAYOUT_ADDRESS,
            plannedSourceNativeUnits: '30000000',
            displayAmountNativeUnits: '30000000',
            txChain: 'ethereum_sepolia',
          },
          validBefore: LATER,
          now: T0,
        }),
      ),
    ),
    await ran('findActivity(db, orgId, activityId)', () => approvals.findActivity(db, ORG, ACTIVITY)),
    await ran("addEndActivity(writes, activityId, 'FAILED', now), alone", () =>
      alone((writes) => approvals.addEndActivity(writes, ACTIVITY, 'FAILED', T0)),
    ),
    await ran("recordVote(tx, {activityId, publicKey, approverId, action 'approve', createdAt})", () =>
      approvals.recordVote(db, {
        activityId: ACTIVITY,
        publicKey: approverRow.publicKey,
        approverId: APPROVER,
        action: 'approve',
        createdAt: T0,
      }),
    ),
    await ran('votesOn(tx, activityId)', () => approvals.votesOn(db, ACTIVITY)),
  ],
  'deposit-address-approvals.repository': async () => [
    await ran("findSetup(tx, walletId, 'stellar_testnet')", () => setups.findSetup(db, WALLET, env.stellarChain)),
    await ran('addStartSetup(writes, {..., existing: null}): a new setup, alone', () =>
      alone((writes) =>
        setups.addStartSetup(writes, {
          id: SETUP,
          wallet: walletRow(),
          chain: env.stellarChain,
          activityId: ACTIVITY,
          dueAt: LATER,
          now: T0,
          existing: null,
        }),
      ),
    ),
    await ran('addStartSetup(writes, {..., existing: a rejected setup}): the setup again, alone', () =>
      alone((writes) =>
        setups.addStartSetup(writes, {
          id: SETUP,
          wallet: walletRow(),
          chain: env.stellarChain,
          activityId: ACTIVITY,
          dueAt: LATER,
          now: T0,
          existing: setupRow({ status: 'rejected' }),
        }),
      ),
    ),
    await ran("addSetupStatus(writes, setup, 'approved', now), alone", () =>
      alone((writes) => setups.addSetupStatus(writes, setupRow(), 'approved', T0)),
    ),
    await ran('getApproval(tx, approvalId)', () => setups.getApproval(db, SETUP), { setup: setupRow() }),
  ],
  'deposits.repository': async () => [
    await ran('createDeposit(tx, deposit, [one event])', () => deposits.createDeposit(db, depositRow(), [depositEvent()])),
    await ran('addCompleteDeposit(writes, deposit, now), alone', () =>
      alone((writes) => deposits.addCompleteDeposit(writes, depositRow(), T0)),
    ),
    await ran('getDeposit(tx, depositId)', () => deposits.getDeposit(db, DEPOSIT)),
  ],
  'due-work.repository': async () => [
    await ran('findDueWork(sql, now, take 64): the planning setting and the look in one round trip', () => dueWork.findDueWork(db, T0, 64)),
    await ran('addUnlistedProvisions(sql)', () => dueWork.addUnlistedProvisions(db)),
    await ran('forgetProvision(tx, walletId)', () => dueWork.forgetProvision(db, WALLET)),
  ],
  'idempotency-keys.repository': async () => {
    const key = { orgId: ORG, operation: 'wallet.create' as const, requestId: REQUEST, fingerprint: 'a'.repeat(64), resourceId: WALLET };
    return [
      await ran('claimRequestId(tx, key): claimed', () => keys.claimRequestId(db, key)),
      await ran('claimRequestId(tx, key): claimed before, the first claim read', () => keys.claimRequestId(db, key), { fresh: false }),
      await ran('lockWalletAndClaim(tx, walletId, key): claimed', () =>
        keys.lockWalletAndClaim(db, WALLET, { ...key, operation: 'withdrawal.cancel' }),
      ),
      await ran(
        'lockWalletAndClaim(tx, walletId, key): claimed before, the first claim read',
        () => keys.lockWalletAndClaim(db, WALLET, { ...key, operation: 'withdrawal.cancel' }),
        {
          fresh: false,
        },
      ),
      await ran('lockWalletAndClaimThen(tx, walletId, key, ledgerQuery(...)): claimed', () =>
        keys.lockWalletAndClaimThen(db, WALLET, { ...key, operation: 'wallet.allocate' }, positions.ledgerQuery(WALLET, env, T0)),
      ),
      await ran('lockWalletAndClaimThenAlso(tx, walletId, key, ledgerQuery(...), blockedSourcesQuery(walletId)): claimed', () =>
        keys.lockWalletAndClaimThenAlso(
          db,
          WALLET,
          { ...key, operation: 'wallet.allocate' },
          positions.ledgerQuery(WALLET, env, T0),
          risk.blockedSourcesQuery(WALLET),
        ),
      ),
      await ran("rememberResponse(tx, {orgId, 'wallet.create', requestId}, response)", () =>
        keys.rememberResponse(db, key, { id: WALLET }),
      ),
    ];
  },
  'market-figures.repository': async () => [
    await ran('marketFiguresOf(db, orgId)', () => marketFigures.marketFiguresOf(db, ORG)),
    await ran('recordMarketFigures(db, [a provider reading, an injection])', () =>
      marketFigures.recordMarketFigures(db, [
        {
          yieldSourceId: JAAA,
          orgId: ALL_ORGANIZATIONS,
          observationId: REQUEST,
          apyBps: 310,
          tvlUsd: 1_000_000,
          availableWithdrawalLiquidityUsd: 50_000,
          recordedAt: T0,
          expiresAt: null,
        },
        {
          yieldSourceId: JAAA,
          orgId: ORG,
          observationId: ACTIVITY,
          apyBps: 12,
          tvlUsd: null,
          availableWithdrawalLiquidityUsd: null,
          recordedAt: T0,
          expiresAt: LATER,
        },
      ]),
    ),
  ],
  'positions.repository': async () => [
    await ran('openLedger(tx, walletId, env, now)', () => positions.openLedger(db, WALLET, env, T0)),
    await ran('ledgerWithRunningQuery(walletId, env, now)', () => runQuery(db, positions.ledgerWithRunningQuery(WALLET, env, T0))),
    await ran('ledgersForRebalancesQuery({steps: [two], rebalanceJson: REBALANCE_JSON}, env, now) (through rebalanceStepsQuery)', () =>
      runQuery(
        db,
        rebalances.rebalanceStepsQuery(
          [
            { walletId: WALLET, rebalanceId: REBALANCE },
            { walletId: OTHER_WALLET, rebalanceId: REQUEST },
          ],
          env,
          T0,
        ),
      ).catch(() => undefined),
    ),
    await ran('addLedger(writes, a ledger with two changed positions), alone', () =>
      alone((writes) => {
        const ledger = Ledger.fromRows(WALLET, positionRows());
        ledger.credit(CASH, USD);
        ledger.reserve(JAAA, USD);
        positions.addLedger(writes, ledger);
      }),
    ),
  ],
  'rebalances.repository': async () => [
    await ran('addRebalance(writes, {10 USD from cash to JAAA}): the rebalance and its held cash, alone', () =>
      alone((writes) =>
        rebalances.addRebalance(writes, {
          wallet: walletRow(),
          ledger: Ledger.fromRows(WALLET, positionRows()),
          moves: moves(),
          requestId: REQUEST,
          now: T0,
        }),
      ),
    ),
    await ran(
      'rebalanceStepsQuery([a step], env, now)',
      () => runQuery(db, rebalances.rebalanceStepsQuery([{ walletId: WALLET, rebalanceId: REBALANCE }], env, T0)),
      {
        rebalance: rebalanceRow('created'),
      },
    ),
    await ran('addStartProcessing(writes, rebalance, nextRunAt), alone', () =>
      alone((writes) => rebalances.addStartProcessing(writes, rebalanceRow('created'), LATER)),
    ),
    await ran("addFinish(writes, rebalance, 'completed', now), alone", () =>
      alone((writes) => rebalances.addFinish(writes, rebalanceRow('processing'), 'completed', T0)),
    ),
    await ran('addFinishWithAllocations(writes, rebalance, now): a risk exit with its sweep, alone', () =>
      alone((writes) => rebalances.addFinishWithAllocations(writes, rebalanceRow('processing', JAAA), T0)),
    ),
  ],
  'risk-blocks.repository': async () => {
    const action = { actionId: REQUEST, orgId: ORG, walletId: WALLET, yieldSourceId: JAAA, riskAlertId: ACTIVITY };
    return [
      await ran('blockedSources(db, walletId)', () => risk.blockedSources(db, WALLET)),
      await ran('lockRiskAlert(tx, alertId)', () => risk.lockRiskAlert(db, ACTIVITY)),
      await ran('recordBlockExecuted(tx, action, now)', () => risk.recordBlockExecuted(db, action, T0)),
      await ran('recordBlockRejected(tx, action, now)', () => risk.recordBlockRejected(db, action, T0)),
      await ran('recordAlertResolved(tx, {alertId, orgId}, now)', () =>
        risk.recordAlertResolved(db, { alertId: ACTIVITY, orgId: ORG }, T0),
      ),
    ];
  },
  'sandbox-payout-failures.repository': async () => [await ran('takePayoutFailure(tx, orgId)', () => takePayoutFailure(db, ORG))],
  'wallet-reads': async () => [
    await ran('WalletReads.find(orgId, walletId), twice in one turn: one statement', () => {
      const reads = new WalletReads(db);
      return Promise.all([reads.find(ORG, WALLET), reads.find(ORG, OTHER_WALLET).catch(() => undefined)]);
    }),
  ],
  'wallets.repository': async () => [
    await ran('lockWallet(tx, orgId, walletId)', () => wallets.lockWallet(db, ORG, WALLET)),
    await ran('lockWalletsQuery([two wallets], {skipLocked: false})', () =>
      runQuery(db, wallets.lockWalletsQuery(twoWallets, { skipLocked: false })),
    ),
    await ran('lockWalletsQuery([two wallets], {skipLocked: true})', () =>
      runQuery(db, wallets.lockWalletsQuery(twoWallets, { skipLocked: true })),
    ),
    await ran('lockWalletCreation(tx, orgId)', () => wallets.lockWalletCreation(db, ORG)),
    await ran('countWallets(tx, orgId)', () => wallets.countWallets(db, ORG)),
    await ran("insertWallet(tx, {id, orgId, label 'ops', autoRebalance true, strategy})", () =>
      wallets.insertWallet(db, {
        id: WALLET,
        orgId: ORG,
        label: 'ops',
        autoRebalance: true,
        strategy: { usdc: [{ yieldSourceId: JAAA, bps: 10_000 }] },
      }),
    ),
    await ran('findWallet(db, orgId, walletId)', () => wallets.findWallet(db, ORG, WALLET)),
    await ran('readWallets(db, [two ids])', () => wallets.readWallets(db, [WALLET, OTHER_WALLET])),
    ...(await listShapes()),
    await ran('updateStrategy(tx, walletId, strategy, now, [one event])', () =>
      wallets.updateStrategy(db, WALLET, { usdc: [{ yieldSourceId: JAAA, bps: 10_000 }] }, T0, [depositEvent()]),
    ),
    await ran('addDepositAddresses(writes, walletId, addresses, now), alone', () =>
      alone((writes) => wallets.addDepositAddresses(writes, WALLET, { ethereum_sepolia: PAYOUT_ADDRESS }, T0)),
    ),
    await ran("addStatusUpdate(writes, an idle wallet, 'withdrawal_active', now), alone", () =>
      alone((writes) => wallets.addStatusUpdate(writes, walletRow(), 'withdrawal_active', T0)),
    ),
    await ran("addStatusUpdate(writes, a creating wallet, 'idle', now, {depositAddresses}): it leaves wallet_provisions too, alone", () =>
      alone((writes) =>
        wallets.addStatusUpdate(writes, walletRow({ status: 'creating' }), 'idle', T0, {
          depositAddresses: { ethereum_sepolia: PAYOUT_ADDRESS },
        }),
      ),
    ),
    await ran('readRunning(tx, walletId)', () => wallets.readRunning(db, WALLET)),
  ],
  'withdrawals.repository': async () => {
    const row = await withdrawalRow();
    return [
      await ran('addWithdrawal(writes, withdrawal, [one leg]), alone', () =>
        alone((writes) => withdrawals.addWithdrawal(writes, row, row.payoutLegs as never)),
      ),
      await ran('getWithdrawal(tx, withdrawalId)', () => withdrawals.getWithdrawal(db, WITHDRAWAL), { withdrawal: row }),
      await ran('findWithdrawal(db, walletId, withdrawalId)', () => withdrawals.findWithdrawal(db, WALLET, WITHDRAWAL), {
        withdrawal: row,
      }),
      await ran('payoutStepQuery(withdrawalId)', () => runQuery(db, withdrawals.payoutStepQuery(WITHDRAWAL)), { withdrawal: row }),
      await ran('addLegChanges(writes, {legs, nextRunAt, settled: null}), alone', () =>
        alone((writes) =>
          withdrawals.addLegChanges(writes, { row, legs: row.payoutLegs as never, nextRunAt: LATER, settled: null, now: T0 }),
        ),
      ),
      await ran("addLegChanges(writes, {legs, nextRunAt, settled: 'cancelled'}): the withdrawal's end too, alone", () =>
        alone((writes) =>
          withdrawals.addLegChanges(writes, { row, legs: row.payoutLegs as never, nextRunAt: LATER, settled: 'cancelled', now: T0 }),
        ),
      ),
      await ran('addWakeWallet(writes, walletId, except, now), alone', () =>
        alone((writes) => withdrawals.addWakeWallet(writes, WALLET, WITHDRAWAL, T0)),
      ),
      await ran('addReopen(writes, {row, legs, now}), alone', () =>
        alone((writes) => withdrawals.addReopen(writes, { row, legs: row.payoutLegs as never, now: T0 })),
      ),
    ];
  },

  // ---------- the transactions ----------

  'workflow-steps': async () => {
    const advancing = await withdrawalRow(broadcast);
    const approving = await withdrawalRow();
    const lapsed = await withdrawalRow(awaitingApproval(T0));
    const due = { id: WITHDRAWAL, orgId: ORG, walletId: WALLET };
    return [
      await ran(
        'provisionWallet(orgId, walletId): a creating wallet gets its addresses and goes idle',
        () => steps.provisionWallet(ORG, WALLET),
        {
          wallet: walletRow({ status: 'creating', depositAddresses: {} }),
        },
      ),
      await ran('provisionWallet(orgId, walletId): a wallet no longer creating leaves wallet_provisions', () =>
        steps.provisionWallet(ORG, WALLET),
      ),
      await ran('settleDeposit(due): a due deposit lands', () => steps.settleDeposit({ ...due, id: DEPOSIT })),
      await ran(
        'settleDeposit(due): on an autoRebalance wallet, with the rebalance that invests it',
        () => steps.settleDeposit({ ...due, id: DEPOSIT }),
        {
          wallet: walletRow({ autoRebalance: true }),
        },
      ),
      await ran('settleDeposit(due): a deposit settled already, nothing to do', () => steps.settleDeposit({ ...due, id: DEPOSIT }), {
        deposit: depositRow({ status: 'completed' }),
      }),
      await ran('advanceRebalance(due): created -> processing', () => steps.advanceRebalance({ ...due, id: REBALANCE }), {
        rebalance: rebalanceRow('created'),
      }),
      await ran('advanceRebalance(due): processing -> completed', () => steps.advanceRebalance({ ...due, id: REBALANCE }), {
        rebalance: rebalanceRow('processing'),
        wallet: walletRow({ status: 'rebalance_active' }),
      }),
      await ran(
        'advanceRebalance(due): a risk exit completes and sweeps what its source earned meanwhile',
        () => steps.advanceRebalance({ ...due, id: REBALANCE }),
        {
          rebalance: rebalanceRow('processing', JAAA),
          wallet: walletRow({ status: 'rebalance_active' }),
        },
      ),
      await ran(
        "advanceRebalances([a step], {skipLocked: true}) (the worker's batch)",
        () => steps.advanceRebalances([{ ...due, id: REBALANCE }], { skipLocked: true }),
        {
          rebalance: rebalanceRow('created'),
        },
      ),
      await ran('advanceWithdrawal(due): a new leg leaves planning', () => steps.advanceWithdrawal(due), {
        withdrawal: approving,
        running: { withdrawals: true, rebalances: false },
      }),
      await ran(
        "advanceWithdrawal(due): under a policy of 'all', the leg waits for approval with its activity",
        () => steps.advanceWithdrawal(due),
        {
          withdrawal: approving,
          policy: { withdrawals: 'all', threshold: null, quorum: 1 },
        },
      ),
      await ran(
        'advanceWithdrawal(due): a broadcast leg confirms (sandbox: the armed failure taken first) and the withdrawal settles',
        () => steps.advanceWithdrawal(due),
        {
          withdrawal: advancing,
          wallet: walletRow({ status: 'withdrawal_active' }),
        },
      ),
      await ran('advanceWithdrawal(due): a leg whose approval deadline passed fails, its money freed', () => steps.advanceWithdrawal(due), {
        withdrawal: lapsed,
        wallet: walletRow({ status: 'withdrawal_active' }),
      }),
      await ran(
        'expireDepositAddressSetup(due): the setup and its activity fail',
        () => steps.expireDepositAddressSetup({ ...due, id: SETUP }),
        { setup: setupRow() },
      ),
      await ran(
        "expireApprovalChange(due): under the organization's approvals lock, the change and its activity fail",
        () => steps.expireApprovalChange({ id: CHANGE, orgId: ORG, walletId: '' }),
        { change: changeRow() },
      ),
    ];
  },
  'wallets.service': async () => {
    const wallets = feature(WalletsService);
    const create = {
      requestId: REQUEST,
      label: 'ops',
      autoRebalance: true,
      strategy: { allocations: { usdc: [{ yieldSourceId: JAAA, pct: 100 }] } },
    };
    const strategy = { walletId: WALLET, requestId: REQUEST, allocations: { usdc: [{ yieldSourceId: JAAA, pct: 100 }] } };
    return [
      await ran('create(ctx, {requestId, label, autoRebalance, strategy})', () => wallets.create(ctx, create as never)),
      await ran('create(ctx, ...): a replay, answered as first', () => wallets.create(ctx, create as never), { fresh: false }),
      await ran('get(ctx, walletId)', () => wallets.get(ctx, WALLET)),
      await ran('list(ctx, {limit 20})', () => wallets.list(ctx, { limit: 20 } as never)),
      await ran(
        'updateStrategy(ctx, {walletId, requestId, allocations}): on an autoRebalance wallet, with the rebalance that reaches it',
        () => wallets.updateStrategy(ctx, strategy as never),
        { wallet: walletRow({ autoRebalance: true, strategy: { usdc: [] } }) },
      ),
      await ran('updateStrategy(ctx, ...): a wallet without autoRebalance', () => wallets.updateStrategy(ctx, strategy as never)),
    ];
  },
  'withdrawals.service': async () => {
    const service = feature(WithdrawalsService);
    const create = {
      walletId: WALLET,
      requestId: REQUEST,
      destinationChain: 'ethereum_sepolia',
      destinationAddress: PAYOUT_ADDRESS,
      amountUsd: '30',
    };
    const ref = { walletId: WALLET, withdrawalId: WITHDRAWAL };
    const planned = await withdrawalRow();
    const retryable = await withdrawalRow(failedRetryably);
    return [
      await ran("create(ctx, {walletId, requestId, 'ethereum_sepolia', address, 30 USD})", () => service.create(ctx, create as never), {
        withdrawal: planned,
      }),
      await ran('create(ctx, ...): a replay, the first withdrawal read', () => service.create(ctx, create as never), {
        fresh: false,
        withdrawal: planned,
      }),
      await ran('get(ctx, {walletId, withdrawalId}) (its wallet checked through Prisma)', () => service.get(ctx, ref as never), {
        withdrawal: planned,
      }),
      await ran('preview(ctx, {walletId, destinationChain})', () =>
        service.preview(ctx, { walletId: WALLET, destinationChain: 'ethereum_sepolia' } as never),
      ),
      await ran('cancel(ctx, {walletId, withdrawalId}): without a requestId', () => service.cancel(ctx, ref as never), {
        withdrawal: planned,
        wallet: walletRow({ status: 'withdrawal_active' }),
      }),
      await ran(
        'cancel(ctx, {walletId, withdrawalId, requestId}): idempotent, the answer remembered',
        () => service.cancel(ctx, { ...ref, requestId: REQUEST } as never),
        {
          withdrawal: planned,
          wallet: walletRow({ status: 'withdrawal_active' }),
        },
      ),
      await ran(
        'cancel(ctx, {..., requestId}): a replay, answered as first',
        () => service.cancel(ctx, { ...ref, requestId: REQUEST } as never),
        { withdrawal: planned, fresh: false },
      ),
      await ran(
        'retryPayout(ctx, {walletId, withdrawalId, payoutId}): a settled withdrawal reopens',
        () => service.retryPayout(ctx, { ...ref, payoutId: LEG } as never),
        { withdrawal: { ...retryable, status: 'failed', completedAt: T0 } },
      ),
      await ran(
        'retryPayout(ctx, ...): the withdrawal still processing',
        () => service.retryPayout(ctx, { ...ref, payoutId: LEG } as never),
        { withdrawal: retryable },
      ),
      await ran(
        'cancelPayout(ctx, {walletId, withdrawalId, payoutId}): its only leg, so the withdrawal settles',
        () => service.cancelPayout(ctx, { ...ref, payoutId: LEG } as never),
        { withdrawal: await withdrawalRow(awaitingApproval(LATER)), wallet: walletRow({ status: 'withdrawal_active' }) },
      ),
    ];
  },
  'approvals.service': async () => {
    const service = feature(ApprovalsService);
    return [
      await ran(
        'createApprover(ctx, {label, publicKey, proof of possession}): the first approver, applied at once',
        () => service.createApprover(ctx, newApprover()),
        {
          approvers: 0,
          approverKnown: false,
        },
      ),
      await ran('createApprover(ctx, ...): with approvers, pending', () => service.createApprover(ctx, newApprover()), {
        approverKnown: false,
      }),
      await ran(
        'deleteApprover(ctx, {approverId}): pending, an activity of the approvers',
        () => service.deleteApprover(ctx, { approverId: APPROVER } as never),
        { approvers: 2 },
      ),
      await ran(
        'deleteApprover(ctx, {approverId}): without approvers to ask, applied at once with its audit entry',
        () => service.deleteApprover(ctx, { approverId: APPROVER } as never),
        { approvers: 0 },
      ),
      await ran("putPolicy(ctx, {withdrawals 'all', quorum 1}): stronger, applied at once", () =>
        service.putPolicy(ctx, { withdrawals: 'all', quorum: 1 } as never),
      ),
      await ran(
        "putPolicy(ctx, {withdrawals 'none', quorum 1}): weaker than the policy in force, pending",
        () => service.putPolicy(ctx, { withdrawals: 'none', quorum: 1 } as never),
        {
          policy: { withdrawals: 'all', threshold: null, quorum: 1 },
        },
      ),
    ];
  },
  'address-book.service': async () => {
    const service = feature(AddressBookService);
    const input = { chain: 'ethereum_sepolia', address: PAYOUT_ADDRESS, label: 'payroll' };
    return [
      await ran(
        "create(ctx, {'ethereum_sepolia', address, label}): without approvers, applied at once",
        () => service.create(ctx, input as never),
        { approvers: 0, whitelisted: false },
      ),
      await ran('create(ctx, ...): with approvers, pending', () => service.create(ctx, input as never), { whitelisted: false }),
      await ran('remove(ctx, {entryId}): without approvers, applied at once', () => service.remove(ctx, { entryId: ENTRY } as never), {
        approvers: 0,
      }),
      await ran('remove(ctx, {entryId}): with approvers, pending', () => service.remove(ctx, { entryId: ENTRY } as never)),
    ];
  },
  'deposits.service': async () => [
    await ran("simulate(ctx, {walletId, amountUsd '25', chain 'ethereum_sepolia'})", () =>
      feature(DepositsService).simulate(ctx, { walletId: WALLET, amountUsd: '25', chain: 'ethereum_sepolia' } as never),
    ),
  ],
  'deposit-addresses.service': async () => {
    const service = feature(DepositAddressesService);
    const input = { walletId: WALLET, chain: env.stellarChain };
    return [
      await ran("enable(ctx, {walletId, 'stellar_testnet'}): the first setup", () => service.enable(ctx, input as never)),
      await ran('enable(ctx, ...): after a rejected setup, started again', () => service.enable(ctx, input as never), {
        setup: setupRow({ status: 'rejected' }),
      }),
      await ran('enable(ctx, ...): a pending setup, answered as it is', () => service.enable(ctx, input as never), {
        setup: setupRow({ dueAt: LATER }),
      }),
      await failing('enable(ctx, ...): no approvers, rolled back', () => service.enable(ctx, input as never), { approvers: 0 }),
    ];
  },
  'rebalances.service': async () => {
    const service = feature(RebalancesService);
    const input = { walletId: WALLET, requestId: REQUEST, allocations: [{ from: CASH, to: JAAA, amountUsd: '10' }] };
    return [
      await ran('allocate(ctx, {walletId, requestId, [10 USD from cash to JAAA]})', () => service.allocate(ctx, input as never)),
      await ran('allocate(ctx, ...): a replay, answered as first', () => service.allocate(ctx, input as never), { fresh: false }),
      await ran('preview(ctx, {walletId, allocations})', () => service.preview(ctx, input as never)),
    ];
  },
  'risk-projection': async () => {
    const logger = pino({ level: 'silent' });
    const event = (action: object) =>
      ({
        id: CHANGE,
        type: 'portfolio_wallet.risk.action.status_changed',
        orgId: ORG,
        source: 'risk',
        occurredAt: T0.toISOString(),
        payload: {
          action: { id: REQUEST, organizationId: ORG, portfolioWalletId: WALLET, riskAlertId: ACTIVITY, yieldSourceId: JAAA, ...action },
        },
      }) as never;
    const apply = (action: object) => () => sql.$transaction((tx) => applyRiskEvent(tx as never, event(action), { env, logger, now: T0 }));
    const exit = { outcome: 'exit_position', status: 'executing' };
    return [
      await ran(
        'applyRiskEvent(tx, prevent_additional_allocation executed): the block recorded',
        apply({ outcome: 'prevent_additional_allocation', status: 'executed' }),
      ),
      await ran('applyRiskEvent(tx, exit_position executing): the exit rebalance (the whole position in JAAA to cash)', apply(exit)),
      await ran('applyRiskEvent(tx, exit_position executing): the action exited already, nothing to do', apply(exit), { fresh: false }),
    ];
  },
  'turnkey.service': async () => {
    const service = feature(TurnkeyService);
    const waiting = await withdrawalRow(awaitingApproval(LATER));
    const setupActivity = activityRow({ kind: 'deposit_address_setup', setupId: SETUP, withdrawalId: null, legId: null });
    const changeActivity = activityRow({ kind: 'approver_change', walletId: null, withdrawalId: null, legId: null, changeId: CHANGE });
    const vote = (action: 'approve' | 'reject') => () => service.vote(ctx, stampedVote(action));
    const votes = (action: 'approve' | 'reject') => [
      { activityId: ACTIVITY, publicKey: approver.publicKey, approverId: APPROVER, action, createdAt: T0 },
    ];
    return [
      await ran(
        "approvalRequest(ctx, {activityId, 'approve'})",
        () => service.approvalRequest(ctx, { activityId: ACTIVITY, action: 'approve' } as never),
        { activity: activityRow() },
      ),
      await ran(
        "vote(ctx, approve, quorum 1) on a payout leg: the leg goes on, the wallet's other withdrawals look again",
        vote('approve'),
        {
          activity: activityRow(),
          withdrawal: waiting,
          votes: votes('approve'),
        },
      ),
      await ran('vote(ctx, reject) on a payout leg: the leg is cancelled and, its only leg, the withdrawal settles', vote('reject'), {
        activity: activityRow(),
        withdrawal: waiting,
        votes: votes('reject'),
        wallet: walletRow({ status: 'withdrawal_active' }),
      }),
      await ran('vote(ctx, approve, quorum 2): recorded, the quorum not reached yet', vote('approve'), {
        activity: activityRow({ quorum: 2 }),
        withdrawal: waiting,
        votes: votes('approve'),
      }),
      await ran('vote(ctx, approve) on an activity completed already: answered as it is', vote('approve'), {
        activity: activityRow({ status: 'ACTIVITY_STATUS_COMPLETED' }),
        withdrawal: waiting,
      }),
      await ran('vote(ctx, approve) on a Stellar setup: approved, its address added to the wallet', vote('approve'), {
        activity: setupActivity,
        setup: setupRow(),
        votes: votes('approve'),
      }),
      await ran('vote(ctx, reject) on a Stellar setup', vote('reject'), {
        activity: setupActivity,
        setup: setupRow(),
        votes: votes('reject'),
      }),
      await ran('vote(ctx, approve) on a change adding an approver: applied with its audit entry, the change approved', vote('approve'), {
        activity: changeActivity,
        change: changeRow({ dueAt: LATER }),
        votes: votes('approve'),
        approverKnown: false,
      }),
      await ran('vote(ctx, approve) on a change adding an approver of a key added meanwhile: the change failed', vote('approve'), {
        activity: changeActivity,
        change: changeRow({ dueAt: LATER }),
        votes: votes('approve'),
      }),
      await ran('vote(ctx, reject) on a change', vote('reject'), {
        activity: changeActivity,
        change: changeRow({ dueAt: LATER }),
        votes: votes('reject'),
      }),
    ];
  },
};

const twoWallets = [
  { orgId: ORG, walletId: WALLET },
  { orgId: ORG, walletId: OTHER_WALLET },
];

const moves = () => [{ from: CASH, to: JAAA, amount: 10n * USD }] as never;

function depositEvent() {
  return { type: 'portfolio_wallet.deposit.status_changed', orgId: ORG, payload: { id: DEPOSIT, status: 'processing' } } as never;
}

/** `listWalletsQuery` in each shape its filters and page give it. */
async function listShapes(): Promise<SqlFileEntry[]> {
  const entries: SqlFileEntry[] = [];
  for (const status of [undefined, 'idle,withdrawal_active'])
    for (const order of ['desc', 'asc'] as const) {
      const input = { limit: 20, ...(status ? { status } : {}), order };
      const filters = listFiltersOf(input as never);
      const page = new KeysetPage('wallets', filters.bound, input as never, { order: filters.order });
      entries.push(
        await ran(`listWalletsQuery(orgId, {${status ? 'status' : ''}}, a first page, order ${order})`, () =>
          runQueries(db, [wallets.listWalletsQuery(ORG, filters.where, page)]),
        ),
      );
    }
  return entries;
}

/**
 * Functions that run raw SQL (through `Writes`) without an entry of their own: each is a step of
 * a use case whose entries, named here, hold its statements.
 */
const RECORDED_ELSEWHERE: Record<string, string> = {
  'app/repositories/writes.ts: Writes.addEvent': "the statement builder: every `..., alone` entry and createDeposit's event",
  'app/repositories/writes.ts: Writes.run': 'the statement builder: every `..., alone` entry runs it',
  'app/repositories/due-work.repository.ts: addForgetProvision': 'forgetProvision(tx, walletId); addStatusUpdate (creating -> idle)',
  'app/repositories/idempotency-keys.repository.ts: addResponse': 'rememberResponse; allocate(ctx, ...); applyRiskEvent (exit)',
  'app/approvals/approval-changes.ts: applyChange':
    'createApprover / deleteApprover / putPolicy (applied at once); vote(ctx, approve) on a change',
  'app/approvals/approval-changes.ts: governChange':
    'approvals.service.sql (createApprover, deleteApprover, putPolicy), address-book.service.sql',
  'app/approvals/approval-changes.ts: decideChange': 'turnkey.service.sql: vote(ctx, approve | reject) on a change',
  'app/approvals/approval-changes.ts: expireChange': 'workflow-steps.sql: expireApprovalChange(due)',
  'app/deposit-addresses/setup-changes.ts: approveSetup': 'turnkey.service.sql: vote(ctx, approve) on a Stellar setup',
  'app/deposit-addresses/setup-changes.ts: rejectSetup': 'turnkey.service.sql: vote(ctx, reject) on a Stellar setup',
  'app/deposit-addresses/setup-changes.ts: expireSetup': 'workflow-steps.sql: expireDepositAddressSetup(due)',
  'app/rebalances/rebalance-changes.ts: addNewRebalance':
    'rebalances.service.sql: allocate(ctx, ...); risk-projection.sql: the exit rebalance',
  'app/rebalances/rebalance-changes.ts: createRebalance':
    'wallets.service.sql: updateStrategy on an autoRebalance wallet; settleDeposit(due) on one',
  'app/wallets/wallet-status-changes.ts: addWalletStatus': 'through setWalletStatus and addStatusOf (below)',
  'app/wallets/wallet-status-changes.ts: setWalletStatus': 'workflow-steps.sql: provisionWallet (creating -> idle)',
  'app/wallets/wallet-status-changes.ts: addStatusOf':
    'withdrawals.service.sql: create; workflow-steps.sql: advanceRebalance, advanceWithdrawal',
  'app/wallets/wallet-status-changes.ts: refreshWalletStatus': 'withdrawals.service.sql: cancel, cancelPayout (the withdrawal settles)',
  'app/withdrawals/withdrawal-changes.ts: addLegEvents':
    'workflow-steps.sql: advanceWithdrawal(due); withdrawals.service.sql: cancel, retryPayout',
  'app/withdrawals/withdrawal-changes.ts: createWithdrawal': 'withdrawals.service.sql: create(ctx, ...)',
  'app/withdrawals/withdrawal-changes.ts: cancelWithdrawal': 'withdrawals.service.sql: cancel(ctx, ...)',
  'app/withdrawals/withdrawal-changes.ts: releaseApprovedLeg': 'turnkey.service.sql: vote(ctx, approve, quorum 1) on a payout leg',
  'app/withdrawals/withdrawal-changes.ts: retryLeg': 'withdrawals.service.sql: retryPayout(ctx, ...)',
  'app/withdrawals/withdrawal-changes.ts: cancelLeg':
    'withdrawals.service.sql: cancelPayout; turnkey.service.sql: vote(ctx, reject) on a payout leg',
  'app/workflows/rebalance-progress.ts: addRebalanceStep': 'workflow-steps.sql: advanceRebalance(due), advanceRebalances',
  'app/workflows/risk-consumer.ts: RiskConsumer.onApplicationBootstrap':
    "hands the durable consumer (libs/events) the pool's raw calls; its handler's statements are risk-projection.sql's applyRiskEvent",
};

describe('the statements of wallet-service, as text in src/queries', () => {
  it("are those of the files, and every file is a module's (UPDATE_SQL=1 rewrites them)", async () => {
    expect(await queriesFileDifferences(fileURLToPath(new URL('.', import.meta.url)), 'src/queries/queries.spec.ts', files)).toEqual([]);
  });

  it('name every exported function of src/app that runs raw SQL, or it is recorded under the entries of a use case', () => {
    expect(unrecordedRawSqlFunctions(fileURLToPath(new URL('../..', import.meta.url)), RECORDED_ELSEWHERE)).toEqual([]);
  });
});
