import { createCipheriv, createHmac, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { WebhookDeliveryEventDto } from '@service/contracts';
import { verifyWebhook, WebhookVerificationError } from '@service/sdk';
import { TEST_DATABASE_URL, TEST_WEBHOOK_SECRET_ENCRYPTION_KEY } from '@service/testing';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { api, familyOf, Receiver, rejection, sdkOf, startWebhookSystem, waitFor, type WebhookTestSystem } from './support.js';

let ws: WebhookTestSystem;
let receiver: Receiver;
let db: pg.Client;
let orgs = 0;

beforeAll(async () => {
  receiver = await new Receiver().start();
  ws = await startWebhookSystem();
  db = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await db.connect();
}, 60_000);

afterAll(async () => {
  await db?.end();
  await ws?.stop();
  await receiver?.stop();
}, 30_000);

const families = [
  { path: '/v2/webhooks', events: ['portfolio_wallet.withdrawal.status_changed'] },
  { path: '/v2/webhook-endpoints', events: ['portfolio_wallet.balance.updated'] },
];

const registrations = () => `"webhook_${ws.system.runId}".registrations`;

async function register(path: string, events: string[], role: 'owner' | 'admin' = 'admin') {
  const org = `org_secrets_${(orgs += 1)}`;
  const token = await ws.token(org, role);
  const url = receiver.url();
  const family = familyOf(sdkOf(ws.gateway, token), path);
  const created = await family.create({ url, events });
  return { org, token, url, path, family, id: created.id, secret: created.secret };
}

type Registered = Awaited<ReturnType<typeof register>>;

/** Sends a `webhook.test` delivery and returns the request the receiver got for it. */
async function testDelivery(reg: Registered) {
  const before = receiver.at(reg.url).length;
  const sent = await reg.family.test(reg.id);
  const requests = await waitFor(() => (receiver.at(reg.url).length > before ? receiver.at(reg.url) : undefined));
  const request = requests.find((candidate) => candidate.headers['service-event-id'] === sent.id);
  if (!request) throw new Error('the test delivery did not arrive');
  return { body: request.body, headers: request.headers as Record<string, string> };
}

const hmacHex = (secret: string, t: string, body: string) => createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
const standard = (secret: string) => new Webhook(`whsec_${Buffer.from(secret).toString('base64')}`);

/** Whether the SDK's verifier accepts the delivery with this secret. */
function verifies(delivery: { body: string; headers: Record<string, string> }, secret: string): boolean {
  try {
    verifyWebhook({ payload: delivery.body, headers: delivery.headers, secret });
    return true;
  } catch (error) {
    if (error instanceof WebhookVerificationError) return false;
    throw error;
  }
}

/** The `Service-Signature` entries: `t` and every `v1`, in order. */
function serviceSignature(headers: Record<string, string>): { t: string; v1: string[] } {
  const entries = (headers['service-signature'] ?? '').split(',').map((entry) => entry.split('=', 2) as [string, string]);
  expect(entries[0]?.[0]).toBe('t');
  expect(entries.slice(1).every(([name]) => name === 'v1')).toBe(true);
  return { t: entries[0]?.[1] ?? '', v1: entries.slice(1).map(([, value]) => value) };
}

describe.each(families)('$path secret rotation', ({ path, events }) => {
  it('signs each delivery with both secrets during the overlap (the new one first), then with the new one only', async () => {
    const reg = await register(path, events);
    const overlapSeconds = 3;
    const asked = Date.now();
    const rotated = await reg.family.rotateSecret(reg.id, { expiresInSeconds: overlapSeconds });
    expect(rotated).toEqual({ id: reg.id, secret: expect.stringMatching(/^[0-9a-f]{64}$/), previousSecretExpiresAt: expect.any(String) });
    expect(rotated.secret).not.toBe(reg.secret);
    const expiresAt = Date.parse(rotated.previousSecretExpiresAt);
    expect(expiresAt - asked).toBeGreaterThanOrEqual(overlapSeconds * 1000 - 1_000);
    expect(expiresAt - asked).toBeLessThanOrEqual(overlapSeconds * 1000 + 5_000);
    // The secret is never returned again nor logged.
    expect(await reg.family.get(reg.id)).not.toHaveProperty('secret');
    expect(ws.service.lines.join('\n')).not.toContain(rotated.secret);

    const during = await testDelivery(reg);
    const { t, v1 } = serviceSignature(during.headers);
    expect(v1).toEqual([hmacHex(rotated.secret, t, during.body), hmacHex(reg.secret, t, during.body)]);
    expect(during.headers['webhook-signature']?.split(' ')).toHaveLength(2);
    for (const secret of [rotated.secret, reg.secret]) {
      expect(verifies(during, secret)).toBe(true);
      expect(standard(secret).verify(during.body, during.headers)).toMatchObject({ webhookId: reg.id });
    }
    expect(verifies(during, 'f'.repeat(64))).toBe(false);

    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt - Date.now()) + 250));
    const after = await testDelivery(reg);
    const signed = serviceSignature(after.headers);
    expect(signed.v1).toEqual([hmacHex(rotated.secret, signed.t, after.body)]);
    expect(after.headers['webhook-signature']?.split(' ')).toHaveLength(1);
    expect(verifies(after, rotated.secret)).toBe(true);
    expect(verifies(after, reg.secret)).toBe(false);
    expect(() => standard(reg.secret).verify(after.body, after.headers)).toThrow();
  }, 30_000);

  it('keeps the old secret a day by default, stops it at once with 0, and a second rotation ends the first overlap', async () => {
    const reg = await register(path, events, 'owner');
    const first = await reg.family.rotateSecret(reg.id);
    expect(Math.abs(Date.parse(first.previousSecretExpiresAt) - Date.now() - 86_400_000)).toBeLessThan(60_000);
    const second = await reg.family.rotateSecret(reg.id);
    const delivery = await testDelivery(reg);
    const { t, v1 } = serviceSignature(delivery.headers);
    // The secret from creation is gone; the first rotation's overlaps the second's.
    expect(v1).toEqual([hmacHex(second.secret, t, delivery.body), hmacHex(first.secret, t, delivery.body)]);
    expect(verifies(delivery, reg.secret)).toBe(false);

    const third = await api(ws.gateway, reg.token, 'POST', `${path}/${reg.id}/secret/rotate`, { expiresInSeconds: 0 });
    expect(third.status).toBe(200);
    const now = await testDelivery(reg);
    const signed = serviceSignature(now.headers);
    expect(signed.v1).toEqual([hmacHex(String(third.body['secret']), signed.t, now.body)]);
  }, 30_000);

  it('refuses a member with 403 forbidden, an unknown or foreign id with 404 webhook_not_found and a bad overlap with 400', async () => {
    const reg = await register(path, events);
    const member = await ws.token(reg.org, 'member');
    const forbidden = {
      status: 403,
      body: { error: 'Only organization owners and admins may manage webhook registrations.', code: 'forbidden' },
    };
    expect(await api(ws.gateway, member, 'POST', `${path}/${reg.id}/secret/rotate`, {})).toEqual(forbidden);
    expect(await rejection(familyOf(sdkOf(ws.gateway, member), path).rotateSecret(reg.id))).toEqual(forbidden);

    const notFound = { status: 404, body: { error: 'Webhook not found.', code: 'webhook_not_found' } };
    expect(await rejection(reg.family.rotateSecret('8c1b6f4e-2f55-4d9e-9a51-0f6d2c0b7a11'))).toEqual(notFound);
    const foreign = await register(path, events);
    expect(await api(ws.gateway, reg.token, 'POST', `${path}/${foreign.id}/secret/rotate`)).toEqual(notFound);
    const deleted = await reg.family.create({ url: receiver.url(), events });
    await reg.family.remove(deleted.id);
    expect(await api(ws.gateway, reg.token, 'POST', `${path}/${deleted.id}/secret/rotate`)).toEqual(notFound);
    expect(await api(ws.gateway, reg.token, 'POST', `${path}/not-a-uuid/secret/rotate`)).toEqual({
      status: 400,
      body: { error: 'id must be a UUID.', code: 'validation_error' },
    });
    for (const expiresInSeconds of [-1, 604_801, 1.5, 'a day']) {
      const result = await api(ws.gateway, reg.token, 'POST', `${path}/${reg.id}/secret/rotate`, { expiresInSeconds });
      expect({ expiresInSeconds, result }).toEqual({
        expiresInSeconds,
        result: { status: 400, body: { error: 'expiresInSeconds must be an integer from 0 to 604800.', code: 'validation_error' } },
      });
    }
    // Nothing was rotated: the delivery is signed with the secret from creation alone.
    const delivery = await testDelivery(reg);
    const { t, v1 } = serviceSignature(delivery.headers);
    expect(v1).toEqual([hmacHex(reg.secret, t, delivery.body)]);
  }, 30_000);
});

/** How a secret was sealed before the row binding: `v1.`, AES-256-GCM without associated data. */
function legacySeal(secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(TEST_WEBHOOK_SECRET_ENCRYPTION_KEY, 'hex'), iv);
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', ...[iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url'))].join('.');
}

async function sealedOf(id: string): Promise<string> {
  const { rows } = await db.query<{ secret_enc: string }>(`SELECT secret_enc FROM ${registrations()} WHERE id = $1`, [id]);
  return rows[0]?.secret_enc ?? '';
}

describe('sealed secrets at rest', () => {
  it('binds each sealed secret to its row: copied into another registration, it does not sign', async () => {
    const a = await register('/v2/webhooks', ['portfolio_wallet.withdrawal.status_changed']);
    const b = await a.family.create({ url: receiver.url(), events: ['portfolio_wallet.withdrawal.status_changed'] });
    expect(await sealedOf(a.id)).toMatch(/^v2\./);
    await db.query(`UPDATE ${registrations()} SET secret_enc = $1 WHERE id = $2`, [await sealedOf(a.id), b.id]);

    const sent = await a.family.test(b.id);
    const failed = await waitFor(async () => {
      const items = (await a.family.events(b.id).page()).data as WebhookDeliveryEventDto[];
      const item = items.find((candidate) => candidate.id === sent.id);
      return item && item.attemptCount >= 1 && item.lastError !== null ? item : undefined;
    });
    expect(failed).toMatchObject({ lastError: 'The signing secret could not be read.', latestEmission: { responseStatus: null } });
    expect(receiver.at(b.url)).toEqual([]);
    // The row it was sealed for still signs with it.
    const delivery = await testDelivery(a);
    expect(verifies(delivery, a.secret)).toBe(true);
  }, 30_000);

  it('opens a secret sealed before the binding, and seals it bound to its row when the row is next written', async () => {
    const reg = await register('/v2/webhook-endpoints', ['portfolio_wallet.balance.updated']);
    const secret = 'a'.repeat(64);
    await db.query(`UPDATE ${registrations()} SET secret_enc = $1 WHERE id = $2`, [legacySeal(secret), reg.id]);
    expect(verifies(await testDelivery(reg), secret)).toBe(true);

    await reg.family.update(reg.id, { description: 'touched' });
    const resealed = await sealedOf(reg.id);
    expect(resealed).toMatch(/^v2\./);
    expect(resealed).not.toContain(secret);
    expect(verifies(await testDelivery(reg), secret)).toBe(true);

    // A rotation of an old-format row: the replaced secret keeps signing, sealed bound to the row.
    await db.query(`UPDATE ${registrations()} SET secret_enc = $1 WHERE id = $2`, [legacySeal(secret), reg.id]);
    const rotated = await reg.family.rotateSecret(reg.id, { expiresInSeconds: 600 });
    const { rows } = await db.query<{ secret_enc: string; previous_secret_enc: string }>(
      `SELECT secret_enc, previous_secret_enc FROM ${registrations()} WHERE id = $1`,
      [reg.id],
    );
    expect([rows[0]?.secret_enc, rows[0]?.previous_secret_enc]).toEqual([expect.stringMatching(/^v2\./), expect.stringMatching(/^v2\./)]);
    const both = await testDelivery(reg);
    expect(verifies(both, rotated.secret) && verifies(both, secret)).toBe(true);
  }, 30_000);
});
