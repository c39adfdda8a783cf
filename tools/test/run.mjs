#!/usr/bin/env node
/**
 * `npm test`: every check of the repository, arranged to keep both cores of a small machine busy.
 *
 *   1. generation: the Prisma clients and the Solidity artifact (the type check, the tests and the
 *      builds read them), and Nx's project graph (the lint's module-boundaries rule reads it; it
 *      skips itself without one);
 *   2. at once: ESLint (one cached process, type-aware), Prettier's check (cached), tsc over every
 *      project (incremental), and the `npm start` suite (dev-tools, unit and e2e). That suite runs
 *      beside nothing that reads a dist folder: `npm start` builds the apps through Nx, and Nx without its daemon restores
 *      cached outputs by rewriting them, which breaks any app another suite is starting;
 *   3. the builds every e2e suite starts, and beside them libs/events' spec, which needs the
 *      PostgreSQL server without other open transactions;
 *   4. every other project's unit and end-to-end tests in two lanes at once (each e2e suite runs
 *      its own NATS server, schemas and stream, so two never see each other).
 *
 * Unit and e2e results are cached by Nx on their inputs (sources, the apps an e2e suite starts,
 * the Jest and swc settings): a second run with nothing changed replays them.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const env = { ...process.env, NX_DAEMON: process.env.NX_DAEMON ?? 'false', NX_NO_CLOUD: 'true', NX_SKIP_PROVENANCE_CHECK: 'true' };

/** Runs one command; with a label, its lines are prefixed so concurrent steps stay readable. */
function run(label, command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => process.stdout.write(label ? `${label} | ${line}\n` : `${line}\n`));
    }
    child.once('error', (error) => {
      process.stdout.write(`${label}: ${error.message}\n`);
      resolve(1);
    });
    child.once('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const timings = [];
async function phase(title, steps) {
  process.stdout.write(`\n== ${title}\n`);
  const began = Date.now();
  const codes = await Promise.all(steps.map(([label, command, args]) => run(steps.length > 1 ? label : '', command, args)));
  const seconds = Math.round((Date.now() - began) / 1000);
  timings.push(`${title}: ${seconds} s`);
  const failed = steps.filter((_, index) => codes[index] !== 0).map(([label]) => label);
  if (failed.length > 0) {
    process.stdout.write(`\nnpm test failed in: ${failed.join(', ')}\n${timings.join('\n')}\n`);
    process.exit(1);
  }
}

const nx = bin('nx');
await phase('generated code', [
  ['generate', nx, ['run-many', '-t', 'prisma-generate', 'compile-solidity', '--parallel=2', '--outputStyle=stream']],
]);
await phase('the project graph', [['graph', 'sh', ['-c', `"${nx}" show projects > /dev/null`]]]);
await phase('lint, type check and the npm start suite', [
  ['lint', 'npm', ['run', '-s', 'eslint']],
  ['format', 'npm', ['run', '-s', 'format:check']],
  ['types', 'npm', ['run', '-s', 'tsc']],
  ['start', nx, ['run-many', '-t', 'test', 'e2e', '--projects=dev-tools', '--parallel=1', '--outputStyle=stream']],
]);
// libs/events' outbox relay publishes only below the oldest transaction still open anywhere on
// the PostgreSQL server (pg_snapshot_xmin), so its spec cannot run beside a suite that holds
// transactions open: it runs beside the builds, which touch no database.
const ALONE = ['events'];
await phase('builds, and the specs that need the database to themselves', [
  ['build', nx, ['run-many', '-t', 'build', '--parallel=2', '--outputStyle=stream']],
  ['alone', nx, ['run-many', '-t', 'test', `--projects=${ALONE.join(',')}`, '--parallel=1', '--outputStyle=stream']],
]);
// Two lanes of one Nx task at a time. Left to itself, Nx starts tasks by how many others depend on
// them, then by past durations (none on a fresh clone): the unit tests of the libs first and the
// longest e2e suite last, alone, with one core idle. The lanes split the work by what each task
// took in CI's last run with both lanes running (the README's timings); a project not in the first
// lane runs in the second. The builds are done, so a lane runs without its tasks' dependencies and
// never rewrites a dist folder the other lane's apps run from.
const FIRST_LANE = [
  'wallet-service-e2e',
  'gvault-service-e2e',
  'webhook-service-e2e',
  'activity-service-e2e',
  'microvault-service-e2e',
  'sdk',
  'chaos',
  'identity-service-e2e',
  'risk-service-e2e',
];
const lane = (selection) => [
  'run-many',
  '-t',
  'test',
  'e2e',
  selection,
  '--parallel=1',
  '--excludeTaskDependencies',
  '--outputStyle=stream',
];
await phase('unit and end-to-end tests', [
  ['lane 1', nx, lane(`--projects=${FIRST_LANE.join(',')}`)],
  ['lane 2', nx, lane(`--exclude=${['dev-tools', ...ALONE, ...FIRST_LANE].join(',')}`)],
]);
process.stdout.write(`\nnpm test passed\n${timings.join('\n')}\n`);
