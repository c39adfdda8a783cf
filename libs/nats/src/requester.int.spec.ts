import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { Msg, NatsConnection } from '@nats-io/transport-node';
import { ServiceError } from '@service/errors';
import { natsAccess } from '@service/testing';
import { connectNats, inboxPrefixOf } from './connection.js';
import { ForwardedJson, NatsRequester } from './requester.js';

const NATS_URL = process.env['TEST_NATS_URL'] ?? 'nats://127.0.0.1:4222';

let client: NatsConnection;
let server: NatsConnection;
const subject = (name: string) => `test.requester.${randomUUID()}.${name}`;

/** Answers like a Nest microservice: `{response | err, isDisposed, id}` echoing the request id. */
/** Replies sent per subject (after their delay). */
const replied = new Map<string, number>();

async function respond(name: string, answer: (data: unknown, message: Msg) => unknown, delayMs = 0): Promise<string> {
  const topic = subject(name);
  server.subscribe(topic, {
    callback: (_error, message) => {
      const request = JSON.parse(message.string()) as { pattern: string; data: unknown; id: string };
      setTimeout(() => {
        message.respond(JSON.stringify({ ...(answer(request.data, message) as object), isDisposed: true, id: request.id }));
        replied.set(topic, (replied.get(topic) ?? 0) + 1);
      }, delayMs);
    },
  });
  await server.flush(); // the subscription is known to the server before anyone requests
  return topic;
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ServiceError) return error.code;
    throw error;
  }
  throw new Error('expected the request to fail');
}

beforeAll(async () => {
  client = await connectNats({ url: NATS_URL, name: 'requester-spec-client', asyncTraces: false });
  server = await connectNats({ url: NATS_URL, name: 'requester-spec-server' });
});

afterAll(async () => {
  await Promise.all([client.close(), server.close()]);
});

describe('NatsRequester', () => {
  it("sends Nest's wire format and returns the service's response", async () => {
    const seen: unknown[] = [];
    const topic = await respond('echo', (data) => {
      seen.push(data);
      return { response: { echoed: data } };
    });
    const requester = new NatsRequester(client, 2_000);
    const data = { ctx: { orgId: 'org-1', requestId: 'req-1' }, id: 'w-1' };
    await expect(requester.request(topic, data)).resolves.toEqual({ echoed: data });
    expect(seen).toEqual([data]);
    expect(requester.inFlight).toBe(0);
  });

  it('rejects, rather than throws, for data JSON cannot hold, and leaves nothing pending', async () => {
    const requester = new NatsRequester(client, 2_000);
    const sent = requester.request(subject('never'), { amount: 1n });
    await expect(sent).rejects.toThrow(TypeError);
    expect(requester.inFlight).toBe(0);
  });

  it('matches many concurrent replies to their own requests', async () => {
    const topic = await respond('concurrent', (data) => ({ response: data }), 5);
    const requester = new NatsRequester(client, 5_000);
    const answers = await Promise.all(Array.from({ length: 500 }, (_, index) => requester.request<{ index: number }>(topic, { index })));
    expect(answers.map((answer) => answer.index)).toEqual(Array.from({ length: 500 }, (_, index) => index));
    expect(requester.inFlight).toBe(0);
  });

  it('keeps each forwarded response intact after later replies have arrived (its bytes are its own)', async () => {
    const topic = await respond('concurrent-forward', (data) => ({ response: data }), 5);
    const requester = new NatsRequester(client, 5_000);
    const bodies = Array.from({ length: 300 }, (_, index) => ({ index, filler: `${index}:`.repeat(200 + (index % 7) * 300) }));
    const forwarded = await Promise.all(bodies.map((body) => requester.forward(topic, body)));
    expect(forwarded.map((answer) => answer.json)).toEqual(bodies.map((body) => JSON.stringify(body)));
  });

  it('forwards a response as the exact JSON text the service sent, whichever way Nest closed the reply', async () => {
    const tricky = { id: 'x', text: ',"isDisposed":true,"id":"1"}', nested: [{ response: 1 }], unicode: 'é\u2028' };
    const whole = await respond('forward-whole', (data) => ({ response: data }));
    const requester = new NatsRequester(client, 2_000);
    const forwarded = await requester.forward(whole, tricky);
    expect(forwarded).toBeInstanceOf(ForwardedJson);
    expect(Buffer.isBuffer(forwarded.bytes)).toBe(true);
    expect(forwarded.bytes.equals(Buffer.from(JSON.stringify(tricky)))).toBe(true);
    expect(forwarded.json).toBe(JSON.stringify(tricky));
    expect(JSON.stringify({ wrapped: forwarded })).toBe(JSON.stringify({ wrapped: tricky }));

    // Nest may send the response and the end of the stream as two packets: the first one counts.
    const topic = subject('forward-split');
    server.subscribe(topic, {
      callback: (_error, message) => {
        const { id } = JSON.parse(message.string()) as { id: string };
        message.respond(JSON.stringify({ response: [1, 'two'], id }));
      },
    });
    await server.flush();
    expect((await requester.forward(topic, {})).json).toBe('[1,"two"]');
  });

  it('forwards an error reply as the ServiceError, and a reply without a response as null', async () => {
    const failing = await respond('forward-failing', () => ({
      err: { status: 404, code: 'wallet_not_found', message: 'No such wallet.' },
    }));
    const requester = new NatsRequester(client, 2_000);
    expect(await codeOf(requester.forward(failing, {}))).toBe('wallet_not_found');
    const empty = await respond('forward-empty', () => ({}));
    expect((await requester.forward(empty, {})).json).toBe('null');
  });

  it("throws the service's error as a ServiceError with its code", async () => {
    const topic = await respond('failing', () => ({ err: { status: 404, code: 'wallet_not_found', message: 'No such wallet.' } }));
    const requester = new NatsRequester(client, 2_000);
    const error = await requester.request(topic, {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ code: 'wallet_not_found', message: 'No such wallet.' });
    const detailed = await respond('failing-details', () => ({
      err: { status: 409, code: 'insufficient_funds', message: 'Too much.', details: { balance: { totalUsd: '1.000000' } } },
    }));
    const withDetails = await requester.forward(detailed, {}).catch((caught: unknown) => caught);
    expect(withDetails).toMatchObject({ code: 'insufficient_funds', details: { balance: { totalUsd: '1.000000' } } });
  });

  it('answers 503 at once when no service listens, long before the timeout', async () => {
    const requester = new NatsRequester(client, 10_000);
    const started = Date.now();
    expect(await codeOf(requester.request(subject('nobody'), {}))).toBe('service_temporarily_unavailable');
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(requester.inFlight).toBe(0);
  });

  it('answers 503 after the timeout when the service does not reply in time, and ignores the late reply', async () => {
    const topic = await respond('slow', (data) => ({ response: data }), 600);
    const requester = new NatsRequester(client, 5_000);
    const started = Date.now();
    expect(await codeOf(requester.request(topic, {}, { timeoutMs: 200 }))).toBe('service_temporarily_unavailable');
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(elapsed).toBeLessThan(590);
    expect(requester.inFlight).toBe(0);
    // The late reply sent, at the NATS server (flush), and handed to the requester's connection
    // (a flush's PONG comes after every message the server sent before it).
    while ((replied.get(topic) ?? 0) === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await server.flush();
    await client.flush();
    // The next request still gets its own answer, not the late one.
    await expect(requester.request(topic, { second: true })).resolves.toEqual({ second: true });
  });

  it('takes its replies under the inbox prefix its connection was opened with, by connectNats or the testing lib', async () => {
    const own = await connectNats({ url: NATS_URL, name: 'requester-spec-prefix', auth: { inboxPrefix: '_INBOX_requester_spec' } });
    const tested = await natsAccess(NATS_URL).connect('gateway');
    try {
      expect([inboxPrefixOf(own), inboxPrefixOf(tested), inboxPrefixOf(client)]).toEqual([
        '_INBOX_requester_spec',
        '_INBOX_gateway',
        undefined,
      ]);
      const replyTo: string[] = [];
      const topic = await respond('prefix', (_data, message) => {
        replyTo.push(message.reply ?? '');
        return { response: 'ok' };
      });
      await expect(new NatsRequester(own, 2_000).request(topic, {})).resolves.toBe('ok');
      await expect(new NatsRequester(tested, 2_000).request(topic, {})).resolves.toBe('ok');
      expect(replyTo.map((reply) => reply.split('.')[0])).toEqual(['_INBOX_requester_spec', '_INBOX_gateway']);
    } finally {
      await Promise.all([own.close(), tested.close()]);
    }
  });

  it('answers 503 when the connection is closed', async () => {
    const own = await connectNats({ url: NATS_URL, name: 'requester-spec-closed', asyncTraces: false });
    const requester = new NatsRequester(own, 2_000);
    await own.close();
    expect(await codeOf(requester.request(await respond('closed', () => ({ response: 1 })), {}))).toBe('service_temporarily_unavailable');
    expect(requester.inFlight).toBe(0);
  });
});

describe('NatsRequester metrics', () => {
  it('counts each request once by subject and outcome, with its duration', async () => {
    const observed: [string, string][] = [];
    const metrics = {
      observe: (name: string, outcome: string, seconds: number) =>
        void (expect(seconds).toBeGreaterThanOrEqual(0), observed.push([name, outcome])),
    };
    const requester = new NatsRequester(client, 300, metrics as never);
    const ok = await respond('ok', () => ({ response: 1 }));
    const refused = await respond('refused', () => ({ err: { status: 404, code: 'wallet_not_found', message: 'No.' } }));
    const slow = await respond('slow', () => ({ response: 1 }), 1_000);
    const nobody = subject('nobody');
    await requester.request(ok, {});
    await requester.forward(ok, {});
    await expect(requester.request(refused, {})).rejects.toThrow(ServiceError);
    await expect(requester.request(slow, {})).rejects.toThrow(ServiceError);
    await expect(requester.request(nobody, {})).rejects.toThrow(ServiceError);
    expect(observed).toEqual([
      [ok, 'ok'],
      [ok, 'ok'],
      [refused, 'error_4xx'],
      [slow, 'timeout'],
      [nobody, 'no_responder'],
    ]);
  });
});
