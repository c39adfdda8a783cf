import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { ANVIL_DEV_KEYS } from '@service/chain';
import { SERVICES } from '@service/contracts';
import { DEMO_ORG_ID, DEV_AUDIENCE, DEV_ISSUER, REPO_ROOT, ensureDevKeys, mintDevToken } from './dev-auth.js';
import { checkDependencies } from './dependencies.js';
import { type DevNats, devNats, natsUserOfApp } from './dev-nats.js';

/**
 * `npm start`: the whole system on this machine. Checks PostgreSQL, NATS and Redis, applies every
 * migration, builds the apps, starts the gateway and the seven services, waits until the gateway is
 * ready and prints an API key and a token for the demo organization. An app that dies is started
 * again after a backoff, as an orchestrator would (see {@link restartDelayMs}); Ctrl-C stops every
 * child and restarts nothing.
 */
const env = process.env;
/** The gateway's probe and metrics server (`/metrics`, `/readyz?full=1`): never the public `PORT`. */
const GATEWAY_HEALTH_PORT = env['GATEWAY_HEALTH_PORT'] ?? '9464';
const settings = {
  PORT: env['PORT'] ?? '3000',
  SERVICE_ENV: env['SERVICE_ENV'] ?? 'sandbox',
  DATABASE_URL: env['DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/service_dev',
  REDIS_URL: env['REDIS_URL'] ?? 'redis://127.0.0.1:6379',
  RATE_LIMIT_READ_PER_MINUTE: env['RATE_LIMIT_READ_PER_MINUTE'] ?? '1000',
  RATE_LIMIT_WRITE_PER_MINUTE: env['RATE_LIMIT_WRITE_PER_MINUTE'] ?? '300',
  // Receivers on this machine; any other host must resolve to public addresses.
  WEBHOOK_PRIVATE_HOST_ALLOWLIST: env['WEBHOOK_PRIVATE_HOST_ALLOWLIST'] ?? '127.0.0.1,localhost',
  // Dev-only key, the same as docker/compose.yaml's; production reads it from a Secret.
  WEBHOOK_SECRET_ENCRYPTION_KEY: env['WEBHOOK_SECRET_ENCRYPTION_KEY'] ?? '6465762d6f6e6c792d776562686f6f6b2d6b65792d6e6f742d612d7365637265',
  // Dev-only pepper of API key hashes, the same as docker/compose.yaml's; production reads it from a Secret.
  IDENTITY_KEY_PEPPER: env['IDENTITY_KEY_PEPPER'] ?? '6465762d6f6e6c792d6964656e746974792d6b65792d7065707065722d2d2d21',
};
const APPS = ['gateway', ...SERVICES.map((service) => `${service}-service`)];
/** Set once NATS is up: the server's URL and each app's user and password on it. */
let nats: DevNats | undefined;
const children = new Map<string, ChildProcess>();
/** Restarts waiting for their backoff, cleared on stop. */
const pendingRestarts = new Set<NodeJS.Timeout>();
/** Per app: restarts since it last stayed up {@link STAYED_UP_MS}. */
const crashes = new Map<string, number>();
let stopping = false;

/** An app that ran this long before dying is restarted after the first delay again. */
const STAYED_UP_MS = 60_000;
const LAST_LINES = 10;

/** Backoff before the next start after `crashesInARow` quick deaths: 1 s doubling up to 30 s. */
function restartDelayMs(crashesInARow: number): number {
  return Math.min(1000 * 2 ** Math.max(0, crashesInARow - 1), 30_000);
}

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

function startChild(
  app: string,
  args: string[],
  appEnv: Record<string, string>,
  onLine?: (line: string) => void,
  onDeath?: (description: string, ranMs: number, lastLines: string[]) => void,
): ChildProcess {
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: { ...env, ...settings, ...(APPS.includes(app) ? nats?.envOf(natsUserOfApp(app)) : {}), ...appEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const startedAt = Date.now();
  const label = app.replace(/-service$/, '').padEnd(10);
  const lastStderr: string[] = [];
  const lastOutput: string[] = [];
  const keep = (lines: string[], line: string) => lines.push(line) > LAST_LINES && lines.shift();
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      keep(lastOutput, line);
      if (stream === child.stderr) keep(lastStderr, line);
      (onLine ?? ((text: string) => say(`${label}| ${text}`)))(line);
    });
  }
  child.once('exit', (code, signal) => {
    if (children.get(app) === child) children.delete(app);
    if (stopping) return;
    const description = signal ? `killed by ${signal}` : `exit code ${code}`;
    // The readline interfaces may still hold the last lines: let them drain first.
    setImmediate(() => {
      const lastLines = lastStderr.length > 0 ? lastStderr : lastOutput;
      if (onDeath) return onDeath(description, Date.now() - startedAt, lastLines);
      console.error(`${app} stopped unexpectedly (${description}); stopping everything.`);
      void stopAll(1);
    });
  });
  children.set(app, child);
  return child;
}

/**
 * Starts a built app; when it dies (not on stop) it is started again after {@link restartDelayMs},
 * logging its exit code or signal and its last stderr lines (its last output lines without any).
 */
function startApp(app: string, appEnv: Record<string, string>): void {
  const child = startChild(app, [path.join('apps', app, 'dist', 'main.js')], appEnv, undefined, (description, ranMs, lastLines) => {
    const inARow = ranMs >= STAYED_UP_MS ? 1 : (crashes.get(app) ?? 0) + 1;
    crashes.set(app, inARow);
    const delay = restartDelayMs(inARow);
    const last = lastLines.length > 0 ? `; last lines:\n${lastLines.map((line) => `    ${line}`).join('\n')}` : '';
    console.error(
      `${app} died (${description}) after ${(ranMs / 1000).toFixed(1)} s; restarting it in ${delay / 1000} s (restart ${inARow} in a row)${last}`,
    );
    const timer = setTimeout(() => {
      pendingRestarts.delete(timer);
      if (stopping) return;
      startApp(app, appEnv);
      say(`- ${app} restarted (pid ${children.get(app)?.pid})`);
    }, delay);
    pendingRestarts.add(timer);
  });
  if (!crashes.has(app)) say(`- ${app} started (pid ${child.pid})`);
}

/**
 * Without chain configuration, a local anvil answering as Sepolia (chain id 11155111) mining a
 * block a second, with gvault's test allowlist deployed on it; MicroVaults are operated there with
 * anvil's second dev key (the first owns the allowlist).
 */
async function localChainEnv(): Promise<{ gvault: Record<string, string>; microvault: Record<string, string> }> {
  if (settings.SERVICE_ENV !== 'sandbox' || env['CHAIN_RPC_URL_ETHEREUM_SEPOLIA'] || env['SEPOLIA_RPC_URL']) {
    return { gvault: {}, microvault: {} };
  }
  let resolveLine: (line: string) => void = () => undefined;
  const firstLine = new Promise<string>((resolve) => (resolveLine = resolve));
  const chain = startChild('chain', ['--import', 'tsx', 'apps/gvault-service/solidity/local-chain.ts'], {}, (line) => {
    if (line.startsWith('{')) resolveLine(line);
    else say(`chain     | ${line}`);
  });
  const line = await Promise.race([firstLine, once(chain, 'exit').then(() => '')]);
  if (!line) {
    console.error('The local chain (anvil) did not start; set CHAIN_RPC_URL_ETHEREUM_SEPOLIA and SEPOLIA_RPC_URL to use another node.');
    await stopAll(1);
  }
  const local = JSON.parse(line) as Record<string, string>;
  const rpcUrl = local['CHAIN_RPC_URL_ETHEREUM_SEPOLIA'] ?? '';
  say(
    `- local chain (anvil, chain id 11155111) at ${rpcUrl}; allowlist ${local['GVAULT_ALLOWLIST_ADDRESS']}, owner key ${local['ALLOWLIST_OWNER_KEY']}`,
  );
  return {
    gvault: {
      CHAIN_RPC_URL_ETHEREUM_SEPOLIA: rpcUrl,
      GVAULT_ALLOWLIST_ADDRESS: local['GVAULT_ALLOWLIST_ADDRESS'] ?? '',
      CHAIN_CONFIRMATIONS: env['CHAIN_CONFIRMATIONS'] ?? '2',
    },
    microvault: {
      SEPOLIA_RPC_URL: rpcUrl,
      MICROVAULT_OPERATOR_KEY: ANVIL_DEV_KEYS[1],
      CHAIN_CONFIRMATIONS: env['CHAIN_CONFIRMATIONS'] ?? '1',
    },
  };
}

/** `npm run -s admin -- <args>` against this stack's NATS, as the operator CLI's user. */
function admin(...args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'tools/admin/src/cli.ts', ...args], {
    cwd: REPO_ROOT,
    env: { ...env, ...nats?.envOf('admin') },
    encoding: 'utf8',
  });
}

/** The demo organization enabled for MicroVaults with one vault, through the operator CLI. */
function setUpDemoMicroVault(): string {
  const enabled = admin('microvaults', 'enable', '--org', DEMO_ORG_ID);
  const created = enabled.status === 0 ? admin('microvaults', 'create-vault', '--org', DEMO_ORG_ID) : enabled;
  if (created.status !== 0) return `not created (${(created.stderr || created.stdout).trim()})`;
  return created.stdout.trim();
}

/** A new owner API key of the demo organization, through the operator CLI (a new one every start). */
async function demoApiKey(): Promise<string> {
  const created = admin('api-keys', 'create', '--org', DEMO_ORG_ID, '--role', 'owner', '--name', 'npm start');
  if (created.status !== 0) {
    console.error(`Creating the demo API key failed: ${(created.stderr || created.stdout).trim()}`);
    await stopAll(1);
  }
  return created.stdout.trim();
}

async function stopAll(exitCode: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  for (const timer of pendingRestarts) clearTimeout(timer);
  pendingRestarts.clear();
  const exits = [...children.values()].map(
    (child) => new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve()))),
  );
  for (const child of children.values()) child.kill('SIGTERM');
  const force = setTimeout(() => [...children.values()].forEach((child) => child.kill('SIGKILL')), 15_000);
  await Promise.all(exits);
  clearTimeout(force);
  // The NATS server npm start runs goes last, once no app needs it.
  const server = nats?.server;
  if (server && server.exitCode === null && server.signalCode === null) {
    const serverExit = once(server, 'exit');
    server.kill('SIGTERM');
    await serverExit;
  }
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
try {
  nats = await devNats(env);
} catch (error) {
  console.error(`NATS: ${(error as Error).message}`);
  process.exit(1);
}
if (nats.server) {
  const server = nats.server;
  // Whatever way this process ends (a failed step exits at once), the server it started ends too.
  process.once('exit', () => {
    if (server.exitCode === null && server.signalCode === null) server.kill('SIGTERM');
  });
  say(`- NATS with the shipped configuration (k8s/base/nats/nats-server.conf) at ${nats.url}; passwords in .dev/nats/passwords.json`);
  // A server of ours that dies takes the apps' bus with it: stop everything rather than run without.
  nats.server.once('exit', (code, signal) => {
    if (stopping) return;
    console.error(`nats-server stopped unexpectedly (${signal ?? `exit code ${code}`}); stopping everything.`);
    void stopAll(1);
  });
}
const problems = await checkDependencies({
  database: settings.DATABASE_URL,
  nats: nats.url,
  natsAuth: nats.passwords ? { user: 'ops', pass: nats.passwords.ops, inboxPrefix: '_INBOX_ops' } : undefined,
  redis: settings.REDIS_URL,
});
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
// The services create the event stream on a new server but may not change it: the operator's
// command (as the NATS user ops, once the libraries it imports are built) brings the stream of a
// kept .dev/nats store up to date.
step('ensuring the event stream', [process.execPath, '--import', 'tsx', 'tools/admin/src/cli.ts', 'streams', 'ensure'], nats.envOf('ops'));
const keys = ensureDevKeys();

const chainEnv = await localChainEnv();
for (const app of APPS.slice(1)) {
  startApp(app, {
    HEALTH_PORT: '0',
    ...(app === 'gvault-service' ? chainEnv.gvault : {}),
    ...(app === 'microvault-service' ? chainEnv.microvault : {}),
  });
}
startApp('gateway', {
  AUTH_PUBLIC_KEY: keys.publicKeyPem,
  AUTH_ISSUER: DEV_ISSUER,
  AUTH_AUDIENCE: DEV_AUDIENCE,
  HOST: '127.0.0.1',
  HEALTH_PORT: GATEWAY_HEALTH_PORT,
});

const baseUrl = `http://127.0.0.1:${settings.PORT}`;
if (!(await waitUntilReady(baseUrl, 60_000))) {
  console.error(`The gateway at ${baseUrl} did not become ready within 60 s.`);
  await stopAll(1);
}
const demoVault = settings.SERVICE_ENV === 'sandbox' ? setUpDemoMicroVault() : 'none (production)';
const apiKey = await demoApiKey();
const token = await mintDevToken({ orgId: DEMO_ORG_ID, role: 'owner', sub: 'user_demo_owner' }, keys.privateKeyPem);
say(`
Service API ready at ${baseUrl} (${settings.SERVICE_ENV})
  docs:    ${baseUrl}/v2/docs
  health:  http://127.0.0.1:${GATEWAY_HEALTH_PORT} (the gateway's /metrics and /readyz?full=1)
  API key: organization ${DEMO_ORG_ID}, role owner, no expiry (more: POST /v2/api-keys, or npm run -s admin -- api-keys create --org <id> --role <role> --name <name>)
  token:   organization ${DEMO_ORG_ID}, role owner, valid 24 h (more: npm run -s token -- --org <id> --role <role>)
  MicroVault of ${DEMO_ORG_ID}: ${demoVault}

API_KEY=${apiKey}
DEV_TOKEN=${token}

  curl -H "Authorization: Bearer $API_KEY" ${baseUrl}/v2/system/ping

Press Ctrl-C to stop.
`);
