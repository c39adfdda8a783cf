import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import {
  DEFAULT_TO_ARRAY_LIMIT,
  ListTooLongError,
  ServiceApiError,
  ServiceClient,
  ServiceConnectionError,
  ServiceTimeoutError,
} from './index.js';
import { retryingFetch } from './transport.js';

interface Scripted {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}
interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A real HTTP server on loopback answering a script in order (the last answer repeats), or
 * `route`: `drop` destroys the connection once the request is read, `hang` never answers.
 */
type Answer = Scripted | 'drop' | 'hang';
let server: Server;
let baseUrl: string;
let script: Scripted[] = [];
let seen: Seen[] = [];
let route: ((request: Seen) => Answer) | undefined;
const hanging: ServerResponse[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      seen.push(entry);
      const answer = route ? route(entry) : ((script.length > 1 ? script.shift() : script[0]) ?? { status: 200, body: {} });
      if (answer === 'drop') request.socket.destroy();
      else if (answer === 'hang') hanging.push(response);
      else
        response
          .writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers })
          .end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  script = [];
  seen = [];
  route = undefined;
});

afterEach(() => hanging.splice(0).forEach((response) => response.destroy()));

const client = (maxAttempts = 4) =>
  new ServiceClient({ apiKey: 'service_sandbox_test', baseUrl, retry: { maxAttempts, baseDelayMs: 1, maxDelayMs: 50 } });
const RATE_LIMITED = { status: 429, body: { error: 'Too many requests.', code: 'rate_limited' }, headers: { 'retry-after': '0' } };
const UNAVAILABLE = { status: 503, body: { error: 'Try again.', code: 'service_temporarily_unavailable', retryable: true } };
const STRATEGY = { allocations: { usdc: [{ yieldSourceId: 'service-ustb-vault', pct: 100 }] } };
const bodyOf = (request: Seen | undefined) => JSON.parse(request?.body ?? '{}') as Record<string, unknown>;

describe('authentication and environments', () => {
  it('sends the API key as a bearer token', async () => {
    script = [{ status: 200, body: { message: 'pong' } }];
    expect(await client().system.ping()).toEqual({ message: 'pong' });
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/v2/system/ping', headers: { authorization: 'Bearer service_sandbox_test' } });
  });

  it('refuses a key of the other environment and a missing credential before sending anything', () => {
    expect(() => new ServiceClient({ apiKey: 'service_sandbox_x', environment: 'production' })).toThrow('not a production key');
    expect(() => new ServiceClient({ baseUrl })).toThrow('apiKey or token');
    expect(() => new ServiceClient({ token: 'jwt' })).toThrow('baseUrl or environment');
  });
});

describe('retries', () => {
  it('retries 429 and retryable 503, then returns the answer', async () => {
    script = [RATE_LIMITED, UNAVAILABLE, { status: 200, body: { message: 'pong' } }];
    expect(await client().system.ping()).toEqual({ message: 'pong' });
    expect(seen).toHaveLength(3);
  });

  it.each([
    ['a 503 not marked retryable', { status: 503, body: { error: 'Down.', code: 'internal_error' } }, 'internal_error'],
    ['a 500', { status: 500, body: { error: 'Boom.', code: 'internal_error' } }, 'internal_error'],
    ['a 400', { status: 400, body: { error: 'limit must be at most 100.', code: 'validation_error' } }, 'validation_error'],
    ['a 409', { status: 409, body: { error: 'Busy.', code: 'workflow_conflict' } }, 'workflow_conflict'],
  ])('does not retry %s', async (_, answer, code) => {
    script = [answer, { status: 200, body: { message: 'pong' } }];
    const error = await client()
      .system.ping()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServiceApiError);
    expect(error).toMatchObject({ status: answer.status, code, body: answer.body, message: answer.body.error });
    expect(seen).toHaveLength(1);
  });

  it('gives up after maxAttempts with the last answer as a typed error', async () => {
    script = [RATE_LIMITED];
    const error = (await client(3)
      .system.ping()
      .catch((caught: unknown) => caught)) as ServiceApiError;
    expect(seen).toHaveLength(3);
    expect(error).toBeInstanceOf(ServiceApiError);
    expect({ status: error.status, code: error.code, body: error.body }).toEqual({
      status: 429,
      code: 'rate_limited',
      body: RATE_LIMITED.body,
    });
  });

  it('waits at least Retry-After (seconds or an HTTP date), and backs off with jitter within the cap otherwise', async () => {
    const waits: number[] = [];
    const send = retryingFetch({
      retry: { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 5_000 },
      sleep: async (ms) => void waits.push(ms),
      random: () => 0.5,
    });
    script = [
      { ...RATE_LIMITED, headers: { 'retry-after': '2' } },
      { ...RATE_LIMITED, headers: { 'retry-after': new Date(Date.now() + 3_000).toUTCString() } },
      UNAVAILABLE,
      { status: 200, body: {} },
    ];
    expect((await send(new Request(`${baseUrl}/v2/system/ping`))).status).toBe(200);
    expect(waits[0]).toBe(2_000);
    expect(waits[1]).toBeGreaterThan(1_000);
    expect(waits[1]).toBeLessThanOrEqual(3_000);
    expect(waits[2]).toBe(0.5 * 100 * 2 ** 2);
  });

  it('caps a long Retry-After at maxDelayMs', async () => {
    const waits: number[] = [];
    const send = retryingFetch({ retry: { maxAttempts: 2, maxDelayMs: 1_000 }, sleep: async (ms) => void waits.push(ms) });
    script = [
      { ...RATE_LIMITED, headers: { 'retry-after': '3600' } },
      { status: 200, body: {} },
    ];
    await send(new Request(`${baseUrl}/v2/system/ping`));
    expect(waits).toEqual([1_000]);
  });
});

describe('idempotency keys', () => {
  it('generates a requestId when none is given and resends the same one on every retry', async () => {
    script = [RATE_LIMITED, UNAVAILABLE, { status: 200, body: { id: 'w1' } }];
    await client().wallets.create({ strategy: STRATEGY });
    const ids = seen.map((request) => bodyOf(request)['requestId']);
    expect(ids).toHaveLength(3);
    expect(ids[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(1);
    expect(bodyOf(seen[0])['strategy']).toEqual(STRATEGY);
  });

  it("keeps the caller's requestId, and makes a new one per call", async () => {
    script = [{ status: 200, body: {} }];
    const sdk = client();
    await sdk.wallets.allocate('w1', { requestId: 'mine', allocations: [] });
    await sdk.withdrawals.cancel('w1', 'x1');
    await sdk.withdrawals.cancel('w1', 'x1');
    expect(seen.map((request) => [request.url, bodyOf(request)['requestId']])).toEqual([
      ['/v2/wallets/w1/allocate', 'mine'],
      ['/v2/wallets/w1/withdrawals/x1/cancel', expect.any(String)],
      ['/v2/wallets/w1/withdrawals/x1/cancel', expect.any(String)],
    ]);
    expect(bodyOf(seen[1])['requestId']).not.toBe(bodyOf(seen[2])['requestId']);
  });

  it('sends one Idempotency-Key on every retry of a MicroVault write, or the one given', async () => {
    script = [RATE_LIMITED, { status: 202, body: { task: {} } }];
    const sdk = client();
    await sdk.microvaults.setPause('3f1c6c3e-59a4-4e43-8f37-5b1c0d4c2b11', { operation: 'subscriptions', paused: true });
    expect(seen.map((request) => request.headers['idempotency-key'])).toEqual([expect.any(String), seen[0]?.headers['idempotency-key']]);
    script = [{ status: 200, body: { task: {} } }];
    await sdk.microvaults.setPause(
      '3f1c6c3e-59a4-4e43-8f37-5b1c0d4c2b11',
      { operation: 'subscriptions', paused: false },
      { idempotencyKey: 'pause-1' },
    );
    expect(seen[2]?.headers['idempotency-key']).toBe('pause-1');
  });
});

describe('pagination', () => {
  const items = Array.from({ length: 5 }, (_, index) => ({ id: `w${index}` }));
  const paged = (request: Seen): Scripted => {
    const query = new URL(request.url, baseUrl).searchParams;
    const start = Number(query.get('cursor') ?? '0');
    const limit = Number(query.get('limit') ?? '2');
    const end = start + limit;
    return { status: 200, body: { data: items.slice(start, end), nextCursor: end < items.length ? String(end) : null } };
  };

  it('iterates every item across pages, passing the cursor and the filters', async () => {
    route = paged;
    const ids: string[] = [];
    for await (const wallet of client().wallets.list({ limit: 2, status: ['idle'] })) ids.push(wallet.id);
    expect(ids).toEqual(['w0', 'w1', 'w2', 'w3', 'w4']);
    expect(seen.map((request) => request.url)).toEqual([
      '/v2/wallets?limit=2&status=idle',
      '/v2/wallets?limit=2&status=idle&cursor=2',
      '/v2/wallets?limit=2&status=idle&cursor=4',
    ]);
  });

  it('gives one page at a time, and walks pages of a webhook family', async () => {
    route = paged;
    const list = client().webhookEndpoints.list({ limit: 3 });
    expect(await list.page()).toEqual({ data: items.slice(0, 3), nextCursor: '3' });
    expect(await list.page('3')).toEqual({ data: items.slice(3), nextCursor: null });
    const sizes: number[] = [];
    for await (const page of list.pages()) sizes.push(page.data.length);
    expect(sizes).toEqual([3, 2]);
    expect(await client().activity.list({ limit: 4 }).toArray()).toEqual(items);
  });

  it('stops at an error with the typed error', async () => {
    script = [{ status: 400, body: { error: 'The cursor is invalid.', code: 'invalid_cursor' } }];
    await expect(client().deposits.list('w1').toArray()).rejects.toMatchObject({ status: 400, code: 'invalid_cursor' });
  });
});

describe('errors', () => {
  it('reads the code of a MicroVault body from `error`, and keeps bodies without a code', async () => {
    script = [{ status: 409, body: { error: 'idempotency_key_conflict', message: 'The key was used with another request.' } }];
    await expect(client().microvaults.task('t1')).rejects.toMatchObject({
      status: 409,
      code: 'idempotency_key_conflict',
      message: 'The key was used with another request.',
    });
    script = [{ status: 500, body: { error: 'Ping failed.' } }];
    await expect(client().system.ping()).rejects.toMatchObject({
      status: 500,
      code: undefined,
      message: 'Ping failed.',
      body: { error: 'Ping failed.' },
    });
  });

  it('carries the Request-Id of the answer', async () => {
    script = [{ status: 404, body: { error: 'Wallet not found.', code: 'wallet_not_found' }, headers: { 'request-id': 'req-1' } }];
    await expect(client().wallets.get('w1')).rejects.toMatchObject({ code: 'wallet_not_found', requestId: 'req-1' });
  });
});

describe('approvals', () => {
  it('votes with a stamp of the exact approval request the API issued', async () => {
    const turnkeyRequest = {
      type: 'ACTIVITY_TYPE_APPROVE_ACTIVITY',
      timestampMs: '1',
      organizationId: 'org',
      parameters: { fingerprint: 'f' },
    };
    route = (request) =>
      request.url === '/v2/turnkey/activity-approval-request'
        ? { status: 200, body: { activityId: 'a1', action: 'approve', turnkeyRequest, stampPayload: JSON.stringify(turnkeyRequest) } }
        : { status: 200, body: { activityId: 'a1', status: 'approved' } };
    const stamped: string[] = [];
    const stamper = {
      stamp: async (payload: string) => (stamped.push(payload), { stampHeaderName: 'X-Stamp', stampHeaderValue: 'stamp-of-payload' }),
    };
    await client().approvals.voteWith(stamper, 'a1');
    expect(stamped).toEqual([JSON.stringify(turnkeyRequest)]);
    expect(seen.map((request) => [request.url, bodyOf(request)])).toEqual([
      ['/v2/turnkey/activity-approval-request', { activityId: 'a1', action: 'approve' }],
      [
        '/v2/turnkey/activities/a1/vote',
        { action: 'approve', customerApprovalStamp: { stampHeaderName: 'X-Stamp', stampHeaderValue: 'stamp-of-payload' }, turnkeyRequest },
      ],
    ]);
  });
});

const tuned = (options: { timeoutMs?: number; maxAttempts?: number } = {}) =>
  new ServiceClient({
    apiKey: 'service_sandbox_test',
    baseUrl,
    timeoutMs: options.timeoutMs,
    retry: { maxAttempts: options.maxAttempts ?? 4, baseDelayMs: 1, maxDelayMs: 20 },
  });
const PONG = { status: 200, body: { message: 'pong' } };
/** Drops the first `drops` connections, then answers `then`. */
const dropFirst =
  (drops: number, then: Answer = PONG) =>
  (): Answer =>
    seen.length <= drops ? 'drop' : then;

describe('timeouts', () => {
  it('fails an attempt with no answer within timeoutMs as ServiceTimeoutError', async () => {
    route = () => 'hang';
    const started = Date.now();
    const failure = await tuned({ timeoutMs: 150, maxAttempts: 1 })
      .system.ping()
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ServiceTimeoutError);
    expect(failure).toBeInstanceOf(ServiceConnectionError);
    expect(failure).toMatchObject({ timeoutMs: 150, attempts: 1 });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(seen).toHaveLength(1);
  });

  it('takes timeoutMs per call over the client default, and retries a read that timed out', async () => {
    route = () => (seen.length === 1 ? 'hang' : PONG);
    expect(await tuned({ timeoutMs: 60_000 }).system.ping({ timeoutMs: 150 })).toEqual({ message: 'pong' });
    expect(seen).toHaveLength(2);
  });
});

describe('cancelling', () => {
  it('rejects with the signal reason when the signal aborts a call in flight, and sends nothing more', async () => {
    route = () => 'hang';
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const failure = await tuned()
      .wallets.get('0f6f3c1e-4c7b-4a55-9d5e-2f0f7b8f9a10', { signal: controller.signal })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ name: 'AbortError' });
    expect(seen).toHaveLength(1);
  });

  it('sends nothing for a signal already aborted', async () => {
    const failure = await tuned()
      .system.ping({ signal: AbortSignal.abort() })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ name: 'AbortError' });
    expect(seen).toHaveLength(0);
  });
});

describe('network errors', () => {
  it('retries a read whose connection was dropped', async () => {
    route = dropFirst(2);
    expect(await tuned().system.ping()).toEqual({ message: 'pong' });
    expect(seen).toHaveLength(3);
  });

  it('retries a write that carries its requestId, with the same requestId', async () => {
    route = dropFirst(1, { status: 200, body: { id: 'w1' } });
    expect(await tuned().wallets.create({ strategy: STRATEGY })).toEqual({ id: 'w1' });
    expect(seen).toHaveLength(2);
    const [first, second] = seen.map((request) => JSON.parse(request.body) as { requestId: string });
    expect(second?.requestId).toBe(first?.requestId);
  });

  it('retries a write that carries an Idempotency-Key header, with the same key', async () => {
    route = dropFirst(1, { status: 202, body: { task: {} } });
    await tuned().microvaults.setPause('vault-1', { operation: 'deposit', paused: true } as never, { idempotencyKey: 'key-1' });
    expect(seen.map((request) => request.headers['idempotency-key'])).toEqual(['key-1', 'key-1']);
  });

  it.each([
    ['an address-book entry', (sdk: ServiceClient) => sdk.addressBook.create({} as never)],
    ['a webhook registration', (sdk: ServiceClient) => sdk.webhooks.create({} as never)],
    ['a raw POST', (sdk: ServiceClient) => sdk.core.send('POST', '/v2/wallets', { body: { strategy: STRATEGY } })],
  ])('never resends a write without an idempotency key (%s)', async (_name, write) => {
    route = dropFirst(1);
    const failure = await write(tuned()).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ServiceConnectionError);
    expect(failure).not.toBeInstanceOf(ServiceTimeoutError);
    expect(failure).toMatchObject({ attempts: 1 });
    expect(seen).toHaveLength(1);
  });

  it('stops at maxAttempts, the call’s over the client’s', async () => {
    route = () => 'drop';
    const failure = await tuned({ maxAttempts: 5 })
      .system.ping({ maxAttempts: 2 })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ServiceConnectionError);
    expect(failure).toMatchObject({ attempts: 2 });
    expect(seen).toHaveLength(2);
  });

  it('makes one attempt with maxAttempts: 1', async () => {
    route = () => 'drop';
    await expect(tuned({ maxAttempts: 1 }).wallets.list().page()).rejects.toBeInstanceOf(ServiceConnectionError);
    expect(seen).toHaveLength(1);
  });

  it('fails on a refused connection as ServiceConnectionError after its attempts', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const sdk = new ServiceClient({
      apiKey: 'service_sandbox_test',
      baseUrl: `http://127.0.0.1:${port}`,
      retry: { maxAttempts: 2, baseDelayMs: 1 },
    });
    const failure = await sdk.system.ping().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ServiceConnectionError);
    expect(failure).toMatchObject({ attempts: 2 });
    expect(String((failure as Error).message)).toContain('ECONNREFUSED');
  });
});

describe('toArray', () => {
  // Three pages of three items.
  const pages = (request: Seen): Answer => {
    const page = Number(new URL(request.url, baseUrl).searchParams.get('cursor') ?? '0');
    return { status: 200, body: { data: [1, 2, 3].map((n) => ({ id: `${page}-${n}` })), nextCursor: page < 2 ? String(page + 1) : null } };
  };

  it('collects every item of a list within its limit', async () => {
    route = pages;
    expect(await tuned().activity.list().toArray()).toHaveLength(9);
    expect(await tuned().activity.list().toArray({ limit: 9 })).toHaveLength(9);
    expect(DEFAULT_TO_ARRAY_LIMIT).toBe(10_000);
  });

  it('throws ListTooLongError, saying how to raise the limit or iterate, for a longer list', async () => {
    route = pages;
    const failure = await tuned()
      .activity.list()
      .toArray({ limit: 5 })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ListTooLongError);
    expect(failure).toMatchObject({ limit: 5 });
    expect((failure as Error).message).toMatch(
      /more than 5 items: pass toArray\(\{ limit \}\) with a higher limit, or walk it with `for await/,
    );
    expect(seen).toHaveLength(2);
  });
});
