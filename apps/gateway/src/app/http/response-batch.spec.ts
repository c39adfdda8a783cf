import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { Socket } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { writeResponsesPerTurn } from './response-batch.js';

let app: FastifyInstance | undefined;

/** Socket writes that reached the operating system (Node's own stream implementation). */
let systemWrites = 0;
const { _write: write, _writev: writev } = Socket.prototype;

beforeAll(() => {
  Socket.prototype._write = function (this: Socket, ...args: Parameters<Socket['_write']>) {
    systemWrites += 1;
    return write.apply(this, args);
  };
  Socket.prototype._writev = function (this: Socket, ...args: Parameters<NonNullable<Socket['_writev']>>) {
    systemWrites += 1;
    return writev?.apply(this, args);
  };
});

afterAll(() => {
  Socket.prototype._write = write;
  Socket.prototype._writev = writev;
});

afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function serve(setup: (fastify: FastifyInstance) => void): Promise<string> {
  app = Fastify();
  writeResponsesPerTurn(app.server);
  setup(app);
  return app.listen({ port: 0, host: '127.0.0.1' });
}

describe('writeResponsesPerTurn', () => {
  it('writes a response after the I/O of its turn, not inside the handler, which sees it sent', async () => {
    const observed: Array<Record<string, unknown>> = [];
    const url = await serve((fastify) =>
      fastify.get('/now', (_request, reply) => {
        const before = systemWrites;
        void reply.send({ ok: true });
        const inHandler = { ended: reply.raw.writableEnded, sent: reply.sent, written: systemWrites - before };
        setImmediate(() => observed.push({ ...inHandler, laterWritten: systemWrites - before }));
      }),
    );
    const response = await fetch(`${url}/now`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(observed).toEqual([{ ended: true, sent: true, written: 0, laterWritten: 1 }]);
  });

  it('answers many concurrent requests, each with its own body, and errors too', async () => {
    const url = await serve((fastify) => {
      fastify.get('/echo/:n', async (request) => ({ n: Number((request.params as { n: string }).n) }));
      fastify.get('/fails', async () => {
        throw new Error('boom');
      });
    });
    const answers = await Promise.all(
      Array.from({ length: 200 }, async (_, n) => {
        const response = await fetch(`${url}/echo/${n}`);
        return (await response.json()) as { n: number };
      }),
    );
    expect(answers.map((answer) => answer.n)).toEqual(Array.from({ length: 200 }, (_, n) => n));
    const failed = await fetch(`${url}/fails`);
    expect(failed.status).toBe(500);
  });

  it('keeps a large response whole and in order, across back-pressure', async () => {
    const body = 'x'.repeat(8 * 1024 * 1024);
    const url = await serve((fastify) => fastify.get('/large', (_request, reply) => reply.type('text/plain').send(body)));
    const [first, second] = await Promise.all([fetch(`${url}/large`).then((r) => r.text()), fetch(`${url}/large`).then((r) => r.text())]);
    expect(first.length).toBe(body.length);
    expect(second === body && first === body).toBe(true);
  });
});
