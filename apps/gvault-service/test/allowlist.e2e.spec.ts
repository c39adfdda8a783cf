import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { DomainEvent, GTokenEventData } from '@service/contracts';
import {
  type AppProcess,
  type IsolatedSchema,
  migratedSchema,
  type RpcProxy,
  serviceTestEnv,
  startApp,
  startRpcProxy,
  startTestSystem,
  TEST_DATABASE_URL,
  type TestSystem,
} from '@service/testing';
import pg from 'pg';
import { createTestClient, createWalletClient, http, publicActions } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { sepolia } from 'viem/chains';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the app's own test contract and local chain, deployed by its e2e suite
import {
  type LocalAllowlistChain,
  startLocalAllowlistChain,
  TEST_ALLOWLIST_ABI,
  TEST_ALLOWLIST_OWNER_KEY,
} from '../solidity/test-allowlist.js';
import { followerSettled } from './support/follower.js';

type AllowlistEvent = DomainEvent<GTokenEventData['gvault.allowlist.updated']>;

const CONFIRMATIONS = 3;
const POLL_MS = 50;
const CACHE_TTL_MS = 1_000;

let local: LocalAllowlistChain;
let proxy: RpcProxy;
let system: TestSystem;
let schema: IsolatedSchema;
let gvault: AppProcess;
let nats: NatsConnection;
let jsm: JetStreamManager;
let token: string;
const stream = () => system.stream;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function startGvault(env: Record<string, string> = {}): Promise<AppProcess> {
  return startApp(
    'gvault-service',
    {
      ...serviceTestEnv(schema.schema, stream()),
      ...system.nats.envOf('gvault'),
      CHAIN_RPC_URL_ETHEREUM_SEPOLIA: proxy.url,
      GVAULT_ALLOWLIST_ADDRESS: local.allowlistAddress,
      CHAIN_CONFIRMATIONS: String(CONFIRMATIONS),
      CHAIN_POLL_INTERVAL_MS: String(POLL_MS),
      CHAIN_RPC_TIMEOUT_MS: '1000',
      CHAIN_START_BLOCK: '0',
      GVAULT_ALLOWLIST_CACHE_TTL_MS: String(CACHE_TTL_MS),
      ...env,
    },
    (line) => line.includes('gvault service ready'),
  );
}

function chainClients() {
  const transport = http(local.chain.rpcUrl, { retryCount: 0 });
  const account = privateKeyToAccount(TEST_ALLOWLIST_OWNER_KEY);
  return {
    wallet: createWalletClient({ chain: sepolia, transport, account }).extend(publicActions),
    test: createTestClient({ chain: sepolia, transport, mode: 'anvil' }),
  };
}

/** Sets a permission onchain (one block); resolves to the block and transaction of the change. */
async function setAllowed(address: `0x${string}`, allowed: boolean) {
  const { wallet } = chainClients();
  const hash = await wallet.writeContract({
    address: local.allowlistAddress,
    abi: TEST_ALLOWLIST_ABI,
    functionName: 'setAllowed',
    args: [address, allowed],
  });
  const receipt = await wallet.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  return { blockNumber: receipt.blockNumber, txHash: hash };
}

const mine = (blocks: number) => chainClients().test.mine({ blocks });

/**
 * Once the follower has applied every confirmed block of the chain as it is now and the relay has
 * published what it wrote (the state an absence check waits for): the outbox's events for `address`.
 */
const settled = async (address: string) =>
  followerSettled(schema.schema, await chainClients().wallet.getBlockNumber(), CONFIRMATIONS, address);

/** Sets a permission and mines until the change has every confirmation. */
async function setConfirmed(address: `0x${string}`, allowed: boolean) {
  const change = await setAllowed(address, allowed);
  await mine(CONFIRMATIONS - 1);
  return change;
}

async function call(path: string, auth: string | null = token): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${system.gateways[0]!.url}${path}`, { headers: auth ? { authorization: `Bearer ${auth}` } : {} });
  return { status: response.status, body: await response.json() };
}

const allowlistPath = (address: string, gVaultId = 'service-ustb-vault') => `/v2/gvaults/${gVaultId}/allowlist/${address}`;

/** Every allowlist event on the run's stream, oldest first. */
async function streamEvents(): Promise<AllowlistEvent[]> {
  const { state } = await jsm.streams.info(stream().EVENTS_STREAM);
  const events: AllowlistEvent[] = [];
  for (let seq = state.first_seq; state.messages > 0 && seq <= state.last_seq; seq += 1) {
    events.push((await jsm.streams.getMessage(stream().EVENTS_STREAM, { seq }))!.json<AllowlistEvent>());
  }
  return events;
}

const eventsFor = async (address: string) => (await streamEvents()).filter((event) => event.payload.address === address);

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await sleep(POLL_MS);
  }
}

let nextAccount = 0x1000;
/** A fresh EIP-55 address per test, so no cached or earlier answer leaks between tests. */
function freshAddress(): `0x${string}` {
  nextAccount += 1;
  return privateKeyToAccount(`0x${nextAccount.toString(16).padStart(64, '0')}`).address;
}

beforeAll(async () => {
  local = await startLocalAllowlistChain();
  proxy = await startRpcProxy(local.chain.rpcUrl);
  system = await startTestSystem({ services: [], gateways: 1 });
  schema = await migratedSchema('gvault-service', system.runId);
  gvault = await startGvault();
  nats = await system.nats.connect('ops');
  jsm = await jetstreamManager(nats);
  token = await system.auth.token({ org: 'org_gvault', role: 'member' });
}, 60_000);

afterAll(async () => {
  await nats?.close();
  await gvault?.stop();
  await system?.stop();
  await schema?.drop();
  await proxy?.close();
  await local?.stop();
});

describe('GET /v2/gvaults/{gVaultId}/allowlist/{address}', () => {
  it('answers true for an allowlisted address and false for any other', async () => {
    const allowed = freshAddress();
    await setConfirmed(allowed, true);
    expect(await call(allowlistPath(allowed))).toEqual({ status: 200, body: { allowed: true } });
    expect(await call(allowlistPath(freshAddress()))).toEqual({ status: 200, body: { allowed: false } });
    expect(await call(allowlistPath(allowed.toLowerCase()))).toEqual({ status: 200, body: { allowed: true } });
  });

  it('does not report a change before it has every confirmation', async () => {
    const address = freshAddress();
    await setAllowed(address, true);
    await mine(CONFIRMATIONS - 2);
    expect(await call(allowlistPath(address))).toEqual({ status: 200, body: { allowed: false } });
    await mine(1);
    // The follower drops the cached `false` as soon as it publishes the confirmed change.
    await waitFor(
      () => eventsFor(address),
      (events) => events.length === 1,
    );
    expect(await call(allowlistPath(address))).toEqual({ status: 200, body: { allowed: true } });
  });

  it('serves identical reads within the cache window from memory, then reads the chain again', async () => {
    const address = freshAddress();
    const reads = () => proxy.calls.get('eth_call') ?? 0;
    const before = reads();
    await Promise.all([call(allowlistPath(address)), call(allowlistPath(address))]);
    expect(await call(allowlistPath(address))).toEqual({ status: 200, body: { allowed: false } });
    expect(reads() - before).toBe(1);
    await sleep(CACHE_TTL_MS + 100);
    await call(allowlistPath(address));
    expect(reads() - before).toBe(2);
  });

  it.each([
    [
      'an unknown gVaultId',
      allowlistPath('0x52908400098527886E0F7030069857D2E4169EE7', 'service-other-vault'),
      /gVaultId must be one of: service-ustb-vault/,
    ],
    ['41 characters', allowlistPath('0x52908400098527886E0F7030069857D2E4169EE'), /address must be a nonzero EVM address/],
    ['43 characters', allowlistPath('0x52908400098527886E0F7030069857D2E4169EE77'), /address/],
    ['a missing 0x', allowlistPath('0052908400098527886E0F7030069857D2E4169EE7'), /address/],
    ['an upper-case 0X', allowlistPath('0X52908400098527886E0F7030069857D2E4169EE7'), /address/],
    ['a non-hex digit', allowlistPath('0x52908400098527886E0F7030069857D2E4169EEG'), /address/],
    ['the zero address', allowlistPath('0x0000000000000000000000000000000000000000'), /address/],
    ['a broken EIP-55 checksum', allowlistPath('0x52908400098527886E0F7030069857D2E4169Ee7'), /address/],
  ])('refuses %s with 400 validation_error', async (_case, path, message) => {
    const result = await call(path);
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ error: expect.stringMatching(message), code: 'validation_error' });
  });

  it('refuses unknown query parameters and a missing token', async () => {
    const path = allowlistPath(freshAddress());
    expect(await call(`${path}?block=latest`)).toMatchObject({ status: 400, body: { code: 'unknown_parameters' } });
    expect(await call(path, null)).toMatchObject({ status: 401, body: { code: 'unauthenticated' } });
  });

  it.each([
    ['refuses connections', 'refuse'],
    ['never answers', 'hang'],
    ['fails', 'error'],
  ] as const)('answers 503 service_temporarily_unavailable, retryable, when the chain node %s', async (_case, mode) => {
    proxy.mode = mode;
    try {
      const started = Date.now();
      expect(await call(allowlistPath(freshAddress()))).toEqual({
        status: 503,
        // The service's own message: the chain failed, not the way to the service.
        body: { error: 'The chain could not be read. Retry shortly.', code: 'service_temporarily_unavailable', retryable: true },
      });
      expect(Date.now() - started).toBeLessThan(2_500);
    } finally {
      proxy.mode = 'pass';
    }
  });
});

describe('gvault.allowlist.updated events', () => {
  it('publishes one event per confirmed change, none before the confirmation depth', async () => {
    const address = freshAddress();
    const change = await setAllowed(address, true);
    await mine(CONFIRMATIONS - 2);
    expect(await settled(address)).toMatchObject({ eventsForAddress: 0 });
    expect(await eventsFor(address)).toEqual([]);

    await mine(1);
    const events = await waitFor(
      () => eventsFor(address),
      (found) => found.length > 0,
    );
    expect(await settled(address)).toMatchObject({ eventsForAddress: 1 });
    expect(await eventsFor(address)).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'gvault.allowlist.updated', orgId: '*', source: 'gvault' });
    expect(events[0]?.payload).toEqual({
      gVaultId: 'service-ustb-vault',
      chain: 'ethereum_sepolia',
      address,
      allowed: true,
      blockNumber: change.blockNumber.toString(),
      txHash: change.txHash,
    });
  });

  it('resumes after a restart, picks up changes made while down and never emits a change twice', async () => {
    const before = freshAddress();
    await setConfirmed(before, true);
    await waitFor(
      () => eventsFor(before),
      (events) => events.length === 1,
    );
    await gvault.stop();

    const whileDown = freshAddress();
    await setConfirmed(whileDown, true);
    await setConfirmed(whileDown, false);
    // As if a replica had stored an older position: every log is read again.
    await resetFollowerPosition();
    const total = (await streamEvents()).length;
    gvault = await startGvault();

    const events = await waitFor(
      () => eventsFor(whileDown),
      (found) => found.length === 2,
    );
    // Events of one range share a commit, so the stream may hold them in either order: receivers order by block.
    const byBlock = events.sort((a, b) => Number(BigInt(a.payload.blockNumber) - BigInt(b.payload.blockNumber)));
    expect(byBlock.map((event) => event.payload.allowed)).toEqual([true, false]);
    expect(await settled(before)).toMatchObject({ eventsForAddress: 1 });
    expect(await eventsFor(before)).toHaveLength(1);
    expect(await streamEvents()).toHaveLength(total + 2);
  });
});

describe('GET /v2/gvaults/yield-sources', () => {
  const source = {
    id: 'service-ustb-vault',
    name: 'Superstate Short Duration US Government Securities Fund (USTB)',
    interface: 'service_ustb_v1',
  };

  it('lists USTB on Sepolia in sandbox with exactly the interface fields', async () => {
    expect(await call('/v2/gvaults/yield-sources')).toEqual({
      status: 200,
      body: {
        data: [
          {
            ...source,
            chain: 'ethereum_sepolia',
            contractAddress: '0x39727692cF58137Bd8c401eFE87Cc8A190D62ead',
            asset: { symbol: 'USDC', contractAddress: '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238', decimals: 6 },
          },
        ],
      },
    });
  });

  it('lists USTB on Ethereum in production with exactly the interface fields', async () => {
    await gvault.stop();
    gvault = await startGvault({ SERVICE_ENV: 'production', CHAIN_RPC_URL_ETHEREUM: proxy.url, CHAIN_START_BLOCK: '' });
    expect(await call('/v2/gvaults/yield-sources')).toEqual({
      status: 200,
      body: {
        data: [
          {
            ...source,
            chain: 'ethereum',
            contractAddress: '0x43415eB6ff9DB7E26A15b704e7A3eDCe97d31C4e',
            asset: { symbol: 'USDC', contractAddress: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', decimals: 6 },
          },
        ],
      },
    });
  });
});

async function resetFollowerPosition(): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(`UPDATE "${schema.schema}".chain_cursors SET last_block = 0`);
  } finally {
    await client.end();
  }
}
