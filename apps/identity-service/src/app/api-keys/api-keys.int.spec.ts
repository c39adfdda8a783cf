import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { BROADCASTS, type RequestContext, type Role } from '@service/contracts';
import { type InProcessService, startServiceInProcess } from '@service/service-testing';
import { identityConfigSpec } from '../../config.js';
import { AppModule } from '../app.module.js';
import { ApiKeysService } from './api-keys.service.js';

/**
 * ApiKeysService in process, on its own migrated schema and NATS server: the use cases of
 * `api-keys.e2e.spec.ts` without a gateway, HTTP or a build.
 */
let service: InProcessService;
let keys: ApiKeysService;
let nats: NatsConnection;

beforeAll(async () => {
  service = await startServiceInProcess({ name: 'identity', module: AppModule.forRoot, spec: identityConfigSpec });
  keys = service.running.app.get(ApiKeysService);
  nats = await connect({ servers: service.env.NATS_URL });
});

afterAll(async () => {
  await nats?.close();
  await service?.stop();
});

let orgs = 0;
const freshOrg = () => `org_${randomUUID().slice(0, 8)}_${(orgs += 1)}`;
const ctxOf = (orgId: string, role: Role = 'owner'): RequestContext => ({
  orgId,
  role,
  principalId: `user_${orgId}_${role}`,
  requestId: randomUUID(),
});
const KEY_FORMAT = /^service_sandbox_[0-9A-Za-z]{43}$/;
const UNAUTHENTICATED = { name: 'ServiceError', code: 'unauthenticated', message: 'The API key is invalid, expired or revoked.' };
const NOT_FOUND = { name: 'ServiceError', code: 'api_key_not_found', message: 'API key not found.' };
const NOT_ROLLABLE = { name: 'ServiceError', code: 'api_key_not_found', message: 'API key not found, expired or already rolled.' };

describe('create and authenticate', () => {
  it('creates a key shown once, which then authenticates as its organization and role', async () => {
    const org = freshOrg();
    const created = await keys.create(ctxOf(org), { name: 'Ledger sync', role: 'owner' });
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Ledger sync',
      role: 'owner',
      key: expect.stringMatching(KEY_FORMAT),
      last4: created.key.slice(-4),
      createdAt: expect.any(String),
      expiresAt: null,
    });
    await expect(keys.authenticate(created.key)).resolves.toEqual({ keyId: created.id, orgId: org, role: 'owner', expiresAt: null });
    await expect(keys.get(ctxOf(org), created.id)).resolves.toEqual({
      id: created.id,
      name: 'Ledger sync',
      role: 'owner',
      last4: created.key.slice(-4),
      createdAt: created.createdAt,
      expiresAt: null,
      lastUsedAt: null,
    });
  });

  it("lists an organization's keys newest first, in pages, never with their secrets", async () => {
    const org = freshOrg();
    const first = await keys.create(ctxOf(org), { name: 'k1', role: 'admin' });
    const second = await keys.create(ctxOf(org), { name: 'k2', role: 'member' });
    const page = await keys.list(ctxOf(org), { limit: 1 });
    expect(page.data.map((key) => key.id)).toEqual([second.id]);
    expect(page.data[0]).not.toHaveProperty('key');
    expect(page.nextCursor).toEqual(expect.any(String));
    await expect(keys.list(ctxOf(org), { limit: 1, cursor: page.nextCursor! })).resolves.toEqual({
      data: [expect.objectContaining({ id: first.id, name: 'k1' })],
      nextCursor: null,
    });
    await expect(keys.list(ctxOf(freshOrg()), {})).resolves.toEqual({ data: [], nextCursor: null });
  });

  it('refuses unknown, other-environment and malformed keys with the same error', async () => {
    const created = await keys.create(ctxOf(freshOrg()), { name: 'ci', role: 'admin' });
    const random = (prefix: string) => `${prefix}${randomUUID().replace(/-/g, '')}${'Q'.repeat(11)}`;
    const refused = [
      random('service_sandbox_'),
      random('service_prod_'),
      `service_prod_${created.key.slice('service_sandbox_'.length)}`,
      `${created.key}x`,
      '',
    ];
    for (const key of refused) await expect(keys.authenticate(key)).rejects.toMatchObject(UNAUTHENTICATED);
  });

  it('refuses an expiry in the past, a member creating keys, an admin creating an owner key and the every-organization id', async () => {
    const org = freshOrg();
    await expect(
      keys.create(ctxOf(org), { name: 'x', role: 'admin', expiresAt: new Date(Date.now() - 1_000).toISOString() }),
    ).rejects.toMatchObject({
      name: 'ServiceError',
      code: 'validation_error',
      message: 'expiresAt must be in the future.',
    });
    await expect(keys.create(ctxOf(org, 'member'), { name: 'x', role: 'member' })).rejects.toMatchObject({
      name: 'ServiceError',
      code: 'forbidden',
    });
    await expect(keys.create(ctxOf(org, 'admin'), { name: 'x', role: 'owner' })).rejects.toMatchObject({
      name: 'ServiceError',
      code: 'forbidden',
      message: 'Only an organization owner may create or manage an owner key.',
    });
    await expect(keys.create(ctxOf('*'), { name: 'x', role: 'admin' })).rejects.toMatchObject({
      name: 'ServiceError',
      code: 'validation_error',
    });
    await expect(keys.list(ctxOf(org), {})).resolves.toEqual({ data: [], nextCursor: null });
  });
});

describe('revoke', () => {
  it('revokes a key, refuses it from then on and tells every gateway on the broadcast subject', async () => {
    const org = freshOrg();
    const created = await keys.create(ctxOf(org), { name: 'ci', role: 'admin' });
    const announced = nats.subscribe(BROADCASTS.apiKeyRevoked, { max: 1, timeout: 2_000 });
    await nats.flush();
    await expect(keys.revoke(ctxOf(org), created.id)).resolves.toEqual({ id: created.id, revoked: true });
    for await (const message of announced) expect(message.json()).toEqual({ keyId: created.id });
    await expect(keys.authenticate(created.key)).rejects.toMatchObject(UNAUTHENTICATED);
    await expect(keys.get(ctxOf(org), created.id)).rejects.toMatchObject(NOT_FOUND);
    await expect(keys.revoke(ctxOf(org), created.id)).rejects.toMatchObject(NOT_FOUND);
  });

  it("keeps another organization's key out of reach, and an owner key out of an admin's", async () => {
    const org = freshOrg();
    const mine = await keys.create(ctxOf(org), { name: 'mine', role: 'owner' });
    const stranger = ctxOf(freshOrg());
    await expect(keys.get(stranger, mine.id)).rejects.toMatchObject(NOT_FOUND);
    await expect(keys.revoke(stranger, mine.id)).rejects.toMatchObject(NOT_FOUND);
    await expect(keys.roll(stranger, mine.id)).rejects.toMatchObject(NOT_FOUND);
    await expect(keys.revoke(ctxOf(org, 'admin'), mine.id)).rejects.toMatchObject({ name: 'ServiceError', code: 'forbidden' });
    await expect(keys.roll(ctxOf(org, 'admin'), mine.id)).rejects.toMatchObject({ name: 'ServiceError', code: 'forbidden' });
    await expect(keys.authenticate(mine.key)).resolves.toMatchObject({ keyId: mine.id, orgId: org, role: 'owner' });
  });
});

describe('roll', () => {
  it('rolls a key: a new secret of the same name and role, the old one refused at once by default', async () => {
    const org = freshOrg();
    const old = await keys.create(ctxOf(org), { name: 'deploy', role: 'member' });
    const rolled = await keys.roll(ctxOf(org), old.id);
    expect(rolled).toMatchObject({ name: 'deploy', role: 'member', key: expect.stringMatching(KEY_FORMAT), expiresAt: null });
    expect(rolled.id).not.toBe(old.id);
    await expect(keys.authenticate(rolled.key)).resolves.toEqual({ keyId: rolled.id, orgId: org, role: 'member', expiresAt: null });
    await expect(keys.authenticate(old.key)).rejects.toMatchObject(UNAUTHENTICATED);
    expect((await keys.list(ctxOf(org), {})).data.map((key) => key.id)).toEqual([rolled.id]);
  });

  it('rolls a key once: the old one works through its grace period, the successor keeps its expiry, a second roll is refused', async () => {
    const org = freshOrg();
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const old = await keys.create(ctxOf(org), { name: 'ci', role: 'admin', expiresAt });
    const rolled = await keys.roll(ctxOf(org), old.id, 600);
    expect(rolled.expiresAt).toBe(expiresAt);
    await expect(keys.authenticate(old.key)).resolves.toMatchObject({ keyId: old.id });
    expect((await keys.get(ctxOf(org), old.id)).expiresAt).toEqual(expect.any(String));
    await expect(keys.roll(ctxOf(org), old.id, 600)).rejects.toMatchObject(NOT_ROLLABLE);
  });

  it('lets one of three concurrent rolls of a key through', async () => {
    const org = freshOrg();
    const key = await keys.create(ctxOf(org), { name: 'ci', role: 'admin' });
    const outcomes = await Promise.allSettled([0, 1, 2].map(() => keys.roll(ctxOf(org), key.id, 600)));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    for (const outcome of outcomes.filter((outcome) => outcome.status === 'rejected')) {
      expect((outcome as PromiseRejectedResult).reason).toMatchObject({ name: 'ServiceError', code: 'api_key_not_found' });
    }
    expect((await keys.list(ctxOf(org), {})).data).toHaveLength(2);
  });

  it('refuses to roll an expired key, which would otherwise mint a key that never expires', async () => {
    const org = freshOrg();
    const expiring = await keys.create(ctxOf(org), { name: 'ci', role: 'admin', expiresAt: new Date(Date.now() + 300).toISOString() });
    await new Promise((resolve) => setTimeout(resolve, 400));
    await expect(keys.authenticate(expiring.key)).rejects.toMatchObject(UNAUTHENTICATED);
    await expect(keys.roll(ctxOf(org), expiring.id)).rejects.toMatchObject(NOT_ROLLABLE);
    expect((await keys.list(ctxOf(org), {})).data.map((key) => key.id)).toEqual([expiring.id]);
  });
});
