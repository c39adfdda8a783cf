/* eslint-disable @typescript-eslint/no-explicit-any -- HTTP bodies are checked by the assertions, not by types */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { callGateway, type ServiceSystem, SHARED_GATEWAY_ENV, startServiceSystem } from '@service/testing';
import { CASH, Client, EVM, JAAA, WALLET_TEST_ENV } from './wallet-system.js';

/**
 * The wallet flow of the other suites (create, deposit, allocate, withdraw, lists, role and
 * organization rules) once more with organization API keys as the bearer credential instead of
 * JWTs: identity-service runs beside the wallet service and the gateway looks keys up in it.
 */
let system: ServiceSystem;
const org = `org_keys_${randomUUID().slice(0, 8)}`;
let owner: Client;
let member: Client;
let stranger: Client;

/** A key of `orgId` with `role`, made through the API by an owner token of that organization. */
async function keyOf(orgId: string, role: string): Promise<string> {
  const token = await system.token(orgId, 'owner');
  const created = await callGateway<any>(system.url, token, 'POST', '/v2/api-keys', { name: `wallet flow ${role}`, role });
  expect(created.status).toBe(201);
  return created.body.key;
}

beforeAll(async () => {
  system = await startServiceSystem({
    service: 'wallet',
    env: WALLET_TEST_ENV,
    gatewayEnv: { ...SHARED_GATEWAY_ENV },
  });
  await system.startAlongside('identity');
  owner = new Client(system.url, await keyOf(org, 'owner'));
  member = new Client(system.url, await keyOf(org, 'member'));
  stranger = new Client(system.url, await keyOf(`org_other_${randomUUID().slice(0, 8)}`, 'owner'));
}, 90_000);

afterAll(async () => {
  await system?.stop();
}, 60_000);

describe('the wallet flow with API keys', () => {
  it('creates a wallet, deposits, allocates, withdraws and lists, all with an owner key', async () => {
    const wallet = await owner.idleWallet();
    expect(wallet).toMatchObject({ status: 'idle', depositAddresses: { ethereum_sepolia: expect.any(String) } });
    const listed = await owner.get('/v2/wallets');
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((each: any) => each.id)).toContain(wallet.id);

    const deposit = await owner.deposit(wallet.id, '100');
    expect(deposit).toMatchObject({ status: 'completed' });
    const funded = await owner.get(`/v2/wallets/${wallet.id}`);
    expect(funded.body.balance.totalUsd).toBe('100.000000');

    const allocated = await owner.allocateAndSettle(wallet.id, [{ from: CASH, to: JAAA, amountUsd: '40' }]);
    expect(allocated.positions.map((position: any) => position.id ?? position.yieldSourceId)).toContain(JAAA);

    const created = await owner.post(`/v2/wallets/${wallet.id}/withdrawals`, {
      requestId: randomUUID(),
      destinationChain: 'ethereum_sepolia',
      token: 'usdc',
      destinationAddress: EVM,
      amountUsd: '10',
    });
    expect(created.status).toBe(200);
    const done = await owner.waitFor(`/v2/wallets/${wallet.id}/withdrawals/${created.body.id}`, (body) => body.status !== 'processing');
    expect(done.status).toBe('completed');
    const withdrawals = await owner.get(`/v2/wallets/${wallet.id}/withdrawals`);
    expect(withdrawals.body.data.map((each: any) => each.id)).toEqual([created.body.id]);
    const deposits = await owner.get(`/v2/wallets/${wallet.id}/deposits`);
    expect(deposits.body.data.map((each: any) => each.id)).toEqual([deposit.id]);
  });

  it("applies the key's role: a member key reads but may not allocate", async () => {
    const wallet = await owner.idleWallet();
    expect((await member.get(`/v2/wallets/${wallet.id}`)).status).toBe(200);
    const refused = await member.post(`/v2/wallets/${wallet.id}/allocate`, {
      requestId: randomUUID(),
      allocations: [{ from: CASH, to: JAAA, amountUsd: '1' }],
    });
    expect(refused).toEqual({ status: 403, body: { error: expect.any(String), code: 'forbidden' } });
  });

  it("scopes a key to its organization: another organization's wallet is not found", async () => {
    const wallet = await owner.idleWallet();
    expect(await stranger.get(`/v2/wallets/${wallet.id}`)).toEqual({
      status: 404,
      body: { error: expect.any(String), code: 'wallet_not_found' },
    });
    expect((await stranger.get('/v2/wallets')).body.data).toEqual([]);
  });
});
