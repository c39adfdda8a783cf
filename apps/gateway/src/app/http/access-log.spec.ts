import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { createLogger } from '@service/service-runtime';
import pinoRoot, { pino } from 'pino';
import { AccessLog, type AccessLogEntry, quoted } from './access-log.js';

/** A pino logger configured like the gateway's, writing into an array. */
function capturingLogger(level = 'info') {
  const writes: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      writes.push(chunk.toString());
      callback();
    },
  });
  const reference = createLogger('gateway', level);
  const logger = pino({ ...optionsOf(reference), level }, stream);
  return { logger, writes, stream };
}

/** The options createLogger uses, so the comparison is with the gateway's real line format. */
function optionsOf(logger: ReturnType<typeof createLogger>) {
  return { name: 'gateway', base: logger.bindings(), timestamp: pino.stdTimeFunctions.isoTime };
}

const entry: AccessLogEntry = {
  requestId: 'req-1',
  orgId: 'org "quoted" \\ ünïcode\n',
  method: 'GET',
  route: '/v2/wallets/:id',
  status: 200,
  durationMs: 1.234567,
};

/** Past the 20 ms lines may wait to be written together. */
const flushed = () => new Promise((resolve) => setTimeout(resolve, 40));

describe('AccessLog', () => {
  it('quotes every string exactly as JSON.stringify does', () => {
    const samples = [
      '',
      'req-1',
      '7f0d3c1e-4b5a-4f4e-9a57-1f2e3d4c5b6a',
      '/v2/wallets/:walletId/withdrawals/{id}',
      'GET',
      'org "quoted" \\ ünïcode\n',
      '\u2028\u2029',
      '\ud800 lone surrogate',
      ...Array.from({ length: 128 }, (_, code) => `a${String.fromCharCode(code)}b`),
    ];
    for (const sample of samples) expect([sample, quoted(sample)]).toEqual([sample, JSON.stringify(sample)]);
  });

  it("writes to the destination it is given, the logger's, in order with the logger's own lines", () => {
    const { logger, writes, stream } = capturingLogger();
    const log = AccessLog.of(logger, stream);
    expect(log).not.toBeNull();
    logger.info('before');
    log?.write(entry);
    log?.flush();
    logger.info('after');
    expect(writes.map((line) => (JSON.parse(line) as Record<string, unknown>)['msg'] ?? 'access')).toEqual(['before', 'access', 'after']);
    log?.close();
  });

  it("writes through pino's own destination (pino.destination), the lines still buffered when closed included", () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'access-log-'));
    try {
      const file = path.join(directory, 'out.log');
      const destination = pinoRoot.destination({ dest: file, sync: true });
      const logger = createLogger('gateway', 'info', destination);
      const log = AccessLog.of(logger, destination);
      log?.write(entry);
      log?.close();
      destination.flushSync();
      const line = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      expect(line).toMatchObject({ level: 30, service: 'gateway', name: 'gateway', requestId: 'req-1', status: 200 });
      destination.end();
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('writes the line pino would write for the same fields, escaped', async () => {
    const { logger, writes, stream } = capturingLogger();
    logger.info({ ...entry });
    await flushed();
    const fromPino = JSON.parse(writes[0] ?? '') as Record<string, unknown>;

    const log = AccessLog.of(logger, stream);
    log?.write(entry);
    await flushed();
    const line = writes[1] ?? '';
    expect(line.endsWith('\n')).toBe(true);
    const ours = JSON.parse(line) as Record<string, unknown>;
    expect(Object.keys(ours)).toEqual(Object.keys(fromPino));
    expect({ ...ours, time: 'x' }).toEqual({ ...fromPino, time: 'x' });
    expect(new Date(String(ours['time'])).toISOString()).toBe(ours['time']);
    log?.close();
  });

  it('leaves orgId out when the request had no principal', async () => {
    const { logger, writes, stream } = capturingLogger();
    const log = AccessLog.of(logger, stream);
    log?.write({ ...entry, orgId: undefined, status: 401 });
    await flushed();
    expect(JSON.parse(writes[0] ?? '')).toEqual({
      level: 30,
      time: expect.any(String),
      service: 'gateway',
      name: 'gateway',
      requestId: 'req-1',
      method: 'GET',
      route: '/v2/wallets/:id',
      status: 401,
      durationMs: 1.234567,
    });
    log?.close();
  });

  it('carries the traceId and spanId of a traced request, as pino lines do', async () => {
    const { logger, writes, stream } = capturingLogger();
    const log = AccessLog.of(logger, stream);
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const spanId = '00f067aa0ba902b7';
    log?.write({ ...entry, traceparent: `00-${traceId}-${spanId}-01` });
    log?.write(entry);
    await flushed();
    const [traced, untraced] = (writes[0] ?? '')
      .split('\n')
      .map((line) => (line ? (JSON.parse(line) as Record<string, unknown>) : undefined));
    expect(traced).toMatchObject({ requestId: 'req-1', status: 200, traceId, spanId });
    expect(untraced).not.toHaveProperty('traceId');
    log?.close();
  });

  it('writes the lines of a short while together, one line each', async () => {
    const { logger, writes, stream } = capturingLogger();
    const log = AccessLog.of(logger, stream);
    for (let index = 0; index < 3; index += 1) log?.write({ ...entry, requestId: `req-${index}` });
    expect(writes).toHaveLength(0);
    await flushed();
    expect(writes).toHaveLength(1);
    const lines = (writes[0] ?? '').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((line) => (JSON.parse(line) as AccessLogEntry).requestId)).toEqual(['req-0', 'req-1', 'req-2']);
    log?.close();
  });

  it('writes what is buffered when closed, and nothing at all when info is not logged', () => {
    const { logger, writes, stream } = capturingLogger();
    const log = AccessLog.of(logger, stream);
    log?.write(entry);
    log?.close();
    expect(writes).toHaveLength(1);
    const quiet = capturingLogger('warn');
    expect(AccessLog.of(quiet.logger, quiet.stream)).toBeNull();
  });
});
