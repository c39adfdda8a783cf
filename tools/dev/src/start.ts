import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { SERVICES } from '@service/contracts';
import { DEMO_ORG_ID, DEV_AUDIENCE, DEV_ISSUER, REPO_ROOT, ensureDevKeys, mintDevToken } from './dev-auth.js';
import { checkDependencies } from './dependencies.js';

/**
 * `npm start`: the whole system on this machine. Checks PostgreSQL, NATS and Redis, applies every
 * migration, builds the apps, starts the gateway and the five services, waits until the gateway is
 * ready and prints a token for the demo organization. Ctrl-C stops every child.
 */
const env = process.env;
const settings = {
  PORT: env['PORT'] ?? '3000',
  SERVICE_ENV: env['SERVICE_ENV'] ?? 'sandbox',
  DATABASE_URL: env['DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/service_dev',
  NATS_URL: env['NATS_URL'] ?? 'nats://127.0.0.1:4222',
  REDIS_URL: env['REDIS_URL'] ?? 'redis://127.0.0.1:6379',
  RATE_LIMIT_READ_PER_MINUTE: env['RATE_LIMIT_READ_PER_MINUTE'] ?? '1000',
  RATE_LIMIT_WRITE_PER_MINUTE: env['RATE_LIMIT_WRITE_PER_MINUTE'] ?? '300',
  WEBHOOK_ALLOW_PRIVATE_URLS: env['WEBHOOK_ALLOW_PRIVATE_URLS'] ?? 'true',
};
const APPS = ['gateway', ...SERVICES.map((service) => `${service}-service`)];
const children = new Map<string, ChildProcess>();
let stopping = false;

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

function step(title: string, command: string[], extraEnv: Record<string, string> = {}): void {
  say(`- ${title}`);
  const [program, ...args] = command as [string, ...string[]];
  const result = spawnSync(program, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...env, ...extraEnv } });
  if (result.status !== 0) {
    process.stderr.write(result.stdout);
    process.stderr.write(result.stderr);
    console.error(`\n${title} failed (exit ${result.status}).`);
    process.exit(1);
  }
}

function startChild(app: string, appEnv: Record<string, string>): void {
  const child = spawn(process.execPath, [path.join('apps', app, 'dist', 'main.js')], {
    cwd: REPO_ROOT,
    env: { ...env, ...settings, ...appEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const label = app.replace(/-service$/, '').padEnd(10);
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => say(`${label}| ${line}`));
  }
  child.once('exit', (code, signal) => {
    children.delete(app);
    if (!stopping) {
      console.error(`${app} stopped unexpectedly (${signal ?? `exit ${code}`}); stopping everything.`);
      void stopAll(1);
    }
  });
  children.set(app, child);
}

async function stopAll(exitCode: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  const exits = [...children.values()].map(
    (child) => new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve()))),
  );
  for (const child of children.values()) child.kill('SIGTERM');
  const force = setTimeout(() => [...children.values()].forEach((child) => child.kill('SIGKILL')), 15_000);
  await Promise.all(exits);
  clearTimeout(force);
  process.exit(exitCode);
}

async function waitUntilReady(url: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !stopping) {
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) return true;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));

say('Starting the service platform locally');
const problems = await checkDependencies({ database: settings.DATABASE_URL, nats: settings.NATS_URL, redis: settings.REDIS_URL });
if (problems.length > 0) {
  console.error('\nThese dependencies do not answer:');
  for (const problem of problems) console.error(`  - ${problem.name} (${problem.detail})\n    fix: ${problem.fix}`);
  process.exit(1);
}
say('- PostgreSQL, NATS (JetStream) and Redis answer');
step('applying migrations', [process.execPath, '--import', 'tsx', 'tools/migrate/src/cli.ts', 'deploy'], {
  DATABASE_URL: settings.DATABASE_URL,
});
step('building the apps', [path.join(REPO_ROOT, 'node_modules', '.bin', 'nx'), 'run-many', '-t', 'build', `--projects=${APPS.join(',')}`]);
const keys = ensureDevKeys();

for (const app of APPS.slice(1)) startChild(app, { HEALTH_PORT: '0' });
startChild('gateway', { AUTH_PUBLIC_KEY: keys.publicKeyPem, AUTH_ISSUER: DEV_ISSUER, AUTH_AUDIENCE: DEV_AUDIENCE, HOST: '127.0.0.1' });

const baseUrl = `http://127.0.0.1:${settings.PORT}`;
if (!(await waitUntilReady(baseUrl, 60_000))) {
  console.error(`The gateway at ${baseUrl} did not become ready within 60 s.`);
  await stopAll(1);
}
const token = await mintDevToken({ orgId: DEMO_ORG_ID, role: 'owner', sub: 'user_demo_owner' }, keys.privateKeyPem);
say(`
Service API ready at ${baseUrl} (${settings.SERVICE_ENV})
  docs:   ${baseUrl}/v2/docs
  token:  organization ${DEMO_ORG_ID}, role owner, valid 24 h (more: npm run -s token -- --org <id> --role <role>)

DEV_TOKEN=${token}

  curl -H "Authorization: Bearer $DEV_TOKEN" ${baseUrl}/v2/system/ping

Press Ctrl-C to stop.
`);
