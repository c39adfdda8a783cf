import { afterEach, describe, expect, it } from '@jest/globals';
import Fastify, { type FastifyInstance } from 'fastify';
import { writeResponsesPerTurn } from './response-batch.js';

let app: FastifyInstance | undefined;

afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function serve(setup: (fastify: FastifyInstance) => void): Promise<string> {
  app = Fastify();
  writeResponsesPerTurn(app);
  setup(app);
  return app.listen({ port: 0, host: '127.0.0.1' });
}

describe('writeResponsesPerTurn', () => {
  it('writes a response after the I/O of its turn, not inside the handler', async () => {
    const observed: Array<{ inHandler: boolean; nextTurn: boolean }> = [];
    const url = await serve((fastify) =>
      fastify.get('/now', (_request, reply) => {
        void reply.send({ ok: true });
        const inHandler = reply.raw.headersSent;
        setImmediate(() => observed.push({ inHandler, nextTurn: reply.raw.headersSent }));
      }),
    );
    const response = await fetch(`${url}/now`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(observed).toEqual([{ inHandler: false, nextTurn: true }]);
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
});
