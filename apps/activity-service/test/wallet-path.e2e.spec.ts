/* eslint-disable @typescript-eslint/no-explicit-any -- HTTP bodies are checked by the assertions, not by types */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type ActivitySystem, eventually, startActivitySystem } from './support.js';

const ORG = `org_${randomUUID()}`;
let sys: ActivitySystem;
let ownerToken: string;

beforeAll(async () => {
  sys = await startActivitySystem({ withWallet: true });
  ownerToken = await sys.system.auth.token({ org: ORG, role: 'owner', sub: 'owner_1' });
}, 60_000);

afterAll(async () => {
  await sys?.stop();
});

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${sys.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${ownerToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

describe('wallet-service to the activity feed', () => {
  it('shows a sandbox deposit simulated through the gateway, once settled, with the same deposit object the wallet API returns', async () => {
    const created = await call('POST', '/v2/wallets', {
      requestId: randomUUID(),
      strategy: { allocations: { usdc: [{ yieldSourceId: 'service-jaaa-usdc-vault', pct: 100 }] } },
    });
    expect(created.status).toBe(200);
    const walletId = created.body.id;
    await eventually(
      () => call('GET', `/v2/wallets/${walletId}`),
      (reply) => reply.body.status === 'idle',
    );
    const simulated = await call('POST', `/v2/wallets/${walletId}/deposits/simulate`, { amountUsd: '42.000000' });
    expect(simulated.status).toBe(200);
    const feed = await eventually(
      () => sys.get(ORG, `/v2/activity?walletId=${walletId}&type=deposit&status=completed`),
      (reply) => reply.status === 200 && reply.body.data.length === 1,
    );
    const deposit = await call('GET', `/v2/wallets/${walletId}/deposits/${simulated.body.id}`);
    expect(feed.body.data[0]).toEqual({
      id: simulated.body.id,
      type: 'deposit',
      status: 'completed',
      amountUsd: '42.000000',
      timestamp: simulated.body.createdAt,
      walletId,
      deposit: deposit.body,
    });
  });
});
