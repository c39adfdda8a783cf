import { runInNewContext } from 'node:vm';
import { describe, expect, it } from '@jest/globals';
import { ServiceError, toHttpErrorBody, toRpcError, unavailabilityOf } from './index.js';

// The shapes pg 8.23, pg-pool 3.14 and Prisma Client 7.10 with @prisma/adapter-pg give against
// PostgreSQL 15, as captured from a cluster of its own refusing connections, terminating sessions,
// killed and restarting (the specs of libs/service-runtime and wallet-service raise them for real).
// P2024 is the pool timeout of Prisma's engine-based clients; Prisma 7's passes pg-pool's on.
const refused = Object.assign(new Error('connect ECONNREFUSED 10.1.2.3:5432'), {
  errno: -111,
  code: 'ECONNREFUSED',
  syscall: 'connect',
  address: '10.1.2.3',
  port: 5432,
});
const pgError = (code: string, message: string, severity = 'FATAL') => Object.assign(new Error(message), { name: 'error', severity, code });
const adapterError = (cause: Record<string, unknown>) =>
  Object.assign(new Error(String(cause['message'] ?? cause['kind'])), { name: 'DriverAdapterError', cause });
const prismaError = (code: string, message: string, cause?: Record<string, unknown>) =>
  Object.assign(new Error(message), {
    name: 'PrismaClientKnownRequestError',
    code,
    clientVersion: '7.10.0',
    meta: cause ? { driverAdapterError: adapterError(cause) } : {},
  });
const postgresCause = (code: string, message: string) => ({
  originalCode: code,
  originalMessage: message,
  kind: 'postgres',
  code,
  severity: 'FATAL',
  message,
});

const UNAVAILABLE = [
  ['a refused connection (pg)', refused, 'ECONNREFUSED'],
  [
    'a reset connection (pg)',
    Object.assign(new Error('read ECONNRESET'), { errno: -104, code: 'ECONNRESET', syscall: 'read' }),
    'ECONNRESET',
  ],
  ['a backend ending as its postmaster died (pg)', pgError('57P01', 'terminating connection due to unexpected postmaster exit'), '57P01'],
  ['the server shutting down (pg)', pgError('57P01', 'terminating connection due to administrator command'), '57P01'],
  ['a crash of another backend (pg)', pgError('57P02', 'terminating connection because of crash of another server process'), '57P02'],
  ['the server in recovery (pg)', pgError('57P03', 'the database system is in recovery mode'), '57P03'],
  ['a connection exception (pg)', pgError('08006', 'connection failure', 'ERROR'), '08006'],
  ['a dropped connection (pg)', new Error('Connection terminated unexpectedly'), 'Connection terminated unexpectedly'],
  [
    'a client used after its connection broke (pg)',
    new Error('Client has encountered a connection error and is not queryable'),
    'Client has encountered a connection error and is not queryable',
  ],
  [
    'no pooled connection in time (pg-pool)',
    new Error('timeout exceeded when trying to connect'),
    'timeout exceeded when trying to connect',
  ],
  [
    'a connection not made in time (pg-pool)',
    new Error('Connection terminated due to connection timeout', { cause: new Error('Connection terminated unexpectedly') }),
    'Connection terminated due to connection timeout',
  ],
  [
    'a connection the server closed (postgres.js)',
    Object.assign(new Error('write CONNECTION_CLOSED 10.1.2.3:5432'), {
      code: 'CONNECTION_CLOSED',
      errno: 'CONNECTION_CLOSED',
      address: '10.1.2.3',
      port: 5432,
    }),
    'CONNECTION_CLOSED',
  ],
  [
    'a connection the client destroyed (postgres.js)',
    Object.assign(new Error('write CONNECTION_DESTROYED 10.1.2.3:5432'), { code: 'CONNECTION_DESTROYED' }),
    'CONNECTION_DESTROYED',
  ],
  [
    'a client that has ended (postgres.js)',
    Object.assign(new Error('write CONNECTION_ENDED 10.1.2.3:5432'), { code: 'CONNECTION_ENDED' }),
    'CONNECTION_ENDED',
  ],
  [
    'a connection not made in time (postgres.js)',
    Object.assign(new Error('write CONNECT_TIMEOUT 10.1.2.3:5432'), { code: 'CONNECT_TIMEOUT' }),
    'CONNECT_TIMEOUT',
  ],
  [
    'a server shutting down (postgres.js)',
    Object.assign(new Error('terminating connection due to administrator command'), {
      name: 'PostgresError',
      severity: 'FATAL',
      code: '57P01',
    }),
    '57P01',
  ],
  [
    'an unreachable server (Prisma, a model query)',
    prismaError('P1001', "Can't reach database server at 10.1.2.3:5432", { kind: 'DatabaseNotReachable', host: '10.1.2.3', port: 5432 }),
    'P1001',
  ],
  [
    'an unreachable server (Prisma, raw SQL)',
    prismaError('P2010', 'Raw query failed. Code: `N/A`.', { kind: 'DatabaseNotReachable', host: '10.1.2.3', port: 5432 }),
    'DatabaseNotReachable',
  ],
  ['a closed connection (Prisma)', prismaError('P1017', 'Server has closed the connection.', { kind: 'ConnectionClosed' }), 'P1017'],
  [
    'a server shutting down (Prisma, raw SQL)',
    prismaError('P2010', 'Raw query failed. Code: `57P01`.', postgresCause('57P01', 'terminating connection due to administrator command')),
    '57P01',
  ],
  [
    'a server in recovery (Prisma, a model query)',
    prismaError('P2039', 'Database error. Code: `57P03`.', postgresCause('57P03', 'the database system is starting up')),
    '57P03',
  ],
  [
    "a dropped connection (Prisma passes pg's own on)",
    Object.assign(new Error('Connection terminated unexpectedly'), { clientVersion: '7.10.0' }),
    'Connection terminated unexpectedly',
  ],
  [
    'the pool timeout of an engine-era client (Prisma)',
    prismaError('P2024', 'Timed out fetching a new connection from the connection pool.'),
    'P2024',
  ],
  [
    'no connection for a transaction within maxWait (Prisma)',
    prismaError('P2028', 'Transaction API error: Unable to start a transaction in the given time.'),
    'P2028 Unable to start a transaction in the given time',
  ],
] as const;

const NOT_UNAVAILABLE = [
  ['a unique violation (pg)', pgError('23505', 'duplicate key value violates unique constraint "t_pkey"', 'ERROR')],
  ['a serialization failure (pg)', pgError('40001', 'could not serialize access due to concurrent update', 'ERROR')],
  ['a deadlock (pg)', pgError('40P01', 'deadlock detected', 'ERROR')],
  ['a statement timeout (pg)', pgError('57014', 'canceling statement due to statement timeout', 'ERROR')],
  [
    'a unique violation (postgres.js)',
    Object.assign(new Error('duplicate key value violates unique constraint "t_pkey"'), {
      name: 'PostgresError',
      severity: 'ERROR',
      code: '23505',
      constraint_name: 't_pkey',
    }),
  ],
  [
    'a unique violation (Prisma)',
    prismaError('P2002', 'Unique constraint failed', { kind: 'UniqueConstraintViolation', originalCode: '23505' }),
  ],
  [
    'a write conflict (Prisma)',
    prismaError('P2034', 'Transaction failed due to a write conflict or a deadlock.', {
      kind: 'TransactionWriteConflict',
      originalCode: '40001',
    }),
  ],
  ['an expired transaction (Prisma)', prismaError('P2028', 'Transaction API error: A query cannot be executed on an expired transaction.')],
  ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
  ['a message that only mentions a refused connection', new Error('connect ECONNREFUSED db.internal:5432')],
  ['a service error with a code of its own', new ServiceError('wallet_not_found', 'Wallet not found.')],
  ['something that is not an error', 'ECONNREFUSED'],
] as const;

describe('unavailabilityOf', () => {
  it.each(UNAVAILABLE)('recognizes %s', (_case, error, reason) => {
    expect(unavailabilityOf(error)).toBe(reason);
  });

  it.each(NOT_UNAVAILABLE)('leaves %s alone', (_case, error) => {
    expect(unavailabilityOf(error)).toBeUndefined();
  });

  it('reads errors of another realm, wrapped in causes and aggregates, without looping on a cycle', () => {
    const foreign: unknown = runInNewContext(`Object.assign(new Error('connect ECONNREFUSED 10.1.2.3:5432'), { code: 'ECONNREFUSED' })`);
    expect(foreign instanceof Error).toBe(false);
    expect(unavailabilityOf(foreign)).toBe('ECONNREFUSED');
    expect(unavailabilityOf(new Error('saving the wallet failed', { cause: new Error('step', { cause: foreign }) }))).toBe('ECONNREFUSED');
    expect(unavailabilityOf(new AggregateError([new Error('::1 refused'), refused]))).toBe('ECONNREFUSED');
    const cyclic: { message: string; cause?: unknown } = { message: 'a' };
    cyclic.cause = { message: 'b', cause: cyclic };
    expect(unavailabilityOf(cyclic)).toBeUndefined();
  });
});

describe('toRpcError of an unavailable dependency', () => {
  it('answers a retryable service_temporarily_unavailable that names no host', () => {
    const payload = toRpcError(
      prismaError('P1001', "Can't reach database server at 10.1.2.3:5432", { kind: 'DatabaseNotReachable', host: '10.1.2.3', port: 5432 }),
    );
    expect(payload).toEqual({
      status: 503,
      code: 'service_temporarily_unavailable',
      message: 'A dependency is temporarily unavailable. Retry with the same request id.',
      retryable: true,
    });
    expect(toHttpErrorBody(payload)).toEqual({ error: payload.message, code: 'service_temporarily_unavailable', retryable: true });
  });

  it('keeps a constraint violation, a serialization failure and a bug internal_error', () => {
    for (const [, error] of NOT_UNAVAILABLE.slice(0, 8)) expect(toRpcError(error)).toMatchObject({ status: 500, code: 'internal_error' });
  });
});
