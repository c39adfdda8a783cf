import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { GTOKEN_EVENTS, PORTFOLIO_WALLET_WEBHOOK_EVENTS, WEBHOOK_ENDPOINT_EVENTS } from '@service/contracts';
import { TEST_DATABASE_URL } from '@service/testing';
import pg from 'pg';
import { api, familyOf, rejection, sdkOf, startWebhookSystem, type WebhookTestSystem } from './support.js';

let ws: WebhookTestSystem;
let tokenA: string;
let tokenB: string;

beforeAll(async () => {
  ws = await startWebhookSystem();
  tokenA = await ws.token('org_a');
  tokenB = await ws.token('org_b');
}, 60_000);

afterAll(async () => {
  await ws?.stop();
}, 30_000);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const families = [
  { path: '/v2/webhooks', events: [...PORTFOLIO_WALLET_WEBHOOK_EVENTS], foreign: 'portfolio_wallet.balance.updated' },
  { path: '/v2/webhook-endpoints', events: [...WEBHOOK_ENDPOINT_EVENTS], foreign: 'portfolio_wallet.status_changed' },
  { path: '/v2/gvaults/webhooks', events: [...GTOKEN_EVENTS], foreign: 'portfolio_wallet.deposit.status_changed' },
];

let hosts = 0;
// A receiver on the test allowlist (WEBHOOK_PRIVATE_HOST_ALLOWLIST=127.0.0.1); a host name would
// have to resolve, and only to public addresses.
const freshUrl = () => `http://127.0.0.1:9/hooks/receiver-${(hosts += 1)}`;

describe.each(families)('$path registrations', ({ path, events, foreign }) => {
  const call = (method: string, suffix = '', body?: unknown, token = tokenA) => api(ws.gateway, token, method, `${path}${suffix}`, body);
  const create = (body: Record<string, unknown>, token = tokenA) => call('POST', '', body, token);
  const family = (token = tokenA) => familyOf(sdkOf(ws.gateway, token), path);

  it('creates a registration and shows the 64-hex secret only then', async () => {
    const url = freshUrl();
    const created = await create({ url, events: [events[0]], description: 'Ledger sync', extra: 'ignored' });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.stringMatching(UUID),
      url,
      events: [events[0]],
      description: 'Ledger sync',
      secret: expect.stringMatching(/^[0-9a-f]{64}$/),
      createdAt: expect.stringMatching(ISO_MS),
    });

    const read = await family().get(String(created.body['id']));
    expect(read).toEqual({
      id: created.body['id'],
      url,
      events: [events[0]],
      description: 'Ledger sync',
      createdAt: created.body['createdAt'],
    });
    const typed = await family().create({ url: freshUrl(), events: [events[0]] });
    expect(typed).toEqual({
      id: expect.stringMatching(UUID),
      url: typed.url,
      events: [events[0]],
      secret: expect.stringMatching(/^[0-9a-f]{64}$/),
      createdAt: expect.stringMatching(ISO_MS),
    });
  });

  it('stores a description only when it is a truthy JSON value', async () => {
    const falsy = await create({ url: freshUrl(), events, description: '' });
    expect(falsy.status).toBe(200);
    expect(falsy.body).not.toHaveProperty('description');
    const object = await create({ url: freshUrl(), events, description: { team: 'ops' } });
    expect(object.body['description']).toEqual({ team: 'ops' });
  });

  it.each([
    ['a missing url', { events: ['x'] }],
    ['a url that is not a URI', { url: 'not a url', events: ['x'] }],
    ['a non-http url', { url: 'ftp://example.com/x', events: ['x'] }],
    ['missing events', { url: 'https://example.com/a' }],
    ['empty events', { url: 'https://example.com/a', events: [] }],
    ['events that are not an array', { url: 'https://example.com/a', events: 'x' }],
    ['an unsupported event type', { url: 'https://example.com/a', events: ['portfolio_wallet.nope'] }],
  ])('refuses %s with 400 validation_error', async (_case, body) => {
    const withEvents = 'events' in body && Array.isArray(body.events) && body.events[0] === 'x' ? { ...body, events: [events[0]] } : body;
    const result = await create(withEvents);
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ error: expect.any(String), code: 'validation_error' });
  });

  it("refuses an event type of another family's catalogue", async () => {
    const result = await create({ url: freshUrl(), events: [events[0], foreign] });
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ error: expect.stringContaining('events must contain only'), code: 'validation_error' });
  });

  it('refuses the same URL twice in one organization with 409 webhook_duplicate_url, also when concurrent', async () => {
    const url = freshUrl();
    const results = await Promise.all([create({ url, events }), create({ url, events }), create({ url, events })]);
    expect(results.map((result) => result.status).sort()).toEqual([200, 409, 409]);
    expect(results.find((result) => result.status === 409)?.body).toEqual({ error: expect.any(String), code: 'webhook_duplicate_url' });
    expect(await rejection(family().create({ url, events }))).toEqual({
      status: 409,
      body: { error: expect.any(String), code: 'webhook_duplicate_url' },
    });
    expect((await family(tokenB).create({ url, events })).url).toBe(url);
  });

  it('answers 400 for a non-UUID id and 404 webhook_not_found for an unknown or foreign one', async () => {
    expect(await call('GET', '/not-a-uuid')).toEqual({ status: 400, body: { error: 'id must be a UUID.', code: 'validation_error' } });
    const unknown = await call('GET', '/8c1b6f4e-2f55-4d9e-9a51-0f6d2c0b7a11');
    expect(unknown).toEqual({ status: 404, body: { error: 'Webhook not found.', code: 'webhook_not_found' } });
    const foreign = await create({ url: freshUrl(), events }, tokenB);
    for (const [method, suffix, body] of [
      ['GET', '', undefined],
      ['DELETE', '', undefined],
      ['PATCH', '', { description: 'mine now' }],
      ['GET', '/events', undefined],
    ] as const) {
      const result = await call(method, `/${String(foreign.body['id'])}${suffix}`, body);
      expect(result).toEqual({ status: 404, body: { error: 'Webhook not found.', code: 'webhook_not_found' } });
    }
  });

  it('updates url, events and description with the creation rules', async () => {
    const taken = freshUrl();
    await create({ url: taken, events });
    const created = await create({ url: freshUrl(), events: [events[0]], description: 'old' });
    const id = String(created.body['id']);
    const url = freshUrl();
    const updated = await call('PATCH', `/${id}`, { url, events, description: 'new', secret: 'ignored' });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({ id, url, events, description: 'new', createdAt: created.body['createdAt'] });
    expect((await call('PATCH', `/${id}`, { description: null })).body).not.toHaveProperty('description');
    expect((await call('PATCH', `/${id}`, { events: [foreign] })).body).toMatchObject({ code: 'validation_error' });
    expect((await call('PATCH', `/${id}`, { events: [] })).body).toMatchObject({ code: 'validation_error' });
    // null is a value, not "unchanged": it is refused at the gateway like any other invalid one.
    for (const body of [{ url: null }, { events: null }]) {
      expect(await call('PATCH', `/${id}`, body)).toEqual({ status: 400, body: { error: expect.any(String), code: 'validation_error' } });
    }
    expect((await call('PATCH', `/${id}`, { url: taken })).status).toBe(409);
    expect((await call('GET', `/${id}`)).body['url']).toBe(url);
  });

  it('lets a member read registrations and deliveries, and refuses it every write, retry and test with 403 forbidden', async () => {
    const member = await ws.token('org_a', 'member');
    const created = await create({ url: freshUrl(), events: [events[0]] });
    const id = String(created.body['id']);
    const forbidden = {
      status: 403,
      body: { error: 'Only organization owners and admins may manage webhook registrations.', code: 'forbidden' },
    };
    expect(await create({ url: freshUrl(), events }, member)).toEqual(forbidden);
    for (const [method, suffix, body] of [
      ['PATCH', `/${id}`, { url: freshUrl() }],
      ['DELETE', `/${id}`, undefined],
      ['POST', `/${id}/test`, undefined],
      ['POST', `/${id}/events/8c1b6f4e-2f55-4d9e-9a51-0f6d2c0b7a11/retry`, undefined],
    ] as const) {
      expect({ method, suffix, result: await call(method, suffix, body, member) }).toEqual({ method, suffix, result: forbidden });
    }
    expect(await rejection(family(member).create({ url: freshUrl(), events }))).toEqual(forbidden);
    for (const suffix of ['', `/${id}`, `/${id}/events`, '/events'])
      expect({ suffix, status: (await call('GET', suffix, undefined, member)).status }).toEqual({ suffix, status: 200 });
    // Nothing the member asked for happened.
    expect(await call('GET', `/${id}`)).toMatchObject({ status: 200, body: { url: created.body['url'], events: [events[0]] } });
    expect((await call('GET', `/${id}/events`)).body['data']).toEqual([]);
  });

  it('deletes: {id, deleted: true}, then gone from get and list, and the URL can be registered again', async () => {
    const url = freshUrl();
    const { id } = await family().create({ url, events });
    expect(await call('DELETE', `/${id}`)).toEqual({ status: 200, body: { id, deleted: true } });
    const gone = { status: 404, body: { error: 'Webhook not found.', code: 'webhook_not_found' } };
    expect(await rejection(family().get(id))).toEqual(gone);
    expect(await rejection(family().remove(id))).toEqual(gone);
    const listed = await family().list({ limit: 100 }).toArray();
    expect(listed.map((item) => item.id)).not.toContain(id);
    expect((await create({ url, events })).status).toBe(200);
  });
});

describe('registration limit', () => {
  const LIMIT = 16; // WEBHOOK_MAX_REGISTRATIONS_PER_ORGANIZATION's default
  const events = [...PORTFOLIO_WALLET_WEBHOOK_EVENTS];
  const limitReached = { status: 409, body: { error: expect.any(String), code: 'webhook_limit_reached' } };

  it('refuses one registration past the limit of a family with 409 webhook_limit_reached, also when two race for the last place', async () => {
    const token = await ws.token('org_limit');
    const create = (path = '/v2/webhooks') => api(ws.gateway, token, 'POST', path, { url: freshUrl(), events });
    const ids: string[] = [];
    for (let index = 0; index < LIMIT; index += 1) {
      const created = await create();
      expect(created.status).toBe(200);
      ids.push(String(created.body['id']));
    }
    expect(await create()).toEqual(limitReached);
    expect(await rejection(familyOf(sdkOf(ws.gateway, token), '/v2/webhooks').create({ url: freshUrl(), events }))).toEqual(limitReached);
    // Each family counts apart; another organization is not affected.
    expect(
      (await api(ws.gateway, token, 'POST', '/v2/webhook-endpoints', { url: freshUrl(), events: [...WEBHOOK_ENDPOINT_EVENTS] })).status,
    ).toBe(200);
    expect((await api(ws.gateway, await ws.token('org_limit_other'), 'POST', '/v2/webhooks', { url: freshUrl(), events })).status).toBe(
      200,
    );

    // A deletion frees one place: of two creates at once, one takes it.
    expect((await api(ws.gateway, token, 'DELETE', `/v2/webhooks/${ids[0]}`)).status).toBe(200);
    const raced = await Promise.all([create(), create()]);
    expect(raced.map((result) => result.status).sort()).toEqual([200, 409]);
    expect(raced.find((result) => result.status === 409)).toEqual(limitReached);
    const listed = await familyOf(sdkOf(ws.gateway, token), '/v2/webhooks').list({ limit: 100 }).toArray();
    expect(listed).toHaveLength(LIMIT);
  });
});

describe('receiver hosts', () => {
  const refused = {
    status: 400,
    body: { error: 'url is not allowed: its host must resolve, and only to public addresses.', code: 'validation_error' },
  };

  it('refuses a private, loopback or IPv6 transition address whose host is not on the allowlist', async () => {
    for (const url of [
      'http://10.0.0.1/hooks',
      'http://127.0.0.2:9/hooks',
      'http://localhost:9/hooks',
      'http://[::ffff:127.0.0.1]:9/hooks',
      'http://[64:ff9b::a00:1]/hooks',
      'http://[2002:a00:1::1]/hooks',
    ]) {
      const result = await api(ws.gateway, tokenA, 'POST', '/v2/webhooks', { url, events: ['portfolio_wallet.status_changed'] });
      expect({ url, result }).toEqual({ url, result: refused });
    }
    const { id } = await familyOf(sdkOf(ws.gateway, tokenA), '/v2/webhooks').create({
      url: freshUrl(),
      events: ['portfolio_wallet.status_changed'],
    });
    expect(await api(ws.gateway, tokenA, 'PATCH', `/v2/webhooks/${id}`, { url: 'http://169.254.169.254/latest' })).toEqual(refused);
  });

  it('answers a host that does not resolve with a fixed message, without the resolver text', async () => {
    const result = await api(ws.gateway, tokenA, 'POST', '/v2/webhook-endpoints', {
      url: 'https://no-such-receiver.invalid/hooks',
      events: ['portfolio_wallet.balance.updated'],
    });
    expect(result).toEqual(refused);
    expect(JSON.stringify(result.body)).not.toMatch(/ENOTFOUND|EAI_|getaddrinfo|no-such-receiver/);
  });
});

describe('listing', () => {
  it('pages newest first across more than one page, without secrets and without other organizations', async () => {
    const org = await ws.token('org_pages');
    const other = await ws.token('org_pages_other');
    const ids: string[] = [];
    for (let index = 0; index < 5; index += 1) {
      const created = await api(ws.gateway, org, 'POST', '/v2/webhook-endpoints', {
        url: freshUrl(),
        events: ['portfolio_wallet.balance.updated'],
      });
      ids.push(String(created.body['id']));
    }
    await api(ws.gateway, other, 'POST', '/v2/webhook-endpoints', { url: freshUrl(), events: ['portfolio_wallet.balance.updated'] });
    await api(ws.gateway, org, 'POST', '/v2/webhooks', { url: freshUrl(), events: ['portfolio_wallet.status_changed'] });

    const first = await api(ws.gateway, org, 'GET', '/v2/webhook-endpoints?limit=2');
    expect(first.status).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual(['data', 'nextCursor']);
    const seen: Record<string, unknown>[] = [];
    let pages = 0;
    for await (const page of sdkOf(ws.gateway, org).webhookEndpoints.list({ limit: 2 }).pages()) {
      seen.push(...page.data);
      pages += 1;
    }
    expect(pages).toBe(3);
    expect(seen.map((item) => item['id'])).toEqual([...ids].reverse());
    for (const item of seen) expect(item).not.toHaveProperty('secret');
  });

  it('refuses a bad limit, a malformed or foreign cursor and unknown parameters', async () => {
    const token = await ws.token('org_pages');
    const get = (query: string) => api(ws.gateway, token, 'GET', `/v2/webhooks${query}`);
    for (const limit of ['0', '101', 'abc']) expect((await get(`?limit=${limit}`)).body).toMatchObject({ code: 'validation_error' });
    expect(await get('?cursor=garbage!')).toEqual({ status: 400, body: { error: expect.any(String), code: 'invalid_cursor' } });
    const sdk = sdkOf(ws.gateway, token);
    const endpointsPage = await sdk.webhookEndpoints.list({ limit: 1 }).page();
    const foreign = await rejection(sdk.webhooks.list().page(endpointsPage.nextCursor ?? undefined));
    expect(foreign).toEqual({ status: 400, body: { error: expect.any(String), code: 'invalid_cursor' } });
    expect(await get('?verbose=1')).toEqual({
      status: 400,
      body: { error: 'Unknown query parameter: verbose.', code: 'unknown_parameters' },
    });
  });
});

describe('secrets at rest', () => {
  it('stores the signing secret encrypted, never in clear', async () => {
    const created = await api(ws.gateway, tokenA, 'POST', '/v2/webhooks', { url: freshUrl(), events: ['portfolio_wallet.status_changed'] });
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      const { rows } = await client.query<{ secret_enc: string }>(
        `SELECT secret_enc FROM "webhook_${ws.system.runId}".registrations WHERE id = $1`,
        [created.body['id']],
      );
      expect(rows[0]?.secret_enc).toMatch(/^v2\./);
      expect(rows[0]?.secret_enc).not.toContain(String(created.body['secret']));
    } finally {
      await client.end();
    }
    expect(ws.service.lines.join('\n')).not.toContain(String(created.body['secret']));
  });
});
