/* eslint-disable @typescript-eslint/no-explicit-any -- HTTP bodies are checked by the assertions, not by types */
import { expect } from '@jest/globals';
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { type Client, type Reply, startWalletSystem, type WalletSystem } from './wallet-system.js';

/** A loopback webhook receiver: the JSON bodies delivered to it, in arrival order. */
export interface Receiver {
  readonly url: string;
  readonly bodies: any[];
}

/**
 * The wallet system of the other specs (gateway and wallet-service with the test delays) plus
 * webhook-service and a loopback receiver, so webhooks are seen as delivered.
 */
export async function startSystemWithWebhooks(extraEnv: Record<string, string>): Promise<WalletSystem & { receiver: Receiver }> {
  const base = await startWalletSystem(extraEnv, { WEBHOOK_PRIVATE_HOST_ALLOWLIST: '127.0.0.1', WEBHOOK_POLL_INTERVAL_MS: '50' });
  const bodies: any[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      bodies.push(JSON.parse(body));
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    ...base,
    receiver: { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, bodies },
    async stop() {
      await new Promise((resolve) => server.close(resolve));
      await base.stop();
    },
  };
}

/** An approver's key pair and the real Turnkey stamper over it. */
export interface ApproverKey {
  readonly publicKey: string;
  readonly stamper: ApiKeyStamper;
  id?: string;
}

/** A fresh P-256 key in the Turnkey API key form: compressed public key and private scalar, both hex. */
export function newKey(): ApproverKey {
  const jwk = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ format: 'jwk' });
  const hex = (b64url: string | undefined) => Buffer.from(b64url ?? '', 'base64url').toString('hex');
  const y = Buffer.from(jwk.y ?? '', 'base64url');
  const publicKey = ((y[y.length - 1] ?? 0) % 2 === 0 ? '02' : '03') + hex(jwk.x);
  return { publicKey, stamper: new ApiKeyStamper({ apiPublicKey: publicKey, apiPrivateKey: hex(jwk.d) }) };
}

/**
 * `POST /v2/approvals/approvers` for `key` with its proof of possession: the `X-Stamp` of the
 * exact body by the key itself (by `stampWith` instead; none when null), `timestampMs` now unless given.
 */
export async function postApprover(
  client: Client,
  key: ApproverKey,
  label = 'approver',
  options: { stampWith?: ApproverKey | null; timestampMs?: string } = {},
): Promise<Reply> {
  const body = JSON.stringify({ label, publicKey: key.publicKey, timestampMs: options.timestampMs ?? String(Date.now()) });
  const stamper = options.stampWith === undefined ? key : options.stampWith;
  const headers: Record<string, string> = stamper ? { 'X-Stamp': (await stamper.stamper.stamp(body)).stampHeaderValue } : {};
  const reply = await client.sdk.core.send<any>('POST', '/v2/approvals/approvers', { rawBody: body, headers });
  return { status: reply.status, body: reply.body };
}

/**
 * A new key registered as an approver of the client's organization: at once for its first
 * approver; after that the registration is a pending change that `voters` (current approvers,
 * as many as the quorum) approve.
 */
export async function registerApprover(client: Client, label = 'approver', voters: readonly ApproverKey[] = []): Promise<ApproverKey> {
  const key = newKey();
  const created = await postApprover(client, key, label);
  if (created.status === 202) {
    let outcome: Reply | undefined;
    for (const voter of voters) {
      outcome = await vote(client, created.body.turnkeyActivityId, voter);
      if (outcome.body.approved) break;
    }
    expect(outcome?.body).toMatchObject({ approved: true, resultStatus: 'approved' });
    key.id = created.body.change.id;
    return key;
  }
  expect(created.status).toBe(201);
  key.id = created.body.id;
  return key;
}

/** `count` approvers of the client's organization, each after the first approved by those before it (quorum 1 while they are added). */
export async function registerApprovers(client: Client, count: number, label = 'key'): Promise<ApproverKey[]> {
  const keys: ApproverKey[] = [];
  for (let i = 0; i < count; i += 1) keys.push(await registerApprover(client, `${label} ${i}`, keys));
  return keys;
}

/** The issued request to approve or reject an activity. */
export async function approvalRequest(client: Client, activityId: string, action: 'approve' | 'reject' = 'approve'): Promise<any> {
  const reply = await client.post('/v2/turnkey/activity-approval-request', { activityId, action });
  expect(reply.status).toBe(200);
  return reply.body;
}

/** Sends a vote with a stamp over `payload` (by default the request's own canonical text). */
export async function sendVote(
  client: Client,
  activityId: string,
  input: { key: ApproverKey; request: any; action?: string; payload?: string; stampAs?: 'string' | 'object' },
): Promise<Reply> {
  const stamp = await input.key.stamper.stamp(input.payload ?? JSON.stringify(input.request.turnkeyRequest));
  return client.post(`/v2/turnkey/activities/${activityId}/vote`, {
    action: input.action ?? input.request.action,
    customerApprovalStamp: input.stampAs === 'string' ? stamp.stampHeaderValue : stamp,
    turnkeyRequest: input.request.turnkeyRequest,
  });
}

/** Asks for the request, stamps its `stampPayload` and votes: the whole client flow. */
export async function vote(client: Client, activityId: string, key: ApproverKey, action: 'approve' | 'reject' = 'approve'): Promise<Reply> {
  const request = await approvalRequest(client, activityId, action);
  const stamp = await key.stamper.stamp(request.stampPayload);
  return client.post(`/v2/turnkey/activities/${activityId}/vote`, {
    action,
    customerApprovalStamp: stamp,
    turnkeyRequest: request.turnkeyRequest,
  });
}

/** The vote answer, every field. */
export function voteAnswer(
  action: string,
  outcome: Partial<Record<'approved' | 'rejected' | 'alreadyCompleted' | 'alreadyTerminal', boolean>>,
  status: string,
  resultStatus: unknown,
) {
  return {
    status: 200,
    body: { action, approved: false, rejected: false, alreadyCompleted: false, alreadyTerminal: false, ...outcome, status, resultStatus },
  };
}
