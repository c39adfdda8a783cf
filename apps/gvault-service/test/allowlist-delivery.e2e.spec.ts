import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { startTestSystem, TEST_DATABASE_URL, type TestSystem } from '@service/testing';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
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

/**
 * The whole path a client relies on instead of polling: an allowlist change on chain becomes one
 * signed gtoken delivery to a registration made through the gateway, after the confirmation depth
 * and not before.
 */
const CONFIRMATIONS = 3;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];
let receiver: Server;
let receiverUrl: string;
let local: LocalAllowlistChain;
let system: TestSystem;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const gvaultSchema = () => system.serviceEnv('gvault')['DATABASE_SCHEMA']!;

/** The registration's deliveries as webhook-service stores them, once none is still to be sent (at most 5 s). */
async function settledDeliveriesOf(registrationId: string): Promise<{ status: string; attempts: number }[]> {
  const db = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await db.connect();
  try {
    const schema = system.serviceEnv('webhook')['DATABASE_SCHEMA']!;
    const read = async () =>
      (
        await db.query<{ status: string; attempts: number }>(
          `SELECT status, attempt_count AS attempts FROM "${schema}".deliveries WHERE registration_id = $1::uuid`,
          [registrationId],
        )
      ).rows;
    let rows = await read();
    for (const deadline = Date.now() + 5_000; rows.some((row) => row.status !== 'completed') && Date.now() < deadline; rows = await read())
      await sleep(25);
    return rows;
  } finally {
    await db.end();
  }
}

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  local = await startLocalAllowlistChain();
  system = await startTestSystem({
    services: ['gvault', 'webhook'],
    serviceEnv: {
      gvault: { ...local.env, CHAIN_CONFIRMATIONS: String(CONFIRMATIONS), CHAIN_POLL_INTERVAL_MS: '50', CHAIN_START_BLOCK: '0' },
      webhook: { WEBHOOK_PRIVATE_HOST_ALLOWLIST: '127.0.0.1', WEBHOOK_POLL_INTERVAL_MS: '50' },
    },
  });
}, 90_000);

afterAll(async () => {
  await system?.stop();
  await local?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

it('delivers one signed gvault.allowlist.updated event once the change is confirmed, and none before', async () => {
  const token = await system.auth.token({ org: 'org_allowlist', role: 'admin' });
  const registration = await fetch(`${system.gateways[0]!.url}/v2/gvaults/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: receiverUrl, events: ['gvault.allowlist.updated'] }),
  });
  expect(registration.status).toBe(200);
  const { id: registrationId, secret } = (await registration.json()) as { id: string; secret: string };

  const transport = http(local.chain.rpcUrl, { retryCount: 0 });
  const owner = createWalletClient({ chain: sepolia, transport, account: privateKeyToAccount(TEST_ALLOWLIST_OWNER_KEY) }).extend(
    publicActions,
  );
  const chain = createTestClient({ chain: sepolia, transport, mode: 'anvil' });
  const investor = privateKeyToAccount(`0x${'42'.repeat(32)}`).address;
  const txHash = await owner.writeContract({
    address: local.allowlistAddress,
    abi: TEST_ALLOWLIST_ABI,
    functionName: 'setAllowed',
    args: [investor, true],
  });
  const { blockNumber } = await owner.waitForTransactionReceipt({ hash: txHash, pollingInterval: 20 });

  // One block short of the depth: once the follower has applied every confirmed block and its
  // events are published, the change has written no event, so no delivery can follow.
  await chain.mine({ blocks: CONFIRMATIONS - 2 });
  expect(await followerSettled(gvaultSchema(), await owner.getBlockNumber(), CONFIRMATIONS, investor)).toMatchObject({
    eventsForAddress: 0,
  });
  expect(received).toHaveLength(0);

  await chain.mine({ blocks: 1 });
  for (let waited = 0; received.length === 0 && waited < 10_000; waited += 50) await sleep(50);
  // Exactly one: the follower wrote one event (and everything it wrote is published), and
  // webhook-service holds one delivery per registration and event, completed, so nothing retries.
  expect(await followerSettled(gvaultSchema(), await owner.getBlockNumber(), CONFIRMATIONS, investor)).toMatchObject({
    eventsForAddress: 1,
  });
  expect(await settledDeliveriesOf(registrationId)).toEqual([{ status: 'completed', attempts: 1 }]);
  expect(received).toHaveLength(1);

  const [delivery] = received;
  const body = JSON.parse(delivery!.body) as Record<string, unknown>;
  expect(body).toEqual({
    id: delivery!.headers['service-event-id'],
    type: 'gvault.allowlist.updated',
    createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    data: {
      gVaultId: 'service-ustb-vault',
      chain: 'ethereum_sepolia',
      address: investor,
      allowed: true,
      blockNumber: blockNumber.toString(),
      txHash,
    },
  });
  expect(delivery!.headers['service-event-type']).toBe('gvault.allowlist.updated');
  const verifier = new Webhook(`whsec_${Buffer.from(secret).toString('base64')}`);
  expect(() => verifier.verify(delivery!.body, delivery!.headers as Record<string, string>)).not.toThrow();
}, 60_000);
