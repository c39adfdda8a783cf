import { ANVIL_DEV_KEYS, type LocalChain, startAnvil } from '@service/chain';
import { type MicroVaultCreatedVault, type RequestContext, SUBJECTS } from '@service/contracts';
import { NatsRequester, SubjectClient } from '@service/nats';
import {
  type AppProcess,
  freePort,
  type RpcProxy,
  type ServiceSystem,
  startRpcProxy,
  startServiceSystem,
  type TestSystem,
} from '@service/testing';
import { createPublicClient, http, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { sepolia } from 'viem/chains';

export const OPERATOR = privateKeyToAccount(ANVIL_DEV_KEYS[0]).address;

/**
 * A local anvil (chain id 11155111), the built gateway and the built microvault service as
 * processes on the real PostgreSQL, NATS and Redis, with delays scaled down for tests.
 */
export interface MicroVaultSystem {
  readonly chain: LocalChain;
  /** Between the service and the node: `mode = 'hang'` makes the node unreachable for the service. */
  readonly proxy: RpcProxy;
  readonly system: TestSystem;
  readonly gateway: string;
  readonly publicClient: PublicClient;
  readonly service: AppProcess;
  /** Speaks to the service over the run's NATS as raw JSON (also subjects without a context, like health). */
  readonly admin: NatsRequester;
  startService(): Promise<AppProcess>;
  /** What the admin CLI does: an operator subject over NATS. */
  enable(orgId: string): Promise<unknown>;
  createVault(orgId: string): Promise<MicroVaultCreatedVault>;
  /** One series of the service's Prometheus metrics (e.g. `name{kind="x"}`), 0 when it has no sample yet. */
  metric(series: string): Promise<number>;
  /** A raw JSON-RPC call to anvil (mining control). */
  rpc(method: string, params?: unknown[]): Promise<unknown>;
  stop(): Promise<void>;
}

export async function startMicroVaultSystem(): Promise<MicroVaultSystem> {
  const chain = await startAnvil();
  const proxy = await startRpcProxy(chain.rpcUrl);
  const healthPort = await freePort();
  let base: ServiceSystem;
  try {
    base = await startServiceSystem({
      service: 'microvault',
      env: {
        // Through the proxy, so a test takes the node away from the service without signals.
        SEPOLIA_RPC_URL: proxy.url,
        MICROVAULT_OPERATOR_KEY: ANVIL_DEV_KEYS[0],
        CHAIN_CONFIRMATIONS: '1',
        // Short enough that a stopped node answers 503 well within the gateway's 3 s, long enough
        // for a fresh anvil's first calls on a loaded CI machine.
        CHAIN_RPC_TIMEOUT_MS: '1500',
        MICROVAULT_WORKER_INTERVAL_MS: '100',
        MICROVAULT_SIGNER_LEASE_MS: '1000',
        // Probes and /metrics: tests read the task worker's counters there.
        HEALTH_PORT: String(healthPort),
      },
      gatewayEnv: { RATE_LIMIT_READ_PER_MINUTE: '100000', RATE_LIMIT_WRITE_PER_MINUTE: '100000', NATS_REQUEST_TIMEOUT_MS: '3000' },
    });
  } catch (error) {
    await proxy.close();
    await chain.stop();
    throw error;
  }
  // As the operator CLI's NATS user, the only one the server lets send operator subjects.
  const adminConnection = await base.system.nats.connect('admin');
  const admin = new NatsRequester(adminConnection, 30_000);
  const operator = new SubjectClient(admin);
  const ctx = (orgId: string): RequestContext => ({ orgId, principalId: 'admin-test', role: 'owner', requestId: `admin-${Date.now()}` });
  return {
    chain,
    proxy,
    system: base.system,
    gateway: base.url,
    publicClient: createPublicClient({ chain: sepolia, transport: http(chain.rpcUrl, { retryCount: 0 }) }) as PublicClient,
    get service() {
      return base.service;
    },
    admin,
    startService: () => base.restart(),
    async metric(series) {
      const text = await (await fetch(`http://127.0.0.1:${healthPort}/metrics`)).text();
      const line = text.split('\n').find((each) => each.startsWith(`${series} `));
      return line ? Number(line.slice(series.length + 1)) : 0;
    },
    enable: (orgId) => operator.request(SUBJECTS.microvault.organizationsEnable, { ctx: ctx(orgId) }),
    async createVault(orgId) {
      try {
        return await operator.request(SUBJECTS.microvault.vaultsCreate, { ctx: ctx(orgId) });
      } catch (error) {
        // The reply says only that the chain is unavailable; the service's log says why.
        const log = base.service.lines.slice(-20).join('\n');
        throw new Error(`${error instanceof Error ? error.message : String(error)}\nmicrovault-service's last log lines:\n${log}`, {
          cause: error,
        });
      }
    },
    async rpc(method, params = []) {
      const response = await fetch(chain.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
      return ((await response.json()) as { result: unknown }).result;
    },
    async stop() {
      await adminConnection.close();
      await base.stop();
      await proxy.close();
      await chain.stop();
    },
  };
}
