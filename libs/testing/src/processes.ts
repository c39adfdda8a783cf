import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { REPO_ROOT } from './infra.js';

export interface AppProcess {
  readonly name: string;
  readonly child: ChildProcess;
  /** Log lines so far, parsed when JSON. */
  readonly lines: string[];
  /** SIGTERM and wait for exit (SIGKILL after the grace period). */
  stop(graceMs?: number): Promise<number | null>;
  pause(): void;
  resume(): void;
}

/** Apps started by this process and still running. */
const running = new Set<ChildProcess>();
let reaping = false;

/**
 * Kills, when this process exits, the apps (and NATS servers) it started that are still running: a
 * run that ends without stopping them (the bench's watchdog, a SIGTERM, an uncaught error) would
 * otherwise leave whole systems behind, polling PostgreSQL and skewing every later measurement on
 * the machine.
 */
export function reapOnExit(child: ChildProcess): void {
  running.add(child);
  child.once('exit', () => running.delete(child));
  if (reaping) return;
  reaping = true;
  process.once('exit', () => {
    for (const app of running) app.kill('SIGKILL');
  });
}

/**
 * Starts a built app (`apps/<app>/dist/main.js`) as its own process, the way it runs in
 * production, and resolves once a log line matches `readyWhen`.
 */
export async function startApp(
  app: string,
  env: Record<string, string>,
  readyWhen: (line: string) => boolean,
  // Generous: six services booting at once on a busy 2-core machine take far longer than on a quiet one.
  timeoutMs = 60_000,
): Promise<AppProcess> {
  const entry = path.join(REPO_ROOT, 'apps', app, 'dist', 'main.js');
  if (!existsSync(entry)) throw new Error(`${entry} is missing: build it first (npx nx build ${app})`);
  const child = spawn(process.execPath, [entry], {
    cwd: REPO_ROOT,
    env: { PATH: process.env['PATH'] ?? '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  reapOnExit(child);
  const lines: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${app} not ready in ${timeoutMs} ms:\n${lines.join('\n')}`)), timeoutMs);
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => {
        lines.push(line);
        if (readyWhen(line)) {
          clearTimeout(timer);
          resolve();
        }
      });
    }
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${app} exited with ${code} before it was ready:\n${lines.join('\n')}`));
    });
  });
  try {
    await ready;
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    name: app,
    child,
    lines,
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGCONT');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
  };
}
