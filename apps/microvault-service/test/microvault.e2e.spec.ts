import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type MicroVaultCreatedVault, type MicroVaultTaskDto, SUBJECTS } from '@service/contracts';
import { NatsRequester } from '@service/nats';
import { eventually } from '@service/testing';
import type { Address, Hex } from 'viem';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the ABI the app compiles, to read its vaults on the chain
import { vaultManagerAbi } from '../src/app/chain/generated/vault-manager.artifact.js';
import { type MicroVaultSystem, OPERATOR, startMicroVaultSystem } from './support.js';

let mv: MicroVaultSystem;
let vaultA: MicroVaultCreatedVault;
let vaultB: MicroVaultCreatedVault;
let tokenA: string;
let tokenB: string;
let tokenOff: string;
let keys = 0;

const SOURCE_1 = `0x${'a1'.repeat(32)}`;
const SOURCE_2 = `0x${'b2'.repeat(32)}`;
const UNKNOWN_V4 = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
const STATUS_RE = /^(0|[1-9][0-9]*)$/;

beforeAll(async () => {
  mv = await startMicroVaultSystem();
  await mv.enable('org_a');
  await mv.enable('org_b');
  vaultA = await mv.createVault('org_a');
  vaultB = await mv.createVault('org_b');
  tokenA = await mv.system.auth.token({ org: 'org_a', sub: 'user_a' });
  tokenB = await mv.system.auth.token({ org: 'org_b', sub: 'user_b' });
  tokenOff = await mv.system.auth.token({ org: 'org_off', sub: 'user_off' });
}, 120_000);

afterAll(async () => {
  await mv?.stop();
}, 60_000);

interface Result {
  status: number;
  body: Record<string, unknown>;
}

async function http(path: string, options: { token?: string; method?: string; key?: string | null; body?: unknown } = {}): Promise<Result> {
  const headers: Record<string, string> = { authorization: `Bearer ${options.token ?? tokenA}` };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.key !== undefined && options.key !== null) headers['idempotency-key'] = options.key;
  const response = await fetch(`${mv.gateway}${path}`, {
    method: options.method ?? 'GET',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const newKey = () => `key-${(keys += 1)}-${Date.now()}`;
const putStrategy = (vaultId: string, body: unknown, options: { token?: string; key?: string | null } = {}) =>
  http(`/v2/microvaults/vaults/${vaultId}/strategy`, {
    method: 'PUT',
    body,
    key: options.key === undefined ? newKey() : options.key,
    token: options.token,
  });
const putPause = (vaultId: string, body: unknown, options: { token?: string; key?: string | null } = {}) =>
  http(`/v2/microvaults/vaults/${vaultId}/pause`, {
    method: 'PUT',
    body,
    key: options.key === undefined ? newKey() : options.key,
    token: options.token,
  });
const pauseStatus = (vaultId: string, token?: string) => http(`/v2/microvaults/vaults/${vaultId}/pause-status`, { token });

const strategy = (first: number, second: number, idle: number) => ({
  allocations: [
    { sourceId: SOURCE_1, targetBps: first },
    { sourceId: SOURCE_2, targetBps: second },
  ],
  idleTargetBps: idle,
});

async function waitForTask(taskId: string, statuses: string[], timeoutMs = 15_000): Promise<MicroVaultTaskDto> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await http(`/v2/microvaults/tasks/${taskId}`);
    const task = result.body as unknown as MicroVaultTaskDto;
    if (statuses.includes(task.status) || Date.now() > deadline) return task;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The service's first log line containing `text`; lines come through a pipe, a little after the replies. */
const logLine = (text: string) =>
  eventually(
    () => mv.service.lines.find((each) => each.includes(text)),
    (line) => line !== undefined,
  );

function expectError(result: Result, status: number, error: string): void {
  expect(result.status).toBe(status);
  expect(result.body).toEqual({ error, message: expect.any(String) });
}

function expectTask(task: unknown, fields: Record<string, unknown>): void {
  expect(task).toEqual({
    id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
    kind: expect.any(String),
    status: expect.any(String),
    vaultId: expect.any(String),
    txHashes: expect.any(Array),
    error: null,
    createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    ...fields,
  });
}

describe('access rules', () => {
  it('answers its health subject once its database and NATS answer', async () => {
    // As the gateway asks it for /readyz: the operator CLI's NATS user may send operator subjects only.
    const bus = await mv.system.nats.connect('gateway');
    try {
      await expect(new NatsRequester(bus, 30_000).request(SUBJECTS.microvault.health, {})).resolves.toEqual({
        service: 'microvault',
        status: 'ok',
      });
    } finally {
      await bus.close();
    }
  });

  it('registers vaults with version-4 ids on the chain', async () => {
    expect(vaultA.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(vaultA.chainId).toBe(11155111);
    expect(await mv.publicClient.getCode({ address: vaultA.address as Address })).toMatch(/^0x[0-9a-f]{10,}/);
  });

  it('answers 403 microvaults_not_enabled on every route for an organization that is not enabled', async () => {
    expectError(await pauseStatus(vaultA.id, tokenOff), 403, 'microvaults_not_enabled');
    expectError(await putStrategy(vaultA.id, strategy(5000, 0, 5000), { token: tokenOff }), 403, 'microvaults_not_enabled');
    expectError(
      await putPause(vaultA.id, { operation: 'subscriptions', paused: true }, { token: tokenOff }),
      403,
      'microvaults_not_enabled',
    );
    expectError(await http(`/v2/microvaults/vaults/${vaultA.id}/tasks`, { token: tokenOff }), 403, 'microvaults_not_enabled');
    expectError(await http(`/v2/microvaults/tasks/${UNKNOWN_V4}`, { token: tokenOff }), 403, 'microvaults_not_enabled');
  });

  it('refuses a vault or task id that is not a version-4 UUID with 400 invalid_request', async () => {
    for (const id of ['not-a-uuid', '6ba7b810-9dad-11d1-80b4-00c04fd430c8', '3f2504e0-4f89-41d3-ca0c-0305e82c3301']) {
      expectError(await pauseStatus(id), 400, 'invalid_request');
      expectError(await putStrategy(id, strategy(5000, 0, 5000)), 400, 'invalid_request');
      expectError(await http(`/v2/microvaults/tasks/${id}`), 400, 'invalid_request');
    }
  });

  it("answers 404 vault_not_found for an unknown vault and for another organization's vault", async () => {
    expectError(await pauseStatus(UNKNOWN_V4), 404, 'vault_not_found');
    expectError(await pauseStatus(vaultB.id), 404, 'vault_not_found');
    expect((await pauseStatus(vaultB.id, tokenB)).body).toEqual({ flags: '0' });
    expectError(await putPause(vaultB.id, { operation: 'subscriptions', paused: true }), 404, 'vault_not_found');
    expectError(await http(`/v2/microvaults/vaults/${vaultB.id}/tasks`), 404, 'vault_not_found');
    expectError(await http(`/v2/microvaults/tasks/${UNKNOWN_V4}`), 404, 'task_not_found');
  });

  it("refuses a member the vault's strategy and its pause (403 forbidden, no task); an admin submits it", async () => {
    const member = await mv.system.auth.token({ org: 'org_a', role: 'member', sub: 'user_a_member' });
    const admin = await mv.system.auth.token({ org: 'org_a', role: 'admin', sub: 'user_a_admin' });
    const before = await http(`/v2/microvaults/vaults/${vaultA.id}/tasks`);
    const refused = await putStrategy(vaultA.id, strategy(5000, 0, 5000), { token: member });
    expect(refused).toEqual({
      status: 403,
      body: { error: 'forbidden', message: 'Only organization owners and admins may change a strategy.' },
    });
    expect(await putPause(vaultA.id, { operation: 'subscriptions', paused: true }, { token: member })).toEqual({
      status: 403,
      body: { error: 'forbidden', message: 'Only organization owners and admins may pause or resume a vault.' },
    });
    expect((await http(`/v2/microvaults/vaults/${vaultA.id}/tasks`)).body['data']).toEqual(before.body['data']);
    expect((await pauseStatus(vaultA.id, member)).status).toBe(200);
    const accepted = await putStrategy(vaultA.id, strategy(5000, 0, 5000), { token: admin });
    expect(accepted.status).toBe(202);
    expect(await waitForTask((accepted.body['task'] as MicroVaultTaskDto).id, ['confirmed', 'failed'])).toMatchObject({
      status: 'confirmed',
    });
  });

  it('requires the bearer token', async () => {
    const response = await fetch(`${mv.gateway}/v2/microvaults/vaults/${vaultA.id}/pause-status`);
    expect(response.status).toBe(401);
  });
});

describe('request validation', () => {
  it('requires an Idempotency-Key of 1 to 200 characters', async () => {
    expectError(await putStrategy(vaultA.id, strategy(5000, 0, 5000), { key: null }), 400, 'invalid_request');
    expectError(await putPause(vaultA.id, { operation: 'subscriptions', paused: true }, { key: null }), 400, 'invalid_request');
    expectError(await putStrategy(vaultA.id, strategy(5000, 0, 5000), { key: 'k'.repeat(201) }), 400, 'invalid_request');
    expectError(await putStrategy(vaultA.id, strategy(5000, 0, 5000), { key: '' }), 400, 'invalid_request');
  });

  it('refuses targets that do not total 10000 with a message naming the total', async () => {
    const result = await putStrategy(vaultA.id, strategy(5000, 3000, 1000));
    expectError(result, 400, 'invalid_request');
    expect(result.body['message']).toContain('9000');
  });

  it('refuses malformed strategy and pause bodies with 400 invalid_request', async () => {
    const bad = [
      { allocations: [{ sourceId: '0x1234', targetBps: 10000 }], idleTargetBps: 0 },
      { allocations: [{ sourceId: SOURCE_1, targetBps: 5000.5 }], idleTargetBps: 4999.5 },
      { allocations: [{ sourceId: SOURCE_1, targetBps: -1 }], idleTargetBps: 10001 },
      { allocations: 'none', idleTargetBps: 10000 },
      { allocations: [] },
      {
        allocations: [
          { sourceId: SOURCE_1, targetBps: 5000 },
          { sourceId: SOURCE_1, targetBps: 5000 },
        ],
        idleTargetBps: 0,
      },
    ];
    for (const body of bad) expectError(await putStrategy(vaultA.id, body), 400, 'invalid_request');
    expectError(await putPause(vaultA.id, { operation: 'everything', paused: true }), 400, 'invalid_request');
    expectError(await putPause(vaultA.id, { operation: 'subscriptions', paused: 'yes' }), 400, 'invalid_request');
    expectError(await http(`/v2/microvaults/vaults/${vaultA.id}/tasks?limit=0`), 400, 'invalid_request');
    expectError(await http(`/v2/microvaults/vaults/${vaultA.id}/tasks?cursor=bogus`), 400, 'invalid_request');
  });
});

describe('strategy tasks', () => {
  it('goes submitted -> confirmed and the chain holds exactly the submitted targets', async () => {
    const body = strategy(6000, 2500, 1500);
    const accepted = await putStrategy(vaultA.id, body);
    expect(accepted.status).toBe(202);
    expectTask(accepted.body['task'], { kind: 'update_strategy', status: 'submitted', vaultId: vaultA.id, txHashes: [] });
    const task = await waitForTask((accepted.body['task'] as MicroVaultTaskDto).id, ['confirmed', 'failed']);
    expectTask(task, {
      kind: 'update_strategy',
      status: 'confirmed',
      vaultId: vaultA.id,
      txHashes: [expect.stringMatching(/^0x[0-9a-f]{64}$/)],
    });
    const receipt = await mv.publicClient.getTransactionReceipt({ hash: task.txHashes[0] as Hex });
    expect(receipt.status).toBe('success');
    const onChain = await mv.publicClient.readContract({
      address: vaultA.address as Address,
      abi: vaultManagerAbi,
      functionName: 'strategy',
    });
    expect(onChain).toEqual([[SOURCE_1, SOURCE_2], [6000, 2500], 1500]);
  });

  it('replays the same key and body as the same task (200) and refuses the key with another body (409)', async () => {
    const key = newKey();
    const first = await putStrategy(vaultA.id, strategy(2000, 3000, 5000), { key });
    expect(first.status).toBe(202);
    const [again, concurrent] = await Promise.all([
      putStrategy(vaultA.id, strategy(2000, 3000, 5000), { key }),
      putStrategy(vaultA.id, strategy(2000, 3000, 5000), { key }),
    ]);
    for (const replay of [again, concurrent]) {
      expect(replay.status).toBe(200);
      expect((replay.body['task'] as MicroVaultTaskDto).id).toBe((first.body['task'] as MicroVaultTaskDto).id);
    }
    expectError(await putStrategy(vaultA.id, strategy(2000, 3001, 4999), { key }), 409, 'idempotency_key_conflict');
    await waitForTask((first.body['task'] as MicroVaultTaskDto).id, ['confirmed']);
  });

  it('creates one task for concurrent first requests with the same key', async () => {
    const key = newKey();
    const results = await Promise.all([0, 1, 2].map(() => putPause(vaultA.id, { operation: 'redemptions', paused: false }, { key })));
    const ids = new Set(results.map((result) => (result.body['task'] as MicroVaultTaskDto).id));
    expect(ids.size).toBe(1);
    expect(results.map((result) => result.status).sort()).toEqual([200, 200, 202]);
  });
});

describe('pause tasks and status', () => {
  it('pause then resume changes flags as documented (subscriptions bit 0, strategy_updates bit 2)', async () => {
    const flags = async () => (await pauseStatus(vaultA.id)).body;
    expect(await flags()).toEqual({ flags: '0' });
    const run = async (operation: string, paused: boolean) => {
      const accepted = await putPause(vaultA.id, { operation, paused });
      expect(accepted.status).toBe(202);
      expectTask(accepted.body['task'], { kind: 'set_pause', status: 'submitted', vaultId: vaultA.id, txHashes: [] });
      const done = await waitForTask((accepted.body['task'] as MicroVaultTaskDto).id, ['confirmed', 'failed']);
      expect(done.status).toBe('confirmed');
    };
    await run('subscriptions', true);
    expect(await flags()).toEqual({ flags: '1' });
    await run('strategy_updates', true);
    expect(await flags()).toEqual({ flags: '5' });
    await run('subscriptions', false);
    expect(await flags()).toEqual({ flags: '4' });
    expect((await flags())['flags']).toMatch(STATUS_RE);
  });

  it('ends a reverting change failed with its reason and sends no transaction', async () => {
    const accepted = await putStrategy(vaultA.id, strategy(1000, 1000, 8000));
    expect(accepted.status).toBe(202);
    const task = await waitForTask((accepted.body['task'] as MicroVaultTaskDto).id, ['confirmed', 'failed']);
    expectTask(task, {
      kind: 'update_strategy',
      status: 'failed',
      vaultId: vaultA.id,
      txHashes: [],
      error: expect.stringContaining('strategy updates paused'),
    });
    await run('strategy_updates', false);
  });

  it("lists a vault's tasks newest first, page by page", async () => {
    const first = await http(`/v2/microvaults/vaults/${vaultA.id}/tasks?limit=2`);
    expect(first.status).toBe(200);
    expect(first.body['data']).toHaveLength(2);
    expect(first.body['nextCursor']).toEqual(expect.any(String));
    const seen = [...(first.body['data'] as MicroVaultTaskDto[])];
    let cursor = first.body['nextCursor'] as string | null;
    while (cursor) {
      const page = await http(`/v2/microvaults/vaults/${vaultA.id}/tasks?limit=2&cursor=${encodeURIComponent(cursor)}`);
      seen.push(...(page.body['data'] as MicroVaultTaskDto[]));
      cursor = page.body['nextCursor'] as string | null;
    }
    expect(new Set(seen.map((task) => task.id)).size).toBe(seen.length);
    const times = seen.map((task) => task.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(seen.every((task) => task.vaultId === vaultA.id)).toBe(true);
    expect(seen.length).toBeGreaterThanOrEqual(8);
  });
});

async function run(operation: string, paused: boolean): Promise<MicroVaultTaskDto> {
  const accepted = await putPause(vaultA.id, { operation, paused });
  return waitForTask((accepted.body['task'] as MicroVaultTaskDto).id, ['confirmed', 'failed']);
}

describe('crash and chain outages', () => {
  it('resumes after being killed between recording and confirming, without a second transaction', async () => {
    await mv.rpc('evm_setAutomine', [false]);
    try {
      const nonceBefore = await mv.publicClient.getTransactionCount({ address: OPERATOR, blockTag: 'latest' });
      const accepted = await putPause(vaultA.id, { operation: 'redemptions', paused: true });
      const broadcast = await waitForTask((accepted.body['task'] as MicroVaultTaskDto).id, ['broadcast']);
      expect(broadcast.status).toBe('broadcast');
      const [hash] = broadcast.txHashes as [Hex];

      mv.service.child.kill('SIGKILL');
      await mv.service.stop();
      // As if the process died after storing the transaction but before the node got it.
      expect(await mv.rpc('anvil_dropTransaction', [hash])).toBeDefined();
      expect(await mv.rpc('eth_getTransactionByHash', [hash])).toBeNull();

      await mv.startService();
      const deadline = Date.now() + 10_000;
      while ((await mv.rpc('eth_getTransactionByHash', [hash])) === null && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await mv.rpc('evm_mine');
      const task = await waitForTask(broadcast.id, ['confirmed', 'failed']);
      expect(task).toMatchObject({ status: 'confirmed', txHashes: [hash], error: null });
      expect(await mv.publicClient.getTransactionCount({ address: OPERATOR, blockTag: 'latest' })).toBe(nonceBefore + 1);
      expect((await pauseStatus(vaultA.id)).body).toEqual({ flags: '2' });
    } finally {
      await mv.rpc('evm_setAutomine', [true]);
    }
  }, 60_000);

  it('keeps tasks waiting while the chain is down and completes them when it is back; pause-status answers 503', async () => {
    mv.proxy.mode = 'hang';
    let taskId: string;
    try {
      expectError(await pauseStatus(vaultA.id), 503, 'service_temporarily_unavailable');
      // A deploy fails retryably, and the service's log says why without the node's URL.
      await expect(mv.createVault('org_a')).rejects.toThrow('The chain node is temporarily unavailable');
      const warning = await logLine('could not deploy a vault contract');
      expect(warning).toContain('The request took too long to respond');
      expect(warning).not.toContain(new URL(mv.proxy.url).host);
      // With no task the worker calls no node; the task's first round finds it down.
      const unavailable = () => mv.metric('microvault_chain_rpc_errors_total{kind="unavailable"}');
      const failedRounds = await unavailable();
      const accepted = await putPause(vaultA.id, { operation: 'redemptions', paused: false });
      expect(accepted.status).toBe(202);
      taskId = (accepted.body['task'] as MicroVaultTaskDto).id;
      await eventually(unavailable, (count) => count > failedRounds);
      expect((await waitForTask(taskId, ['submitted'])).status).toBe('submitted');
    } finally {
      mv.proxy.mode = 'pass';
    }
    const task = await waitForTask(taskId, ['confirmed', 'failed']);
    expect(task).toMatchObject({ status: 'confirmed', error: null });
    expect((await pauseStatus(vaultA.id)).body).toEqual({ flags: '0' });
  }, 60_000);
});
