import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from '@service/testing';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const PROFILES_DIR = path.join(HERE, '..', 'results', 'profiles');

/** BENCH_CPU_PROF=1: sample the apps' CPU during the first round's measured windows. */
export const CPU_PROFILE = process.env['BENCH_CPU_PROF'] === '1';

/** Environment that preloads cpu-profiler.cjs into an app (none unless BENCH_CPU_PROF=1). */
export function profilerEnv(name: string): Record<string, string> {
  return CPU_PROFILE
    ? { NODE_OPTIONS: `--require ${path.join(HERE, 'cpu-profiler.cjs')}`, BENCH_CPU_PROF_DIR: PROFILES_DIR, BENCH_CPU_PROF_NAME: name }
    : {};
}

/** Profiles each process has written so far. */
const profilesWritten = new Map<number, number>();

/** Starts sampling in `pid` (cpu-profiler.cjs: the first SIGUSR2 starts, the next writes). */
export function startProfile(pid: number): void {
  process.kill(pid, 'SIGUSR2');
}

/** Stops the sampling in `pid` and names its profile `<name>-<scenario>.cpuprofile`. */
export async function collectProfile(name: string, pid: number, scenario: string): Promise<void> {
  const count = (profilesWritten.get(pid) ?? 0) + 1;
  profilesWritten.set(pid, count);
  process.kill(pid, 'SIGUSR2');
  const written = path.join(PROFILES_DIR, `${name}-${pid}-${count}.cpuprofile`);
  for (let waited = 0; waited < 10_000; waited += 100) {
    if (existsSync(written)) {
      const target = path.join(PROFILES_DIR, `${name}-${scenario}.cpuprofile`);
      renameSync(written, target);
      console.log(`bench: CPU profile of ${name} in ${path.relative(REPO_ROOT, target)}`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${name} wrote no CPU profile to ${written}`);
}

/** BENCH_PERF=1: `perf record` of the whole machine during each write window (see the README). */
export const PERF_RECORD = process.env['BENCH_PERF'] === '1';

/**
 * Starts `perf record -a -g` (every process, kernel included: where a saturated machine's CPU
 * goes, which the V8 profiles of single processes cannot say) into
 * `results/profiles/perf-<scenario>.data`; the function returned stops it and waits for the file.
 * Does nothing unless BENCH_PERF=1.
 */
export function startPerf(scenario: string): () => Promise<void> {
  if (!PERF_RECORD) return async () => undefined;
  mkdirSync(PROFILES_DIR, { recursive: true });
  const output = path.join(PROFILES_DIR, `perf-${scenario}.data`);
  const perf = spawn('perf', ['record', '-F', '499', '-a', '-g', '-q', '-o', output], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => {
    perf.once('exit', () => resolve());
    perf.once('error', (error) => {
      console.error(`bench: perf record failed: ${error.message}`);
      resolve();
    });
  });
  return async () => {
    perf.kill('SIGINT');
    await exited;
    console.log(`bench: perf record of the machine in ${path.relative(REPO_ROOT, output)}`);
  };
}
