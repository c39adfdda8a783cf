import { SERVICES, type ServiceName } from '@service/contracts';
import { TestAuth } from './auth.js';
import { eventStreamOf, type IsolatedSchema, type IsolatedStream, migratedSchema, newRunId, serviceTestEnv } from './infra.js';
import { type NatsAccess, natsAccess, startIsolatedNats } from './nats-server.js';
import { type AppProcess, startApp } from './processes.js';
import { matchesSharedGateway, sharedEdgeOfThisWorker } from './shared-edge.js';
import { startTestGateway } from './test-gateway.js';

export interface TestSystem {
  readonly runId: string;
  readonly auth: TestAuth;
  readonly services: Map<ServiceName, AppProcess>;
  /** The gateways this system started (none when it runs on its worker's shared gateway). */
  readonly gateways: { url: string; healthUrl: string; process: AppProcess }[];
  /** The first gateway's base URL: the shared one, or the first of `gateways`. */
  readonly gatewayUrl: string;
  /** The run's NATS server (JetStream enabled): its own, or its Jest worker's shared one. */
  readonly natsUrl: string;
  /**
   * The same server with its users: it runs the shipped configuration (k8s/base/nats), so every
   * process connects as its own user (`nats.envOf`, `nats.connect`) and is held to its permissions.
   */
  readonly nats: NatsAccess;
  /** The run's event stream (on the shipped configuration, DOMAIN_EVENTS on `events.>`). */
  readonly stream: IsolatedStream;
  /** Environment a service of this system runs with. */
  serviceEnv(service: ServiceName): Record<string, string>;
  startService(service: ServiceName): Promise<AppProcess>;
  startGateway(env?: Record<string, string>): Promise<{ url: string; healthUrl: string; process: AppProcess }>;
  stop(): Promise<void>;
}

const isLogOf = (message: string) => (line: string) => line.includes(message);

/**
 * The whole system from its built apps on the real PostgreSQL, NATS and Redis, isolated from
 * every other run: one schema per service, one event stream, one signing key. A system of one
 * gateway with the shared gateway's settings (`SHARED_GATEWAY_ENV`) runs on its Jest worker's
 * shared NATS server and gateway when the e2e target started them (`shared-edge.ts`), saving a
 * gateway boot per test file.
 */
export async function startTestSystem(
  options: {
    services?: readonly ServiceName[];
    gateways?: number;
    gatewayEnv?: Record<string, string>;
    /** Extra variables per service, e.g. scaled-down delays or a local chain's RPC URL. */
    serviceEnv?: Partial<Record<ServiceName, Record<string, string>>>;
  } = {},
): Promise<TestSystem> {
  const runId = newRunId();
  const shared = (options.gateways ?? 1) === 1 && matchesSharedGateway(options.gatewayEnv) ? sharedEdgeOfThisWorker() : undefined;
  const auth = new TestAuth(shared?.privateKeyPem);
  const nats = shared
    ? { ...natsAccess(shared.natsUrl, shared.natsPasswords), stop: async () => undefined }
    : await startIsolatedNats({ auth: 'shipped' });
  const stream = eventStreamOf(runId, nats);
  const schemas = new Map<ServiceName, IsolatedSchema>();
  const services = new Map<ServiceName, AppProcess>();
  const gateways: { url: string; healthUrl: string; process: AppProcess }[] = [];

  const serviceEnv = (service: ServiceName): Record<string, string> => {
    const schema = schemas.get(service);
    if (!schema) throw new Error(`${service} has no schema in this test system`);
    return { ...serviceTestEnv(schema.schema, stream), ...nats.envOf(service), ...options.serviceEnv?.[service] };
  };

  const system: TestSystem = {
    runId,
    auth,
    services,
    gateways,
    get gatewayUrl() {
      const url = shared?.gatewayUrl ?? gateways[0]?.url;
      if (!url) throw new Error('this test system has no gateway');
      return url;
    },
    natsUrl: nats.url,
    nats,
    stream,
    serviceEnv,
    async startService(service) {
      const process = await startApp(`${service}-service`, serviceEnv(service), isLogOf(`${service} service ready`));
      services.set(service, process);
      return process;
    },
    async startGateway(env = {}) {
      const gateway = await startTestGateway(nats, auth, { ...options.gatewayEnv, ...env });
      gateways.push(gateway);
      return gateway;
    },
    async stop() {
      await Promise.all([...gateways.map((gateway) => gateway.process.stop()), ...[...services.values()].map((s) => s.stop())]);
      await Promise.all([...schemas.values()].map((schema) => schema.drop()));
      // A shared server outlives the run: its stream goes now. An own server goes with its store.
      if (shared) await stream.destroy();
      await nats.stop();
    },
  };

  try {
    const wanted = options.services ?? SERVICES;
    for (const service of wanted) schemas.set(service, await migratedSchema(`${service}-service`, runId));
    await Promise.all(wanted.map((service) => system.startService(service)));
    if (!shared) for (let index = 0; index < (options.gateways ?? 1); index += 1) await system.startGateway();
    return system;
  } catch (error) {
    // Whatever did start must not outlive the failed setup (and keep the test runner alive).
    await system.stop();
    throw error;
  }
}
