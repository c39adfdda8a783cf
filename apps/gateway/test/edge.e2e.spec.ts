import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestSystem, type TestSystem } from '@service/testing';
import { expectUnauthenticated, type HttpResult, raw } from './helpers.js';

/** Failed authentications one client address may make per minute on these gateways. */
const UNAUTHENTICATED_LIMIT = 5;
const CANONICAL_PING = '/v2/system/ping';

let system: TestSystem;
let gatewayA: string;
let gatewayB: string;
let token: string;

beforeAll(async () => {
  system = await startTestSystem({
    gateways: 2,
    gatewayEnv: {
      CLIENT_ADDRESS_HEADER: 'x-forwarded-for',
      RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: String(UNAUTHENTICATED_LIMIT),
      RATE_LIMIT_READ_PER_MINUTE: '100000',
      RATE_LIMIT_WRITE_PER_MINUTE: '100000',
    },
  });
  [gatewayA, gatewayB] = system.gateways.map((gateway) => gateway.url) as [string, string];
  token = await system.auth.token({ sub: `user_${system.runId}`, org: `org_${system.runId}` });
}, 90_000);

afterAll(async () => {
  await system?.stop();
}, 60_000);

/** A client address of its own (documentation range, only ever a header value), so no test spends another's budget. */
const freshAddress = () => `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}::1`;
const bearer = (credential: string) => ({ authorization: `Bearer ${credential}` });
const from = (address: string, headers: Record<string, string> = {}) => ({ 'x-forwarded-for': address, ...headers });

/**
 * Spellings the router resolves to the canonical path (percent-encoded unreserved characters are
 * the same characters) and spellings it does not (an encoded slash, doubled slashes, dot segments,
 * another case, a trailing slash).
 */
const spellings = (path: string) => ({
  routed: [
    path.replace('/v2/', '/%762/'),
    path.replace('/v2/', '/v%32/'),
    path.replace(/.$/, (last) => `%${last.charCodeAt(0).toString(16)}`),
  ],
  unrouted: [
    path.replace(/(?!^)\//g, '%2F'),
    path.replace(/\/([^/]+)$/, '%2F$1'),
    `/${path}`,
    path.replace('/v2/', '/v2//'),
    path.replace('/v2/', '/v2/./'),
    path.replace('/v2/', '/v2/x/../'),
    path.replace('/v2/', '/V2/'),
    path.toUpperCase(),
    `${path}/`,
  ],
});

describe('authentication is decided by the route that matched', () => {
  for (const canonical of [CANONICAL_PING, '/v2/wallets', '/v2/api-keys']) {
    const { routed, unrouted } = spellings(canonical);

    it(`answers every spelling of ${canonical} 401 without a credential or with a bad one`, async () => {
      for (const path of [canonical, ...routed, ...unrouted]) {
        for (const headers of [{}, bearer('not-a-jwt'), bearer('service_sandbox_unknown')]) {
          const result = await raw(gatewayA, { path, headers: from(freshAddress(), headers) });
          expect({ path, status: result.status }).toEqual({ path, status: 401 });
          expectUnauthenticated(result);
        }
      }
    });

    it(`answers the spellings that route to ${canonical} exactly as the canonical path, the others as no route`, async () => {
      const expected = await raw(gatewayA, { path: canonical, headers: bearer(token) });
      expect(expected.status).toBe(200);
      for (const path of routed) {
        const result = await raw(gatewayA, { path, headers: bearer(token) });
        expect({ path, status: result.status, body: result.body }).toEqual({ path, status: 200, body: expected.body });
      }
      for (const path of unrouted) {
        const result = await raw(gatewayA, { path, headers: bearer(token) });
        expect({ path, status: result.status, body: result.body }).toEqual({
          path,
          status: 404,
          body: { error: `No route matches GET ${path}.`, code: 'validation_error' },
        });
      }
    });
  }

  it('keeps the probes and the documents public, and nothing else', async () => {
    for (const path of ['/healthz', '/readyz', '/v2/openapi.json', '/v2/docs', '/v2/docs/swagger-ui.css', '/%68ealthz']) {
      expect({ path, status: (await raw(gatewayA, { path })).status }).toEqual({ path, status: 200 });
    }
    for (const path of ['/', '/v2', '/v2/', '/favicon.ico', '/v2/nothing-here']) {
      expectUnauthenticated(await raw(gatewayA, { path, headers: from(freshAddress()) }));
    }
  });
});

describe('requests refused before routing', () => {
  it('answers an undecodable path, an overlong path parameter and an oversized request line in the interface shape', async () => {
    const undecodable = await raw(gatewayA, { path: '/v2/wallets/%zz', headers: bearer(token) });
    expect({ status: undecodable.status, body: undecodable.body }).toEqual({
      status: 400,
      body: { error: 'The path is not a valid percent-encoded URL path.', code: 'validation_error' },
    });
    const overlong = await raw(gatewayA, { path: `/v2/wallets/${'a'.repeat(200)}`, headers: bearer(token) });
    expect({ status: overlong.status, body: overlong.body }).toEqual({
      status: 400,
      body: { error: 'A path parameter is too long.', code: 'validation_error' },
    });
    const oversized = await raw(gatewayA, { path: `/v2/wallets?cursor=${'a'.repeat(17_000)}`, headers: bearer(token) });
    expect({ status: oversized.status, body: oversized.body }).toEqual({
      status: 431,
      body: { error: 'The request line and headers are larger than 16 KiB.', code: 'validation_error' },
    });
    expect((await raw(gatewayA, { path: CANONICAL_PING, headers: bearer(token) })).status).toBe(200);
  });
});

/** `count` keys, or `depth` nested arrays, as a JSON text. */
const wideObject = (count: number) => `{${Array.from({ length: count }, (_, index) => `"k${index}":0`).join(',')}}`;
const deepArray = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

const post = (path: string, body: string, headers: Record<string, string> = bearer(token)) =>
  raw(gatewayA, { method: 'POST', path, headers: { 'content-type': 'application/json', ...headers }, body });

describe('a body costs no more than its size', () => {
  it('refuses a body over the limit with 413 request_too_large, before reading it', async () => {
    for (const body of [wideObject(100_000), deepArray(600_000)]) {
      const result = await post('/v2/wallets', body);
      expect(result.status).toBe(413);
      expect(result.body).toEqual({ error: 'The request body is larger than 65536 bytes.', code: 'request_too_large' });
    }
  });

  it('refuses too many keys or too deep a nesting with 400 validation_error naming the limit', async () => {
    expect((await post('/v2/wallets', wideObject(5_000))).body).toEqual({
      error: 'The request body has more than 1024 keys.',
      code: 'validation_error',
    });
    expect((await post('/v2/wallets', deepArray(10_000))).body).toEqual({
      error: 'The request body is nested more than 32 levels deep.',
      code: 'validation_error',
    });
    const deepStrategy = `{"requestId":"${randomUUID()}","strategy":${deepArray(1_000)}}`;
    expect(await post('/v2/wallets', deepStrategy)).toMatchObject({
      status: 400,
      body: { error: 'The request body is nested more than 32 levels deep.', code: 'validation_error' },
    });
    const deepDescription = `{"url":"https://example.com/hook","events":["gvault.allowlist.updated"],"description":${deepArray(1_000)}}`;
    expect(await post('/v2/gvaults/webhooks', deepDescription)).toMatchObject({ status: 400, body: { code: 'validation_error' } });
  });

  it('answers hostile bodies without a credential 401, without reading them', async () => {
    for (const body of [wideObject(100_000), deepArray(10_000)]) {
      expectUnauthenticated(await post('/v2/wallets', body, from(freshAddress())));
    }
  });

  it('keeps answering ping while wide and deep bodies arrive', async () => {
    const hostile = Array.from({ length: 10 }, (_, index) => post('/v2/wallets', index % 2 ? wideObject(5_000) : deepArray(30_000)));
    const pings: Promise<HttpResult>[] = [];
    for (let index = 0; index < 10; index += 1) pings.push(raw(gatewayA, { path: CANONICAL_PING, headers: bearer(token) }));
    expect((await Promise.all(pings)).map((result) => result.status)).toEqual(Array(10).fill(200));
    expect((await Promise.all(hostile)).map((result) => result.status)).toEqual(Array(10).fill(400));
  });
});

interface OpenApiDocument {
  paths: Record<string, Record<string, { requestBody?: { required?: boolean } }>>;
}

/** A value for each path parameter that passes its own validation, so the request reaches its service. */
const PATH_VALUES: Record<string, string> = { chain: 'ethereum_sepolia', gVaultId: 'service-ustb-vault', legIndex: '0' };

describe('an empty body with Content-Type: application/json', () => {
  it('is read as no body on every write route: the same answer as without one, never an unreadable request', async () => {
    const document = (await raw(gatewayA, { path: '/v2/openapi.json' })).body as OpenApiDocument;
    const writes = Object.entries(document.paths).flatMap(([template, operations]) =>
      Object.keys(operations)
        .filter((method) => method !== 'get')
        .map((method) => ({
          method: method.toUpperCase(),
          path: template.replace(/\{(\w+)\}/g, (_, name: string) => PATH_VALUES[name] ?? randomUUID()),
        })),
    );
    expect(writes.length).toBeGreaterThan(30);
    for (const { method, path } of writes) {
      const without = await raw(gatewayA, { method, path, headers: bearer(token) });
      const empty = await raw(gatewayA, { method, path, headers: { ...bearer(token), 'content-type': 'application/json' }, body: '' });
      const summary = (result: HttpResult) => ({
        method,
        path,
        status: result.status,
        code: (result.body as { code?: string; error?: string }).code ?? (result.body as { error?: string }).error,
      });
      expect(summary(empty)).toEqual(summary(without));
      expect(empty.status).toBeLessThan(500);
      if (empty.status === 400) expect({ path, body: empty.body }).not.toMatchObject({ body: { error: 'The request is invalid.' } });
    }
  });

  it('revokes and rolls an API key', async () => {
    const json = { ...bearer(token), 'content-type': 'application/json' };
    const create = async () =>
      (await post('/v2/api-keys', JSON.stringify({ name: 'edge', role: 'member' }))).body as { id: string; key: string };
    const rolled = await create();
    const roll = await raw(gatewayA, { method: 'POST', path: `/v2/api-keys/${rolled.id}/roll`, headers: json, body: '' });
    expect(roll.status).toBe(201);
    expect(roll.body).toMatchObject({ id: expect.any(String), key: expect.stringMatching(/^service_sandbox_/) });
    const revoked = await create();
    const revoke = await raw(gatewayA, { method: 'DELETE', path: `/v2/api-keys/${revoked.id}`, headers: json, body: '' });
    expect(revoke.status).toBe(200);
    expect(revoke.body).toEqual({ id: revoked.id, revoked: true });
    expectUnauthenticated(await raw(gatewayB, { path: CANONICAL_PING, headers: from(freshAddress(), bearer(revoked.key)) }));
  });
});

describe('requests without a working credential are limited per client address', () => {
  it('shares the budget across two gateways, then answers 429 and verifies nothing more from that address', async () => {
    const address = freshAddress();
    for (let index = 0; index < UNAUTHENTICATED_LIMIT; index += 1) {
      const gateway = index % 2 ? gatewayB : gatewayA;
      expectUnauthenticated(await raw(gateway, { path: CANONICAL_PING, headers: from(address, bearer(`service_sandbox_guess${index}`)) }));
    }
    const limited = await raw(gatewayB, { path: CANONICAL_PING, headers: from(address) });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ error: expect.any(String), code: 'rate_limited' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await raw(gatewayA, { path: CANONICAL_PING, headers: from(address, bearer('not-a-jwt')) })).status).toBe(429);

    // A credential not verified yet is not verified for that address while it is over budget; from
    // another address it works, and once verified it is served from the cache to the first one too.
    const fresh = await system.auth.token({ sub: `user_${system.runId}_limited`, org: `org_${system.runId}` });
    expect((await raw(gatewayB, { path: CANONICAL_PING, headers: from(address, bearer(fresh)) })).status).toBe(429);
    expect((await raw(gatewayB, { path: CANONICAL_PING, headers: from(freshAddress(), bearer(fresh)) })).status).toBe(200);
    expect((await raw(gatewayB, { path: CANONICAL_PING, headers: from(address, bearer(fresh)) })).status).toBe(200);
  });
});
