import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { connect, createInbox, type NatsConnection } from '@nats-io/transport-node';
import { Controller, type INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EventPattern, MessagePattern, Payload, ServerNats } from '@nestjs/microservices';
import { ServiceError } from '@service/errors';
import { metricsText } from '@service/metrics';
import { pino } from 'pino';
import { of } from 'rxjs';
import { ServiceNatsServer } from './bootstrap.js';
import { ServiceRpcExceptionFilter } from './rpc-exception.filter.js';

const NATS_URL = process.env['TEST_NATS_URL'] ?? 'nats://127.0.0.1:4222';
/** Subjects of this run only, so a parallel run on the same NATS server answers none of ours. */
const PREFIX = `spec-${randomUUID().slice(0, 8)}`;
const subject = (name: string) => `${PREFIX}.${name}`;

const events: unknown[] = [];

@Controller()
class WireController {
  @MessagePattern(subject('value'))
  value(@Payload() data: { n: number }) {
    return { doubled: data.n * 2, text: 'ünïcode "quoted"' };
  }

  @MessagePattern(subject('async'))
  async later(@Payload() data: { n: number }) {
    await new Promise((resolve) => setImmediate(resolve));
    return [data.n, null];
  }

  @MessagePattern(subject('nothing'))
  nothing(): void {
    return undefined;
  }

  @MessagePattern(subject('fails'))
  fails(): never {
    throw new ServiceError('wallet_not_found', 'No such wallet.');
  }

  @MessagePattern(subject('crashes'))
  async crashes(): Promise<never> {
    await Promise.resolve();
    throw new Error('secret detail');
  }

  @MessagePattern(subject('stream'))
  stream() {
    return of(1, 2, 3);
  }

  @EventPattern(subject('event'))
  event(@Payload() data: unknown) {
    events.push(data);
  }
}

@Module({ controllers: [WireController] })
class WireModule {}

async function start(server: ServerNats): Promise<INestMicroservice> {
  const app = await NestFactory.createMicroservice(WireModule, { strategy: server, logger: false });
  app.useGlobalFilters(new ServiceRpcExceptionFilter(pino({ level: 'silent' })));
  await app.listen();
  // listen() can resolve before the server has registered the subscriptions: wait until answered.
  for (let attempt = 0; (await repliesTo('nothing', {}, 20)).length === 0 || lastWasNoResponder; attempt++) {
    if (attempt > 100) throw new Error('the microservice never answered');
  }
  return app;
}

let client: NatsConnection;

beforeAll(async () => {
  client = await connect({ servers: NATS_URL, name: 'nats-server-spec' });
});

afterAll(async () => {
  await client.close();
});

let lastWasNoResponder = false;

/** Every raw reply (as text) a request gets within `waitMs`, in order. */
async function repliesTo(name: string, data: unknown, waitMs = 150): Promise<string[]> {
  const inbox = createInbox();
  const replies: string[] = [];
  lastWasNoResponder = false;
  const subscription = client.subscribe(inbox, {
    callback: (_error, message) => {
      // The NATS server's own "no responders" status message.
      if (message.data.length === 0 && message.headers?.code === 503) lastWasNoResponder = true;
      else replies.push(message.string());
    },
  });
  client.publish(subject(name), JSON.stringify({ pattern: subject(name), data, id: 'req-1' }), { reply: inbox });
  await client.flush();
  await new Promise((resolve) => setTimeout(resolve, waitMs));
  subscription.unsubscribe();
  return replies;
}

const REQUESTS: Array<[string, unknown]> = [
  ['value', { n: 21 }],
  ['async', { n: 7 }],
  ['nothing', {}],
  ['fails', {}],
  ['crashes', {}],
  ['stream', {}],
  ['event', { n: 1 }],
];

/** What each server sends back on the wire, request by request. */
async function wireOf(server: ServerNats): Promise<Record<string, string[]>> {
  const app = await start(server);
  try {
    const wire: Record<string, string[]> = {};
    for (const [name, data] of REQUESTS) wire[name] = await repliesTo(name, data);
    return wire;
  } finally {
    await app.close();
  }
}

describe('ServiceNatsServer on the wire', () => {
  const options = { servers: [NATS_URL] };

  it("answers every kind of request with exactly the bytes Nest's NATS server sends", async () => {
    const nests = await wireOf(new ServerNats(options));
    const ours = await wireOf(new ServiceNatsServer(options));
    expect(ours).toEqual(nests);
    // What the comparison is about: the shapes the gateway reads.
    expect(ours['value']).toEqual(['{"response":{"doubled":42,"text":"ünïcode \\"quoted\\""},"isDisposed":true,"id":"req-1"}']);
    expect(ours['nothing']).toEqual(['{"isDisposed":true,"id":"req-1"}']);
    expect(JSON.parse(ours['fails']?.[0] ?? '{}')).toMatchObject({ err: { code: 'wallet_not_found' }, id: 'req-1' });
    expect(ours['crashes']?.join('')).not.toContain('secret detail');
    expect(ours['stream']?.length).toBeGreaterThan(1);

    // Each request answered counted once, by subject and outcome (error outcomes by status class).
    const metrics = await metricsText();
    const count = (name: string, outcome: string) => `nats_server_requests_total{subject="${subject(name)}",outcome="${outcome}"} 1`;
    // ('nothing' also answers the readiness polls of start().)
    for (const name of ['value', 'async', 'stream']) expect(metrics).toContain(count(name, 'ok'));
    expect(metrics).toContain(count('fails', 'error_4xx'));
    expect(metrics).toContain(count('crashes', 'error_5xx'));
    expect(metrics).toContain(`nats_server_request_duration_seconds_count{subject="${subject('value')}",outcome="ok"} 1`);
  });

  it('hands a request without a reply subject to event handlers, as Nest does', async () => {
    events.length = 0;
    const app = await start(new ServiceNatsServer(options));
    try {
      client.publish(subject('event'), JSON.stringify({ pattern: subject('event'), data: { n: 5 } }));
      await client.flush();
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(events).toEqual([{ n: 5 }]);
    } finally {
      await app.close();
    }
  });
});
