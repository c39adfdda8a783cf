import { SERVICES, type ServiceName } from '@service/contracts';
import { TestAuth } from './auth.js';
import { type IsolatedSchema, isolatedEventStream, migratedSchema, newRunId, serviceTestEnv, TEST_REDIS_URL } from './infra.js';
import { startIsolatedNats } from './nats-server.js';
import { type AppProcess, startApp } from './processes.js';

export interface TestSystem {
  readonly runId: string;
  readonly auth: TestAuth;
  readonly services: Map<ServiceName, AppProcess>;
  readonly gateways: { url: string; process: AppProcess }[];
  /** The run's own NATS server (JetStream enabled). */
  readonly natsUrl: string;
  /** Environment a service of this system runs with. */
  serviceEnv(service: ServiceName): Record<string, string>;
  startService(service: ServiceName): Promise<AppProcess>;
  startGateway(env?: Record<string, string>): Promise<{ url: string; process: AppProcess }>;
  stop(): Promise<void>;
}

const isLogOf = (message: string) => (line: string) => line.includes(message);

/**
 * The whole system from its built apps on the real PostgreSQL, NATS and Redis, isolated from
 * every other run: one schema per service, one event stream, one signing key.
 */
export async function startTestSystem(options: {
  services?: readonly ServiceName[];
  gateways?: number;
  gatewayEnv?: Record<string, string>;
  /** Extra variables per service, e.g. scaled-down delays or a local chain's RPC URL. */
  serviceEnv?: Partial<Record<ServiceName, Record<string, string>>>;
} = {}): Promise<TestSystem> {
  const runId = newRunId();
  const auth = new TestAuth();
  const nats = await startIsolatedNats();
  const stream = isolatedEventStream(runId, nats.url);
  const schemas = new Map<ServiceName, IsolatedSchema>();
  const services = new Map<ServiceName, AppProcess>();
  const gateways: { url: string; process: AppProcess }[] = [];

  const serviceEnv = (service: ServiceName): Record<string, string> => {
    const schema = schemas.get(service);
    if (!schema) throw new Error(`${service} has no schema in this test system`);
    return { ...serviceTestEnv(schema.schema, stream), NATS_URL: nats.url, ...options.serviceEnv?.[service] };
  };

  const system: TestSystem = {
    runId,
    auth,
    services,
    gateways,
    natsUrl: nats.url,
    serviceEnv,
    async startService(service) {
      const process = await startApp(`${service}-service`, serviceEnv(service), isLogOf(`${service} service ready`));
      services.set(service, process);
      return process;
    },
    async startGateway(env = {}) {
      const process = await startApp(
        'gateway',
        {
          PORT: '0',
          HOST: '127.0.0.1',
          NATS_URL: nats.url,
          REDIS_URL: TEST_REDIS_URL,
          // Every test gateway sees its clients at 127.0.0.1 and the budget is shared in Redis:
          // suites that check 401s must not spend each other's. A test of that limit sets its own.
          RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '1000000',
          ...auth.gatewayEnv(),
          ...options.gatewayEnv,
          ...env,
        },
        isLogOf('gateway listening'),
      );
      const listening = process.lines.map(tryJson).find((line) => line?.['msg'] === 'gateway listening');
      const gateway = { url: `http://127.0.0.1:${String(listening?.['port'])}`, process };
      gateways.push(gateway);
      return gateway;
    },
    async stop() {
      await Promise.all([...gateways.map((gateway) => gateway.process.stop()), ...[...services.values()].map((s) => s.stop())]);
      await Promise.all([...schemas.values()].map((schema) => schema.drop()));
      await nats.stop();
    },
  };

  try {
    const wanted = options.services ?? SERVICES;
    for (const service of wanted) schemas.set(service, await migratedSchema(`${service}-service`, runId));
    await Promise.all(wanted.map((service) => system.startService(service)));
    for (let index = 0; index < (options.gateways ?? 1); index += 1) await system.startGateway();
    return system;
  } catch (error) {
    // Whatever did start must not outlive the failed setup (and keep the test runner alive).
    await system.stop();
    throw error;
  }
}

function tryJson(line: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}
