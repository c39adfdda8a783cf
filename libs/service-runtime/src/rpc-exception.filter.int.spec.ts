import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ArgumentsHost } from '@nestjs/common';
import { type RpcErrorPayload, ServiceError } from '@service/errors';
import { freePort, rejectionOf, TEST_DATABASE_URL } from '@service/testing';
import pg from 'pg';
import { pino } from 'pino';
import { lastValueFrom } from 'rxjs';
import { ServiceRpcExceptionFilter } from './rpc-exception.filter.js';

const SUBJECT = 'wallet.rebalances.allocate';
const host = { switchToRpc: () => ({ getContext: () => ({ getSubject: () => SUBJECT }) }) } as unknown as ArgumentsHost;

/** What the filter replies to `exception`, and the log lines it wrote. */
async function filtered(exception: unknown): Promise<{ payload: RpcErrorPayload; lines: Record<string, unknown>[] }> {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  const payload = await lastValueFrom(new ServiceRpcExceptionFilter(logger).catch(exception, host)).then(
    () => {
      throw new Error('the filter replied without an error');
    },
    (error: unknown) => error as RpcErrorPayload,
  );
  return { payload, lines };
}

/** A loopback server that does `onSocket` with every connection; `close()` also ends those it kept. */
async function fakeServer(onSocket: (socket: Socket) => void): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    onSocket(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

const clientOn = (port: number) => new pg.Client({ connectionString: `postgresql://postgres@127.0.0.1:${port}/postgres` });
/** Raises `sqlstate` in PostgreSQL itself, so the driver builds the error as it would any other. */
const raise = (sqlstate: string) => `DO $$ BEGIN RAISE EXCEPTION 'raised for the test' USING ERRCODE = '${sqlstate}'; END $$`;

/**
 * Real errors of node-postgres, refused, dropped and timed-out connections, a terminated session,
 * SQLSTATEs raised by the server, each with the reason its warn line names.
 */
const unavailable = new Map<string, [error: unknown, reason: string]>();
const other = new Map<string, unknown>();
let pool: pg.Pool;

beforeAll(async () => {
  const closedPort = await freePort();
  unavailable.set('a refused connection', [await rejectionOf(() => clientOn(closedPort).connect()), 'ECONNREFUSED']);

  const dropping = await fakeServer((socket) => socket.destroy());
  unavailable.set('a connection dropped by the server', [
    await rejectionOf(() => clientOn(dropping.port).connect()),
    'Connection terminated unexpectedly',
  ]);
  await dropping.close();

  // One connection at most, to a server that never answers: the first connect times out, the
  // request queued behind it finds no connection free in time.
  const silent = await fakeServer(() => undefined);
  const timing = new pg.Pool({
    connectionString: `postgresql://postgres@127.0.0.1:${silent.port}/postgres`,
    max: 1,
    connectionTimeoutMillis: 200,
  });
  const [connecting, queued] = await Promise.all([
    rejectionOf(() => timing.query('SELECT 1')),
    rejectionOf(() => timing.query('SELECT 1')),
  ]);
  unavailable.set('a connection not made in time', [connecting, 'Connection terminated due to connection timeout']);
  unavailable.set('no pooled connection free in time', [queued, 'timeout exceeded when trying to connect']);
  await timing.end();
  await silent.close();

  const session = new pg.Client({ connectionString: TEST_DATABASE_URL });
  session.on('error', () => undefined);
  await session.connect();
  const ended = new Promise((resolve) => session.once('end', resolve));
  unavailable.set('its session terminated by the server', [
    await rejectionOf(() => session.query('SELECT pg_terminate_backend(pg_backend_pid())')),
    '57P01',
  ]);
  await ended;
  unavailable.set('a client used after its connection broke', [
    await rejectionOf(() => session.query('SELECT 1')),
    'Client has encountered a connection error and is not queryable',
  ]);

  pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 2 });
  for (const sqlstate of ['57P01', '57P02', '57P03', '08006'])
    unavailable.set(`SQLSTATE ${sqlstate}`, [await rejectionOf(() => pool.query(raise(sqlstate))), sqlstate]);
  // One simple query, one implicit transaction: its failure drops the table again.
  other.set(
    'a unique violation',
    await rejectionOf(() => pool.query('CREATE TEMP TABLE spec_unique (id int PRIMARY KEY); INSERT INTO spec_unique VALUES (1), (1)')),
  );
  other.set('a serialization failure', await rejectionOf(() => pool.query(raise('40001'))));
  other.set('a statement timeout', await rejectionOf(() => pool.query('SET statement_timeout = 1; SELECT pg_sleep(1)')));
  other.set('a bug in the SQL', await rejectionOf(() => pool.query('SELECT * FROM no_such_table')));
});

afterAll(async () => {
  await pool?.end();
});

describe('ServiceRpcExceptionFilter', () => {
  it('answers an unavailable database 503 retryable with one warn line naming the reason, never its host', async () => {
    expect([...unavailable.keys()]).toHaveLength(10);
    for (const [name, [error, reason]] of unavailable) {
      const { payload, lines } = await filtered(error);
      expect({ name, payload }).toEqual({
        name,
        payload: {
          status: 503,
          code: 'service_temporarily_unavailable',
          message: 'A dependency is temporarily unavailable. Retry with the same request id.',
          retryable: true,
        },
      });
      expect(lines).toEqual([expect.objectContaining({ level: 40, subject: SUBJECT, unavailable: reason })]);
      expect(JSON.stringify(lines)).not.toMatch(/127\.0\.0\.1|stack/);
    }
  });

  it('keeps internal_error, with the detail in an error line, for what is not unavailability', async () => {
    for (const [name, error] of other) {
      const { payload, lines } = await filtered(error);
      expect({ name, payload }).toEqual({
        name,
        payload: { status: 500, code: 'internal_error', message: 'An unexpected error occurred.' },
      });
      expect(lines).toEqual([
        expect.objectContaining({
          level: 50,
          subject: SUBJECT,
          msg: 'unhandled error in message handler',
          err: expect.objectContaining({ stack: expect.any(String) }),
        }),
      ]);
    }
  });

  it('passes a ServiceError through without a log line', async () => {
    expect(await filtered(new ServiceError('insufficient_funds', 'Too much.'))).toEqual({
      payload: { status: 409, code: 'insufficient_funds', message: 'Too much.' },
      lines: [],
    });
  });
});
