import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import type { OutgoingResponse } from '@nestjs/microservices';
import { NatsRecordSerializer } from '@nestjs/microservices/serializers/nats-record.serializer.js';
import { ReplySerializer } from './reply-serializer.js';

/** The text Nest's own NATS serializer writes for a reply packet. */
const nests = (packet: OutgoingResponse) => (new NatsRecordSerializer().serialize(packet) as { data: string }).data;

/** The text of what ReplySerializer writes (bytes for an object response, else text). */
const ours = (serializer: ReplySerializer, packet: OutgoingResponse) => {
  const { data, headers } = serializer.serialize(packet);
  expect(headers).toBeUndefined();
  return typeof data === 'string' ? data : data.toString('utf8');
};

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('ReplySerializer', () => {
  it("writes every kind of reply packet as Nest's serializer does", () => {
    const serializer = new ReplySerializer();
    const packets: OutgoingResponse[] = [
      { response: { doubled: 42, text: 'ünïcode "quoted"', nested: [1, null, { a: 'b' }] }, isDisposed: true, id: 'req-1' },
      { response: [1, 'two', null], isDisposed: true, id: 'req-2' },
      { response: [], id: 'req-3' },
      { response: 'text', isDisposed: true, id: 'req-4' },
      { response: 7, isDisposed: true, id: 'req-5' },
      { response: null, isDisposed: true, id: 'req-6' },
      { isDisposed: true, id: 'req-7' },
      { err: { status: 404, code: 'wallet_not_found', message: 'No such wallet.' }, isDisposed: true, id: 'req-8' },
      { response: { toJSON: () => undefined }, isDisposed: true, id: 'req-9' },
      { response: { when: new Date(0) }, status: 'error', id: 'req-10' },
      { id: 'req-11', response: { late: true } },
    ];
    for (const packet of packets) {
      expect(new NatsRecordSerializer().serialize(packet).headers).toBeUndefined();
      expect(ours(serializer, packet)).toBe(nests(packet));
    }
    // An object's reply is written as its UTF-8 bytes, which NATS sends as they are.
    expect(Buffer.isBuffer(serializer.serialize({ response: { é: 'ü' }, id: 'bytes' }).data)).toBe(true);
  });

  it('turns a response answered to several requests in one turn into JSON once, and forgets it when the turn ends', async () => {
    let stringified = 0;
    const page = {
      toJSON() {
        stringified += 1;
        return { data: [{ id: 'w1' }, { id: 'w2' }], hasMore: false };
      },
    };
    const serializer = new ReplySerializer();
    const replies = ['a', 'b', 'c'].map((id) => ours(serializer, { response: page, isDisposed: true, id }));
    expect(stringified).toBe(1);
    expect(replies).toEqual(['a', 'b', 'c'].map((id) => nests({ response: page, isDisposed: true, id })));
    stringified = 0;

    // Another turn: the object may have changed since, so it is read again.
    await nextTurn();
    serializer.serialize({ response: page, isDisposed: true, id: 'd' });
    expect(stringified).toBe(1);
  });

  it('writes each of two different objects with equal content on its own', () => {
    const serializer = new ReplySerializer();
    const first = { n: 1 };
    const second = { n: 2 };
    expect(ours(serializer, { response: first, id: 'a' })).toBe('{"response":{"n":1},"id":"a"}');
    expect(ours(serializer, { response: second, id: 'b' })).toBe('{"response":{"n":2},"id":"b"}');
  });
});
