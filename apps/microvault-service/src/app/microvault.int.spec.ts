import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ANVIL_DEV_KEYS, type LocalChain, startAnvil } from '@service/chain';
import type {
  MicroVaultCreatedVault,
  MicroVaultOperation,
  MicroVaultSubmitReply,
  MicroVaultTaskDto,
  RequestContext,
} from '@service/contracts';
import { type InProcessService, startServiceInProcess } from '@service/service-testing';
import { eventually } from '@service/testing';
import { type Address, createPublicClient, http, type PublicClient } from 'viem';
import { sepolia } from 'viem/chains';
import { microvaultConfigSpec } from '../config.js';
import { AppModule } from './app.module.js';
import { vaultManagerAbi } from './chain/generated/vault-manager.artifact.js';
import { TasksMsController } from './tasks/tasks-ms.controller.js';
import { TasksService } from './tasks/tasks.service.js';
import { VaultsService } from './vaults/vaults.service.js';

/**
 * microvault-service in process, on its own migrated schema and NATS server, against an anvil of
 * its own (chain id 11155111) with the operator key and the task worker on the e2e suite's short
 * intervals: vaults deployed on the chain, strategy and pause tasks through `TasksMsController`
 * (where the whole-strategy rules are checked) until the chain holds them, and the refusals of
 * `microvault.e2e.spec.ts` without a gateway, HTTP or a build. Crashes and chain outages stay in
 * the e2e suite.
 */
let chain: LocalChain;
let service: InProcessService;
let vaults: VaultsService;
let tasks: TasksService;
let submit: TasksMsController;
let publicClient: PublicClient;
let vaultA: MicroVaultCreatedVault;
let vaultB: MicroVaultCreatedVault;
const ORG_A = 'org_a';
const ORG_B = 'org_b';
const ORG_OFF = 'org_off';

beforeAll(async () => {
  chain = await startAnvil();
  service = await startServiceInProcess({
    name: 'microvault',
    module: AppModule.forRoot,
    spec: microvaultConfigSpec,
    env: {
      SEPOLIA_RPC_URL: chain.rpcUrl,
      MICROVAULT_OPERATOR_KEY: ANVIL_DEV_KEYS[0],
      CHAIN_CONFIRMATIONS: '1',
      CHAIN_RPC_TIMEOUT_MS: '1500',
      MICROVAULT_WORKER_INTERVAL_MS: '50',
      MICROVAULT_SIGNER_LEASE_MS: '1000',
    },
  });
  vaults = service.running.app.get(VaultsService);
  tasks = service.running.app.get(TasksService);
  submit = service.running.app.get(TasksMsController);
  publicClient = createPublicClient({ chain: sepolia, transport: http(chain.rpcUrl, { retryCount: 0 }) }) as PublicClient;
  await vaults.enableOrganization(ORG_A);
  await vaults.enableOrganization(ORG_B);
  vaultA = await vaults.createVault(ORG_A);
  vaultB = await vaults.createVault(ORG_B);
});

afterAll(async () => {
  await service?.stop();
  await chain?.stop();
});

const SOURCE_1 = `0x${'a1'.repeat(32)}`;
const SOURCE_2 = `0x${'b2'.repeat(32)}`;
const UNKNOWN_V4 = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const TX_HASH = /^0x[0-9a-f]{64}$/;
const errorOf = (code: string) => ({ name: 'ServiceError', code });

let keys = 0;
const newKey = () => `key-${(keys += 1)}`;
const ctxOf = (orgId: string): RequestContext => ({ orgId, role: 'owner', principalId: `user_${orgId}`, requestId: newKey() });
const strategy = (first: number, second: number, idle: number) => ({
  allocations: [
    { sourceId: SOURCE_1, targetBps: first },
    { sourceId: SOURCE_2, targetBps: second },
  ],
  idleTargetBps: idle,
});
/** Async, so the whole-strategy checks the controller throws at once reject the promise as over NATS. */
const putStrategy = async (
  vaultId: string,
  body: ReturnType<typeof strategy>,
  options: { org?: string; key?: string } = {},
): Promise<MicroVaultSubmitReply> =>
  submit.updateStrategy({ ctx: ctxOf(options.org ?? ORG_A), vaultId, idempotencyKey: options.key ?? newKey(), ...body });
const putPause = (
  vaultId: string,
  operation: MicroVaultOperation,
  paused: boolean,
  options: { org?: string; key?: string } = {},
): Promise<MicroVaultSubmitReply> =>
  submit.setPause({ ctx: ctxOf(options.org ?? ORG_A), vaultId, idempotencyKey: options.key ?? newKey(), operation, paused });

/** The task as a submitted one looks, with `fields` over it. */
const taskLike = (fields: Partial<Record<keyof MicroVaultTaskDto, unknown>>) => ({
  id: expect.stringMatching(UUID_V4),
  kind: expect.any(String),
  status: 'submitted',
  vaultId: vaultA.id,
  txHashes: [],
  error: null,
  createdAt: expect.stringMatching(ISO_MS),
  updatedAt: expect.stringMatching(ISO_MS),
  ...fields,
});

/** The task once the worker has finished it (confirmed or failed). */
const finished = (taskId: string, org = ORG_A): Promise<MicroVaultTaskDto> =>
  eventually(
    () => tasks.get(org, taskId),
    (task) => task.status === 'confirmed' || task.status === 'failed',
    10_000,
  );

const flagsOf = async (vaultId: string) => (await vaults.pauseStatus(ORG_A, vaultId)).flags;

describe('organizations and vaults', () => {
  it('deploys a vault of the organization on the chain and registers it under a version-4 id', async () => {
    expect(vaultA).toEqual({
      id: expect.stringMatching(UUID_V4),
      orgId: ORG_A,
      chainId: 11155111,
      address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
    });
    expect(await publicClient.getCode({ address: vaultA.address as Address })).toMatch(/^0x[0-9a-f]{10,}/);
    await expect(vaults.enableOrganization(ORG_A)).resolves.toEqual({ orgId: ORG_A, enabledAt: expect.stringMatching(ISO_MS) });
    await expect(vaults.pauseStatus(ORG_B, vaultB.id)).resolves.toEqual({ flags: '0' });
  });

  it('answers microvaults_not_enabled for an organization that is not enabled, on every use case', async () => {
    await expect(vaults.createVault(ORG_OFF)).rejects.toMatchObject(errorOf('microvaults_not_enabled'));
    await expect(vaults.pauseStatus(ORG_OFF, vaultA.id)).rejects.toMatchObject(errorOf('microvaults_not_enabled'));
    await expect(putStrategy(vaultA.id, strategy(5000, 0, 5000), { org: ORG_OFF })).rejects.toMatchObject(
      errorOf('microvaults_not_enabled'),
    );
    await expect(putPause(vaultA.id, 'subscriptions', true, { org: ORG_OFF })).rejects.toMatchObject(errorOf('microvaults_not_enabled'));
    await expect(tasks.list(ORG_OFF, vaultA.id, {})).rejects.toMatchObject(errorOf('microvaults_not_enabled'));
    await expect(tasks.get(ORG_OFF, UNKNOWN_V4)).rejects.toMatchObject(errorOf('microvaults_not_enabled'));
  });

  it("answers vault_not_found for an unknown vault and another organization's, and task_not_found", async () => {
    await expect(vaults.pauseStatus(ORG_A, UNKNOWN_V4)).rejects.toMatchObject(errorOf('vault_not_found'));
    await expect(vaults.pauseStatus(ORG_A, vaultB.id)).rejects.toMatchObject(errorOf('vault_not_found'));
    await expect(putPause(vaultB.id, 'subscriptions', true)).rejects.toMatchObject(errorOf('vault_not_found'));
    await expect(tasks.list(ORG_A, vaultB.id, {})).rejects.toMatchObject(errorOf('vault_not_found'));
    await expect(tasks.get(ORG_A, UNKNOWN_V4)).rejects.toMatchObject(errorOf('task_not_found'));
  });
});

describe('strategy tasks', () => {
  it('goes submitted -> confirmed, and the chain holds exactly the submitted targets', async () => {
    const accepted = await putStrategy(vaultA.id, strategy(6000, 2500, 1500));
    expect(accepted).toEqual({ task: taskLike({ kind: 'update_strategy' }), replayed: false });
    await expect(tasks.get(ORG_A, accepted.task.id)).resolves.toEqual(
      taskLike({ kind: 'update_strategy', id: accepted.task.id, status: expect.any(String), txHashes: expect.any(Array) }),
    );
    const task = await finished(accepted.task.id);
    expect(task).toEqual(
      taskLike({ id: accepted.task.id, kind: 'update_strategy', status: 'confirmed', txHashes: [expect.stringMatching(TX_HASH)] }),
    );
    const receipt = await publicClient.getTransactionReceipt({ hash: task.txHashes[0] as `0x${string}` });
    expect(receipt.status).toBe('success');
    await expect(
      publicClient.readContract({ address: vaultA.address as Address, abi: vaultManagerAbi, functionName: 'strategy' }),
    ).resolves.toEqual([[SOURCE_1, SOURCE_2], [6000, 2500], 1500]);
  });

  it('answers the same key and body with the same task, and refuses the key with another body', async () => {
    const key = newKey();
    const first = await putStrategy(vaultA.id, strategy(2000, 3000, 5000), { key });
    expect(first.replayed).toBe(false);
    const replays = await Promise.all([
      putStrategy(vaultA.id, strategy(2000, 3000, 5000), { key }),
      putStrategy(vaultA.id, strategy(2000, 3000, 5000), { key }),
    ]);
    for (const replay of replays) expect(replay).toEqual({ task: expect.objectContaining({ id: first.task.id }), replayed: true });
    await expect(putStrategy(vaultA.id, strategy(2000, 3001, 4999), { key })).rejects.toMatchObject(errorOf('idempotency_key_conflict'));
    expect((await finished(first.task.id)).status).toBe('confirmed');
  });

  it('refuses targets that do not total 10000, naming the total, and a source given twice', async () => {
    await expect(putStrategy(vaultA.id, strategy(5000, 3000, 1000))).rejects.toMatchObject({
      ...errorOf('invalid_request'),
      message: expect.stringContaining('9000'),
    });
    const twice = {
      allocations: [
        { sourceId: SOURCE_1, targetBps: 5000 },
        { sourceId: SOURCE_1.toUpperCase().replace('0X', '0x'), targetBps: 5000 },
      ],
      idleTargetBps: 0,
    };
    await expect(putStrategy(vaultA.id, twice)).rejects.toMatchObject({
      ...errorOf('invalid_request'),
      message: `sourceId ${SOURCE_1} appears more than once.`,
    });
  });
});

describe('pause tasks and status', () => {
  const run = async (operation: MicroVaultOperation, paused: boolean) => {
    const accepted = await putPause(vaultA.id, operation, paused);
    expect(accepted).toEqual({ task: taskLike({ kind: 'set_pause' }), replayed: false });
    return finished(accepted.task.id);
  };

  it('sets and clears the flags as documented (subscriptions bit 0, strategy_updates bit 2)', async () => {
    expect(await flagsOf(vaultA.id)).toBe('0');
    expect(await run('subscriptions', true)).toMatchObject({
      status: 'confirmed',
      txHashes: [expect.stringMatching(TX_HASH)],
      error: null,
    });
    expect(await flagsOf(vaultA.id)).toBe('1');
    expect((await run('strategy_updates', true)).status).toBe('confirmed');
    expect(await flagsOf(vaultA.id)).toBe('5');
    expect((await run('subscriptions', false)).status).toBe('confirmed');
    expect(await flagsOf(vaultA.id)).toBe('4');
  });

  it('ends a change the contract would revert failed with its reason, without a transaction', async () => {
    const accepted = await putStrategy(vaultA.id, strategy(1000, 1000, 8000));
    const task = await finished(accepted.task.id);
    expect(task).toEqual(
      taskLike({
        id: accepted.task.id,
        kind: 'update_strategy',
        status: 'failed',
        error: expect.stringContaining('strategy updates paused'),
      }),
    );
    expect((await run('strategy_updates', false)).status).toBe('confirmed');
    expect(await flagsOf(vaultA.id)).toBe('0');
  });
});

describe('listing tasks', () => {
  it("lists a vault's tasks newest first, page by page, and refuses a malformed cursor", async () => {
    const first = await tasks.list(ORG_A, vaultA.id, { limit: 2 });
    expect(first).toEqual({
      data: [expect.objectContaining({ vaultId: vaultA.id }), expect.objectContaining({ vaultId: vaultA.id })],
      nextCursor: expect.any(String),
    });
    const seen = [...first.data];
    for (let cursor = first.nextCursor; cursor;) {
      const page = await tasks.list(ORG_A, vaultA.id, { limit: 2, cursor });
      seen.push(...page.data);
      cursor = page.nextCursor;
    }
    expect(new Set(seen.map((task) => task.id)).size).toBe(seen.length);
    expect(seen.length).toBeGreaterThanOrEqual(7);
    const times = seen.map((task) => task.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    await expect(tasks.list(ORG_A, vaultA.id, { cursor: 'bogus' })).rejects.toMatchObject(errorOf('invalid_cursor'));
    await expect(tasks.list(ORG_B, vaultB.id, {})).resolves.toEqual({ data: [], nextCursor: null });
  });
});
