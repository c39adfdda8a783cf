import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type ConnectionOptions, connect, type NatsConnection } from '@nats-io/transport-node';
import { SERVICES } from '@service/contracts';
import { REPO_ROOT } from './infra.js';
import { reapOnExit } from './processes.js';

/** The NATS server configuration that ships (Kubernetes, Compose, `npm start`), with a user per app. */
export const SHIPPED_NATS_CONFIG = path.join(REPO_ROOT, 'k8s', 'base', 'nats', 'nats-server.conf');

/**
 * The users of the shipped configuration: the gateway, one per service, the operator CLI (`admin`)
 * and `ops` (the JetStream API alone: stream inspection and clean-up).
 */
export const NATS_USERS = ['gateway', ...SERVICES, 'admin', 'ops'] as const;
export type NatsUser = (typeof NATS_USERS)[number];

/** The variable the shipped configuration reads a user's password from. */
export function natsPasswordVariable(user: NatsUser): string {
  return `NATS_${user.toUpperCase()}_PASSWORD`;
}

/**
 * New random passwords, one per user of the shipped configuration: a letter and 40 hex digits.
 * nats-server parses a variable's value as a configuration value, so a password must not read as
 * a number, a date or a boolean (k8s/base/nats/README.md).
 */
export function newNatsPasswords(): Record<NatsUser, string> {
  return Object.fromEntries(NATS_USERS.map((user) => [user, `p${randomBytes(20).toString('hex')}`])) as Record<NatsUser, string>;
}

/** A NATS server as its clients see it: where it is and, for the shipped configuration, each user's password. */
export interface NatsAccess {
  readonly url: string;
  /** Each user's password when the server runs the shipped configuration; undefined on an open server. */
  readonly passwords: Readonly<Record<NatsUser, string>> | undefined;
  /** What an app connecting as `user` runs with: NATS_URL, and NATS_USER and NATS_PASSWORD when the server wants them. */
  envOf(user: NatsUser): Record<string, string>;
  /** The connect options of `user`: name, password (when the server wants them) and inbox prefix. */
  authOf(user: NatsUser): Pick<ConnectionOptions, 'user' | 'pass' | 'inboxPrefix'>;
  /** A connection as `user` (anonymous on an open server) with the user's inbox prefix. */
  connect(user: NatsUser, options?: Partial<ConnectionOptions>): Promise<NatsConnection>;
}

export interface IsolatedNats extends NatsAccess {
  stop(): Promise<void>;
}

/** The {@link NatsAccess} of a server at `url`, with the users' passwords when it runs the shipped configuration. */
export function natsAccess(url: string, passwords?: Readonly<Record<NatsUser, string>>): NatsAccess {
  const authOf = (user: NatsUser) => ({ inboxPrefix: `_INBOX_${user}`, ...(passwords ? { user, pass: passwords[user] } : {}) });
  return {
    url,
    passwords,
    envOf: (user): Record<string, string> =>
      passwords ? { NATS_URL: url, NATS_USER: user, NATS_PASSWORD: passwords[user] } : { NATS_URL: url },
    authOf,
    connect: async (user, options = {}) => {
      const connection = await connect({ servers: url, ...authOf(user), ...options });
      // The prefix as connectNats (@service/nats) records it, for NatsRequester's replies; by its
      // registered symbol, since the nats lib's specs import this lib.
      const inboxPrefix = options.inboxPrefix ?? authOf(user).inboxPrefix;
      return Object.defineProperty(connection, Symbol.for('@service/nats.inboxPrefix'), { value: inboxPrefix });
    },
  };
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

/** The nats-server binary: NATS_SERVER_BIN, or the first one installed in a usual place. */
export function natsServerBinary(): string {
  const binary = process.env['NATS_SERVER_BIN'] ?? NATS_SERVER_CANDIDATES.find((candidate) => existsSync(candidate));
  if (!binary) throw new Error('nats-server is not installed (apt-get install nats-server) and NATS_SERVER_BIN is not set');
  return binary;
}

/**
 * A NATS server with JetStream of this test run alone. Request subjects and queue groups are
 * server-wide, so two runs (or a developer's `npm start`) on one server would answer each other's
 * requests; a server per run keeps them apart.
 *
 * `auth: 'shipped'` runs the shipped configuration ({@link SHIPPED_NATS_CONFIG}) with new random
 * passwords, so every client must connect as one of its users ({@link NatsAccess.envOf},
 * {@link NatsAccess.connect}) and is held to that user's permissions: the e2e harness runs every
 * suite so. The default, `'open'`, is a server without authorization that any client reaches
 * anonymously (in-process and library tests).
 */
export async function startIsolatedNats(options: { auth?: 'open' | 'shipped' } = {}): Promise<IsolatedNats> {
  const binary = natsServerBinary();
  const port = await freePort();
  const storeDir = mkdtempSync(path.join(tmpdir(), 'nats-test-'));
  const passwords = options.auth === 'shipped' ? newNatsPasswords() : undefined;
  const config = passwords ? ['-c', SHIPPED_NATS_CONFIG] : [];
  const passwordEnv = passwords ? Object.fromEntries(NATS_USERS.map((user) => [natsPasswordVariable(user), passwords[user]])) : {};
  // TEST_NATS_LOG_DIR: each server logs there (permission violations included), to see what a user was refused.
  const logDir = process.env['TEST_NATS_LOG_DIR'];
  const log = logDir ? ['-l', path.join(logDir, `nats-${port}.log`)] : [];
  const child = spawn(binary, [...config, '-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir, ...log], {
    stdio: 'ignore',
    env: { PATH: process.env['PATH'] ?? '', ...passwordEnv },
  });
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
    ...natsAccess(`nats://127.0.0.1:${port}`, passwords),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}
