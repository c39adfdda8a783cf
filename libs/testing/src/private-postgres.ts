import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { freePort } from './nats-server.js';
import { reapOnExit } from './processes.js';

/**
 * A PostgreSQL cluster of one test alone, on loopback, which the test may kill and start again:
 * the machine's own server (5432) is shared by every run and must never be stopped.
 */
export interface PrivatePostgres {
  /** `postgresql://postgres@127.0.0.1:<port>/postgres` (trust authentication). */
  readonly url: string;
  /** The running postmaster's process id; undefined while it is down. */
  readonly pid: number | undefined;
  /**
   * SIGKILL to the postmaster, as a crash would: no shutdown; its backends end on their own as
   * they notice, and the next {@link start} recovers from the WAL.
   */
  kill(): void;
  /** Starts the postmaster again on the same data; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops it (immediate shutdown) and deletes its directory. */
  stop(): Promise<void>;
}

const POSTGRES_ROOT = '/usr/lib/postgresql';
const READY_TIMEOUT_MS = 15_000;
const STOP_GRACE_MS = 5_000;
/** Postmaster log lines kept for the error of a start that fails. */
const LOG_LINES = 20;

/** The newest installed version's binaries (Debian's layout), or `PG_BIN_DIR`. */
function binDir(): string {
  const fromEnv = process.env['PG_BIN_DIR'];
  if (fromEnv) return fromEnv;
  const versions = existsSync(POSTGRES_ROOT) ? readdirSync(POSTGRES_ROOT).filter((name) => /^\d+$/.test(name)) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error(`no PostgreSQL under ${POSTGRES_ROOT} (apt-get install postgresql) and PG_BIN_DIR is not set`);
  return path.join(POSTGRES_ROOT, newest, 'bin');
}

/** initdb and postgres refuse to run as root: from root they run as the `postgres` OS user. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function accepts(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * initdb in a fresh temporary directory, then the postmaster as a child of this process on a free
 * port (its socket directory is the cluster's own). The postmaster runs directly rather than
 * through `pg_ctl`, so it is this process's child: killed by its own pid and reaped on exit like
 * the run's NATS server. `fsync` is off: a killed process loses nothing the kernel already has.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = binDir();
  const user = serverUser();
  const dir = mkdtempSync(path.join(tmpdir(), 'pg-test-'));
  if (user) chownSync(dir, user.uid, user.gid);
  const data = path.join(dir, 'data');
  execFileSync(path.join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '--locale=C', '-E', 'UTF8'], {
    cwd: dir,
    stdio: 'pipe',
    ...user,
  });
  const port = await freePort();
  const url = `postgresql://postgres@127.0.0.1:${port}/postgres`;
  const args = ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off'];
  let postmaster: ChildProcess | undefined;

  const spawnPostmaster = (log: string[]): ChildProcess => {
    const child = spawn(path.join(bin, 'postgres'), args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'], ...user });
    reapOnExit(child);
    createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (line) => {
      if (log.push(line) > LOG_LINES) log.shift();
    });
    return child;
  };

  const running = () => postmaster !== undefined && postmaster.exitCode === null && postmaster.signalCode === null;

  // After a kill, the old backends hold the shared memory until they notice and exit: the new
  // postmaster refuses to start until then, so a start that exits is tried again.
  const start = async () => {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    const log: string[] = [];
    postmaster = spawnPostmaster(log);
    while (!(await accepts(url))) {
      if (Date.now() > deadline) throw new Error(`PostgreSQL did not start on port ${port}:\n${log.join('\n')}`);
      if (!running()) postmaster = spawnPostmaster(log);
      await sleep(50);
    }
  };

  const stop = async () => {
    const child = postmaster;
    if (child && running()) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGQUIT');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    await start();
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url,
    get pid() {
      return running() ? postmaster?.pid : undefined;
    },
    kill: () => postmaster?.kill('SIGKILL'),
    start,
    stop,
  };
}
