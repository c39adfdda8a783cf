import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { NatsConnection } from '@nats-io/transport-node';
import { coalesceWrites, connectNats } from './connection.js';

const NATS_URL = process.env['TEST_NATS_URL'] ?? 'nats://127.0.0.1:4222';

let receiver: NatsConnection;
const opened: NatsConnection[] = [];

async function open(coalesce: boolean): Promise<{ connection: NatsConnection; writes: () => number }> {
  const connection = await connectNats({ url: NATS_URL, name: 'connection-spec', coalesceWrites: coalesce });
  opened.push(connection);
  const transport = (connection as unknown as { protocol: { transport: { send(frame: Uint8Array): void } } }).protocol.transport;
  const send = transport.send.bind(transport);
  let writes = 0;
  transport.send = (frame) => {
    writes += 1;
    send(frame);
  };
  return { connection, writes: () => writes };
}

/** Publishes one message from each of `count` timer callbacks that all run in the same loop turn. */
async function publishFromSeparateCallbacks(connection: NatsConnection, subject: string, count: number, payload = 'x'): Promise<void> {
  await new Promise<void>((resolve) => {
    for (let index = 0; index < count; index += 1) {
      setTimeout(() => {
        connection.publish(subject, payload);
        if (index === count - 1) resolve();
      }, 0);
    }
  });
  await connection.flush();
}

function collect(subject: string, count: number): Promise<string[]> {
  const received: string[] = [];
  return new Promise((resolve) => {
    receiver.subscribe(subject, {
      callback: (_error, message) => {
        received.push(message.string());
        if (received.length === count) resolve(received);
      },
    });
  });
}

beforeAll(async () => {
  receiver = await connectNats({ url: NATS_URL, name: 'connection-spec-receiver' });
});

afterAll(async () => {
  await Promise.all([receiver, ...opened].map((connection) => connection.close()));
});

describe('coalesceWrites', () => {
  it('sends what separate callbacks of one loop turn publish in one write, and every message arrives', async () => {
    const subject = `test.coalesce.${randomUUID()}`;
    const arrived = collect(subject, 20);
    await receiver.flush();
    const { connection, writes } = await open(true);
    const before = writes();
    await publishFromSeparateCallbacks(connection, subject, 20);
    expect(await arrived).toHaveLength(20);
    // The 20 publishes, then the flush's PING.
    expect(writes() - before).toBeLessThanOrEqual(2);
  });

  it('is what makes the difference: without it each callback writes on its own', async () => {
    const { connection, writes } = await open(false);
    const before = writes();
    await publishFromSeparateCallbacks(connection, `test.coalesce.${randomUUID()}`, 20);
    expect(writes() - before).toBeGreaterThanOrEqual(20);
  });

  it('writes at once when the buffer reaches the client threshold, and large messages arrive whole', async () => {
    const subject = `test.coalesce.${randomUUID()}`;
    const large = 'y'.repeat(200_000);
    const arrived = collect(subject, 3);
    await receiver.flush();
    const { connection } = await open(true);
    await publishFromSeparateCallbacks(connection, subject, 3, large);
    expect((await arrived).map((message) => message.length)).toEqual([200_000, 200_000, 200_000]);
  });

  it('changes nothing on an object without the expected internals', () => {
    expect(coalesceWrites({} as NatsConnection)).toBe(false);
  });
});
