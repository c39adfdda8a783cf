import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, expect, it } from '@jest/globals';
import { freePort, type IsolatedNats, NATS_USERS, natsPasswordVariable, newRunId, REPO_ROOT, startIsolatedNats } from '@service/testing';
import pg from 'pg';

const runId = newRunId();
const database = `service_start_${runId}`;
let nats: IsolatedNats | undefined;

afterAll(async () => {
  const admin = new pg.Client({ connectionString: 'postgresql://postgres@127.0.0.1:5432/postgres' });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  await admin.end();
  await nats?.stop();
});

it('npm start runs the whole system, prints a working API key and dev token, restarts an app killed with SIGKILL and stops every app on Ctrl-C', async () => {
  const port = await freePort();
  const healthPort = await freePort();
  // A server of the shipped configuration, as Compose runs it: npm start gets each user's password.
  nats = await startIsolatedNats({ auth: 'shipped' });
  const passwords = Object.fromEntries(NATS_USERS.map((user) => [natsPasswordVariable(user), nats!.passwords![user]]));
  const launcher = spawn(process.execPath, ['--import', 'tsx', 'tools/dev/src/start.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      GATEWAY_HEALTH_PORT: String(healthPort),
      DATABASE_URL: `postgresql://postgres@127.0.0.1:5432/${database}`,
      NATS_URL: nats.url,
      ...passwords,
      LOCAL_CHAIN_PORT: String(await freePort()),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) => launcher.once('exit', (code) => resolve(code)));
  const token = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no token in time:\n${output.join('\n')}`)), 150_000);
    for (const source of [launcher.stdout, launcher.stderr]) {
      createInterface({ input: source }).on('line', (line) => {
        output.push(line);
        const match = /^DEV_TOKEN=(\S+)$/.exec(line);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
    }
    void exited.then((code) => reject(new Error(`npm start exited with ${code}:\n${output.join('\n')}`)));
  });

  expect(output.join('\n')).toContain(`Service API ready at http://127.0.0.1:${port} (sandbox)`);
  expect(output.join('\n')).toMatch(/MicroVault of org_demo: [0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\n/);
  const ping = await fetch(`http://127.0.0.1:${port}/v2/system/ping`, { headers: { authorization: `Bearer ${token}` } });
  expect(ping.status).toBe(200);
  expect(await ping.json()).toEqual({ message: 'pong' });
  // The README quickstart: curl -H "Authorization: Bearer $API_KEY" ...
  const apiKey = output.map((line) => /^API_KEY=(service_sandbox_[0-9A-Za-z]{43})$/.exec(line)?.[1]).find(Boolean);
  expect(apiKey).toBeDefined();
  for (const path of ['/v2/system/ping', '/v2/api-keys']) {
    const withKey = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: `Bearer ${apiKey}` } });
    expect(withKey.status).toBe(200);
  }
  expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
  // The gateway's metrics and full readiness check: on its health port, printed, never on the public port.
  expect(output.join('\n')).toContain(`health:  http://127.0.0.1:${healthPort} (the gateway's /metrics and /readyz?full=1)`);
  expect((await fetch(`http://127.0.0.1:${healthPort}/metrics`)).status).toBe(200);
  expect((await fetch(`http://127.0.0.1:${healthPort}/readyz?full=1`)).status).toBe(200);
  expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).not.toBe(200);

  // An app that dies is restarted, not the end of the system: SIGKILL identity-service (behind
  // API keys and /v2/api-keys) and the API answers again through the gateway.
  const identityPid = Number(output.map((line) => /^- identity-service started \(pid (\d+)\)$/.exec(line)?.[1]).find(Boolean));
  expect(identityPid).toBeGreaterThan(0);
  process.kill(identityPid, 'SIGKILL');
  const restartedPid = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`identity-service not restarted in time:\n${output.join('\n')}`)), 30_000);
    const check = setInterval(() => {
      const pid = output.map((line) => /^- identity-service restarted \(pid (\d+)\)$/.exec(line)?.[1]).find(Boolean);
      if (!pid) return;
      clearInterval(check);
      clearTimeout(timer);
      resolve(Number(pid));
    }, 100);
  });
  expect(restartedPid).not.toBe(identityPid);
  expect(output.join('\n')).toMatch(
    /identity-service died \(killed by SIGKILL\) after [\d.]+ s; restarting it in 1 s \(restart 1 in a row\)/,
  );
  let answered = 0;
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 250))) {
    answered = (await fetch(`http://127.0.0.1:${port}/v2/api-keys`, { headers: { authorization: `Bearer ${apiKey}` } })).status;
    if (answered === 200) break;
  }
  expect(answered).toBe(200);
  expect(launcher.exitCode).toBeNull();

  launcher.kill('SIGINT');
  expect(await exited).toBe(0);
  await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
}, 260_000);
