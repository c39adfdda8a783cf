import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { startTestSystem } from '@service/testing';
import { failuresOf, runLoad } from './load.js';

/**
 * Wallet routes through the gateway: `GET /v2/wallets/{id}` under autocannon (50 connections),
 * and `POST /v2/wallets/{id}/allocate` with a new requestId per request (each one creates a
 * workflow, reserves money and writes outbox events), driven by 20 concurrent clients.
 */
export interface WalletsBenchOptions {
  readonly durationS?: number;
  readonly allocateClients?: number;
  /** Bare node:http req/s measured in the same run, for the ratios. */
  readonly bareRequestsPerSecond?: number;
}

export interface RouteResult {
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly shareOfBare: number | null;
}

const CASH = 'cash:ethereum_sepolia:usdc';
const JAAA = 'service-jaaa-usdc-vault';
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

async function json(response: Response): Promise<Record<string, unknown>> {
  const body = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${response.url} answered ${response.status}: ${JSON.stringify(body)}`);
  return body;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let attempt = 0; attempt < 400; attempt += 1) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the wallet did not reach the expected state');
}

/** Closed loop: each client sends its next allocate when the previous one answered. */
async function allocateLoad(url: string, headers: Record<string, string>, clients: number, durationS: number): Promise<{ count: number; latencies: number[] }> {
  const latencies: number[] = [];
  const deadline = performance.now() + durationS * 1000;
  const client = async () => {
    while (performance.now() < deadline) {
      const started = performance.now();
      const body = JSON.stringify({ requestId: randomUUID(), allocations: [{ from: CASH, to: JAAA, amountUsd: '0.000001' }] });
      const response = await fetch(url, { method: 'POST', headers, body });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`allocate answered ${response.status}`);
      latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  return { count: latencies.length, latencies: latencies.sort((a, b) => a - b) };
}

export async function benchWallets(options: WalletsBenchOptions = {}): Promise<{ get: RouteResult; allocate: RouteResult }> {
  const durationS = options.durationS ?? 10;
  const share = (rps: number) => (options.bareRequestsPerSecond ? round(rps / options.bareRequestsPerSecond, 3) : null);
  const system = await startTestSystem({
    services: ['wallet'],
    gateways: 1,
    gatewayEnv: { RATE_LIMIT_READ_PER_MINUTE: '1000000', RATE_LIMIT_WRITE_PER_MINUTE: '1000000' },
    serviceEnv: { wallet: { WALLET_DEPOSIT_SETTLEMENT_MS: '50', WALLET_REBALANCE_PROCESSING_MS: '100', WALLET_WORKER_POLL_MS: '50' } },
  });
  try {
    const base = system.gateways[0]?.url ?? '';
    const headers = { authorization: `Bearer ${await system.auth.token({ org: 'org_bench_wallets', role: 'owner' })}`, 'content-type': 'application/json' };
    const post = (path: string, body: unknown) => fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) }).then(json);
    const get = (path: string) => fetch(`${base}${path}`, { headers }).then(json);
    const wallet = await post('/v2/wallets', { requestId: randomUUID(), strategy: { allocations: { usdc: [{ yieldSourceId: JAAA, pct: 100 }] } } });
    const walletPath = `/v2/wallets/${String(wallet['id'])}`;
    await until(() => get(walletPath), (body) => body['status'] === 'idle');
    const deposit = await post(`${walletPath}/deposits/simulate`, { amountUsd: '1000000' });
    await until(() => get(`${walletPath}/deposits/${String(deposit['id'])}`), (body) => body['status'] === 'completed');

    await runLoad({ url: `${base}${walletPath}`, headers, connections: 50, durationS: 2 });
    const read = await runLoad({ url: `${base}${walletPath}`, headers, connections: 50, durationS });
    if (failuresOf(read) > 0) throw new Error(`GET wallet had ${failuresOf(read)} failed requests`);
    const writes = await allocateLoad(`${base}${walletPath}/allocate`, headers, options.allocateClients ?? 20, durationS);
    const at = (share: number) => round(writes.latencies[Math.min(writes.latencies.length - 1, Math.floor(share * writes.latencies.length))] ?? 0);
    const allocateRps = round(writes.count / durationS, 0);
    return {
      get: { requestsPerSecond: read.requests.average, p50Ms: read.latency.p50, p99Ms: read.latency.p99, shareOfBare: share(read.requests.average) },
      allocate: { requestsPerSecond: allocateRps, p50Ms: at(0.5), p99Ms: at(0.99), shareOfBare: share(allocateRps) },
    };
  } finally {
    await system.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await benchWallets(), null, 2));
}
