import { generateKeyPairSync } from 'node:crypto';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SUBJECTS, WEBHOOK_FAMILIES } from '@service/contracts';
import { eventually, startTestSystem, type TestSystem } from '@service/testing';
import { SignJWT } from 'jose';
import { call, expectUnauthenticated } from './helpers.js';

const READ_LIMIT = 12;
const REQUEST_TIMEOUT_MS = 600;

let system: TestSystem;
let gatewayA: string;
let gatewayB: string;
/** gatewayA's probe and metrics server (`HEALTH_PORT`): the full readiness check lives there. */
let healthA: string;

beforeAll(async () => {
  system = await startTestSystem({
    gateways: 2,
    gatewayEnv: { RATE_LIMIT_READ_PER_MINUTE: String(READ_LIMIT), NATS_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) },
  });
  [gatewayA, gatewayB] = system.gateways.map((gateway) => gateway.url) as [string, string];
  healthA = system.gateways[0]!.healthUrl;
}, 90_000);

afterAll(async () => {
  await system?.stop();
}, 60_000);

/** A principal no other test uses, so rate-limit budgets never mix. */
let principals = 0;
const freshToken = (claims: Parameters<TestSystem['auth']['token']>[0] = {}) =>
  system.auth.token({ sub: `user_${system.runId}_${(principals += 1)}`, ...claims });

describe('GET /v2/system/ping', () => {
  it('answers 200 {message} with a request id', async () => {
    const result = await call(`${gatewayA}/v2/system/ping`, { token: await freshToken() });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ message: 'pong' });
    expect(result.headers.get('request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('echoes a well-formed Request-Id', async () => {
    const result = await call(`${gatewayA}/v2/system/ping`, {
      token: await freshToken(),
      headers: { 'request-id': 'client-req-42' },
    });
    expect(result.headers.get('request-id')).toBe('client-req-42');
  });

  it('refuses an unknown query parameter with 400 unknown_parameters', async () => {
    const result = await call(`${gatewayA}/v2/system/ping?verbose=1`, { token: await freshToken() });
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ error: 'Unknown query parameter: verbose.', code: 'unknown_parameters' });
  });
});

describe('authentication', () => {
  const ping = (headers: Record<string, string>) => call(`${gatewayA}/v2/system/ping`, { headers });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it('rejects a missing token', async () => {
    expectUnauthenticated(await ping({}));
  });

  it('rejects a malformed header or token', async () => {
    expectUnauthenticated(await ping({ authorization: 'Basic dXNlcjpwYXNz' }));
    expectUnauthenticated(await ping(bearer('not-a-jwt')));
    expectUnauthenticated(await ping(bearer('aaa.bbb.ccc')));
  });

  it('rejects an expired token', async () => {
    const result = await ping(bearer(await freshToken({ expiresIn: -60 })));
    expectUnauthenticated(result);
    expect((result.body as { message: string }).message).toMatch(/expired/);
  });

  it('rejects a token signed by another key', async () => {
    const other = generateKeyPairSync('ed25519').privateKey;
    expectUnauthenticated(await ping(bearer(await system.auth.token({}, other))));
  });

  it('rejects alg none', async () => {
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const unsigned = `${encode({ alg: 'none', typ: 'JWT' })}.${encode({
      sub: 'attacker',
      org: 'org_test',
      role: 'owner',
      iss: system.auth.issuer,
      aud: system.auth.audience,
      exp: Math.floor(Date.now() / 1000) + 600,
    })}.`;
    expectUnauthenticated(await ping(bearer(unsigned)));
  });

  it('rejects an HMAC token forged with the public key as secret', async () => {
    const forged = await new SignJWT({ org: 'org_test', role: 'owner' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('attacker')
      .setIssuer(system.auth.issuer)
      .setAudience(system.auth.audience)
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode(system.auth.publicKeyPem));
    expectUnauthenticated(await ping(bearer(forged)));
  });

  it('rejects the wrong issuer or audience and missing claims', async () => {
    expectUnauthenticated(await ping(bearer(await freshToken({ iss: 'someone-else' }))));
    expectUnauthenticated(await ping(bearer(await freshToken({ aud: 'another-api' }))));
    expectUnauthenticated(await ping(bearer(await freshToken({ org: undefined }))));
    expectUnauthenticated(await ping(bearer(await freshToken({ role: 'superuser' }))));
  });
});

describe('rate limiting', () => {
  it('shares one budget across two gateway replicas and answers 429 {error, code: rate_limited}', async () => {
    const token = await freshToken();
    const statuses: number[] = [];
    for (let index = 0; index < READ_LIMIT; index += 1) {
      const result = await call(`${index % 2 === 0 ? gatewayA : gatewayB}/v2/system/ping`, { token });
      statuses.push(result.status);
    }
    expect(statuses).toEqual(Array(READ_LIMIT).fill(200));
    const limited = await call(`${gatewayB}/v2/system/ping`, { token });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ error: expect.any(String), code: 'rate_limited' });
    expect(limited.headers.get('ratelimit-limit')).toBeNull();
    expect((await call(`${gatewayA}/v2/system/ping`, { token })).status).toBe(429);
    expect((await call(`${gatewayA}/v2/system/ping`, { token: await freshToken() })).status).toBe(200);
  });
});

describe('rate limiting without Redis', () => {
  it('keeps serving (fails open) when Redis does not answer', async () => {
    const gateway = await system.startGateway({ REDIS_URL: 'redis://127.0.0.1:1' });
    const token = await freshToken();
    for (let index = 0; index < READ_LIMIT + 2; index += 1) {
      expect((await call(`${gateway.url}/v2/system/ping`, { token })).status).toBe(200);
    }
    const ready = await call(`${gateway.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ checks: { redis: 'unavailable' } });
    await gateway.process.stop();
  });
});

describe('forwarding to a service', () => {
  it('returns the service reply', async () => {
    const result = await call(`${gatewayA}/v2/gvaults/yield-sources`, { token: await freshToken() });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      data: [
        {
          id: 'service-ustb-vault',
          name: expect.any(String),
          chain: 'ethereum_sepolia',
          contractAddress: '0x39727692cF58137Bd8c401eFE87Cc8A190D62ead',
          asset: { symbol: 'USDC', contractAddress: '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238', decimals: 6 },
          interface: 'service_ustb_v1',
        },
      ],
    });
  });

  it('answers 503 retryable within the timeout when the service hangs', async () => {
    const gvault = system.services.get('gvault')!;
    gvault.pause();
    try {
      const result = await call(`${gatewayA}/v2/gvaults/yield-sources`, { token: await freshToken() });
      expect(result.status).toBe(503);
      expect(result.body).toEqual({ error: expect.any(String), code: 'service_temporarily_unavailable', retryable: true });
      expect(result.elapsedMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
      expect(result.elapsedMs).toBeLessThan(REQUEST_TIMEOUT_MS + 1_000);
    } finally {
      gvault.resume();
    }
  });

  it("answers 503 retryable at once on the stopped service's routes only; /readyz stays 200, /readyz?full=1 fails", async () => {
    expect((await call(`${healthA}/readyz?full=1`)).status).toBe(200);
    await system.services.get('gvault')!.stop();
    const result = await call(`${gatewayA}/v2/gvaults/yield-sources`, { token: await freshToken() });
    expect(result.status).toBe(503);
    expect(result.body).toEqual({ error: expect.any(String), code: 'service_temporarily_unavailable', retryable: true });
    expect(result.elapsedMs).toBeLessThan(REQUEST_TIMEOUT_MS);
    // Another service's route still answers.
    expect((await call(`${gatewayA}/v2/activity`, { token: await freshToken() })).status).toBe(200);

    // The probe Kubernetes reads depends on the gateway's own dependencies only: the pod stays in the Service.
    const ready = await call(`${gatewayA}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', checks: { nats: 'ok', redis: 'ok' } });
    expect(await call(`${healthA}/readyz`)).toEqual(expect.objectContaining({ status: 200, body: ready.body }));
    // The full check, for humans, names the service that is down: on the health port only.
    const full = await call(`${healthA}/readyz?full=1`);
    expect(full.status).toBe(503);
    expect(full.body).toMatchObject({ status: 'unavailable', checks: { gvault: 'unavailable', wallet: 'ok', nats: 'ok', redis: 'ok' } });
    expect((await call(`${gatewayA}/healthz`)).status).toBe(200);

    await system.startService('gvault');
    // Back to 200 once the service answers again: a service just started can take longer than the
    // check's 1 s for its first database round trip on a busy machine (seen once in CI), so ask
    // until it does, for at most 10 s.
    let status = 0;
    for (const deadline = Date.now() + 10_000; status !== 200 && Date.now() < deadline;) {
      status = (await call(`${healthA}/readyz?full=1`)).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(status).toBe(200);
  });
});

describe('graceful shutdown', () => {
  it('finishes a request in flight on SIGTERM, then exits by itself', async () => {
    const gateway = await system.startGateway();
    const gvault = system.services.get('gvault')!;
    // The request is in flight once the gateway has sent it on the bus to the paused service.
    // As gvault-service's user: the only one the server lets subscribe to gvault's subjects.
    const bus = await system.nats.connect('gvault');
    const forwarded = bus.subscribe(SUBJECTS.gvault.yieldSourcesList, { max: 1 });
    await bus.flush();
    gvault.pause();
    const inFlight = call(`${gateway.url}/v2/gvaults/yield-sources`, { token: await freshToken() });
    for await (const _message of forwarded) break;
    await bus.close();
    const exited = gateway.process.stop();
    // Shutting down once it takes no new connection; the request still waits for its answer.
    await eventually(
      () =>
        fetch(`${gateway.url}/healthz`).then(
          () => false,
          () => true,
        ),
      (closed) => closed,
    );
    gvault.resume();
    expect((await inFlight).status).toBe(200);
    await exited;
    expect(gateway.process.child.signalCode).toBe('SIGTERM');
    await expect(fetch(`${gateway.url}/healthz`)).rejects.toThrow();
    // Its access line was written on the way out, not lost with the process.
    const accessLines = await eventually(
      () => gateway.process.lines.filter((line) => line.includes('"route":"/v2/gvaults/yield-sources"')),
      (found) => found.length > 0,
    );
    expect(accessLines.map((line) => (JSON.parse(line) as { status: number }).status)).toEqual([200]);
  });
});

describe('errors and documents', () => {
  it('answers an unknown route with a stable code and no internals', async () => {
    const result = await call(`${gatewayA}/v2/nothing-here`, { token: await freshToken() });
    expect(result.status).toBe(404);
    expect(result.body).toEqual({ error: 'No route matches GET /v2/nothing-here.', code: 'validation_error' });
  });

  it('serves an OpenAPI 3 document with the bearer scheme and every route', async () => {
    const result = await call(`${gatewayA}/v2/openapi.json`);
    expect(result.status).toBe(200);
    const document = result.body as {
      openapi: string;
      paths: Record<string, Record<string, { responses: Record<string, unknown>; security?: unknown; deprecated?: boolean }>>;
      components: { securitySchemes: Record<string, { type: string; scheme: string }> };
    };
    expect(document.openapi).toMatch(/^3\./);
    await expect(SwaggerParser.validate(structuredClone(result.body) as never)).resolves.toBeDefined();
    expect(document.components.securitySchemes['bearer']).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(Object.keys(document.paths).sort()).toEqual([
      '/v2/accounting/activity',
      '/v2/accounting/yield/period-summary',
      '/v2/activity',
      '/v2/address-book/entries',
      '/v2/address-book/entries/{entryId}',
      '/v2/api-keys',
      '/v2/api-keys/{id}',
      '/v2/api-keys/{id}/roll',
      '/v2/approvals/approvers',
      '/v2/approvals/approvers/{approverId}',
      '/v2/approvals/audit',
      '/v2/approvals/policy',
      '/v2/gvaults/webhooks',
      '/v2/gvaults/webhooks/events',
      '/v2/gvaults/webhooks/{id}',
      '/v2/gvaults/webhooks/{id}/events',
      '/v2/gvaults/webhooks/{id}/events/{eventId}/retry',
      '/v2/gvaults/webhooks/{id}/secret/rotate',
      '/v2/gvaults/webhooks/{id}/test',
      '/v2/gvaults/yield-sources',
      '/v2/gvaults/{gVaultId}/allowlist/{address}',
      '/v2/microvaults/tasks/{taskId}',
      '/v2/microvaults/vaults/{vaultId}/pause',
      '/v2/microvaults/vaults/{vaultId}/pause-status',
      '/v2/microvaults/vaults/{vaultId}/strategy',
      '/v2/microvaults/vaults/{vaultId}/tasks',
      '/v2/sandbox/risk/metrics',
      '/v2/system/ping',
      '/v2/turnkey/activities/pending',
      '/v2/turnkey/activities/{activityId}/vote',
      '/v2/turnkey/activity-approval-request',
      '/v2/wallets',
      '/v2/wallets/risk/actions',
      '/v2/wallets/risk/actions/{riskActionId}',
      '/v2/wallets/risk/alerts',
      '/v2/wallets/risk/metrics',
      '/v2/wallets/risk/rules',
      '/v2/wallets/risk/rules/{riskRuleId}',
      '/v2/wallets/yield-sources',
      '/v2/wallets/{id}',
      '/v2/wallets/{id}/activity',
      '/v2/wallets/{id}/allocate',
      '/v2/wallets/{id}/allocate-preview',
      '/v2/wallets/{id}/deposit-addresses/{chain}/enable',
      '/v2/wallets/{id}/deposits',
      '/v2/wallets/{id}/deposits/lookup',
      '/v2/wallets/{id}/deposits/simulate',
      '/v2/wallets/{id}/deposits/{depositId}',
      '/v2/wallets/{id}/strategy',
      '/v2/wallets/{id}/withdrawal-preview',
      '/v2/wallets/{id}/withdrawals',
      '/v2/wallets/{id}/withdrawals/{withdrawalId}',
      '/v2/wallets/{id}/withdrawals/{withdrawalId}/cancel',
      '/v2/wallets/{id}/withdrawals/{withdrawalId}/payouts/{legIndex}/approve',
      '/v2/wallets/{id}/withdrawals/{withdrawalId}/payouts/{payoutId}/cancel',
      '/v2/wallets/{id}/withdrawals/{withdrawalId}/payouts/{payoutId}/retry',
      '/v2/wallets/{id}/yield',
      '/v2/webhook-endpoints',
      '/v2/webhook-endpoints/events',
      '/v2/webhook-endpoints/{id}',
      '/v2/webhook-endpoints/{id}/events',
      '/v2/webhook-endpoints/{id}/events/{eventId}/retry',
      '/v2/webhook-endpoints/{id}/secret/rotate',
      '/v2/webhook-endpoints/{id}/test',
      '/v2/webhooks',
      '/v2/webhooks/events',
      '/v2/webhooks/{id}',
      '/v2/webhooks/{id}/events',
      '/v2/webhooks/{id}/events/{eventId}/retry',
      '/v2/webhooks/{id}/secret/rotate',
      '/v2/webhooks/{id}/test',
    ]);
    for (const path of Object.values(document.paths)) {
      for (const operation of Object.values(path)) {
        // A route that is gone is documented as deprecated, answering only 410 (the role-based payout approve).
        const success = operation.deprecated ? /^(2\d\d|410)$/ : /^2\d\d$/;
        expect(Object.keys(operation.responses).some((status) => success.test(status))).toBe(true);
        expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['401', '429', '500']));
      }
    }
    const page = await call(`${gatewayA}/v2/docs`);
    expect(page.status).toBe(200);
    expect(String(page.body)).toContain('/v2/openapi.json');
  });

  it("documents each webhook family's event types exactly as the contracts list them", async () => {
    const document = (await call(`${gatewayA}/v2/openapi.json`)).body as {
      components: { schemas: Record<string, { properties: { events: { items: { enum: string[] } } } }> };
    };
    const schemas = {
      webhooks: 'CreateWebhookDto',
      'webhook-endpoints': 'CreateWebhookEndpointDto',
      gvault: 'CreateGVaultWebhookDto',
    } as const;
    for (const [family, schema] of Object.entries(schemas)) {
      expect(document.components.schemas[schema]?.properties.events.items.enum).toEqual([
        ...WEBHOOK_FAMILIES[family as keyof typeof schemas],
      ]);
    }
  });
});
