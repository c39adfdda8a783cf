import { TestAuth } from './auth.js';
import { type NatsUser, startIsolatedNats } from './nats-server.js';
import { startTestGateway } from './test-gateway.js';

/**
 * The gateway settings most e2e suites run with: rate limits lifted far above what a suite sends,
 * and a NATS request timeout that a busy machine does not reach. A test system asking for one
 * gateway with exactly these settings gets its Jest worker's shared gateway instead of a new one.
 */
export const SHARED_GATEWAY_ENV: Readonly<Record<string, string>> = {
  RATE_LIMIT_READ_PER_MINUTE: '100000',
  RATE_LIMIT_WRITE_PER_MINUTE: '100000',
  NATS_REQUEST_TIMEOUT_MS: '5000',
};

/** A NATS server and a gateway on it that a Jest worker's test files take turns on. */
export interface SharedEdge {
  readonly natsUrl: string;
  /** The passwords of the shipped configuration's users on that server. */
  readonly natsPasswords: Readonly<Record<NatsUser, string>>;
  readonly gatewayUrl: string;
  /** The key the gateway trusts (PKCS#8 PEM), for the files' tokens. */
  readonly privateKeyPem: string;
}

const VARIABLE = 'SERVICE_TEST_SHARED_EDGES';

/**
 * Starts one shared edge per Jest worker (Jest's `globalSetup`, before the workers exist) and
 * publishes them to the test files through the environment; resolves to their stop.
 *
 * Sharing is safe because a worker runs its files one at a time: request subjects and queue groups
 * are server-wide, and each file's services are gone before the next file's start. Each file
 * still has its own schemas, event stream and organizations.
 */
export async function startSharedEdges(workers: number): Promise<() => Promise<void>> {
  // Gateways first (unshift), then the NATS servers they were connected to.
  const stops: (() => Promise<unknown>)[] = [];
  const stop = async () => {
    for (const stopOne of stops) await stopOne();
  };
  try {
    const edges: SharedEdge[] = await Promise.all(
      Array.from({ length: Math.max(1, workers) }, async () => {
        const nats = await startIsolatedNats({ auth: 'shipped' });
        stops.push(() => nats.stop());
        const auth = new TestAuth();
        const gateway = await startTestGateway(nats, auth, SHARED_GATEWAY_ENV);
        stops.unshift(() => gateway.process.stop());
        if (!nats.passwords) throw new Error('the shared NATS server runs without the shipped configuration');
        return { natsUrl: nats.url, natsPasswords: nats.passwords, gatewayUrl: gateway.url, privateKeyPem: auth.privateKeyPem() };
      }),
    );
    process.env[VARIABLE] = JSON.stringify(edges);
    return stop;
  } catch (error) {
    await stop();
    throw error;
  }
}

/** This Jest worker's shared edge, when `globalSetup` started them (the e2e targets do). */
export function sharedEdgeOfThisWorker(): SharedEdge | undefined {
  const published = process.env[VARIABLE];
  if (!published) return undefined;
  const edges = JSON.parse(published) as SharedEdge[];
  return edges[Number(process.env['JEST_WORKER_ID'] ?? '1') - 1];
}

/** Whether a test system's gateway settings are the shared gateway's, exactly. */
export function matchesSharedGateway(gatewayEnv: Record<string, string> = {}): boolean {
  const keys = Object.keys(gatewayEnv);
  return keys.length === Object.keys(SHARED_GATEWAY_ENV).length && keys.every((key) => gatewayEnv[key] === SHARED_GATEWAY_ENV[key]);
}
