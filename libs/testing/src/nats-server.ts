import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { reapOnExit } from './processes.js';

export interface IsolatedNats {
  readonly url: string;
  stop(): Promise<void>;
}

const NATS_SERVER_CANDIDATES = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'];

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => socket.end(() => resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/**
 * A NATS server with JetStream of this test run alone. Request subjects and queue groups are
 * server-wide, so two runs (or a developer's `npm start`) on one server would answer each other's
 * requests; a server per run keeps them apart.
 */
export async function startIsolatedNats(): Promise<IsolatedNats> {
  const binary = process.env['NATS_SERVER_BIN'] ?? NATS_SERVER_CANDIDATES.find((candidate) => existsSync(candidate));
  if (!binary) throw new Error('nats-server is not installed (apt-get install nats-server) and NATS_SERVER_BIN is not set');
  const port = await freePort();
  const storeDir = mkdtempSync(path.join(tmpdir(), 'nats-test-'));
  const child = spawn(binary, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], { stdio: 'ignore' });
  reapOnExit(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`nats-server did not start on port ${port}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return {
    url: `nats://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}
