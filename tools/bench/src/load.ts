import { readdirSync, readFileSync } from 'node:fs';
import autocannon, { type Result } from 'autocannon';

export interface LoadOptions {
  readonly url: string;
  readonly headers?: Record<string, string>;
  readonly connections: number;
  readonly durationS: number;
  /** Every response body must equal this; a different one counts as a mismatch. */
  readonly expectBody?: string;
  /** GET these paths of `url`'s server in turn (each connection cycles through them) instead of `url` alone. */
  readonly paths?: readonly string[];
  /**
   * Requests each connection sends in turn instead, each rebuilt before it is sent by the module
   * `setupRequest` (a path: autocannon requires it on its worker thread), which reads the request's
   * own plain fields; see `write-request.cjs`.
   */
  readonly requests?: readonly GeneratedRequest[];
}

/** A request that `setupRequest` (a module's path) completes before each send, from its plain fields. */
export interface GeneratedRequest {
  readonly method: string;
  readonly setupRequest: string;
  readonly [field: string]: unknown;
}

/** What the bench is doing now, for the message of a run stopped by its watchdog. */
export const progress = { stage: 'starting' };

/** Something a run started, and how to stop it. */
export interface Cleanup {
  readonly name: string;
  readonly run: () => Promise<unknown>;
}

/**
 * What the service suite running now has started, to stop (newest last): a run stopped by its
 * watchdog or a signal stops these too, since the suite's own `finally` never comes (its apps and
 * NATS server would outlive the run, its pgbench database stay).
 */
export const suiteCleanups: Cleanup[] = [];

/** Runs and forgets `cleanups`, newest first; one that fails is reported, the rest still run. */
export async function runCleanups(cleanups: Cleanup[]): Promise<void> {
  for (const { name, run } of cleanups.splice(0).reverse()) {
    try {
      await run();
    } catch (error) {
      console.error(`bench: stopping ${name} failed: ${(error as Error).message}`);
    }
  }
}

/** `promise`'s value, or 'timeout' when it has not settled within `ms` (the promise is left to itself). */
export async function within<T>(promise: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A request unanswered this long is a timeout (autocannon's `timeout`, which it also counts as an error). */
export const REQUEST_TIMEOUT_S = 10;

/** Extra time a run may take beyond its duration before it counts as hung. */
const RUN_GRACE_MS = 30_000;

/**
 * One autocannon run. The load is generated on a worker thread, so this process's own event loop
 * (which reads the child processes' logs) does not delay requests or inflate latencies.
 */
export function runLoad(options: LoadOptions): Promise<Result> {
  return new Promise<Result>((resolve, reject) => {
    const timer = setTimeout(
      () => {
        instance.stop();
        reject(new Error(`load on ${options.url} did not finish within ${options.durationS} s + ${RUN_GRACE_MS / 1000} s`));
      },
      options.durationS * 1000 + RUN_GRACE_MS,
    );
    const instance = autocannon(
      {
        url: options.url,
        headers: options.headers,
        connections: options.connections,
        duration: options.durationS,
        pipelining: 1,
        timeout: REQUEST_TIMEOUT_S,
        workers: 1,
        expectBody: options.expectBody,
        // Only when given: autocannon refuses expectBody beside any requests option, even undefined.
        ...(options.paths ? { requests: options.paths.map((path) => ({ method: 'GET', path, headers: options.headers })) } : {}),
        ...(options.requests ? { requests: options.requests.map((request) => ({ headers: options.headers, ...request })) } : {}),
      },
      (error, result) => {
        clearTimeout(timer);
        if (error) reject(error);
        else resolve(result);
      },
    );
  });
}

/** Failed requests of a run: transport errors, timeouts, non-2xx answers and unexpected bodies. */
export function failuresOf(result: Result): number {
  return result.errors + result.timeouts + result.non2xx + result.mismatches;
}

/** /proc reports CPU time in USER_HZ ticks, 100 per second on Linux. */
const USER_HZ = 100;

/**
 * CPU time (user + system, ms) a process has used so far, from /proc; undefined where /proc is
 * not available. Resolution is one clock tick (10 ms on Linux).
 */
export function cpuMsOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / USER_HZ : undefined;
  } catch {
    return undefined;
  }
}

/**
 * CPU time (ms) so far of every process whose command is `command` (`postgres`: the server and all
 * its backends), with that of their children that exited (a backend whose connection closed, an
 * autovacuum worker): the parent that reaped them counts it as its children's time.
 */
export function cpuMsOfCommand(command: string): number {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== command) continue;
      // Fields after the command name: utime, stime, cutime and cstime are the 14th to 17th.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      // Gone since the directory was read.
    }
  }
  return (ticks * 1000) / USER_HZ;
}

/** CPU time (ms) this process (the load generator, its worker threads included) has used so far. */
export function cpuMsOfSelf(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Busy CPU time (ms) of the whole machine so far, all cores together, from /proc/stat. */
export function machineBusyMs(): number | undefined {
  try {
    const [cpu] = readFileSync('/proc/stat', 'utf8').split('\n', 1);
    const ticks = (cpu ?? '').trim().split(/\s+/).slice(1, 9).map(Number);
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = ticks;
    return ((user + nice + system + irq + softirq + steal) * 1000) / USER_HZ;
  } catch {
    return undefined;
  }
}

/**
 * Pid of the busiest process (most CPU time so far) named `name` whose command line contains
 * `argument` if given: the Redis server, the NATS server on a given port. A short-lived process of
 * the same name (a health check) is not mistaken for it. Undefined where there is no /proc.
 */
export function pidOf(name: string, argument?: string): number | undefined {
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  let best: { pid: number; cpuMs: number } | undefined;
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== name) continue;
      if (argument !== undefined && !readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').includes(argument)) continue;
      const pid = Number(entry);
      const cpuMs = cpuMsOf(pid) ?? 0;
      if (!best || best.cpuMs < cpuMs) best = { pid, cpuMs };
    } catch {
      // the process ended meanwhile
    }
  }
  return best?.pid;
}

/** A suite's optional whole-number setting: undefined when unset, an error below `min` or not whole. */
export function wholeNumberSetting(name: string, min: number): number | undefined {
  const value = process.env[name];
  if (value === undefined || value === '') return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < min) throw new Error(`${name} must be a whole number of at least ${min}, got ${value}`);
  return number;
}
