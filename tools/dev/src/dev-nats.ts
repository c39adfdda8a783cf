import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import path from 'node:path';
import { SERVICES } from '@service/contracts';
import { REPO_ROOT } from './dev-auth.js';

/** The NATS server configuration that ships (Kubernetes, Compose, the e2e suites): a user per app. */
export const SHIPPED_NATS_CONFIG = path.join(REPO_ROOT, 'k8s', 'base', 'nats', 'nats-server.conf');
/** Its users: the gateway, one per service, the operator CLI and `ops` (the JetStream API). */
export const NATS_USERS = ['gateway', ...SERVICES, 'admin', 'ops'] as const;
export type NatsUser = (typeof NATS_USERS)[number];

const DEV_NATS_DIR = path.join(REPO_ROOT, '.dev', 'nats');
const PASSWORDS_FILE = path.join(DEV_NATS_DIR, 'passwords.json');
const NATS_SERVER_CANDIDATES = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'];

/** The variable the shipped configuration (and a Compose or Kubernetes deployment) reads a user's password from. */
export function natsPasswordVariable(user: NatsUser): string {
  return `NATS_${user.toUpperCase()}_PASSWORD`;
}

/** The NATS user of an app (`gateway`, `wallet-service`...). */
export function natsUserOfApp(app: string): NatsUser {
  return app.replace(/-service$/, '') as NatsUser;
}

/** Where npm start's apps connect and each user's password (none: an anonymous server). */
export interface DevNats {
  readonly url: string;
  readonly passwords: Readonly<Record<NatsUser, string>> | undefined;
  /** What an app connecting as `user` runs with. */
  envOf(user: NatsUser): Record<string, string>;
  /** The server npm start runs, if it runs one. */
  readonly server?: ChildProcess;
}

/**
 * The dev passwords: a letter and 40 hex digits each (nats-server parses a variable as a
 * configuration value, so a password must not read as a number, date or boolean), made once
 * and kept in the git-ignored `.dev/nats/`, so `npm run admin` finds the admin password there.
 */
export function ensureDevNatsPasswords(): Record<NatsUser, string> {
  if (existsSync(PASSWORDS_FILE)) {
    const stored = JSON.parse(readFileSync(PASSWORDS_FILE, 'utf8')) as Partial<Record<NatsUser, string>>;
    if (NATS_USERS.every((user) => typeof stored[user] === 'string')) return stored as Record<NatsUser, string>;
  }
  mkdirSync(DEV_NATS_DIR, { recursive: true });
  const passwords = Object.fromEntries(NATS_USERS.map((user) => [user, `p${randomBytes(20).toString('hex')}`])) as Record<NatsUser, string>;
  writeFileSync(PASSWORDS_FILE, `${JSON.stringify(passwords, null, 2)}\n`, { mode: 0o600 });
  return passwords;
}

function access(url: string, passwords: Readonly<Record<NatsUser, string>> | undefined, server?: ChildProcess): DevNats {
  return {
    url,
    passwords,
    server,
    envOf: (user): Record<string, string> =>
      passwords ? { NATS_URL: url, NATS_USER: user, NATS_PASSWORD: passwords[user] } : { NATS_URL: url },
  };
}

/**
 * NATS_URL set: that server, with the users' passwords from NATS_<USER>_PASSWORD (all of them, as
 * a Compose deployment of k8s/base/nats has them) or none (a plain `nats-server -js`: anonymous).
 * Unset: npm start runs nats-server itself with the shipped configuration on 127.0.0.1:DEV_NATS_PORT
 * (default 4223), JetStream stored in `.dev/nats/`, and the dev passwords.
 */
export async function devNats(env: NodeJS.ProcessEnv): Promise<DevNats> {
  const external = env['NATS_URL'];
  if (external) {
    const given = NATS_USERS.filter((user) => env[natsPasswordVariable(user)]);
    if (given.length === 0) return access(external, undefined);
    const missing = NATS_USERS.filter((user) => !env[natsPasswordVariable(user)]);
    if (missing.length > 0)
      throw new Error(`NATS_URL is set with some users' passwords: set ${missing.map(natsPasswordVariable).join(', ')} too`);
    return access(
      external,
      Object.fromEntries(NATS_USERS.map((user) => [user, env[natsPasswordVariable(user)] ?? ''])) as Record<NatsUser, string>,
    );
  }
  const binary = env['NATS_SERVER_BIN'] ?? NATS_SERVER_CANDIDATES.find((candidate) => existsSync(candidate));
  if (!binary)
    throw new Error(
      'nats-server is not installed (apt-get install nats-server): install it, set NATS_SERVER_BIN, or point NATS_URL at a running server',
    );
  const port = Number(env['DEV_NATS_PORT'] ?? '4223');
  if (await accepts(port))
    throw new Error(`port ${port} is taken: stop what listens there, set DEV_NATS_PORT, or point NATS_URL at that server`);
  const passwords = ensureDevNatsPasswords();
  const passwordEnv = Object.fromEntries(NATS_USERS.map((user) => [natsPasswordVariable(user), passwords[user]]));
  const server = spawn(
    binary,
    ['-c', SHIPPED_NATS_CONFIG, '-a', '127.0.0.1', '-p', String(port), '-js', '-sd', path.join(DEV_NATS_DIR, 'store')],
    {
      env: { PATH: env['PATH'] ?? '', ...passwordEnv },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const errors: string[] = [];
  server.stderr?.on('data', (chunk: Buffer) => errors.push(chunk.toString('utf8')));
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (server.exitCode !== null || Date.now() > deadline) {
      server.kill('SIGKILL');
      throw new Error(`nats-server did not start on port ${port}: ${errors.join('').trim()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // Started: its log is not kept (drained, so the server never blocks on a full pipe).
  server.stderr?.removeAllListeners('data');
  server.stderr?.resume();
  return access(`nats://127.0.0.1:${port}`, passwords, server);
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => socket.end(() => resolve(true)));
    socket.once('error', () => resolve(false));
  });
}
