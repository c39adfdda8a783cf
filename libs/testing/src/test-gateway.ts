import type { TestAuth } from './auth.js';
import { TEST_IDENTITY_KEY_PEPPER, TEST_REDIS_URL } from './infra.js';
import { freePort, type NatsAccess } from './nats-server.js';
import { type AppProcess, startApp } from './processes.js';

/**
 * The built gateway as a process on `nats` (as its user `gateway` when the server runs the shipped
 * configuration; a plain URL is an open server), trusting `auth`'s key, on an ephemeral loopback
 * port; its probe and metrics server (`/metrics`, `/readyz?full=1`) on a free port of its own
 * (`healthUrl`), unless `env` sets `HEALTH_PORT`.
 */
export async function startTestGateway(
  nats: string | NatsAccess,
  auth: TestAuth,
  env: Record<string, string> = {},
): Promise<{ url: string; healthUrl: string; process: AppProcess }> {
  const healthPort = env['HEALTH_PORT'] ?? String(await freePort());
  const process = await startApp(
    'gateway',
    {
      PORT: '0',
      HEALTH_PORT: healthPort,
      HOST: '127.0.0.1',
      ...(typeof nats === 'string' ? { NATS_URL: nats } : nats.envOf('gateway')),
      IDENTITY_KEY_PEPPER: TEST_IDENTITY_KEY_PEPPER,
      REDIS_URL: TEST_REDIS_URL,
      // Every test gateway sees its clients at 127.0.0.1 and the budget is shared in Redis:
      // suites that check 401s must not spend each other's. A test of that limit sets its own.
      RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '1000000',
      ...auth.gatewayEnv(),
      ...env,
    },
    (line) => line.includes('gateway listening'),
  );
  return { url: `http://127.0.0.1:${listeningPort(process.lines)}`, healthUrl: `http://127.0.0.1:${healthPort}`, process };
}

function listeningPort(lines: readonly string[]): number {
  for (const line of lines) {
    try {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      if (parsed['msg'] === 'gateway listening') return Number(parsed['port']);
    } catch {
      // not JSON
    }
  }
  throw new Error('the gateway logged no listening port');
}
